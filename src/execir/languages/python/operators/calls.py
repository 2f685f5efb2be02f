"""Call-site mutations: argument order and min/max."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.languages.python.operators.base import nodes_of
from execir.languages.python.source import SourceText
from execir.mutate.edits import SpanEdit

_SYMMETRIC = frozenset({"max", "min", "gcd", "lcm", "hypot"})
"""Callees whose positional arguments commute (swapping them gives an equivalent program)."""

METHOD_ANTONYMS: dict[str, str] = {
    "lower": "upper", "upper": "lower", "islower": "isupper", "isupper": "islower",
    "startswith": "endswith", "endswith": "startswith", "lstrip": "rstrip", "rstrip": "lstrip",
    "find": "rfind", "rfind": "find", "ljust": "rjust", "rjust": "ljust",
}
"""Method name -> its mirror image (same signature, opposite end or case)."""

_BUILTIN_SWAPS: dict[str, str] = {"min": "max", "max": "min", "any": "all", "all": "any"}


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


def _builtin_swap(
    tree: ast.Module, source: SourceText, names: tuple[str, str]
) -> Iterator[SpanEdit]:
    for call in nodes_of(tree, ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id in names:
            start, end = source.node_span(call.func)
            yield SpanEdit(start, end, _BUILTIN_SWAPS[call.func.id])


def min_max_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one call of builtin ``min`` <-> ``max``."""
    return _builtin_swap(tree, source, ("min", "max"))


def any_all_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one call of builtin ``any`` <-> ``all``."""
    return _builtin_swap(tree, source, ("any", "all"))


def method_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap one called method for its mirror (``lower``<->``upper``; see METHOD_ANTONYMS)."""
    for call in nodes_of(tree, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in METHOD_ANTONYMS:
            end = source.node_span(func)[1]
            yield SpanEdit(end - len(func.attr), end, METHOD_ANTONYMS[func.attr])
