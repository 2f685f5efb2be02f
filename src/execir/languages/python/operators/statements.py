"""Statement-level mutations: guard deletion and loop-control swaps."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.languages.python.operators.base import code_nodes, nodes_of
from execir.languages.python.source import SourceText
from execir.mutate.edits import SpanEdit

_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_BLOCK_FIELDS = ("body", "orelse", "finalbody")


def _is_guard(node: ast.stmt) -> bool:
    """An ``if`` without ``else`` whose body only leaves (return/raise/continue/break)."""
    return (
        isinstance(node, ast.If)
        and not node.orelse
        and all(isinstance(statement, _EXITS) for statement in node.body)
    )


def guard_delete(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Delete one guard ``if`` statement (``pass`` replaces it when it was alone in its block)."""
    for parent in code_nodes(tree):
        for field in _BLOCK_FIELDS:
            block = getattr(parent, field, None)
            if not isinstance(block, list):
                continue
            for statement in block:
                if not isinstance(statement, ast.stmt) or not _is_guard(statement):
                    continue
                start, end = source.node_span(statement)
                is_elif = field == "orelse" and source.text.startswith("elif", start)
                alone = len(block) == 1 and not is_elif
                if alone or is_elif:
                    yield SpanEdit(start, end, "pass" if alone else "")
                else:
                    yield SpanEdit(*_whole_lines(source.text, start, end), "")


def _whole_lines(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a statement's span to its whole lines (indent and newline) when it owns them,
    so deleting it leaves no blank, indentation-only line behind."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end + 1
    if text[line_start:start].strip() or text[end:line_end].strip():
        return start, end
    return line_start, line_end


def loop_control_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one ``break`` <-> ``continue``."""
    for node in nodes_of(tree, (ast.Break, ast.Continue)):
        start, end = source.node_span(node)
        yield SpanEdit(start, end, "continue" if isinstance(node, ast.Break) else "break")
