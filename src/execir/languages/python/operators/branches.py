"""Branch mutations: an ``if`` or ``else`` branch deleted, a condition dropped from its body,
the two branches of an ``if``/``else`` swapped, the values of two returns exchanged."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import code_nodes
from execir.languages.python.operators.statements import EXITS, blocks, deletion, is_elif, is_guard, statement_end
from execir.languages.python.source import SourceText


def _plain_ifs(source: SourceText, tree: ast.Module) -> Iterator[tuple[str, list[ast.stmt], ast.If]]:
    """(field, block, statement) for every ``if`` (not ``elif``) without ``else``."""
    for field, block in blocks(tree):
        for statement in block:
            if isinstance(statement, ast.If) and not statement.orelse and not is_elif(source, field, statement):
                yield field, block, statement


def _has_else(source: SourceText, node: ast.If) -> bool:
    """The ``if`` ends in a real ``else:`` block (not an ``elif``)."""
    return bool(node.orelse) and not is_elif(source, "orelse", node.orelse[0])


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _own_line(source: SourceText, statement: ast.stmt) -> bool:
    """The statement starts a line (its block is not on its header's line)."""
    start = source.node_span(statement)[0]
    return not source.text[_line_start(source.text, start) : start].strip()


def branch_delete(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Delete one ``if`` statement without ``else`` (guards are ``guard_delete``'s) or the
    ``else:`` block of an ``if``/``elif``."""
    for field, block, statement in _plain_ifs(source, tree):
        if not is_guard(statement):
            yield deletion(source, field, block, statement)
    for node in code_nodes(tree):
        if isinstance(node, ast.If) and _has_else(source, node) and _own_line(source, node.orelse[0]):
            edit = _else_deletion(source, node)
            if edit is not None:
                yield edit


def _else_deletion(source: SourceText, node: ast.If) -> SpanEdit | None:
    """From the newline before the ``else:`` line to the end of the ``else`` block."""
    text = source.text
    body_end = source.node_span(node.body[-1])[1]
    else_start = source.node_span(node.orelse[0])[0]
    keyword = next((tok for tok in source.tokens_in(body_end, else_start) if tok.string == "else"), None)
    if keyword is None:
        return None
    line_start = _line_start(text, keyword.start)
    if line_start == 0 or text[line_start : keyword.start].strip():
        return None
    return SpanEdit(line_start - 1, statement_end(text, source.node_span(node.orelse[-1])[1]), "")


def _dedented(source: SourceText, header: ast.stmt, body: list[ast.stmt]) -> str | None:
    """The body's text moved to the header's indentation (from the first statement's start)."""
    text = source.text
    header_start = source.node_span(header)[0]
    first_start, body_end = source.node_span(body[0])[0], statement_end(text, source.node_span(body[-1])[1])
    if not _own_line(source, body[0]):
        return text[first_start:body_end] if len(body) == 1 or ";" in text[first_start:body_end] else None
    outer = text[_line_start(text, header_start) : header_start]
    inner = text[_line_start(text, first_start) : first_start]
    if not inner.startswith(outer) or inner == outer:
        return None
    lines = text[first_start:body_end].split("\n")
    moved = [lines[0]] + [outer + line[len(inner) :] if line.startswith(inner) else line for line in lines[1:]]
    return "\n".join(moved)


def if_unwrap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Drop the condition of an ``if`` without ``else``, keeping its body (dedented): the
    check that was forgotten (``if a == b: s.add(a)`` -> ``s.add(a)``). Bodies that end by
    leaving (``return``, ``raise``, ``break``, ``continue``) stay: unwrapped, they would make the
    rest of their block dead code."""
    for _, _, statement in _plain_ifs(source, tree):
        body = None if isinstance(statement.body[-1], EXITS) else _dedented(source, statement, statement.body)
        if body is not None:
            start, end = source.node_span(statement)
            yield SpanEdit(start, statement_end(source.text, end), body)


def _block_text(source: SourceText, body: list[ast.stmt]) -> tuple[int, int]:
    """Span of a block written on its own lines: from its first line's start to its end."""
    start = _line_start(source.text, source.node_span(body[0])[0])
    return start, statement_end(source.text, source.node_span(body[-1])[1])


def branch_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap the two blocks of an ``if``/``else`` (same condition, branches exchanged)."""
    for node in code_nodes(tree):
        if not isinstance(node, ast.If) or not _has_else(source, node):
            continue
        if not (_own_line(source, node.body[0]) and _own_line(source, node.orelse[0])):
            continue
        (a_start, a_end), (b_start, b_end) = _block_text(source, node.body), _block_text(source, node.orelse)
        first, second = source.text[a_start:a_end], source.text[b_start:b_end]
        if first != second and _indent(first) == _indent(second):
            yield SpanEdit(a_start, b_end, second + source.text[a_end:b_start] + first)


def _indent(block: str) -> str:
    return block[: len(block) - len(block.lstrip(" \t"))]


def _own_returns(function: ast.AST) -> Iterator[ast.Return]:
    """Returns of a function body, not of functions, lambdas or classes nested in it."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def return_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Exchange the values of two consecutive ``return`` statements of a function, as one edit
    spanning both (``if bad: return False`` ... ``return True`` -> ``return True`` ...
    ``return False``: the answer inverted)."""
    for function in code_nodes(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        spans = sorted(source.node_span(r.value) for r in _own_returns(function) if r.value is not None)
        for (a_start, a_end), (b_start, b_end) in zip(spans, spans[1:]):
            first, second = source.text[a_start:a_end], source.text[b_start:b_end]
            if first != second:
                yield SpanEdit(a_start, b_end, second + source.text[a_end:b_start] + first)
