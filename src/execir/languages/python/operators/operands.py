"""Operand mutations: an operand dropped, two operands swapped."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import int_literal, is_text, nodes_of
from execir.languages.python.operators.exprs import Context, outer_span, parents, placed, replace_with
from execir.languages.python.source import SourceText

_NON_COMMUTATIVE = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.LShift, ast.RShift, ast.MatMult)
_ORDERED = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn)


def _is_number(node: ast.AST) -> bool:
    if int_literal(node) is not None:
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex))


def _is_fixed(node: ast.AST) -> bool:
    """A literal or display: it keeps its side (``[4, 6] in m``, ``1 - n`` are not slips)."""
    return _is_number(node) or is_text(node) or isinstance(node, (ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict))


def _is_formatting(node: ast.BinOp) -> bool:
    return isinstance(node.op, ast.Mod) and is_text(node.left)


def binary_operand_delete(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Drop one operand of an arithmetic/bitwise/concatenation operator (``a - b`` -> ``a``).

    The kept operand stays as written (its own parentheses included); parentheses around the
    whole operation go when no longer needed. A literal is never kept alone in place of an
    expression (``len(x) - 1`` -> ``1`` is not a bug anyone writes); %-formatting is left alone.
    """
    table = parents(tree)
    for node in nodes_of(tree, ast.BinOp):
        if _is_formatting(node):
            continue
        for keep, dropped in ((node.left, node.right), (node.right, node.left)):
            if isinstance(keep, ast.Constant) or (_is_number(keep) and not _is_number(dropped)):
                continue
            yield replace_with(source, table, node, keep)


def _swapped(source: SourceText, table: dict[int, Context], left: ast.AST, right: ast.AST) -> SpanEdit | None:
    """``left OP right`` -> ``right OP left`` (each parenthesized if its new place needs it)."""
    left_span = outer_span(source, left, table.get(id(left)))
    right_span = outer_span(source, right, table.get(id(right)))
    left_text = source.text[left_span[0] : left_span[1]]
    right_text = source.text[right_span[0] : right_span[1]]
    if left_text == right_text:
        return None
    new_left = placed(right_text, right, table.get(id(left)), grouped=right_span != source.node_span(right))
    new_right = placed(left_text, left, table.get(id(right)), grouped=left_span != source.node_span(left))
    middle = source.text[left_span[1] : right_span[0]]
    return SpanEdit(left_span[0], right_span[1], new_left + middle + new_right)


def _is_sequence(node: ast.AST) -> bool:
    """A string, list or slice: ``+`` on it concatenates, so operand order matters."""
    return is_text(node) or isinstance(node, (ast.List, ast.ListComp)) or (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice))


def operand_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap the operands of a non-commutative operator or an ordering/membership comparison
    (``x - y`` -> ``y - x``, ``a in b`` -> ``b in a``, ``a < b`` -> ``b < a``).

    ``+`` counts when an operand is a string, list or slice (concatenation). Literals and
    displays keep their side (``n - 1`` -> ``1 - n``, ``x in [1, 2]`` -> ``[1, 2] in x`` are not
    plausible slips); chained comparisons are left alone.
    """
    table = parents(tree)
    for node in nodes_of(tree, (ast.BinOp, ast.Compare)):
        if isinstance(node, ast.BinOp):
            ordered = isinstance(node.op, _NON_COMMUTATIVE) or (isinstance(node.op, ast.Add) and (_is_sequence(node.left) or _is_sequence(node.right)))
            if not ordered or _is_formatting(node):
                continue
            left, right = node.left, node.right
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], _ORDERED):
            left, right = node.left, node.comparators[0]
        else:
            continue
        if _is_fixed(left) or _is_fixed(right):
            continue
        edit = _swapped(source, table, left, right)
        if edit is not None:
            yield edit


def subscript_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap the indices of a double subscript: ``a[i][j]`` -> ``a[j][i]``."""
    for node in nodes_of(tree, ast.Subscript):
        inner = node.value
        if not isinstance(inner, ast.Subscript):
            continue
        first, second = inner.slice, node.slice
        if isinstance(first, (ast.Slice, ast.Tuple)) or isinstance(second, (ast.Slice, ast.Tuple)):
            continue
        (a_start, a_end), (b_start, b_end) = source.node_span(first), source.node_span(second)
        a_text, b_text = source.text[a_start:a_end], source.text[b_start:b_end]
        if a_text != b_text:
            yield SpanEdit(a_start, b_end, b_text + source.text[a_end:b_start] + a_text)
