"""The ``excess`` family: something added (a negation, a term, an accumulator counted twice)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.treesitter.families.constants import shifted
from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.families.nodes import atomic, condition_of, enclosing, is_text, operator_text, returned, unwrap
from execir.languages.treesitter.families.types import Typing, numeric
from execir.languages.treesitter.program import Program


def negated(program: Program, grammar: Grammar, node: Node) -> str:
    """``!(c)`` for a condition ``c`` (no extra parentheses around a parenthesized one)."""
    text = program.source(node)
    if node.type in grammar.parenthesized:
        return grammar.negation + text
    return f"{grammar.negation}({text})"


def not_insert(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Negate one condition of an ``if``/``while`` or conditional expression (``c`` -> ``!(c)``);
    conditions that already start with a negation are left to ``not_remove``."""
    for node in program.walk(grammar.branches | grammar.ternary):
        condition = condition_of(grammar, node)
        if condition is None or condition.type in grammar.booleans:
            continue
        if condition.type in grammar.unary:
            found = operator_text(program, condition)
            if found is not None and found[1] in (grammar.negation, "not"):
                continue
        yield program.replace(condition, negated(program, grammar, condition))


def _arithmetic(program: Program, grammar: Grammar, node: Node) -> bool:
    if node.type not in grammar.binary:
        return False
    found = operator_text(program, node)
    return found is not None and found[1] in grammar.arith and not is_text(program, grammar, node)


def numeric_result(program: Program, grammar: Grammar, node: Node) -> bool:
    """The function around ``node`` returns a number (always true in an untyped language)."""
    if grammar.return_type is None:
        return True
    function = enclosing(node, grammar.functions)
    result = None if function is None else function.child_by_field_name(grammar.return_type)
    return result is not None and program.source(result) in grammar.numeric_types


def _terms(program: Program, grammar: Grammar) -> Iterator[Node]:
    """Returned values that are not literals (of functions returning numbers), and maximal
    arithmetic expressions."""
    for node in program.walk(grammar.returns):
        if not numeric_result(program, grammar, node):
            continue
        value = returned(program, grammar, node)
        if value is not None and value.type not in grammar.numbers | grammar.strings | set(grammar.booleans):
            if not _arithmetic(program, grammar, value) and value.type not in grammar.binary:
                yield value
    for node in program.walk(grammar.binary):
        parent = node.parent
        if _arithmetic(program, grammar, node) and not (parent is not None and _arithmetic(program, grammar, parent)):
            yield node


def term_insert(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Add ``+ 1`` or ``- 1`` to one returned value or one whole arithmetic expression
    (``a * b`` -> ``a * b + 1``; an existing ``+ k``/``- k`` tail changes instead); in typed
    grammars not where a term's declared type, or one of its operands', is not a number
    (``s1 + s2`` of strings)."""
    typing = Typing(program, grammar) if grammar.typed_edits else None
    for node in _terms(program, grammar):
        if typing is not None and not _numeric_term(program, grammar, typing, node):
            continue
        for delta in (1, -1):
            yield program.replace(node, shifted(program, grammar, node, delta))


def _numeric_term(program: Program, grammar: Grammar, typing: Typing, node: Node) -> bool:
    """No part of an arithmetic term has a declared type other than a number."""
    if node.type not in grammar.binary or not _arithmetic(program, grammar, node):
        declared = typing.of(node)
        return declared is None or numeric(grammar, declared)
    operands = [child for child in (node.child_by_field_name("left"), node.child_by_field_name("right")) if child is not None]
    return all(_numeric_term(program, grammar, typing, unwrap(grammar, child)) for child in operands)


_ACCUMULATE = {"+=": "+", "-=": "-", "*=": "*"}

_NO_PARENS = {"+": frozenset({"+", "-", "*", "/", "%"}), "-": frozenset({"*", "/", "%"}), "*": frozenset({"*"})}


def self_term_insert(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Count an accumulator twice: ``x += e`` -> ``x += x + e``, ``x *= e`` -> ``x *= x * e``
    (``+=``, ``-=`` and ``*=`` updates of a plain name)."""
    for node in program.walk(grammar.assignment):
        found = operator_text(program, node)
        target, value = node.child_by_field_name("left"), node.child_by_field_name("right")
        if found is None or found[1] not in _ACCUMULATE or target is None or value is None:
            continue
        target, value = unwrap(grammar, target), unwrap(grammar, value)
        if target.type not in grammar.identifiers or is_text(program, grammar, value):
            continue
        symbol = _ACCUMULATE[found[1]]
        text = program.source(value)
        if not atomic(grammar, value):
            inner = operator_text(program, value) if value.type in grammar.binary else None
            if inner is None or inner[1] not in _NO_PARENS[symbol]:
                text = f"({text})"
        yield program.replace(value, f"{program.source(target)} {symbol} {text}")
