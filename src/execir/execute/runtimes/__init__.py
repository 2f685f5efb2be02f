"""Language runtimes of the oracle: one module per language, registered here by name."""

from __future__ import annotations

from pathlib import Path

from execir.errors import ExecIRError
from execir.execute.runtimes.base import NONCE_ENV, Plan, Profile, Runtime, Toolchain, ToolchainMissing

LANGUAGES = ("python", "cpp", "java", "go", "js", "ruby", "php", "typescript")
"""Every language the oracle runs. Python keeps its own protocol (the judge's proxy)."""


def runtime(language: str) -> Runtime:
    """The runtime of a non-Python ``language``."""
    from execir.execute.runtimes import cpp, go, java, js, php, ruby, ts

    table: dict[str, Runtime] = {
        "cpp": cpp.RUNTIME,
        "java": java.RUNTIME,
        "go": go.RUNTIME,
        "js": js.RUNTIME,
        "ruby": ruby.RUNTIME,
        "php": php.RUNTIME,
        "typescript": ts.RUNTIME,
    }
    if language not in table:
        raise ExecIRError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    return table[language]


def infer_language(path: Path) -> str:
    """The language of a program file from its extension (``.py``, or one a runtime declares)."""
    suffix = path.suffix.lower()
    if suffix == ".py":
        return "python"
    for language in LANGUAGES[1:]:
        if suffix in runtime(language).extensions:
            return language
    raise ExecIRError(f"{path}: cannot tell the language from the extension {path.suffix!r}; pass --language ({', '.join(LANGUAGES)})")


__all__ = ["LANGUAGES", "NONCE_ENV", "Plan", "Profile", "Runtime", "Toolchain", "ToolchainMissing", "infer_language", "runtime"]
