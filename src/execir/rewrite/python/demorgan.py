"""``de_morgan``: ``not (a and b)`` <-> ``not a or not b`` and ``not (a or b)`` <-> ``not a and not b``."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.source import SourceText
from execir.rewrite.python.common import expr_text, parents

_LOOSE = (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr)
"""Expressions that bind more loosely than ``not`` (they need parentheses under it)."""

_STATEMENT_SLOTS = (ast.If, ast.While, ast.Return, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Assert)


def _operand(source: SourceText, node: ast.expr) -> str:
    text = expr_text(source, node)
    return f"({text})" if isinstance(node, _LOOSE) and not text.startswith("(") else text


def _negate(source: SourceText, node: ast.expr) -> str:
    return f"not {_operand(source, node)}"


def _fits_unparenthesised(node: ast.expr, parent: ast.AST | None, joined: type[ast.boolop]) -> bool:
    """Whether a ``joined`` expression may replace ``node`` without parentheses."""
    if isinstance(parent, _STATEMENT_SLOTS):
        return True
    if isinstance(parent, ast.BoolOp):
        return isinstance(parent.op, ast.Or) or (isinstance(parent.op, ast.And) and joined is ast.And)
    return False


def _expand(source: SourceText, node: ast.UnaryOp, parent: ast.AST | None) -> SpanEdit | None:
    """``not (a and b)`` -> ``not a or not b`` (and the ``or`` form)."""
    inner = node.operand
    if not isinstance(inner, ast.BoolOp) or any(isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Not) for v in inner.values):
        return None
    joined: type[ast.boolop] = ast.Or if isinstance(inner.op, ast.And) else ast.And
    word = " or " if joined is ast.Or else " and "
    text = word.join(_negate(source, value) for value in inner.values)
    if not _fits_unparenthesised(node, parent, joined):
        text = f"({text})"
    start, end = source.node_span(node)
    return SpanEdit(start, end, text)


def _collapse(source: SourceText, node: ast.BoolOp) -> SpanEdit | None:
    """``not a or not b`` -> ``not (a and b)`` (and the ``and`` form)."""
    if not all(isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Not) for v in node.values):
        return None
    word = " and " if isinstance(node.op, ast.Or) else " or "
    operands = [value.operand for value in node.values if isinstance(value, ast.UnaryOp)]
    if any(isinstance(operand, ast.UnaryOp) and isinstance(operand.op, ast.Not) for operand in operands):
        return None
    start, end = source.node_span(node)
    return SpanEdit(start, end, f"not ({word.join(_operand(source, o) for o in operands)})")


def de_morgan(tree: ast.Module, source: SourceText, reserved: frozenset[str]) -> Iterator[SpanEdit]:
    """Apply De Morgan's law at one negated ``and``/``or`` or at one ``and``/``or`` of negations."""
    del reserved
    parent_of = parents(tree)
    for node in ast.walk(tree):
        edit = None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            edit = _expand(source, node, parent_of.get(node))
        elif isinstance(node, ast.BoolOp):
            edit = _collapse(source, node)
        if edit is not None:
            yield edit
