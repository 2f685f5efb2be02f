"""The ``variable`` family's orders: arguments, operands, indices, returned values, receivers,
branches or elements exchanged."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.families.nodes import call_arguments, callee, enclosing, operator_text, returned, subscript_index
from execir.languages.treesitter.families.types import Typing
from execir.languages.treesitter.program import Program

SYMMETRIC = frozenset({"max", "min", "gcd", "lcm", "hypot", "Max", "Min", "swap"})
"""Callees whose two arguments commute (swapping them gives an equivalent program)."""


def _swap(program: Program, left: Node, right: Node) -> SpanEdit | None:
    """Exchange the texts of two nodes (``left`` before ``right``), keeping what lies between."""
    first, second = program.source(left), program.source(right)
    if first == second:
        return None
    start, left_end = program.span(left)
    right_start, end = program.span(right)
    return SpanEdit(start, end, second + program.text[left_end:right_start] + first)


def arg_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap two adjacent arguments of a call (when their texts differ; not for calls whose
    arguments commute, like ``max``, nor the grammar's ``ordered_calls``)."""
    for call in program.walk(grammar.call):
        name = callee(grammar, call)
        if name is not None and (program.source(name) in SYMMETRIC or program.source(name) in grammar.ordered_calls):
            continue
        arguments = call_arguments(program, grammar, call)
        for left, right in zip(arguments, arguments[1:]):
            edit = _swap(program, left, right)
            if edit is not None:
                yield edit


def operand_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap the operands of one non-commutative binary expression (``x - y`` -> ``y - x``,
    ``a < b`` -> ``b < a``)."""
    for node in program.walk(grammar.binary):
        found = operator_text(program, node)
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if found is None or found[1] not in grammar.non_commutative or left is None or right is None:
            continue
        if program.source(left).startswith(("-", "+")):
            continue  # ``-i - 1`` -> ``1 - -i`` would need a space; the sign makes it unreadable
        edit = _swap(program, left, right)
        if edit is not None:
            yield edit


def subscript_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap the indices of one double subscript (``a[i][j]`` -> ``a[j][i]``)."""
    for node in program.walk(grammar.subscript):
        inner = node.child_by_field_name(grammar.subscript[node.type][0])
        if inner is None or inner.type not in grammar.subscript:
            continue
        first, second = subscript_index(grammar, inner), subscript_index(grammar, node)
        if first is None or second is None or program.source(first) == program.source(second):
            continue
        yield program.replace(first, program.source(second))
        yield program.replace(second, program.source(first))


def return_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Exchange the values of two consecutive ``return`` statements of a function
    (``if (c) return a; return b;`` -> ``if (c) return b; return a;``), as one edit spanning both;
    in typed grammars only when every local each value names is visible at the other return too
    (``for (int i ...) return i; return -1;`` and ``if (c) return 0; int n = 1; return n;`` stay)."""
    typing = Typing(program, grammar) if grammar.typed_edits else None
    for function in program.walk(grammar.functions):
        values = [
            value
            for node in program.walk(grammar.returns)
            if enclosing(node, grammar.functions) == function and (value := returned(program, grammar, node)) is not None
        ]
        for first, second in zip(values, values[1:]):
            if typing is not None and not (_movable(program, grammar, typing, first, second) and _movable(program, grammar, typing, second, first)):
                continue
            edit = _swap(program, first, second)
            if edit is not None:
                yield edit


def _movable(program: Program, grammar: Grammar, typing: Typing, value: Node, target: Node) -> bool:
    """Every local ``value`` names is declared before ``target`` in a scope that holds it too."""
    for node in _identifiers(grammar, value):
        local = typing.local(node)
        if local is not None and not (local.node.end_byte <= target.start_byte and local.scope.start_byte <= target.start_byte < local.scope.end_byte):
            return False
    return True


def _identifiers(grammar: Grammar, root: Node) -> Iterator[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in grammar.identifiers:
            yield node
        stack.extend(node.children)


def _is_variable(grammar: Grammar, node: Node) -> bool:
    """A name, subscript or field access (something a value lives in)."""
    return node.type in grammar.identifiers or node.type in grammar.subscript or (node.type in grammar.member and node.type not in grammar.call)


def receiver_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Exchange the receiver and the only argument of a method call when both are variables
    (names, subscripts, fields): ``s.find(t)`` -> ``t.find(s)``; in typed grammars only when
    both have the same declared type (``v.push_back(s)`` stays)."""
    typing = Typing(program, grammar) if grammar.typed_edits else None
    for call in program.walk(grammar.call):
        arguments = call_arguments(program, grammar, call)
        receiver = call.child_by_field_name("object")
        function = call.child_by_field_name(grammar.call_function)
        if receiver is None and function is not None and function.type in grammar.member:
            receiver = function.child_by_field_name(grammar.member[function.type][0])
        if receiver is None or len(arguments) != 1 or program.source(receiver) in grammar.namespaces:
            continue
        if not all(_is_variable(grammar, node) for node in (receiver, arguments[0])):
            continue
        if typing is not None and (typing.of(receiver) is None or typing.of(receiver) != typing.of(arguments[0])):
            continue
        edit = _swap(program, receiver, arguments[0])
        if edit is not None:
            yield edit


def branch_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap the two bodies of an ``if``/``else`` (same condition, branches exchanged); ``else if``
    chains are left alone."""
    for node in program.walk([grammar.if_statement]):
        consequence, alternative = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
        if consequence is None or alternative is None:
            continue
        if grammar.else_clause is not None and alternative.type == grammar.else_clause:
            bodies = [child for child in alternative.children if child.is_named and child.type not in program.comment_types]
            alternative = bodies[0] if len(bodies) == 1 else None
        if alternative is None or alternative.type == grammar.if_statement:
            continue
        edit = _swap(program, consequence, alternative)
        if edit is not None:
            yield edit


def element_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap two adjacent elements of an initializer list or array literal (``{i, j}`` ->
    ``{j, i}``); literals stay in place (reordering a constant table is not a slip)."""
    literals = grammar.numbers | grammar.strings | frozenset(grammar.booleans)
    for node in program.walk(grammar.initializers):
        items = [child for child in node.children if child.is_named and child.type not in program.comment_types]
        for left, right in zip(items, items[1:]):
            if _leaf(grammar, left).type in literals or _leaf(grammar, right).type in literals:
                continue
            edit = _swap(program, left, right)
            if edit is not None:
                yield edit


def _leaf(grammar: Grammar, node: Node) -> Node:
    """An element's value (Go wraps each in a ``literal_element``)."""
    inner = [child for child in node.children if child.is_named]
    return inner[0] if len(inner) == 1 and node.type.endswith("element") else node
