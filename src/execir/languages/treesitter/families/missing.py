"""The ``missing`` family's expressions: an operand, a negation, a call wrapper, an argument, an
element, a slice or parentheses deleted."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.families.nodes import atomic, call_arguments, callee, code, operator_text
from execir.languages.treesitter.families.types import Typing, assignable
from execir.languages.treesitter.program import Program


def _prefix_removals(program: Program, grammar: Grammar, symbols: frozenset[str]) -> Iterator[SpanEdit]:
    for node in program.walk(grammar.unary):
        found = operator_text(program, node)
        operand = node.child_by_field_name(grammar.unary_operand)
        if found is None or found[1] not in symbols or operand is None:
            continue
        yield SpanEdit(program.span(found[0])[0], program.span(operand)[0], "")


def not_remove(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Delete one logical negation (``!c`` -> ``c``)."""
    return _prefix_removals(program, grammar, frozenset({grammar.negation, "not"}))


def unary_minus_remove(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Delete one unary minus (``-x`` -> ``x``)."""
    return _prefix_removals(program, grammar, frozenset({"-"}))


def _operands(node: Node) -> tuple[Node | None, Node | None]:
    return node.child_by_field_name("left"), node.child_by_field_name("right")


_ADDITIVE = frozenset({"+", "-"})

_MULTIPLICATIVE = frozenset({"*", "/", "%"})


def binary_operand_delete(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Keep one operand of an arithmetic, bitwise or concatenating binary expression
    (``a - b`` -> ``a`` or ``b``), or only the first term of a longer additive or multiplicative
    chain (``i * i - i + 1`` -> ``i * i``)."""
    symbols = set(grammar.arith) | set(grammar.bitwise)
    for node in program.walk(grammar.binary):
        found = operator_text(program, node)
        left, right = _operands(node)
        if found is None or found[1] not in symbols or left is None or right is None:
            continue
        for kept in (left, right):
            yield program.replace(_unparenthesized(grammar, node, kept), program.source(kept))
        for group in (_ADDITIVE, _MULTIPLICATIVE):
            if found[1] in group and not _continues(program, node, group):
                terms = mixed_chain(program, node, group)
                if len(terms) > 2:
                    yield program.replace(node, program.source(terms[0]))


def _unparenthesized(grammar: Grammar, node: Node, kept: Node) -> Node:
    """What an operand replaces: the parentheses around ``node`` too when the operand is atomic
    (``n * (n + 1)`` -> ``n * n``)."""
    parent = node.parent
    if parent is not None and parent.type in grammar.parenthesized and atomic(grammar, kept):
        grandparent = parent.parent
        if grandparent is not None and grandparent.type in grammar.binary | grammar.unary:
            return parent
    return node


def _continues(program: Program, node: Node, group: frozenset[str]) -> bool:
    """The node is the left operand of a parent from the same operator group."""
    parent = node.parent
    if parent is None or parent.child_by_field_name("left") != node or parent.child_by_field_name("operator") is None:
        return False
    found = operator_text(program, parent)
    return found is not None and found[1] in group


def mixed_chain(program: Program, node: Node, group: frozenset[str]) -> list[Node]:
    """The terms of a left-nested chain of operators from one group (``a - b + c`` -> ``[a, b, c]``;
    ``[node]`` when ``node`` is not such an operator)."""
    found = operator_text(program, node) if node.child_by_field_name("operator") is not None else None
    left, right = _operands(node)
    if found is None or found[1] not in group or left is None or right is None:
        return [node]
    return [*mixed_chain(program, left, group), right]


def bool_operand_delete(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Delete operands of a short-circuit chain: one of them (``a || b || c`` -> ``a || c``), or
    all but the first or the last (``a || b || c`` -> ``a``, ``c``)."""
    for node in program.walk(grammar.binary):
        found = operator_text(program, node)
        if found is None or found[1] not in grammar.boolean:
            continue
        parent = node.parent
        if parent is not None and parent.type in grammar.binary and parent.child_by_field_name("left") == node:
            outer = operator_text(program, parent)
            if outer is not None and outer[1] == found[1]:
                continue  # handled with the whole chain
        operands = mixed_chain(program, node, frozenset({found[1]}))
        for index, operand in enumerate(operands):
            if index == 0:
                yield SpanEdit(program.span(operand)[0], program.span(operands[1])[0], "")
            else:
                yield SpanEdit(program.span(operands[index - 1])[1], program.span(operand)[1], "")
        if len(operands) > 2:
            yield program.replace(node, program.source(operands[0]))
            yield program.replace(node, program.source(operands[-1]))


def slice_remove(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Drop a slice that is read (``xs[1:]`` -> ``xs``; Go's slice expressions)."""
    for node in program.walk(grammar.slices):
        operand = node.child_by_field_name("operand")
        parent = node.parent
        if operand is None or (parent is not None and parent.type in grammar.assignment and parent.child_by_field_name("left") == node):
            continue
        yield program.replace(node, program.source(operand))


def paren_remove(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Drop the parentheses around a binary operand of a binary expression (``n * (n + 1)`` ->
    ``n * n + 1``), which regroups it."""
    for node in program.walk(grammar.parenthesized):
        parent = node.parent
        inner = code(program, node)
        if parent is None or parent.type not in grammar.binary or len(inner) != 1 or inner[0].type not in grammar.binary:
            continue
        yield program.replace(node, program.source(inner[0]))


def _receiver(grammar: Grammar, call: Node) -> Node | None:
    """The object a method is called on (``s`` in ``s.lower()``), or None."""
    if call.child_by_field_name("name") is not None and call.child_by_field_name("object") is not None:
        return call.child_by_field_name("object")
    function = call.child_by_field_name(grammar.call_function)
    if function is not None and function.type in grammar.member:
        return function.child_by_field_name(grammar.member[function.type][0])
    return None


def call_unwrap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Replace one call by what it wraps: a one-argument function call by its argument
    (``abs(x)`` -> ``x``), a two-argument ``min``/``max`` by either argument, a method call by its
    receiver (``s.trim()`` -> ``s``). In typed grammars only where the kept expression's declared
    type may stand for the call's result (``s.trim()`` -> ``s``, not ``v.size()`` -> ``v``)."""
    typing = Typing(program, grammar) if grammar.typed_edits else None
    for call in program.walk(grammar.call):
        arguments = call_arguments(program, grammar, call)
        name = callee(grammar, call)
        receiver = _receiver(grammar, call)
        if receiver is not None and program.source(receiver) not in grammar.namespaces:
            if typing is None or _replaceable(program, grammar, typing, call, receiver):
                yield program.replace(call, program.source(receiver))
            continue
        spelled = program.source(name) if name is not None else None
        if (grammar.unwrap_calls and spelled not in grammar.unwrap_calls) or any(argument.type in grammar.spreads for argument in arguments):
            continue
        if len(arguments) == 1:
            if typing is None or _replaceable(program, grammar, typing, call, arguments[0]):
                yield program.replace(call, program.source(arguments[0]))
        elif len(arguments) == 2 and spelled in grammar.min_max:
            for argument in arguments:
                yield program.replace(call, program.source(argument))


def _replaceable(program: Program, grammar: Grammar, typing: Typing, call: Node, kept: Node) -> bool:
    """``kept`` may replace ``call``: a statement of its own where the grammar allows any
    expression there, else a value whose declared type is assignable to the call's result."""
    parent = call.parent
    if parent is not None and parent.type in grammar.statements:
        return grammar.bare_expression_statements
    return assignable(grammar, typing.of(call), typing.of(kept))


def arg_delete(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Delete one argument of a call with two or more (with the comma that joins it); in typed
    grammars only of the calls whose ``optional_arguments`` allow one fewer, and only an argument
    after the ones they need (``s.substring(i, j)`` -> ``s.substring(i)``)."""
    for call in program.walk(grammar.call):
        arguments = call_arguments(program, grammar, call)
        if len(arguments) < 2:
            continue
        first = 0
        if grammar.typed_edits:
            name = callee(grammar, call)
            spelled = None if name is None else program.source(name)
            fewest = grammar.optional_arguments.get(spelled or "")
            if fewest is None or len(arguments) - 1 < fewest or (spelled in grammar.member_methods and _receiver(grammar, call) is None):
                continue
            first = fewest
        yield from (edit for index, edit in enumerate(_element_deletions(program, arguments)) if index >= first)


def _element_deletions(program: Program, items: list[Node]) -> Iterator[SpanEdit]:
    for index, item in enumerate(items):
        if index + 1 < len(items):
            yield SpanEdit(program.span(item)[0], program.span(items[index + 1])[0], "")
        else:
            yield SpanEdit(program.span(items[index - 1])[1], program.span(item)[1], "")


def element_delete(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Delete one element of an initializer list or array literal with two or more."""
    for node in program.walk(grammar.initializers):
        items = code(program, node)
        if len(items) >= 2:
            yield from _element_deletions(program, items)
