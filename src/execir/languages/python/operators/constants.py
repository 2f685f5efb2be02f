"""Integer constant families and boolean return flips.

The three integer operators split the work so that they never produce the same text:
``const_zero_one`` owns 0 -> 1 and 1 -> 0, ``const_incr`` every other ``n -> n + 1`` and
``const_decr`` every other ``n -> n - 1``. Bools are never treated as integers. No operator
writes a literal that does nothing where it stands (``x + 0``, ``x - 0``, ``x * 1``, ``x // 1``,
``x ** 1``, ``i += 0``, ``-0``: nobody writes those; dropping the operand is
``binary_operand_delete``'s mutant) nor a division by zero.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import nodes_of
from execir.languages.python.operators.exprs import Context, parents
from execir.languages.python.source import SourceText

_IDENTITIES: dict[type[ast.operator], tuple[tuple[int, ...], tuple[int, ...]]] = {
    ast.Add: ((0,), (0,)),
    ast.Sub: ((), (0,)),
    ast.Mult: ((1,), (1,)),
    ast.Div: ((), (0, 1)),
    ast.FloorDiv: ((), (0, 1)),
    ast.Mod: ((), (0,)),
    ast.Pow: ((), (0, 1)),
    ast.BitOr: ((0,), (0,)),
    ast.BitXor: ((0,), (0,)),
    ast.LShift: ((), (0,)),
    ast.RShift: ((), (0,)),
}
"""Operator -> (values a literal must not become as its left operand, as its right operand):
identities (``x + 0``, ``x * 1``), ``** 0`` (nobody writes it) and division by zero (a crash,
not a bug)."""


def idle_values(node: ast.AST, table: dict[int, Context]) -> tuple[int, ...]:
    """Values a literal must not become where it stands (see the module docstring); a slice's
    lower bound must not become 0 (``a[0:]``: dropping the bound is how people write that)."""
    context = table.get(id(node))
    if context is None:
        return ()
    parent = context.parent
    if isinstance(parent, ast.UnaryOp):
        return (0,)
    if isinstance(parent, ast.Slice) and context.field == "lower":
        return (0,)
    if isinstance(parent, ast.BinOp):
        left, right = _IDENTITIES.get(type(parent.op), ((), ()))
        return left if context.field == "left" else right
    if isinstance(parent, ast.AugAssign) and context.field == "value":
        return _IDENTITIES.get(type(parent.op), ((), ()))[1]
    return ()


def _int_constants(tree: ast.Module, source: SourceText) -> Iterator[tuple[int, int, int, tuple[int, ...]]]:
    """(start, end, value, values it must not become) of each integer literal in code
    (docstrings/f-strings excluded)."""
    table = parents(tree)
    for node in nodes_of(tree, ast.Constant):
        if type(node.value) is int:
            start, end = source.node_span(node)
            yield start, end, node.value, idle_values(node, table)


def const_incr(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Increment one integer literal (``n`` -> ``n + 1``; 0 is left to ``const_zero_one``)."""
    for start, end, value, idle in _int_constants(tree, source):
        if value != 0 and value + 1 not in idle:
            yield SpanEdit(start, end, str(value + 1))


def const_decr(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Decrement one integer literal (``n`` -> ``n - 1``; 1 is left to ``const_zero_one``)."""
    for start, end, value, idle in _int_constants(tree, source):
        if value != 1 and value - 1 not in idle:
            yield SpanEdit(start, end, str(value - 1))


def const_zero_one(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one integer literal ``0`` <-> ``1``."""
    for start, end, value, idle in _int_constants(tree, source):
        if value in (0, 1) and 1 - value not in idle:
            yield SpanEdit(start, end, str(1 - value))


def return_bool_flip(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Flip one ``return True`` <-> ``return False``."""
    for node in nodes_of(tree, ast.Return):
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, bool):
            start, end = source.node_span(value)
            yield SpanEdit(start, end, str(not value.value))
