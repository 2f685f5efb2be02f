"""Display and slice mutations: a slice dropped, an element deleted, two elements swapped."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import nodes_of
from execir.languages.python.operators.exprs import Context, outer_span, parents, replace_with
from execir.languages.python.source import SourceText

Span = tuple[int, int]


def slice_remove(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Drop a slice that is read (``x[1:]`` -> ``x``, ``s[::-1]`` -> ``s``)."""
    table = parents(tree)
    for node in nodes_of(tree, ast.Subscript):
        if isinstance(node.slice, ast.Slice) and isinstance(node.ctx, ast.Load):
            yield replace_with(source, table, node, node.value)


def _is_parenthesized(source: SourceText, node: ast.Tuple) -> bool:
    text = source.segment(node)
    return text.startswith("(") and text.endswith(")")


def _elements(source: SourceText, table: dict[int, Context], node: ast.AST) -> list[Span] | None:
    """Spans of a display's elements (a dict item spans key to value); None for displays that
    are not plain values (targets, unpacking, bare tuples)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        if not isinstance(node.ctx, ast.Load) or any(isinstance(e, ast.Starred) for e in node.elts):
            return None
        return [outer_span(source, e, table.get(id(e))) for e in node.elts]
    if isinstance(node, ast.Set):
        return [outer_span(source, e, table.get(id(e))) for e in node.elts]
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            return None
        return [
            (outer_span(source, k, table.get(id(k)))[0], outer_span(source, v, table.get(id(v)))[1]) for k, v in zip(node.keys, node.values) if k is not None
        ]
    return None


def element_delete(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Delete one element of a list, tuple, set or dict display (``[n]`` -> ``[]``,
    ``(1, 3, 5)`` -> ``(1, 5)``). Tuples without parentheses and one-element sets are left."""
    table = parents(tree)
    for node in nodes_of(tree, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
        if isinstance(node, ast.Tuple) and not _is_parenthesized(source, node):
            continue
        spans = _elements(source, table, node)
        if not spans or (isinstance(node, ast.Set) and len(spans) == 1):
            continue
        if len(spans) == 1:
            start, end = source.node_span(node)
            yield SpanEdit(start, end, source.text[start] + source.text[end - 1])
            continue
        for index, (start, end) in enumerate(spans):
            if index == 0:
                yield SpanEdit(start, spans[1][0], "")
            else:
                yield SpanEdit(spans[index - 1][1], end, "")


def element_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap two adjacent elements of a list or tuple (``[min(a), idx]`` -> ``[idx, min(a)]``,
    ``(i, j)`` -> ``(j, i)``, ``return a, b`` -> ``return b, a``). Literals stay in place
    (reordering a constant table is not a slip)."""
    table = parents(tree)
    for node in nodes_of(tree, (ast.List, ast.Tuple)):
        spans = _elements(source, table, node)
        if spans is None or not isinstance(node, (ast.List, ast.Tuple)):
            continue
        elements = node.elts
        for index in range(len(spans) - 1):
            if isinstance(elements[index], ast.Constant) or isinstance(elements[index + 1], ast.Constant):
                continue
            (a_start, a_end), (b_start, b_end) = spans[index], spans[index + 1]
            first, second = source.text[a_start:a_end], source.text[b_start:b_end]
            if first != second:
                yield SpanEdit(a_start, b_end, second + source.text[a_end:b_start] + first)
