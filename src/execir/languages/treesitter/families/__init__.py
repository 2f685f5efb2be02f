"""Mutation operators shared by the tree-sitter languages, written once over a :class:`Grammar`.

Each shared operator is a pure function ``(program, grammar) -> Iterable[SpanEdit]``: it reads the
node types and spellings of one language from its :class:`Grammar` and yields one edit per
candidate mutant (the edits of one operator may repeat; :meth:`Language.candidates` sorts and
deduplicates them, the engine drops the ones that no longer parse). :data:`SHARED` names every one
with its family (names are stable identifiers written into datasets: never rename one, only add;
where Python has the concept the name is Python's); :func:`operators_for` binds them to a grammar
as :class:`~execir.languages.base.OperatorSpec` objects, together with a language's own operators.

A language module then reads::

    GRAMMAR = Grammar("go", numbers=frozenset({"int_literal"}), ...)
    OPERATORS = operators_for(GRAMMAR, own=(OperatorSpec("my_op", "value", my_op),), exclude=("arg_delete",))
    GO = make_language("go", tree_sitter_go.language, frozenset({"comment"}), OPERATORS)

Where they live: :mod:`.operators` (family ``operator``), :mod:`.constants` and :mod:`.values`
(``value``), :mod:`.statements` and :mod:`.missing` (``missing``), :mod:`.excess` (``excess``),
:mod:`.names` and :mod:`.variables` (``variable``), :mod:`.functions` (``function``); the grammar
description in :mod:`.grammar`, the node helpers in :mod:`.nodes`.

An operator whose node types a grammar leaves empty yields nothing (no ``slices``: no
``slice_remove``), so a language describes only what it has. Every node type a grammar names must
exist in its tree-sitter grammar (``Grammar.node_types()``; checked by the tests).

The stable API (also for languages outside this package): :class:`Grammar` and its default tables
(:data:`ARITH`, :data:`BITWISE`, :data:`COMPARE_SWAP`, :data:`COMPARE_FLIP`,
:data:`COMPARE_REPLACE`, :data:`BOOLEAN`), :data:`Declarations`, :data:`SHARED`,
:data:`SharedOperator`, :func:`bind`, :func:`operators_for`, and the node helpers re-exported below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from execir.edits import SpanEdit
from execir.languages.base import OperatorSpec
from execir.languages.treesitter.families import (
    constants,
    excess,
    functions,
    missing,
    names,
    operators,
    statements,
    values,
    variables,
)
from execir.languages.treesitter.families.grammar import ARITH, BITWISE, BOOLEAN, COMPARE_FLIP, COMPARE_REPLACE, COMPARE_SWAP, Declarations, Grammar
from execir.languages.treesitter.families.nodes import (
    call_arguments,
    callee,
    code,
    condition_of,
    enclosing,
    int_value,
    operator_text,
    subscript_index,
    unwrap,
)
from execir.languages.treesitter.program import Program

SharedOperator = Callable[[Program, Grammar], Iterable[SpanEdit]]
"""A shared operator: (parsed program, the language's grammar description) -> edits."""

SHARED: dict[str, tuple[SharedOperator, str]] = {
    "arith_swap": (operators.arith_swap, "operator"),
    "augassign_swap": (operators.augassign_swap, "operator"),
    "bitwise_swap": (operators.bitwise_swap, "operator"),
    "bool_swap": (operators.bool_swap, "operator"),
    "compare_flip": (operators.compare_flip, "operator"),
    "compare_replace": (operators.compare_replace, "operator"),
    "compare_swap": (operators.compare_swap, "operator"),
    "increment_swap": (operators.increment_swap, "operator"),
    "loop_control_swap": (operators.loop_control_swap, "operator"),
    "bool_literal_flip": (values.bool_literal_flip, "value"),
    "condition_const": (values.condition_const, "value"),
    "const_decr": (constants.const_decr, "value"),
    "const_incr": (constants.const_incr, "value"),
    "const_to_zero": (constants.const_to_zero, "value"),
    "const_zero_one": (constants.const_zero_one, "value"),
    "off_by_one": (constants.off_by_one, "value"),
    "return_bool_flip": (values.return_bool_flip, "value"),
    "return_const": (values.return_const, "value"),
    "string_edit": (values.string_edit, "value"),
    "arg_delete": (missing.arg_delete, "missing"),
    "binary_operand_delete": (missing.binary_operand_delete, "missing"),
    "bool_operand_delete": (missing.bool_operand_delete, "missing"),
    "branch_delete": (statements.branch_delete, "missing"),
    "call_unwrap": (missing.call_unwrap, "missing"),
    "element_delete": (missing.element_delete, "missing"),
    "guard_delete": (statements.guard_delete, "missing"),
    "if_unwrap": (statements.if_unwrap, "missing"),
    "not_remove": (missing.not_remove, "missing"),
    "paren_remove": (missing.paren_remove, "missing"),
    "slice_remove": (missing.slice_remove, "missing"),
    "statement_delete": (statements.statement_delete, "missing"),
    "unary_minus_remove": (missing.unary_minus_remove, "missing"),
    "not_insert": (excess.not_insert, "excess"),
    "self_term_insert": (excess.self_term_insert, "excess"),
    "term_insert": (excess.term_insert, "excess"),
    "arg_swap": (variables.arg_swap, "variable"),
    "branch_swap": (variables.branch_swap, "variable"),
    "element_swap": (variables.element_swap, "variable"),
    "operand_swap": (variables.operand_swap, "variable"),
    "receiver_swap": (variables.receiver_swap, "variable"),
    "return_swap": (variables.return_swap, "variable"),
    "subscript_swap": (variables.subscript_swap, "variable"),
    "variable_misuse": (names.variable_misuse, "variable"),
    "attribute_swap": (functions.attribute_swap, "function"),
    "method_swap": (functions.method_swap, "function"),
    "min_max_swap": (functions.min_max_swap, "function"),
}
"""Stable operator name -> (shared function, family)."""


def bind(name: str, function: SharedOperator, family: str, grammar: Grammar) -> OperatorSpec[Program]:
    """One shared function bound to a grammar, as an operator spec (the function's doc kept)."""

    def apply(program: Program) -> Iterable[SpanEdit]:
        return function(program, grammar)

    apply.__doc__ = function.__doc__
    return OperatorSpec(name, family, apply)


def operators_for(
    grammar: Grammar,
    own: Iterable[OperatorSpec[Program]] = (),
    exclude: Iterable[str] = (),
) -> tuple[OperatorSpec[Program], ...]:
    """Every shared operator (less ``exclude``) bound to ``grammar``, plus a language's ``own``
    operators, in name order. An own operator may not reuse a shared name."""
    skipped = frozenset(exclude)
    unknown = skipped - SHARED.keys()
    if unknown:
        raise ValueError(f"{grammar.name}: cannot exclude unknown shared operators {sorted(unknown)}")
    specs = [bind(name, function, family, grammar) for name, (function, family) in SHARED.items() if name not in skipped]
    for spec in own:
        if spec.name in SHARED:
            raise ValueError(f"{grammar.name}: operator {spec.name} shadows a shared operator")
        specs.append(spec)
    return tuple(sorted(specs, key=lambda spec: spec.name))


__all__ = [
    "ARITH",
    "BITWISE",
    "BOOLEAN",
    "COMPARE_FLIP",
    "COMPARE_REPLACE",
    "COMPARE_SWAP",
    "SHARED",
    "Declarations",
    "Grammar",
    "SharedOperator",
    "bind",
    "call_arguments",
    "callee",
    "code",
    "condition_of",
    "enclosing",
    "int_value",
    "operator_text",
    "operators_for",
    "subscript_index",
    "unwrap",
]
