"""The registry of Ruby mutation operators.

Names are stable identifiers written into datasets: never rename one, only add. Where a Python
operator expresses the same bug its name is reused; ``range_swap`` (``..``<->``...``) is Ruby's own,
and ``unless``/``until`` are covered by ``not_insert``/``not_remove``. Each operator is a pure
function ``(program) -> Iterable[SpanEdit]`` over a parsed :class:`~execir.languages.treesitter.Program`;
every edit is one candidate mutant, and the engine keeps only those that still parse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from execir.edits import SpanEdit
from execir.languages.base import OperatorSpec
from execir.languages.ruby.operators.arith import (
    arith_swap,
    augassign_swap,
    binary_operand_delete,
    bitwise_swap,
    operand_swap,
    term_insert,
    unary_minus_remove,
)
from execir.languages.ruby.operators.calls import arg_delete, arg_swap, attribute_swap, call_unwrap, method_swap, min_max_swap
from execir.languages.ruby.operators.constants import const_decr, const_incr, const_zero_one, off_by_one, return_bool_flip, return_const
from execir.languages.ruby.operators.logic import (
    bool_operand_delete,
    bool_swap,
    compare_flip,
    compare_swap,
    condition_const,
    not_insert,
    not_remove,
    range_swap,
)
from execir.languages.ruby.operators.names import subscript_swap, variable_misuse
from execir.languages.ruby.operators.nodes import dead_spans
from execir.languages.ruby.operators.statements import element_delete, guard_delete, loop_control_swap, statement_delete
from execir.languages.treesitter import Program

Operator = Callable[[Program], Iterable[SpanEdit]]

_FAMILIES: tuple[tuple[Operator, str], ...] = (
    (arg_delete, "missing"),
    (arg_swap, "variable"),
    (arith_swap, "operator"),
    (attribute_swap, "function"),
    (augassign_swap, "operator"),
    (binary_operand_delete, "missing"),
    (bitwise_swap, "operator"),
    (bool_operand_delete, "missing"),
    (bool_swap, "operator"),
    (call_unwrap, "missing"),
    (compare_flip, "operator"),
    (compare_swap, "operator"),
    (condition_const, "value"),
    (const_decr, "value"),
    (const_incr, "value"),
    (const_zero_one, "value"),
    (element_delete, "missing"),
    (guard_delete, "missing"),
    (loop_control_swap, "operator"),
    (method_swap, "function"),
    (min_max_swap, "function"),
    (not_insert, "excess"),
    (not_remove, "missing"),
    (off_by_one, "value"),
    (operand_swap, "variable"),
    (range_swap, "operator"),
    (return_bool_flip, "value"),
    (return_const, "value"),
    (statement_delete, "missing"),
    (subscript_swap, "variable"),
    (term_insert, "excess"),
    (unary_minus_remove, "missing"),
    (variable_misuse, "variable"),
)


def _live(function: Operator) -> Operator:
    """The operator without the edits that fall in unreachable code (their mutants are equivalent)."""

    def apply(program: Program) -> Iterable[SpanEdit]:
        dead = dead_spans(program)
        return [edit for edit in function(program) if not any(start <= edit.start and edit.end <= end for start, end in dead)]

    apply.__doc__ = function.__doc__
    return apply


OPERATORS: tuple[OperatorSpec[Program], ...] = tuple(
    OperatorSpec(function.__name__, family, _live(function)) for function, family in sorted(_FAMILIES, key=lambda pair: pair[0].__name__)
)
"""Every Ruby operator with its family, in name order (edits in unreachable code dropped)."""

FUNCTIONS: dict[str, Operator] = {function.__name__: function for function, _ in _FAMILIES}
"""Stable operator name -> its function."""

__all__ = ["FUNCTIONS", "OPERATORS", "Operator"]
