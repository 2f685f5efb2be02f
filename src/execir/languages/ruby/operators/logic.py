"""Comparison, boolean and condition operators (``unless``/``until`` are Ruby's negated ``if``/``while``)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.ruby.operators.nodes import BOOL_OPS, field, negated, nodes, op_text
from execir.languages.treesitter import Program

COMPARE_SWAP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "=~": "!~", "!~": "=~"}
"""Boundary and negation swaps."""

COMPARE_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}
"""Direction flips."""

BOOL_SWAP = {"&&": "||", "||": "&&", "and": "or", "or": "and"}

STATEMENT_CONDITIONAL = ("if", "unless", "elsif", "while", "until", "if_modifier", "unless_modifier", "while_modifier", "until_modifier")
CONDITIONAL = (*STATEMENT_CONDITIONAL, "conditional")
"""Nodes with a ``condition`` field (statements, modifiers and the ternary)."""

NEGATED_KEYWORD = {"unless": "if", "until": "while", "unless_modifier": "if", "until_modifier": "while"}
"""Negated forms and the keyword that drops the negation."""

POSITIVE_KEYWORD = {"if": "unless", "while": "until", "if_modifier": "unless", "while_modifier": "until"}


def _token_swaps(program: Program, table: dict[str, str]) -> Iterator[SpanEdit]:
    for node in nodes(program, ("binary",)):
        token = program.operator_token(node)
        if token is not None and program.source(token) in table:
            yield program.replace(token, table[program.source(token)])


def compare_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap one comparison at its boundary or negation (``<``<->``<=``, ``==``<->``!=``, ``=~``<->``!~``)."""
    return _token_swaps(program, COMPARE_SWAP)


def compare_flip(program: Program) -> Iterator[SpanEdit]:
    """Flip one comparison's direction: ``<``<->``>``, ``<=``<->``>=``."""
    return _token_swaps(program, COMPARE_FLIP)


def bool_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap one boolean operator: ``&&``<->``||``, ``and``<->``or``."""
    return _token_swaps(program, BOOL_SWAP)


def range_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap one range's inclusive/exclusive end: ``a..b``<->``a...b``."""
    for node in nodes(program, ("range",)):
        token = program.operator_token(node)
        if token is not None and program.source(token) in ("..", "..."):
            yield program.replace(token, "..." if program.source(token) == ".." else "..")


def _keyword(node: Node) -> Node | None:
    """The ``if``/``unless``/``while``/``until`` keyword token of a statement or modifier."""
    for child in node.children:
        if not child.is_named and child.type in ("if", "unless", "while", "until"):
            return child
    return None


def _is_negation(program: Program, node: Node) -> bool:
    return node.type == "unary" and op_text(program, node) in ("!", "not")


def not_remove(program: Program) -> Iterator[SpanEdit]:
    """Delete one negation: a ``!``/``not`` (with its spacing), or ``unless``->``if``, ``until``->``while``."""
    for node in nodes(program, ("unary",)):
        operand = field(node, "operand")
        if _is_negation(program, node) and operand is not None:
            yield SpanEdit(program.span(node)[0], program.span(operand)[0], "")
    for node in nodes(program, tuple(NEGATED_KEYWORD)):
        keyword = _keyword(node)
        if keyword is not None:
            yield program.replace(keyword, NEGATED_KEYWORD[node.type])


def not_insert(program: Program) -> Iterator[SpanEdit]:
    """Negate one condition: ``if``->``unless`` and ``while``->``until`` (statements without ``else``,
    and modifiers), ``c``->``!c`` / ``!(c)`` elsewhere (``elsif``, ternaries, ``if`` with ``else``).

    Conditions already negated (``!c``, ``not c``, ``unless``, ``until``) are left to ``not_remove``.
    """
    for node in nodes(program, CONDITIONAL):
        condition = field(node, "condition")
        if condition is None or node.type in NEGATED_KEYWORD or _is_negation(program, condition):
            continue
        keyword = _keyword(node)
        if node.type in POSITIVE_KEYWORD and keyword is not None and field(node, "alternative") is None:
            yield program.replace(keyword, POSITIVE_KEYWORD[node.type])
        else:
            yield program.replace(condition, negated(program, condition))


def bool_operand_delete(program: Program) -> Iterator[SpanEdit]:
    """Delete one operand of a boolean operation with its operator: ``a && b`` -> ``a`` or ``b``
    (operands that are assignments are kept: that would delete a statement)."""
    for node in nodes(program, ("binary",)):
        left, right = field(node, "left"), field(node, "right")
        if op_text(program, node) not in BOOL_OPS or left is None or right is None:
            continue
        if any(side.type in ("assignment", "operator_assignment") for side in (left, right)):
            continue
        for kept in (left, right):
            yield program.replace(node, program.source(kept))


def condition_const(program: Program) -> Iterator[SpanEdit]:
    """Replace one statement's condition by ``true`` or ``false`` (a loop condition only by the
    constant that skips the loop, never by one that loops forever; ternaries are left alone)."""
    for node in nodes(program, STATEMENT_CONDITIONAL):
        condition = field(node, "condition")
        if condition is None or condition.type in ("true", "false"):
            continue
        if node.type in ("while", "while_modifier"):
            constants: tuple[str, ...] = ("false",)
        elif node.type in ("until", "until_modifier"):
            constants = ("true",)
        else:
            constants = ("true", "false")
        for constant in constants:
            yield program.replace(condition, constant)
