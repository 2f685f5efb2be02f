"""A parsed Python module: the ``ast`` tree with its :class:`SourceText`."""

from __future__ import annotations

import ast
from typing import NamedTuple

from execir.languages.base import ParseError
from execir.languages.python.source import SourceText
from execir.source_text import parse as parse_quietly


class PythonProgram(NamedTuple):
    """What every Python operator receives."""

    tree: ast.Module
    source: SourceText


def parse(text: str) -> PythonProgram:
    """Parse a module (warnings from dataset code are silenced; a syntax error raises ParseError)."""
    try:
        return PythonProgram(parse_quietly(text), SourceText(text))
    except (SyntaxError, ValueError) as error:
        raise ParseError(f"python: the program does not parse ({error})") from error


def compiles(text: str) -> bool:
    """True when the text parses and compiles (catches ``break`` outside a loop, too)."""
    try:
        compile(text, "<mutant>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True
