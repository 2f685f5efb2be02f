"""Arithmetic operator families: binary operators, augmented assignment, unary minus."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import (
    is_text,
    nodes_of,
    operator_span,
    prefix_token_span,
    swaps_at,
)
from execir.languages.python.source import SourceText

SwapTable = dict[type[ast.operator], tuple[str, tuple[str, ...]]]
"""Operator type -> (its symbol, replacement symbols)."""

ARITH: SwapTable = {
    ast.Add: ("+", ("-",)),
    ast.Sub: ("-", ("+",)),
    ast.Mult: ("*", ("/", "//")),
    ast.Div: ("/", ("*", "//")),
    ast.FloorDiv: ("//", ("/", "*", "-")),
    ast.Mod: ("%", ("//", "-")),
    ast.Pow: ("**", ("*",)),
}

BITWISE: SwapTable = {
    ast.BitAnd: ("&", ("|", "^")),
    ast.BitOr: ("|", ("&", "^")),
    ast.BitXor: ("^", ("&", "|")),
    ast.LShift: ("<<", (">>",)),
    ast.RShift: (">>", ("<<",)),
}


def _binop_swaps(tree: ast.Module, source: SourceText, table: SwapTable) -> Iterator[SpanEdit]:
    for node in nodes_of(tree, ast.BinOp):
        entry = table.get(type(node.op))
        if entry is None or is_text(node.left) or is_text(node.right):
            continue  # string concatenation / %-formatting are not arithmetic
        symbol, replacements = entry
        yield from swaps_at(operator_span(source, node.left, node.right, symbol), replacements)


def arith_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one arithmetic operator (``+``<->``-``, ``*``->``/ //``, ``//``<->``/``,
    ``%``->``// -``, ...).

    See :data:`ARITH` for the full table.
    """
    return _binop_swaps(tree, source, ARITH)


def bitwise_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one bitwise operator: any of ``&`` ``|`` ``^`` for another, ``<<``<->``>>``."""
    return _binop_swaps(tree, source, BITWISE)


def augassign_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap an augmented assignment operator (``+=``<->``-=``, ``*=``->``/= //=``, ...)."""
    table = {**ARITH, **BITWISE}
    for node in nodes_of(tree, ast.AugAssign):
        entry = table.get(type(node.op))
        if entry is None or is_text(node.value):
            continue
        symbol, replacements = entry
        span = operator_span(source, node.target, node.value, symbol + "=")
        yield from swaps_at(span, [after + "=" for after in replacements])


def unary_minus_remove(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Delete one unary minus (``-x`` -> ``x``)."""
    for node in nodes_of(tree, ast.UnaryOp):
        if isinstance(node.op, ast.USub):
            yield from swaps_at(prefix_token_span(source, node), [""])
