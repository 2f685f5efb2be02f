"""The ``missing`` family's statements: a statement, a guard, a branch or a condition deleted."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit, whole_lines
from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.families.nodes import code
from execir.languages.treesitter.program import Program


def delete_statement(program: Program, grammar: Grammar, node: Node) -> SpanEdit:
    """The edit deleting one statement: its whole lines inside a block; the grammar's empty
    statement where the statement is a bare body (``if (c) x++;``)."""
    start, end = program.span(node)
    parent = node.parent
    if parent is not None and parent.type not in grammar.blocks and grammar.empty_statement is not None:
        return SpanEdit(start, end, grammar.empty_statement)
    separator = node.next_sibling
    if separator is not None and not separator.is_named and program.source(separator) == ";":
        end = program.span(separator)[1]  # Go's ``x++; y++`` on one line: the separator goes too
    return SpanEdit(*whole_lines(program.text, start, end), "")


def _body_statements(program: Program, grammar: Grammar, body: Node) -> list[Node]:
    """The statements of a branch body (the body itself when it is not a block)."""
    if body.type not in grammar.blocks:
        return [body]
    statements: list[Node] = []
    for child in code(program, body):
        statements.extend(_body_statements(program, grammar, child) if child.type in grammar.blocks else [child])
    return statements


def is_guard(program: Program, grammar: Grammar, node: Node) -> bool:
    """An ``if`` without ``else`` whose body only leaves (return/throw/break/continue)."""
    if node.type != grammar.if_statement or node.child_by_field_name("alternative") is not None:
        return False
    body = node.child_by_field_name("consequence")
    statements = [] if body is None else _body_statements(program, grammar, body)
    return bool(statements) and all(statement.type in grammar.exits for statement in statements)


def _is_else_if(grammar: Grammar, node: Node) -> bool:
    parent = node.parent
    if parent is None:
        return False
    if grammar.else_clause is not None:
        return parent.type == grammar.else_clause
    return parent.type == grammar.if_statement and parent.child_by_field_name("alternative") == node


def guard_delete(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Delete one guard ``if`` statement (an ``if`` without ``else`` whose body only leaves)."""
    for node in program.walk([grammar.if_statement]):
        if is_guard(program, grammar, node) and not _is_else_if(grammar, node):
            yield delete_statement(program, grammar, node)


def statement_delete(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Delete one statement: an expression statement or assignment, or a whole ``if``/loop
    (never a declaration or a ``return``, whose loss rarely compiles)."""
    holders = grammar.blocks | grammar.compound | {grammar.else_clause or grammar.if_statement}
    for node in program.walk(grammar.statements | grammar.compound):
        if node.type in grammar.statements or not _is_else_if(grammar, node):
            if node.parent is not None and node.parent.type in holders:
                yield delete_statement(program, grammar, node)


def branch_delete(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Delete one ``else`` branch, or one ``else if`` link of a chain
    (``if a {A} else if b {B} else {C}`` -> ``if a {A} else {C}``)."""
    for node in program.walk([grammar.if_statement]):
        alternative = node.child_by_field_name("alternative")
        consequence = node.child_by_field_name("consequence")
        if alternative is None or consequence is None:
            continue
        # from the end of the consequence to the end of the alternative: drops "else ..."
        yield SpanEdit(program.span(consequence)[1], program.span(alternative)[1], "")
        inner = alternative
        if grammar.else_clause is not None and alternative.type == grammar.else_clause:
            inner = next((child for child in code(program, alternative)), alternative)
        if inner.type != grammar.if_statement:
            continue
        # keep this link's own else branch in place of the link
        inner_alternative = inner.child_by_field_name("alternative")
        if inner_alternative is not None:
            kept = inner_alternative
            if grammar.else_clause is not None and kept.type == grammar.else_clause:
                kept = next((child for child in code(program, kept)), kept)
            yield SpanEdit(program.span(inner)[0], program.span(kept)[1], program.source(kept))


def if_unwrap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Replace one ``if`` without ``else`` by its body's single statement (the test is dropped)."""
    for node in program.walk([grammar.if_statement]):
        body = node.child_by_field_name("consequence")
        if body is None or node.child_by_field_name("alternative") is not None or _is_else_if(grammar, node):
            continue
        statements = _body_statements(program, grammar, body)
        if len(statements) == 1 and statements[0].type not in grammar.exits:
            yield program.replace(node, program.source(statements[0]))
