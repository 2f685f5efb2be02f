"""``reorder_statements``: two adjacent independent assignments swapped."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.source import SourceText
from execir.rewrite.python.common import blocks, is_pure, owns_lines, statement_end


def _effects(stmt: ast.stmt) -> tuple[set[str], set[str]] | None:
    """(names read, names written) of a plain assignment to names with a side-effect-free value."""
    if isinstance(stmt, ast.Assign):
        targets: list[ast.expr] = []
        for target in stmt.targets:
            targets.extend(target.elts if isinstance(target, ast.Tuple) else [target])
        value = stmt.value
        read: set[str] = set()
    elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.value, ast.Constant) and type(stmt.value.value) in (int, float):
        targets, value = [stmt.target], stmt.value  # a number added in place cannot mutate a shared object
        read = {stmt.target.id} if isinstance(stmt.target, ast.Name) else set()
    else:
        return None
    if not all(isinstance(target, ast.Name) for target in targets) or not is_pure(value):
        return None
    if any(isinstance(node, (ast.NamedExpr, ast.Starred)) for node in ast.walk(value)):
        return None
    read |= {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
    written = {target.id for target in targets if isinstance(target, ast.Name)}
    return read, written


def _independent(first: tuple[set[str], set[str]], second: tuple[set[str], set[str]]) -> bool:
    read1, written1 = first
    read2, written2 = second
    return not (written1 & (read2 | written2)) and not (written2 & read1)


def reorder_statements(tree: ast.Module, source: SourceText, reserved: frozenset[str]) -> Iterator[SpanEdit]:
    """Swap two adjacent assignments to plain names when neither reads or writes what the other
    writes and both values are free of side effects (only pure builtins are called); each line moves
    with its trailing comment."""
    del reserved
    for block in blocks(tree):
        for first, second in zip(block, block[1:]):
            effects1, effects2 = _effects(first), _effects(second)
            if effects1 is None or effects2 is None or not _independent(effects1, effects2):
                continue
            if not (owns_lines(source, first) and owns_lines(source, second)) or first.end_lineno == second.lineno:
                continue
            start1, end1 = source.node_span(first)[0], statement_end(source, first)
            start2, end2 = source.node_span(second)[0], statement_end(source, second)
            text1, text2 = source.text[start1:end1].rstrip(), source.text[start2:end2].rstrip()
            if text1 == text2:
                continue
            yield SpanEdit(start1, end2, text2 + source.text[end1:start2] + text1)
