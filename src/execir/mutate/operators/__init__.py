"""The registry of Python mutation operators.

Names are stable identifiers written into datasets: never rename one, only add. Each operator is
a pure function ``(tree, source) -> Iterable[SpanEdit]`` taking the parsed module and its
:class:`~execir.mutate.source.SourceText` (``SourceText(text)``); every edit is one mutant.
"""

from __future__ import annotations

from execir.mutate.operators.arith import (
    arith_swap,
    augassign_swap,
    bitwise_swap,
    unary_minus_remove,
)
from execir.mutate.operators.base import Operator
from execir.mutate.operators.calls import (
    any_all_swap,
    arg_swap,
    method_swap,
    min_max_swap,
)
from execir.mutate.operators.constants import (
    const_decr,
    const_incr,
    const_zero_one,
    return_bool_flip,
)
from execir.mutate.operators.indices import off_by_one
from execir.mutate.operators.logic import (
    bool_swap,
    compare_flip,
    compare_swap,
    not_insert,
    not_remove,
)
from execir.mutate.operators.statements import guard_delete, loop_control_swap

_ALL: tuple[Operator, ...] = (
    any_all_swap,
    arg_swap,
    arith_swap,
    augassign_swap,
    bitwise_swap,
    bool_swap,
    compare_flip,
    compare_swap,
    const_decr,
    const_incr,
    const_zero_one,
    guard_delete,
    loop_control_swap,
    method_swap,
    min_max_swap,
    not_insert,
    not_remove,
    off_by_one,
    return_bool_flip,
    unary_minus_remove,
)

OPERATORS: dict[str, Operator] = {
    op.__name__: op for op in sorted(_ALL, key=lambda op: op.__name__)
}
"""Stable operator name -> operator, in name order."""

__all__ = ["OPERATORS", "Operator"]
