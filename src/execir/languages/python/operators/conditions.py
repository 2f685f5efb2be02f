"""Condition mutations: a boolean operand dropped, a condition made constant, a comparison
replaced by a different relation."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import code_nodes, nodes_of, operator_span, swaps_at
from execir.languages.python.operators.exprs import outer_span, parents, replace_with
from execir.languages.python.operators.logic import conditions
from execir.languages.python.source import SourceText

COMPARE_REPLACE: dict[type[ast.cmpop], tuple[str, tuple[str, ...]]] = {
    ast.Eq: ("==", ("<", ">")),
    ast.Lt: ("<", ("==",)),
    ast.Gt: (">", ("==",)),
    ast.LtE: ("<=", ("==",)),
    ast.GtE: (">=", ("==",)),
}
"""Relations swapped across kinds (equality <-> order): what ``compare_swap`` (boundary,
negation) and ``compare_flip`` (direction) leave out."""


def bool_operand_delete(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Drop one operand of ``and``/``or`` with its keyword (``a or b`` -> ``a`` / ``b``;
    ``a and b and c`` -> ``a and c``). Kept operands stay as written, parentheses included."""
    table = parents(tree)
    for node in nodes_of(tree, ast.BoolOp):
        values = node.values
        if len(values) == 2:
            yield replace_with(source, table, node, values[1])
            yield replace_with(source, table, node, values[0])
            continue
        spans = [outer_span(source, value, table.get(id(value))) for value in values]
        for index, (start, end) in enumerate(spans):
            if index == 0:
                yield SpanEdit(start, spans[1][0], "")
            else:
                yield SpanEdit(spans[index - 1][1], end, "")


def _terminates(loop: ast.While) -> bool:
    """The loop body can leave the loop by itself (a ``break`` or ``return`` in it)."""
    return any(isinstance(node, (ast.Break, ast.Return)) for node in ast.walk(loop))


def condition_const(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Replace one ``if``/``while``/conditional-expression/comprehension condition by ``True``
    or ``False``.

    An ``if`` without ``else`` is left to the operators that write the same change the way
    people do (``if_unwrap``: the body without its condition; ``guard_delete`` and
    ``branch_delete``: the ``if`` gone); ``while True`` only where the body can leave the loop
    (otherwise the mutant only times out).
    """
    for node in code_nodes(tree):
        if isinstance(node, ast.If) and not node.orelse and not source.text.startswith("elif", source.node_span(node)[0]):
            continue
        for test in conditions(node):
            if isinstance(test, ast.Constant):
                continue
            start, end = source.node_span(test)
            for value in ("True", "False"):
                if value == "True" and isinstance(node, ast.While) and not _terminates(node):
                    continue
                yield SpanEdit(start, end, value)


def compare_replace(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Replace an equality by an order or an order by an equality (``==`` -> ``<`` / ``>``,
    ``<=`` -> ``==``, ...); see :data:`COMPARE_REPLACE`."""
    for node in nodes_of(tree, ast.Compare):
        operands = [node.left, *node.comparators]
        for index, op in enumerate(node.ops):
            entry = COMPARE_REPLACE.get(type(op))
            if entry is not None:
                span = operator_span(source, operands[index], operands[index + 1], entry[0])
                yield from swaps_at(span, entry[1])
