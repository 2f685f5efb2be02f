"""Arithmetic and bitwise operators: swaps, operand order and deletion, unary minus, an added term."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.ruby.operators.nodes import (
    COMPARE_OPS,
    LITERALS,
    PRECEDENCE,
    field,
    int_value,
    is_primary,
    is_shift,
    is_text,
    method_name,
    nodes,
    op_text,
    returned_values,
)
from execir.languages.ruby.operators.values import guess_kind
from execir.languages.treesitter import Program

ARITH: dict[str, tuple[str, ...]] = {"+": ("-",), "-": ("+",), "*": ("/",), "/": ("*", "%"), "%": ("/",), "**": ("*",)}
"""Arithmetic operator -> replacements (Ruby's integer ``/`` already floors: no ``//``)."""

BITWISE: dict[str, tuple[str, ...]] = {"&": ("|",), "|": ("&",), "^": ("|",), "<<": (">>",), ">>": ("<<",)}
"""Bitwise operator -> replacements (``&``/``|`` are also Array intersection/union)."""

NON_COMMUTATIVE = frozenset({"-", "/", "%", "**"})

DISPLAYS = LITERALS | {"array", "hash", "string_array", "symbol_array", "chained_string", "regex"}
"""Literal operands (``-1`` included) that keep their side in ``operand_swap``."""


def _operands(node: Node) -> tuple[Node, Node] | None:
    left, right = field(node, "left"), field(node, "right")
    return None if left is None or right is None else (left, right)


def _is_literal(program: Program, node: Node) -> bool:
    return node.type in DISPLAYS or int_value(program, node) is not None


def _is_arithmetic(program: Program, node: Node) -> bool:
    """A binary arithmetic operation on numbers (neither operand a string or array literal)."""
    operands = _operands(node)
    return operands is not None and op_text(program, node) in ARITH and not any(is_text(side) for side in operands)


def _is_bitwise(program: Program, node: Node) -> bool:
    operator = op_text(program, node)
    if operator in ("<<", ">>"):
        return is_shift(program, node)
    return operator in BITWISE and _operands(node) is not None


def _swaps(program: Program, node: Node, table: dict[str, tuple[str, ...]], suffix: str = "") -> Iterator[SpanEdit]:
    token = program.operator_token(node)
    if token is not None:
        for after in table[program.source(token)[: len(program.source(token)) - len(suffix)]]:
            yield program.replace(token, after + suffix)


def arith_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap one arithmetic operator (``+``<->``-``, ``*``->``/``, ``/``->``* %``, ``%``->``/``, ``**``->``*``);
    ``+``/``*``/``-`` on string or array literals are left alone."""
    for node in nodes(program, ("binary",)):
        if _is_arithmetic(program, node):
            yield from _swaps(program, node, ARITH)


def bitwise_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap one bitwise operator: ``&``<->``|``, ``^``->``|``, ``<<``<->``>>`` (shifts only, not appends)."""
    for node in nodes(program, ("binary",)):
        if _is_bitwise(program, node):
            yield from _swaps(program, node, BITWISE)


def augassign_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap an operator assignment (``+=``<->``-=``, ``*=``->``/=``, ``&=``<->``|=``, ...); not on text (``s += "a"``)."""
    table = {**ARITH, **BITWISE}
    for node in nodes(program, ("operator_assignment",)):
        right = field(node, "right")
        operator = op_text(program, node)
        if right is not None and operator[:-1] in table and not is_text(right) and guess_kind(program, right) != "string":
            yield from _swaps(program, node, table, "=")


def unary_minus_remove(program: Program) -> Iterator[SpanEdit]:
    """Delete one unary minus (``-x`` -> ``x``, ``-1`` -> ``1``)."""
    for node in nodes(program, ("unary",)):
        operand = field(node, "operand")
        if op_text(program, node) == "-" and operand is not None:
            yield SpanEdit(program.span(node)[0], program.span(operand)[0], "")


def _placed(program: Program, node: Node, operator: str, side: str) -> str:
    """An operand's text when it moves to ``side`` of ``operator`` (parenthesised when it would regroup)."""
    text = program.source(node)
    if node.type == "binary" and op_text(program, node) in PRECEDENCE:
        inner, outer = PRECEDENCE[op_text(program, node)], PRECEDENCE[operator]
        right_assoc = operator == "**"
        keeps = inner > outer or (inner == outer and (side == "left") != right_assoc)
        return text if keeps else f"({text})"
    if node.type == "unary" and op_text(program, node) == "-" and operator != "**":
        return text
    return text if is_primary(program, node) else f"({text})"


def operand_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap the operands of one non-commutative operation: ``a - b`` -> ``b - a`` (also ``/ % **``
    and string concatenation ``s + t``). Literals keep their side; comparisons are left to
    ``compare_flip`` (``b < a`` is ``a > b``)."""
    for node in nodes(program, ("binary",)):
        operands = _operands(node)
        operator = op_text(program, node)
        if operands is None:
            continue
        left, right = operands
        concatenation = operator == "+" and "string" in (guess_kind(program, left), guess_kind(program, right))
        if not (concatenation or (operator in NON_COMMUTATIVE and _is_arithmetic(program, node))):
            continue
        if program.source(left) == program.source(right) or any(_is_literal(program, side) for side in operands):
            continue  # literals keep their side: ``n - 1`` -> ``1 - n`` is not a plausible slip
        middle = program.text[program.span(left)[1] : program.span(right)[0]]
        yield program.replace(node, _placed(program, right, operator, "left") + middle + _placed(program, left, operator, "right"))


def binary_operand_delete(program: Program) -> Iterator[SpanEdit]:
    """Delete one operand of an arithmetic or bitwise operation with its operator: ``a + b`` -> ``a`` or ``b``
    (string concatenation included; appends ``a << x`` excluded; one term at a time in a chain). A
    literal is never kept alone (``s.size - 1`` -> ``1`` is not a bug anyone writes)."""
    for node in nodes(program, ("binary",)):
        operands = _operands(node)
        operator = op_text(program, node)
        if operands is None or not (operator in ARITH or _is_bitwise(program, node)):
            continue
        left, right = operands
        if left.type not in LITERALS:
            yield _keep(program, node, left)
        chained = left.type == "binary" and PRECEDENCE.get(op_text(program, left)) == PRECEDENCE.get(operator)
        if not chained and right.type not in LITERALS:  # in ``a + b + c`` the outer ``+`` keeping ``c`` would drop two terms
            yield _keep(program, node, right)


def _keep(program: Program, node: Node, kept: Node) -> SpanEdit:
    """Replace ``node`` by ``kept``; parentheses that held only ``node`` go when ``kept`` needs none."""
    parent = node.parent
    if parent is not None and parent.type == "parenthesized_statements" and len(parent.named_children) == 1 and is_primary(program, kept):
        return program.replace(parent, program.source(kept))
    return program.replace(node, program.source(kept))


def term_insert(program: Program) -> Iterator[SpanEdit]:
    """Add ``+ 1`` / ``- 1`` to an integer-valued expression that is returned, compared or assigned
    (``return s.size`` -> ``return s.size - 1``, ``x = a * b`` -> ``x = a * b + 1``); range, index
    and loop bounds are ``off_by_one``'s."""
    for node in _term_places(program):
        if _int_valued(program, node):
            text = program.source(node)
            for term in (" + 1", " - 1"):  # every arithmetic operator binds at least as tightly as +
                yield program.replace(node, text + term)


INT_METHODS = frozenset({"size", "length", "count", "sum", "to_i", "abs", "ord", "index", "rindex", "round", "floor", "ceil", "div"})
"""Methods whose value is evidently an integer."""


def _int_valued(program: Program, node: Node) -> bool:
    """An evident integer computation: a call of INT_METHODS, or arithmetic (``+ - * / %`` on no
    text or float literal) that does not already end in ``+ k`` / ``- k`` (that literal is
    ``const_incr``'s / ``const_decr``'s)."""
    if node.type == "call":
        return method_name(program, node) in INT_METHODS
    operands = _operands(node)
    operator = op_text(program, node)
    if node.type != "binary" or operands is None or operator not in ("+", "-", "*", "/", "%") or not _is_arithmetic(program, node):
        return False
    left, right = operands
    if operator in ("+", "-") and right.type == "integer":
        return False
    return all(side.type != "float" and guess_kind(program, side) not in ("string", "array") for side in operands)


def _term_places(program: Program) -> Iterator[Node]:
    """Returned values, compared operands and assigned values."""
    for node in nodes(program, ("assignment", "operator_assignment")):
        right = field(node, "right")
        if right is not None:
            yield right
    yield from returned_values(program)
    for node in nodes(program, ("binary",)):
        if op_text(program, node) in COMPARE_OPS:
            yield from (side for side in (field(node, "left"), field(node, "right")) if side is not None)
