"""Language runtimes of the oracle: one module per language, registered here by name."""

from __future__ import annotations

from pathlib import Path

from execir.errors import ExecIRError
from execir.execute.runtimes.base import NONCE_ENV, Plan, Profile, Runtime, Toolchain, ToolchainMissing
from execir.language_declarations import DECLARATIONS, declared, extension_language, is_host_language, load

LANGUAGES = tuple(name for name, d in DECLARATIONS.items() if d.runtime or is_host_language(name))
"""Every language the oracle runs (from :mod:`execir.language_declarations`). Python keeps its own
protocol (the judge's proxy)."""


def runtime(language: str) -> Runtime:
    """The runtime of a non-Python ``language``."""
    found = declared(language)
    if found is None or found.runtime is None:
        raise ExecIRError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    loaded: Runtime = load(found.runtime)
    return loaded


def infer_language(path: Path) -> str:
    """The language of a program file from its extension (as its declaration names them)."""
    language = extension_language(path.suffix)
    if language is None or language not in LANGUAGES:
        raise ExecIRError(f"{path}: cannot tell the language from the extension {path.suffix!r}; pass --language ({', '.join(LANGUAGES)})")
    return language


__all__ = ["LANGUAGES", "NONCE_ENV", "Plan", "Profile", "Runtime", "Toolchain", "ToolchainMissing", "infer_language", "runtime"]
