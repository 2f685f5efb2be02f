"""Languages on the mutate/dataset side: one folder per language, each building a
:class:`~execir.languages.base.Language` (parse, operators, tokens, comments, descriptions).

Languages load lazily, so importing Python's does not import tree-sitter.
"""

from __future__ import annotations

import importlib
from typing import Any

from execir.errors import ExecIRError
from execir.language_declarations import DECLARATIONS
from execir.languages.base import FAMILIES, FAMILY_WEIGHTS, Language, OperatorSpec, ParseError, select_operators

LANGUAGE_MODULES: dict[str, tuple[str, str]] = {name: (d.language.partition(":")[0], d.language.partition(":")[2]) for name, d in DECLARATIONS.items()}
"""Language name -> (module, attribute) of its :class:`Language` (from :mod:`execir.language_declarations`)."""

EXTENSIONS: dict[str, str] = {extension: name for name, d in DECLARATIONS.items() for extension in d.extensions}
"""File extension -> language name (for commands that infer ``--language``)."""


def get_language(name: str) -> Language[Any]:
    """The language called ``name`` (an :class:`ExecIRError` naming the known ones otherwise)."""
    if name not in LANGUAGE_MODULES:
        raise ExecIRError(f"unknown language {name!r}; choose one of {', '.join(LANGUAGE_MODULES)}")
    module, attribute = LANGUAGE_MODULES[name]
    language: Language[Any] = getattr(importlib.import_module(module), attribute)
    return language


__all__ = [
    "EXTENSIONS",
    "FAMILIES",
    "FAMILY_WEIGHTS",
    "LANGUAGE_MODULES",
    "Language",
    "OperatorSpec",
    "ParseError",
    "get_language",
    "select_operators",
]
