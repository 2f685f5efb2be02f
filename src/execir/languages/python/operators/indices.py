"""Off-by-one mutations of range bounds, slice bounds and subscript indices."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import code_nodes, int_literal
from execir.languages.python.source import SourceText

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
    call = _range_call(node)
    if call is not None:
        return call.args[:2]
    if isinstance(node, ast.Slice):
        return [bound for bound in (node.lower, node.upper) if bound is not None]
    if isinstance(node, ast.Subscript) and not isinstance(node.slice, (ast.Slice, ast.Tuple)):
        index = node.slice
        if isinstance(index, ast.Constant) and not isinstance(index.value, int):
            return []  # mapping keys like d["name"]
        return [index]
    return []


def _range_call(node: ast.AST) -> ast.Call | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
        return node
    return None


def _shifted(source: SourceText, bound: ast.expr, delta: int) -> str:
    """The bound's text moved by ``delta``: a new literal for an integer literal, a new last
    term for ``e + k`` / ``e - k`` (``n - 1`` -> ``n`` / ``n - 2``, never ``n - 1 + 1``), else
    ``e + 1`` / ``e - 1``."""
    value = int_literal(bound)
    if value is not None:
        return str(value + delta)
    text = source.segment(bound)
    if isinstance(bound, ast.BinOp) and isinstance(bound.op, (ast.Add, ast.Sub)):
        term = int_literal(bound.right)
        if term is not None and isinstance(bound.right, ast.Constant):
            start = source.node_span(bound)[0]
            left = source.text[start : _operator_start(source, bound)].rstrip()
            moved = (term if isinstance(bound.op, ast.Add) else -term) + delta
            return left if moved == 0 else f"{left} + {moved}" if moved > 0 else f"{left} - {-moved}"
    if _binds_looser_than_add(bound):
        text = f"({text})"
    return f"{text} + {delta}" if delta > 0 else f"{text} - {-delta}"


def _operator_start(source: SourceText, node: ast.BinOp) -> int:
    """Where the operator of ``left OP right`` starts (after any parentheses of ``left``)."""
    left_end, right_start = source.node_span(node.left)[1], source.node_span(node.right)[0]
    tokens = [tok for tok in source.tokens_in(left_end, right_start) if tok.string != ")"]
    return tokens[0].start if tokens else left_end


def _slice_edits(node: ast.Slice, bound: ast.expr, shifted: str) -> str | None:
    """A slice bound that becomes 0: the lower bound is dropped (``a[1:j]`` -> ``a[:j]``, never
    ``a[0:j]``), unless that leaves ``a[:]``; an upper bound of 0 (an always-empty slice) is
    skipped."""
    if shifted != "0":
        return shifted
    if bound is node.lower and (node.upper is not None or node.step is not None):
        return ""
    return None


def off_by_one(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Move one range/slice bound or subscript index by +1 or -1 (``range(n)`` gets a start
    of 1: ``range(1, n)``)."""
    for node in code_nodes(tree):
        call = _range_call(node)
        if call is not None and len(call.args) == 1 and not call.keywords:
            start = source.node_span(call.args[0])[0]
            yield SpanEdit(start, start, "1, ")
        for bound in _bounds(node):
            if isinstance(bound, ast.Starred):
                continue
            start, end = source.node_span(bound)
            for delta in (1, -1):
                shifted = _shifted(source, bound, delta)
                after = _slice_edits(node, bound, shifted) if isinstance(node, ast.Slice) else shifted
                if after is not None:
                    yield SpanEdit(start, end, after)
