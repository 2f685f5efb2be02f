"""Go's own operators (the shared families are in :mod:`execir.languages.treesitter.families`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.go.grammar import GRAMMAR
from execir.languages.treesitter.program import Program

_INTEGER_ELEMENTS = re.compile(r"^\[\w*\](int|int64|int32|uint|uint64)$")
"""Slice and array types whose elements are integers, like the indices ranging yields."""


def range_index_swap(program: Program) -> Iterator[SpanEdit]:
    """Range over indices where the values were meant: ``for _, x := range xs`` ->
    ``for x := range xs`` (``x`` now holds each index), the classic Go range slip; only over a
    local declared as a slice or array of integers (any other element type would not compile)."""
    types = {
        program.source(name): declared
        for function in program.walk(GRAMMAR.functions)
        for name, declared in GRAMMAR.declarations(program, function)
        if declared is not None
    }
    for clause in program.walk(["range_clause"]):
        left, right = clause.child_by_field_name("left"), clause.child_by_field_name("right")
        names = [] if left is None else [child for child in left.children if child.is_named]
        if left is None or right is None or len(names) != 2 or program.source(names[0]) != "_":
            continue
        if _INTEGER_ELEMENTS.match("".join(types.get(program.source(right), "").split())):
            yield program.replace(left, program.source(names[1]))
