"""Off-by-one mutations of range bounds, slice bounds and subscript indices."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.languages.python.operators.base import code_nodes, int_literal
from execir.languages.python.source import SourceText
from execir.mutate.edits import SpanEdit

_LOOSER_THAN_ADD = (ast.BoolOp, ast.Compare, ast.IfExp, ast.Lambda, ast.NamedExpr)
_LOOSER_BINOPS = (ast.BitOr, ast.BitXor, ast.BitAnd, ast.LShift, ast.RShift)


def _binds_looser_than_add(node: ast.AST) -> bool:
    """True when ``node + 1`` would not parse as ``(node) + 1``."""
    if isinstance(node, _LOOSER_THAN_ADD):
        return True
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.Not)
    return isinstance(node, ast.BinOp) and isinstance(node.op, _LOOSER_BINOPS)


def _bounds(node: ast.AST) -> list[ast.expr]:
    """The bound/index expressions of a node that off-by-one mutations target."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
        return node.args[:2]
    if isinstance(node, ast.Slice):
        return [bound for bound in (node.lower, node.upper) if bound is not None]
    if isinstance(node, ast.Subscript) and not isinstance(node.slice, (ast.Slice, ast.Tuple)):
        index = node.slice
        if isinstance(index, ast.Constant) and not isinstance(index.value, int):
            return []  # mapping keys like d["name"]
        return [index]
    return []


def _shifted(source: SourceText, bound: ast.expr, delta: int) -> str:
    """The bound's text moved by ``delta`` (a new literal for integer literals)."""
    value = int_literal(bound)
    if value is not None:
        return str(value + delta)
    text = source.segment(bound)
    if _binds_looser_than_add(bound):
        text = f"({text})"
    return f"{text} + {delta}" if delta > 0 else f"{text} - {-delta}"


def off_by_one(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Move one range/slice bound or subscript index by +1 or -1."""
    for node in code_nodes(tree):
        for bound in _bounds(node):
            if isinstance(bound, ast.Starred):
                continue
            start, end = source.node_span(bound)
            for delta in (1, -1):
                yield SpanEdit(start, end, _shifted(source, bound, delta))
