"""Language runtimes of the oracle: one module per language, registered here by name."""

from __future__ import annotations

from pathlib import Path

from execir.errors import ExecIRError
from execir.execute.runtimes.base import NONCE_ENV, Plan, Profile, Runtime, Toolchain, ToolchainMissing

LANGUAGES = ("python", "cpp", "java", "go", "js", "ruby", "php")
"""Every language the oracle runs. Python keeps its own protocol (the judge's proxy)."""


def runtime(language: str) -> Runtime:
    """The runtime of a non-Python ``language``."""
    from execir.execute.runtimes import cpp, go, java, js, php, ruby

    table: dict[str, Runtime] = {"cpp": cpp.RUNTIME, "java": java.RUNTIME, "go": go.RUNTIME, "js": js.RUNTIME, "ruby": ruby.RUNTIME, "php": php.RUNTIME}
    if language not in table:
        raise ExecIRError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    return table[language]


_EXTENSIONS = {
    ".py": "python",
    ".cpp": "cpp",
    ".cc": "cpp",
    ".cxx": "cpp",
    ".java": "java",
    ".go": "go",
    ".js": "js",
    ".mjs": "js",
    ".rb": "ruby",
    ".php": "php",
}


def infer_language(path: Path) -> str:
    """The language of a program file from its extension."""
    language = _EXTENSIONS.get(path.suffix.lower())
    if language is None:
        raise ExecIRError(f"{path}: cannot tell the language from the extension {path.suffix!r}; pass --language ({', '.join(LANGUAGES)})")
    return language


__all__ = ["LANGUAGES", "NONCE_ENV", "Plan", "Profile", "Runtime", "Toolchain", "ToolchainMissing", "infer_language", "runtime"]
