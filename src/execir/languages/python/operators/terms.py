"""Excess terms: ``+ 1`` / ``- 1`` added to an integer expression, an accumulator counted twice."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import int_literal, is_text, nodes_of
from execir.languages.python.source import SourceText

_INT_CALLS = frozenset({"len", "sum", "ord", "int", "abs", "round", "count", "index", "find", "rfind"})
_INT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


def _int_valued(node: ast.AST) -> bool:
    """An expression that is evidently an integer computation: ``len(...)``, ``sum(...)``, ...,
    or integer arithmetic (``+ - * // %`` without text or float literals) that does not already
    end in ``+ k`` / ``- k`` (that literal is ``const_incr``'s / ``const_decr``'s)."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        return name in _INT_CALLS
    if not isinstance(node, ast.BinOp) or not isinstance(node.op, _INT_OPS):
        return False
    if isinstance(node.op, (ast.Add, ast.Sub)) and int_literal(node.right) is not None:
        return False
    return all(not is_text(side) and not (isinstance(side, ast.Constant) and isinstance(side.value, float)) for side in (node.left, node.right))


def _term_places(tree: ast.Module) -> Iterator[ast.expr]:
    """Returned values, compared operands and assigned values."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Return, ast.Assign)) and node.value is not None:
            yield node.value
        elif isinstance(node, ast.Compare):
            yield node.left
            yield from node.comparators


def term_insert(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Add ``+ 1`` / ``- 1`` to an integer-valued expression that is returned, compared or
    assigned (``return len(s)`` -> ``return len(s) - 1``; range, slice and index bounds are
    ``off_by_one``'s)."""
    code = {id(node) for node in nodes_of(tree, ast.expr)}
    for place in _term_places(tree):
        if id(place) not in code or not _int_valued(place):
            continue
        start, end = source.node_span(place)
        for term in (" + 1", " - 1"):  # + - * // % all bind at least as tightly as +
            yield SpanEdit(start, end, source.text[start:end] + term)


_ACCUMULATE: dict[type[ast.operator], str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}


def self_term_insert(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Count an accumulator twice: ``x += e`` -> ``x += x + e``, ``x = x * e`` -> ``x *= x * e``
    (``+``, ``-`` and ``*`` updates of a plain name)."""
    for node in nodes_of(tree, (ast.AugAssign, ast.Assign)):
        if isinstance(node, ast.AugAssign):
            symbol = _ACCUMULATE.get(type(node.op))
            if symbol is not None and isinstance(node.target, ast.Name):
                between = source.tokens_in(source.node_span(node.target)[1], source.node_span(node.value)[0])
                start = between[1].start if len(between) > 1 else source.node_span(node.value)[0]  # after "op="
                yield SpanEdit(start, start, f"{node.target.id} {symbol} ")
            continue
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        if not isinstance(target, ast.Name) or not isinstance(value, ast.BinOp):
            continue
        symbol = _ACCUMULATE.get(type(value.op))
        if symbol is None or not (isinstance(value.left, ast.Name) and value.left.id == target.id):
            continue
        equals = next((tok for tok in source.tokens_in(source.node_span(target)[1], source.node_span(value)[0]) if tok.string == "="), None)
        if equals is not None:
            yield SpanEdit(equals.start, equals.end, symbol + "=")
