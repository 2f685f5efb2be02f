"""The ``value`` family's integers: literals moved by one or set to 0/1, loop bounds and indices
moved by one.

The four literal operators split the work so that they never produce the same text:
``const_zero_one`` owns 0 -> 1 and 1 -> 0, ``const_incr`` every other ``n -> n + 1``,
``const_decr`` every other ``n -> n - 1``, ``const_to_zero`` every ``n -> 0`` for ``|n| > 1``. None
writes a zero divisor.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.families.nodes import atomic, call_arguments, callee, condition_of, int_value, operator_text, subscript_index
from execir.languages.treesitter.program import Program


def _int_literals(program: Program, grammar: Grammar) -> Iterator[tuple[Node, int]]:
    """(node, value) of every integer literal; a negated literal (``-1``) is one literal."""
    negated: set[int] = set()
    for node in program.walk(grammar.unary | grammar.numbers):
        if node.type in grammar.unary:
            found = operator_text(program, node)
            operand = node.child_by_field_name(grammar.unary_operand)
            if found is not None and found[1] == "-" and operand is not None and operand.type in grammar.numbers:
                value = int_value(program.source(operand))
                if value is not None:
                    negated.add(operand.id)
                    yield node, -value
        elif node.id not in negated:
            value = int_value(program.source(node))
            if value is not None:
                yield node, value


def _is_divisor(program: Program, grammar: Grammar, node: Node) -> bool:
    """The node is what a ``/`` or ``%`` (or ``/=``, ``%=``) divides by."""
    parent = node.parent
    while parent is not None and parent.type in grammar.parenthesized | grammar.expression_lists:
        node, parent = parent, parent.parent
    if parent is None or parent.child_by_field_name("right") != node:
        return False
    found = operator_text(program, parent) if parent.type in grammar.binary | grammar.assignment else None
    return found is not None and found[1] in ("/", "%", "/=", "%=")


def _literal(program: Program, grammar: Grammar, node: Node, value: int) -> Iterator[SpanEdit]:
    """The edit writing ``value`` in place of an integer literal; none that divides by zero
    (a compile error in Go, a crash elsewhere: no plausible slip)."""
    if value != 0 or not _is_divisor(program, grammar, node):
        yield program.replace(node, str(value))


def const_incr(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Increment one integer literal (``n`` -> ``n + 1``; 0 is left to ``const_zero_one``)."""
    for node, value in _int_literals(program, grammar):
        if value != 0:
            yield from _literal(program, grammar, node, value + 1)


def const_decr(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Decrement one integer literal (``n`` -> ``n - 1``; 1 is left to ``const_zero_one``)."""
    for node, value in _int_literals(program, grammar):
        if value != 1:
            yield from _literal(program, grammar, node, value - 1)


def const_to_zero(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Replace one integer literal other than 0 and ±1 by ``0`` (``int i = 2`` -> ``int i = 0``)."""
    for node, value in _int_literals(program, grammar):
        if value not in (0, 1, -1):
            yield from _literal(program, grammar, node, 0)


def const_zero_one(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap one integer literal ``0`` <-> ``1``."""
    for node, value in _int_literals(program, grammar):
        if value in (0, 1):
            yield from _literal(program, grammar, node, 1 - value)


def shifted(program: Program, grammar: Grammar, node: Node, delta: int) -> str:
    """The text of an integer-valued expression moved by ``delta``: literals become new
    literals, ``e + k``/``e - k`` change ``k`` (``e`` alone when it reaches 0), anything else gets
    ``+ delta``/``- delta`` (parenthesized when it binds looser than ``+``)."""
    value = int_value(program.source(node))
    if value is not None:
        return str(value + delta)
    if node.type in grammar.binary:
        found = operator_text(program, node)
        right = node.child_by_field_name("right")
        left = node.child_by_field_name("left")
        if found is not None and found[1] in ("+", "-") and right is not None and left is not None:
            step = int_value(program.source(right))
            if step is not None and step >= 0:
                total = step + delta if found[1] == "+" else step - delta
                head = program.text[program.span(node)[0] : program.span(found[0])[0]].rstrip()
                if total == 0:
                    return head
                sign = found[1] if total > 0 else ("-" if found[1] == "+" else "+")
                return f"{head} {sign} {abs(total)}"
    text = program.source(node)
    if not (atomic(grammar, node) or _arithmetic(program, grammar, node)):
        text = f"({text})"
    return f"{text} + {delta}" if delta > 0 else f"{text} - {-delta}"


def _arithmetic(program: Program, grammar: Grammar, node: Node) -> bool:
    if node.type not in grammar.binary:
        return False
    found = operator_text(program, node)
    return found is not None and found[1] in ("+", "-", "*", "/", "%")


def _bounds(program: Program, grammar: Grammar) -> Iterator[Node]:
    """Loop bounds (the right operand of a counting loop's comparison), subscript indices, slice
    bounds and the arguments of index methods (``get(i)``, ``substr(i, n)``)."""
    for node in program.walk(grammar.loops | frozenset(grammar.subscript) | frozenset(grammar.slices) | grammar.call):
        if node.type in grammar.call:
            name = callee(grammar, node)
            if name is not None and program.source(name) in grammar.index_calls and _is_method(grammar, node, name):
                yield from call_arguments(program, grammar, node)
            continue
        if node.type in grammar.slices:
            yield from (bound for field in grammar.slices[node.type] if (bound := node.child_by_field_name(field)) is not None)
            continue
        if node.type in grammar.subscript:
            index = subscript_index(grammar, node)
            if index is not None and index.type not in grammar.strings:
                yield index
            continue
        condition = condition_of(grammar, node)
        if condition is None or condition.type not in grammar.binary:
            continue
        found = operator_text(program, condition)
        bound = condition.child_by_field_name("right")
        if found is not None and found[1] in ("<", "<=", ">", ">=", "!=") and bound is not None:
            yield bound


def _is_method(grammar: Grammar, call: Node, name: Node) -> bool:
    """The call names a method of an object (``s.charAt(i)``), not a plain function."""
    return call.child_by_field_name("object") is not None or (name.parent is not None and name.parent.type in grammar.member)


def off_by_one(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Move one loop bound or subscript index by +1 or -1."""
    for bound in _bounds(program, grammar):
        for delta in (1, -1):
            yield program.replace(bound, shifted(program, grammar, bound, delta))
