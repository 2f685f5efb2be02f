"""Literal and value operators: integer constants, returned constants, off-by-one bounds.

The three integer operators never produce the same text: ``const_zero_one`` owns 0 -> 1 and
1 -> 0, ``const_incr`` every other ``n -> n + 1`` and ``const_decr`` every other ``n -> n - 1``.
Only decimal literals change (``0x1F``, ``0b1``, ``017`` stay); ``-1`` is one literal (-> ``0``, ``-2``).
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.ruby.operators.nodes import LITERALS, call_args, field, int_value, method_name, nodes, returned_values, shifted
from execir.languages.ruby.operators.values import CONSTANTS, guess_kind
from execir.languages.treesitter import Program

BOUND_ARGUMENTS = frozenset({"upto", "downto", "step", "slice", "take", "drop", "first", "last", "each_slice", "each_cons", "rotate", "insert"})
"""Methods whose integer arguments are bounds, counts or positions."""

BOUND_RECEIVERS = frozenset({"upto", "downto", "times"})
"""Methods whose receiver is a loop bound (``n.times``, ``1.upto(n)``)."""

INDEX_SKIP = frozenset({"string", "chained_string", "simple_symbol", "delimited_symbol", "range", "pair", "splat_argument", "hash", "true", "false", "nil"})
"""Index expressions that are keys, ranges (their bounds are visited as range bounds) or not numbers."""


def _integers(program: Program) -> Iterator[tuple[Node, int]]:
    """(node, value) of each decimal integer literal; ``-3`` is one literal (the unary node)."""
    for node in nodes(program, ("integer",)):
        parent = node.parent
        literal = parent if parent is not None and parent.type == "unary" and int_value(program, parent) is not None else node
        value = int_value(program, literal)
        if value is not None:
            yield literal, value


def const_incr(program: Program) -> Iterator[SpanEdit]:
    """Increment one integer literal (``n`` -> ``n + 1``; 0 is left to ``const_zero_one``)."""
    for node, value in _integers(program):
        if value != 0:
            yield program.replace(node, str(value + 1))


def const_decr(program: Program) -> Iterator[SpanEdit]:
    """Decrement one integer literal (``n`` -> ``n - 1``; 1 is left to ``const_zero_one``)."""
    for node, value in _integers(program):
        if value != 1:
            yield program.replace(node, str(value - 1))


def const_zero_one(program: Program) -> Iterator[SpanEdit]:
    """Swap one integer literal ``0`` <-> ``1``."""
    for node, value in _integers(program):
        if value in (0, 1):
            yield program.replace(node, str(1 - value))


def return_bool_flip(program: Program) -> Iterator[SpanEdit]:
    """Flip one returned ``true`` <-> ``false`` (``return true`` or a method's implicit last value)."""
    for node in returned_values(program):
        if node.type in ("true", "false"):
            yield program.replace(node, "false" if node.type == "true" else "true")


def return_const(program: Program) -> Iterator[SpanEdit]:
    """Replace one returned expression by a constant of its plausible kind: a boolean expression by
    ``true``/``false``, a number by ``0``, an array by ``[]``, a string by ``""``, anything else by
    ``nil`` (returned literals are left alone)."""
    for node in returned_values(program):
        if node.type in LITERALS or node.type in ("array", "hash", "string_array"):
            continue
        kind = guess_kind(program, node)
        constants = ("true", "false") if kind == "bool" else (CONSTANTS[kind],) if kind in CONSTANTS else ("nil",)
        for constant in constants:
            yield program.replace(node, constant)


def _bounds(program: Program, node: Node) -> list[Node]:
    if node.type == "range":
        return [bound for bound in (field(node, "begin"), field(node, "end")) if bound is not None]
    if node.type == "element_reference":
        return [child for child in node.named_children[1:] if child.type not in INDEX_SKIP and child.type != "comment"]
    if node.type == "call":
        name = method_name(program, node)
        bounds = [arg for arg in call_args(node) if arg.type not in INDEX_SKIP and arg.type != "block_argument"] if name in BOUND_ARGUMENTS else []
        receiver = field(node, "receiver")
        if name in BOUND_RECEIVERS and receiver is not None:
            bounds.insert(0, receiver)
        return bounds
    return []


def off_by_one(program: Program) -> Iterator[SpanEdit]:
    """Move one range bound, index, loop bound (``n.times``, ``upto(n)``) or position argument
    (``slice``, ``take``, ...) by +1 or -1 (``n-1`` becomes ``n`` / ``n-2``, ``x`` becomes ``x + 1``)."""
    for node in nodes(program, ("range", "element_reference", "call")):
        for bound in _bounds(program, node):
            for delta in (1, -1):
                yield program.replace(bound, shifted(program, bound, delta))
