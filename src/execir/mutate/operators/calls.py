"""Call-site mutations: argument order and min/max."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.mutate.edits import SpanEdit
from execir.mutate.operators.base import nodes_of
from execir.mutate.source import SourceText

_SYMMETRIC = frozenset({"max", "min", "gcd", "lcm", "hypot"})
"""Callees whose positional arguments commute (swapping them gives an equivalent program)."""


def _callee_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def arg_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap two adjacent positional arguments of a call (only when their texts differ)."""
    for call in nodes_of(tree, ast.Call):
        if _callee_name(call) in _SYMMETRIC or any(isinstance(a, ast.Starred) for a in call.args):
            continue
        for left, right in zip(call.args, call.args[1:]):
            (start, left_end), (right_start, end) = source.node_span(left), source.node_span(right)
            first, second = source.text[start:left_end], source.text[right_start:end]
            if first != second:
                middle = source.text[left_end:right_start]
                yield SpanEdit(start, end, second + middle + first)


def min_max_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one call of builtin ``min`` <-> ``max``."""
    for call in nodes_of(tree, ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id in ("min", "max"):
            start, end = source.node_span(call.func)
            yield SpanEdit(start, end, "max" if call.func.id == "min" else "min")
