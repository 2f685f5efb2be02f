"""The registry of Python mutation operators.

Names are stable identifiers written into datasets: never rename one, only add. Each operator is
a pure function ``(tree, source) -> Iterable[SpanEdit]`` taking the parsed module and its
:class:`~execir.languages.python.source.SourceText` (``SourceText(text)``); every edit is one mutant.
Each belongs to one family of :data:`execir.languages.base.FAMILIES`.
"""

from __future__ import annotations

from collections.abc import Iterable

from execir.edits import SpanEdit
from execir.languages.base import OperatorSpec
from execir.languages.python.operators.arith import (
    arith_swap,
    augassign_swap,
    bitwise_swap,
    unary_minus_remove,
)
from execir.languages.python.operators.base import Operator
from execir.languages.python.operators.branches import branch_delete, branch_swap, if_unwrap, return_swap
from execir.languages.python.operators.calls import (
    any_all_swap,
    arg_swap,
    attribute_swap,
    method_swap,
    min_max_swap,
)
from execir.languages.python.operators.conditions import (
    bool_operand_delete,
    compare_replace,
    condition_const,
)
from execir.languages.python.operators.constants import (
    const_decr,
    const_incr,
    const_zero_one,
    return_bool_flip,
)
from execir.languages.python.operators.displays import element_delete, element_swap, slice_remove
from execir.languages.python.operators.indices import off_by_one
from execir.languages.python.operators.literals import (
    bool_literal_flip,
    const_to_zero,
    return_const,
    string_edit,
)
from execir.languages.python.operators.logic import (
    bool_swap,
    compare_flip,
    compare_swap,
    not_insert,
    not_remove,
)
from execir.languages.python.operators.operands import binary_operand_delete, operand_swap, subscript_swap
from execir.languages.python.operators.statements import guard_delete, loop_control_swap, statement_delete
from execir.languages.python.operators.terms import self_term_insert, term_insert
from execir.languages.python.operators.variables import variable_misuse
from execir.languages.python.operators.wrappers import arg_delete, call_unwrap
from execir.languages.python.program import PythonProgram

_FAMILIES: tuple[tuple[Operator, str], ...] = (
    (any_all_swap, "function"),
    (arg_delete, "missing"),
    (arg_swap, "variable"),
    (arith_swap, "operator"),
    (attribute_swap, "function"),
    (augassign_swap, "operator"),
    (binary_operand_delete, "missing"),
    (bitwise_swap, "operator"),
    (bool_literal_flip, "value"),
    (bool_operand_delete, "missing"),
    (bool_swap, "operator"),
    (branch_delete, "missing"),
    (branch_swap, "variable"),
    (call_unwrap, "missing"),
    (compare_flip, "operator"),
    (compare_replace, "operator"),
    (compare_swap, "operator"),
    (condition_const, "value"),
    (const_decr, "value"),
    (const_incr, "value"),
    (const_to_zero, "value"),
    (const_zero_one, "value"),
    (element_delete, "missing"),
    (element_swap, "variable"),
    (guard_delete, "missing"),
    (if_unwrap, "missing"),
    (loop_control_swap, "operator"),
    (method_swap, "function"),
    (min_max_swap, "function"),
    (not_insert, "excess"),
    (not_remove, "missing"),
    (off_by_one, "value"),
    (operand_swap, "variable"),
    (return_bool_flip, "value"),
    (return_const, "value"),
    (return_swap, "variable"),
    (self_term_insert, "excess"),
    (slice_remove, "missing"),
    (statement_delete, "missing"),
    (string_edit, "value"),
    (subscript_swap, "variable"),
    (term_insert, "excess"),
    (unary_minus_remove, "missing"),
    (variable_misuse, "variable"),
)


def _spec(function: Operator, family: str) -> OperatorSpec[PythonProgram]:
    def apply(program: PythonProgram) -> Iterable[SpanEdit]:
        return function(program.tree, program.source)

    apply.__doc__ = function.__doc__
    return OperatorSpec(function.__name__, family, apply)


OPERATORS: tuple[OperatorSpec[PythonProgram], ...] = tuple(_spec(function, family) for function, family in sorted(_FAMILIES, key=lambda pair: pair[0].__name__))
"""Every Python operator with its family, in name order."""

FUNCTIONS: dict[str, Operator] = {function.__name__: function for function, _ in _FAMILIES}
"""Stable operator name -> the ``(tree, source)`` function behind it."""

__all__ = ["FUNCTIONS", "OPERATORS", "Operator"]
