"""What the Go and Java call-example writers share (pure): a candidate's :class:`Signature`, the
argument-to-parameter pairing, reading literal trees, and :func:`untyped`, which writes a value
with no declared type in a language's :class:`Spelling` (expected values, ``interface{}`` and
``Object`` arguments). See :mod:`execir.rerank.execution.typed_calls`."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from execir.rerank.execution.native_calls import Unwritable, number_source


@dataclass(frozen=True)
class Signature:
    """The declared types of a function's parameters and results (spaces removed), and for Go the
    package it is declared in."""

    params: tuple[str, ...]
    results: tuple[str, ...]
    variadic: bool = False
    """The last parameter takes any number of arguments (``...int``, ``int...``); its type is the element's."""
    package: str = "main"


def typed_args(args: list[ast.expr], declared: Signature) -> list[tuple[ast.expr, str]]:
    """Each argument with the type of the parameter it binds to."""
    params = declared.params
    if declared.variadic:
        if len(args) < len(params) - 1:
            raise Unwritable("too few arguments")
        return [(arg, params[min(i, len(params) - 1)]) for i, arg in enumerate(args)]
    if len(args) != len(params):
        raise Unwritable("argument count")
    return list(zip(args, params))


def literal_value(node: ast.expr) -> object:
    """The value of a constant or signed number node; raises for containers and anything else."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Unwritable("signed non-number")
        return -value if isinstance(node.op, ast.USub) else value
    raise Unwritable(type(node).__name__)


def sequence_items(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, (ast.List, ast.Tuple)):
        return list(node.elts)
    if isinstance(node, ast.Dict) and not node.keys:  # `{}` reads as an empty dict
        return []
    raise Unwritable("not a sequence")


def dict_entries(node: ast.Dict) -> list[tuple[ast.expr, ast.expr]]:
    """A dict literal's entries as Python builds it: a repeated constant key keeps its last value, at
    its first position (Go and Java reject or keep duplicates that Python's literal drops)."""
    entries: dict[object, tuple[ast.expr, ast.expr]] = {}
    for key, value in zip(node.keys, node.values):
        if key is None:
            raise Unwritable("dict unpacking")
        try:
            constant = ast.literal_eval(key)
            hash(constant)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise Unwritable("a map key that is not a literal") from None
        number = isinstance(constant, (int, float)) and not isinstance(constant, bool)
        identity = ("number", constant) if number else (type(constant).__name__, constant)  # 1 and 1.0 are one key in Python
        entries[identity] = (entries[identity][0] if identity in entries else key, value)
    return list(entries.values())


@dataclass(frozen=True)
class Spelling:
    """How a language writes an untyped value: a sequence of element sources, a map of key-value
    source pairs (None: no map literal), the constants, strings and numbers."""

    sequence: Callable[[list[str]], str]
    mapping: Callable[[list[tuple[str, str]]], str] | None
    null: str
    true: str
    false: str
    string: Callable[[str], str]
    integer: Callable[[int], str]
    real: Callable[[str], str]


def untyped(node: ast.expr, spelling: Spelling) -> str:
    """Source of a literal tree in ``spelling`` (raises :class:`Unwritable` for anything else)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return spelling.sequence([untyped(element, spelling) for element in node.elts])
    if isinstance(node, ast.Dict):
        if spelling.mapping is None or any(isinstance(key, (ast.List, ast.Tuple, ast.Dict)) for key in node.keys):
            raise Unwritable("map")
        return spelling.mapping([(untyped(key, spelling), untyped(value, spelling)) for key, value in dict_entries(node)])
    value = literal_value(node)
    if value is None:
        return spelling.null
    if isinstance(value, bool):
        return spelling.true if value else spelling.false
    if isinstance(value, str):
        return spelling.string(value)
    if isinstance(value, int):
        return spelling.integer(checked_int(value))
    return spelling.real(number_source(value))


def checked_int(value: object, bits: int = 64) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
        raise Unwritable(repr(value))
    return value


def split_top(text: str, separator: str = ",") -> list[str]:
    """``text`` split at ``separator`` outside brackets (``()[]{}<>``)."""
    parts: list[str] = []
    depth = 0
    start = 0
    for i, char in enumerate(text):
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def balanced(text: str, start: int) -> int:
    """The index of the parenthesis closing the one at ``text[start]``."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise Unwritable("unbalanced parentheses")


def quoted(text: str, quote: str, beyond_ascii: Callable[[int], str]) -> str:
    """``text`` between ``quote``s in a C-family literal: the quote and backslash escaped, printable
    ASCII as it is, any other code point through ``beyond_ascii`` (the language's escape); a lone
    surrogate has no literal in UTF-8 source, so it is :class:`Unwritable`."""
    out = []
    for char in text:
        if char in (quote, "\\"):
            out.append("\\" + char)
        elif 32 <= ord(char) < 127:
            out.append(char)
        elif 0xD800 <= ord(char) <= 0xDFFF:
            raise Unwritable("a lone surrogate")
        else:
            out.append(beyond_ascii(ord(char)))
    return quote + "".join(out) + quote
