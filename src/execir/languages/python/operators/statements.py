"""Statement-level mutations: a statement or guard deleted, loop control swapped."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit, whole_lines
from execir.languages.python.operators.base import code_nodes, nodes_of
from execir.languages.python.source import SourceText

EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
"""Statements that leave their block."""
_BLOCK_FIELDS = ("body", "orelse", "finalbody")


def is_guard(node: ast.stmt) -> bool:
    """An ``if`` without ``else`` whose body only leaves (return/raise/continue/break)."""
    return isinstance(node, ast.If) and not node.orelse and all(isinstance(statement, EXITS) for statement in node.body)


def blocks(tree: ast.AST) -> Iterator[tuple[str, list[ast.stmt]]]:
    """(field, statements) of every statement block in code (bodies, else and finally blocks)."""
    for parent in code_nodes(tree):
        for field in _BLOCK_FIELDS:
            block = getattr(parent, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield field, block


def is_elif(source: SourceText, field: str, statement: ast.stmt) -> bool:
    """An ``if`` written as the ``elif`` of its parent."""
    return field == "orelse" and isinstance(statement, ast.If) and source.text.startswith("elif", source.node_span(statement)[0])


def deletion(source: SourceText, field: str, block: list[ast.stmt], statement: ast.stmt) -> SpanEdit:
    """Delete one statement of a block: ``pass`` replaces it when it was alone in its block, an
    ``elif`` goes from its keyword on, and otherwise its whole lines go (or, on a line shared
    with ``;``-separated statements, the statement with one separator)."""
    start, end = source.node_span(statement)
    elif_ = is_elif(source, field, statement)
    if len(block) == 1 and not elif_:
        return SpanEdit(start, end, "pass")
    if elif_:
        return SpanEdit(start, end, "")
    return SpanEdit(*whole_lines(source.text, *_with_separator(source.text, start, end), comment="#"), "")


def statement_end(text: str, end: int) -> int:
    """The end of a statement with the ``;`` written right after it, if any."""
    after = end
    while after < len(text) and text[after] in " \t":
        after += 1
    return after + 1 if after < len(text) and text[after] == ";" else end


def _with_separator(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a span over a ``;`` after it (and the spaces after that), or else over a ``;``
    before it, so that deleting it leaves the other statements of its line intact."""
    after = end
    while after < len(text) and text[after] in " \t":
        after += 1
    if after < len(text) and text[after] == ";":
        after += 1
        while after < len(text) and text[after] in " \t":
            after += 1
        return start, after
    before = start
    while before > 0 and text[before - 1] in " \t":
        before -= 1
    if before > 0 and text[before - 1] == ";":
        return before - 1, end
    return start, end


def guard_delete(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Delete one guard ``if`` statement (``pass`` replaces it when it was alone in its block)."""
    for field, block in blocks(tree):
        for statement in block:
            if is_guard(statement):
                yield deletion(source, field, block, statement)


_SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)


def statement_delete(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Delete one expression statement or (augmented) assignment (``pass`` replaces it when it
    was alone in its block). Docstrings and annotations without a value stay."""
    for field, block in blocks(tree):
        for statement in block:
            if not isinstance(statement, _SIMPLE) or _is_string_statement(statement):
                continue
            if isinstance(statement, ast.AnnAssign) and statement.value is None:
                continue
            yield deletion(source, field, block, statement)


def _is_string_statement(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str)


def loop_control_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one ``break`` <-> ``continue``."""
    for node in nodes_of(tree, (ast.Break, ast.Continue)):
        start, end = source.node_span(node)
        yield SpanEdit(start, end, "continue" if isinstance(node, ast.Break) else "break")
