"""The registry of Python mutation operators.

Names are stable identifiers written into datasets: never rename one, only add. Each operator is
a pure function ``(tree, source) -> Iterable[SpanEdit]`` taking the parsed module and its
:class:`~execir.languages.python.source.SourceText` (``SourceText(text)``); every edit is one mutant.
Each belongs to one family of :data:`execir.languages.base.FAMILIES`.
"""

from __future__ import annotations

from collections.abc import Iterable

from execir.languages.base import OperatorSpec
from execir.languages.python.operators.arith import (
    arith_swap,
    augassign_swap,
    bitwise_swap,
    unary_minus_remove,
)
from execir.languages.python.operators.base import Operator
from execir.languages.python.operators.calls import (
    any_all_swap,
    arg_swap,
    method_swap,
    min_max_swap,
)
from execir.languages.python.operators.constants import (
    const_decr,
    const_incr,
    const_zero_one,
    return_bool_flip,
)
from execir.languages.python.operators.indices import off_by_one
from execir.languages.python.operators.logic import (
    bool_swap,
    compare_flip,
    compare_swap,
    not_insert,
    not_remove,
)
from execir.languages.python.operators.statements import guard_delete, loop_control_swap
from execir.languages.python.program import PythonProgram
from execir.mutate.edits import SpanEdit

_FAMILIES: tuple[tuple[Operator, str], ...] = (
    (any_all_swap, "function"),
    (arg_swap, "variable"),
    (arith_swap, "operator"),
    (augassign_swap, "operator"),
    (bitwise_swap, "operator"),
    (bool_swap, "operator"),
    (compare_flip, "operator"),
    (compare_swap, "operator"),
    (const_decr, "value"),
    (const_incr, "value"),
    (const_zero_one, "value"),
    (guard_delete, "missing"),
    (loop_control_swap, "operator"),
    (method_swap, "function"),
    (min_max_swap, "function"),
    (not_insert, "excess"),
    (not_remove, "missing"),
    (off_by_one, "value"),
    (return_bool_flip, "value"),
    (unary_minus_remove, "missing"),
)


def _spec(function: Operator, family: str) -> OperatorSpec[PythonProgram]:
    def apply(program: PythonProgram) -> Iterable[SpanEdit]:
        return function(program.tree, program.source)

    apply.__doc__ = function.__doc__
    return OperatorSpec(function.__name__, family, apply)


OPERATORS: tuple[OperatorSpec[PythonProgram], ...] = tuple(
    _spec(function, family) for function, family in sorted(_FAMILIES, key=lambda pair: pair[0].__name__)
)
"""Every Python operator with its family, in name order."""

FUNCTIONS: dict[str, Operator] = {function.__name__: function for function, _ in _FAMILIES}
"""Stable operator name -> the ``(tree, source)`` function behind it."""

__all__ = ["FUNCTIONS", "OPERATORS", "Operator"]
