"""Call-site mutations: argument order, min/max, any/all, mirror-image and related methods."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import is_text, nodes_of
from execir.languages.python.operators.variables import MAX_ALTERNATIVES, nearest
from execir.languages.python.source import SourceText

METHOD_ANTONYMS: dict[str, str] = {
    "lower": "upper",
    "upper": "lower",
    "islower": "isupper",
    "isupper": "islower",
    "startswith": "endswith",
    "endswith": "startswith",
    "lstrip": "rstrip",
    "rstrip": "lstrip",
    "find": "rfind",
    "rfind": "find",
    "ljust": "rjust",
    "rjust": "ljust",
    "ceil": "floor",
    "floor": "ceil",
}
"""Method name -> its mirror image (same signature, opposite end or case)."""

_BUILTIN_SWAPS: dict[str, str] = {"min": "max", "max": "min", "any": "all", "all": "any"}


def arg_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Swap two adjacent positional arguments of a call (only when their texts differ; whether
    the swap changes anything, ``max(a, b)`` included, is for execution to decide)."""
    for call in nodes_of(tree, ast.Call):
        if any(isinstance(a, ast.Starred) for a in call.args):
            continue
        for left, right in zip(call.args, call.args[1:]):
            (start, left_end), (right_start, end) = source.node_span(left), source.node_span(right)
            first, second = source.text[start:left_end], source.text[right_start:end]
            if first != second:
                middle = source.text[left_end:right_start]
                yield SpanEdit(start, end, second + middle + first)


def _builtin_swap(tree: ast.Module, source: SourceText, names: tuple[str, str]) -> Iterator[SpanEdit]:
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


RELATED_METHODS: dict[str, tuple[str, ...]] = {
    "swapcase": ("lower", "upper"),
    "capitalize": ("upper", "title"),
    "title": ("capitalize", "upper"),
    "sort": ("reverse",),
    "reverse": ("sort",),
    "keys": ("values",),
    "values": ("keys",),
    "index": ("find",),
    "isdigit": ("isalpha",),
    "isalpha": ("isdigit",),
    "extend": ("append",),
    "append": ("extend",),
}
"""Method name -> methods of the same receiver that are easily confused with it (beyond the
mirror images of ``method_swap``)."""


class _Attributes:
    """Attribute names of a file by receiver: where each method is called on it (and with how
    many arguments), where each other attribute of it is read. Receivers are told apart by their
    text (``l`` in ``l.append(x)``); string literals count as one receiver."""

    def __init__(self, tree: ast.Module, source: SourceText) -> None:
        self.source = source
        self.calls = {id(node.func): node for node in nodes_of(tree, ast.Call)}
        self.lines: dict[tuple[str, bool, int], dict[str, list[int]]] = {}
        for node in nodes_of(tree, ast.Attribute):
            self.lines.setdefault(self._key(node), {}).setdefault(node.attr, []).append(node.lineno)

    def _key(self, node: ast.Attribute) -> tuple[str, bool, int]:
        """(receiver, called, number of arguments; -1 when not called)."""
        receiver = "<str>" if is_text(node.value) else self.source.segment(node.value)
        call = self.calls.get(id(node))
        return receiver, call is not None, -1 if call is None else len(call.args) + len(call.keywords)

    def alternatives(self, node: ast.Attribute) -> list[str]:
        """Related methods first, then the nearest names used on the same receiver the same way
        (read, or called with as many arguments)."""
        related = list(RELATED_METHODS.get(node.attr, ())) if id(node) in self.calls else []
        same = [name for _, name in nearest(node.lineno, node.attr, self.lines[self._key(node)]) if name not in related]
        return [*related, *same][:MAX_ALTERNATIVES]


def attribute_swap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Replace one method or attribute name by a related one (:data:`RELATED_METHODS`) or by
    another name used on the same receiver the same way in the file (``l.append(x)`` ->
    ``l.count(x)`` when ``l.count(y)`` occurs), nearest first and within
    :data:`~execir.languages.python.operators.variables.WINDOW` lines, at most
    :data:`MAX_ALTERNATIVES` per use."""
    attributes = _Attributes(tree, source)
    for node in nodes_of(tree, ast.Attribute):
        if isinstance(node.ctx, ast.Load):
            end = source.node_span(node)[1]
            for name in attributes.alternatives(node):
                yield SpanEdit(end - len(node.attr), end, name)
