"""Comparison and boolean operator families."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import (
    code_nodes,
    nodes_of,
    operator_span,
    prefix_token_span,
    swaps_at,
)
from execir.languages.python.operators.exprs import ATOM, level, spaced
from execir.languages.python.source import SourceText

COMPARE_SWAP: dict[type[ast.cmpop], tuple[str, str]] = {
    ast.Lt: ("<", "<="),
    ast.LtE: ("<=", "<"),
    ast.Gt: (">", ">="),
    ast.GtE: (">=", ">"),
    ast.Eq: ("==", "!="),
    ast.NotEq: ("!=", "=="),
    ast.In: ("in", "not in"),
    ast.NotIn: ("not in", "in"),
    ast.Is: ("is", "is not"),
    ast.IsNot: ("is not", "is"),
}
"""Boundary and negation swaps: operator type -> (symbol, replacement)."""

COMPARE_FLIP: dict[type[ast.cmpop], tuple[str, str]] = {
    ast.Lt: ("<", ">"),
    ast.Gt: (">", "<"),
    ast.LtE: ("<=", ">="),
    ast.GtE: (">=", "<="),
}
"""Direction flips: operator type -> (symbol, replacement)."""


def _compare_edits(tree: ast.Module, source: SourceText, table: dict[type[ast.cmpop], tuple[str, str]]) -> Iterator[SpanEdit]:
    for node in nodes_of(tree, ast.Compare):
        operands = [node.left, *node.comparators]
        for index, op in enumerate(node.ops):
            entry = table.get(type(op))
            if entry is not None:
                span = operator_span(source, operands[index], operands[index + 1], entry[0])
                yield from swaps_at(span, [entry[1]])


def compare_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one comparison at its boundary or negation (``<``<->``<=``, ``in``<->``not in``, ...).

    See :data:`COMPARE_SWAP` for the full table.
    """
    return _compare_edits(tree, source, COMPARE_SWAP)


def compare_flip(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Flip one comparison's direction: ``<``<->``>``, ``<=``<->``>=``."""
    return _compare_edits(tree, source, COMPARE_FLIP)


def bool_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one ``and``<->``or`` keyword of a boolean operation."""
    for node in nodes_of(tree, ast.BoolOp):
        symbol, after = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        for left, right in zip(node.values, node.values[1:]):
            yield from swaps_at(operator_span(source, left, right, symbol), [after])


def not_remove(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Delete one ``not`` (with the spacing after it)."""
    for node in nodes_of(tree, ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            yield from swaps_at(prefix_token_span(source, node), [""])


def conditions(node: ast.AST) -> list[ast.expr]:
    """The condition expressions of a node: if/while/conditional-expression tests, comprehension filters."""
    if isinstance(node, (ast.If, ast.While, ast.IfExp)):
        return [node.test]
    if isinstance(node, ast.comprehension):
        return list(node.ifs)
    return []


def not_insert(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Negate one condition (``if``/``while``/conditional expression/comprehension filter).

    ``c`` becomes ``not c`` for a name, call, subscript or other atom and ``not (c)`` for
    anything looser; conditions that already start with ``not`` are left to :func:`not_remove`.
    """
    for node in code_nodes(tree):
        for test in conditions(node):
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                continue
            start, end = source.node_span(test)
            text = source.text[start:end]
            yield spaced(source, SpanEdit(start, end, f"not {text}" if level(test) == ATOM else f"not ({text})"))
