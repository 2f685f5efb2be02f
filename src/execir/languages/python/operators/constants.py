"""Integer constant families and boolean return flips.

The three integer operators split the work so that they never produce the same text:
``const_zero_one`` owns 0 -> 1 and 1 -> 0, ``const_incr`` every other ``n -> n + 1`` and
``const_decr`` every other ``n -> n - 1``. Bools are never treated as integers.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.languages.python.operators.base import nodes_of
from execir.languages.python.source import SourceText
from execir.mutate.edits import SpanEdit


def _int_constants(tree: ast.Module, source: SourceText) -> Iterator[tuple[int, int, int]]:
    """(start, end, value) of each integer literal in code (docstrings/f-strings excluded)."""
    for node in nodes_of(tree, ast.Constant):
        if type(node.value) is int:
            start, end = source.node_span(node)
            yield start, end, node.value


def const_incr(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Increment one integer literal (``n`` -> ``n + 1``; 0 is left to ``const_zero_one``)."""
    for start, end, value in _int_constants(tree, source):
        if value != 0:
            yield SpanEdit(start, end, str(value + 1))


def const_decr(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Decrement one integer literal (``n`` -> ``n - 1``; 1 is left to ``const_zero_one``)."""
    for start, end, value in _int_constants(tree, source):
        if value != 1:
            yield SpanEdit(start, end, str(value - 1))


def const_zero_one(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one integer literal ``0`` <-> ``1``."""
    for start, end, value in _int_constants(tree, source):
        if value in (0, 1):
            yield SpanEdit(start, end, str(1 - value))


def return_bool_flip(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Flip one ``return True`` <-> ``return False``."""
    for node in nodes_of(tree, ast.Return):
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, bool):
            start, end = source.node_span(value)
            yield SpanEdit(start, end, str(not value.value))
