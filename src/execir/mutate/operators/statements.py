"""Statement-level mutations: guard deletion and loop-control swaps."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.mutate.edits import SpanEdit
from execir.mutate.operators.base import code_nodes, nodes_of
from execir.mutate.source import SourceText

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
                yield SpanEdit(start, end, "pass" if alone else "")


def loop_control_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one ``break`` <-> ``continue``."""
    for node in nodes_of(tree, (ast.Break, ast.Continue)):
        start, end = source.node_span(node)
        yield SpanEdit(start, end, "continue" if isinstance(node, ast.Break) else "break")
