"""Shared helpers for Ruby operators: node fields, statement blocks, precedence, value guesses.

Tree shapes are those of ``tree-sitter-ruby``: ``binary`` (left/operator/right), ``unary``
(operator/operand), ``call`` (receiver/method/arguments/block), ``if``/``unless``/``while``/``until``
and their ``*_modifier`` forms (condition/body), ``conditional`` (the ternary), ``return``
(an ``argument_list``), ``element_reference`` (object and index children), ``range``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from tree_sitter import Node

from execir.edits import SpanEdit, whole_lines
from execir.languages.treesitter import Program

BLOCKS = frozenset({"program", "body_statement", "then", "else", "do", "block_body", "begin", "ensure"})
"""Node types whose named children are statements."""

NOT_STATEMENTS = frozenset({"comment", "rescue", "else", "ensure", "empty_statement", "heredoc_body"})
"""Named children of a block that are not statements (a ``rescue``/``else`` clause of a body)."""

ARITH_OPS = frozenset({"+", "-", "*", "/", "%", "**"})
BITWISE_OPS = frozenset({"&", "|", "^", "<<", ">>"})
COMPARE_OPS = frozenset({"<", "<=", ">", ">=", "==", "!=", "===", "=~", "!~", "<=>"})
BOOL_OPS = frozenset({"&&", "||", "and", "or"})

PRECEDENCE = {"**": 4, "*": 3, "/": 3, "%": 3, "+": 2, "-": 2}
"""Binding strength of the arithmetic operators (higher binds tighter)."""

TEXT_TYPES = frozenset({"string", "chained_string", "heredoc_beginning", "string_array", "symbol_array", "character", "regex", "array", "subshell"})
"""Literals for which ``+``/``*``/``-`` are not arithmetic (concatenation, repetition, difference)."""

PRIMARY_TYPES = frozenset(
    {
        "identifier",
        "constant",
        "integer",
        "float",
        "rational",
        "complex",
        "string",
        "chained_string",
        "simple_symbol",
        "delimited_symbol",
        "array",
        "hash",
        "string_array",
        "symbol_array",
        "element_reference",
        "parenthesized_statements",
        "instance_variable",
        "class_variable",
        "global_variable",
        "self",
        "nil",
        "true",
        "false",
        "scope_resolution",
        "regex",
    }
)
"""Expressions that bind tighter than any operator (safe to prefix with ``!`` or suffix with ``+ 1``)."""

EXITS = frozenset({"return", "next", "break", "redo", "retry"})
"""Statements that leave a block (``raise``/``fail`` calls count too, see :func:`is_exit`)."""

NOT_VALUES = EXITS | {"assignment", "operator_assignment", "while", "until", "for", "if_modifier", "unless_modifier", "while_modifier", "until_modifier"}
"""Last statements that are not an implicit return value worth mutating."""

LITERALS = frozenset({"integer", "float", "string", "true", "false", "nil", "simple_symbol", "rational"})


def nodes(program: Program, types: Iterable[str]) -> Iterator[Node]:
    """Named nodes of the given types in document order, comments skipped (keyword tokens such as
    the ``if`` inside an ``if`` statement share their node's type name but are not named)."""
    return (node for node in program.walk(types) if node.is_named)


def field(node: Node, name: str) -> Node | None:
    """A child by field name."""
    return node.child_by_field_name(name)


def op_text(program: Program, node: Node) -> str:
    """The operator of a ``binary``/``unary``/``operator_assignment``/``range`` node ('' if none)."""
    token = program.operator_token(node)
    return program.source(token) if token is not None else ""


def statements(block: Node) -> list[Node]:
    """The statements of a block node, in order."""
    return [child for child in block.named_children if child.type not in NOT_STATEMENTS]


def blocks(program: Program) -> Iterator[Node]:
    """Every statement block (the top level, bodies, branches, loop bodies, blocks)."""
    return nodes(program, BLOCKS)


def is_exit(program: Program, node: Node) -> bool:
    """A statement that leaves its block: return/next/break/redo/retry or a ``raise``/``fail`` call."""
    if node.type in EXITS:
        return True
    method = field(node, "method")
    return node.type == "call" and field(node, "receiver") is None and method is not None and program.source(method) in ("raise", "fail")


def call_args(node: Node) -> list[Node]:
    """The argument nodes of a call (empty for no argument list)."""
    arguments = field(node, "arguments")
    return [] if arguments is None else [child for child in arguments.named_children if child.type != "comment"]


def method_name(program: Program, node: Node) -> str:
    """The called method's name of a ``call`` node ('' when there is none)."""
    method = field(node, "method")
    return program.source(method) if method is not None else ""


def is_primary(program: Program, node: Node) -> bool:
    """True when ``node`` binds tighter than every operator (a ``!`` prefix or ``+ 1`` suffix keeps it whole)."""
    if node.type in PRIMARY_TYPES:
        return True
    if node.type == "call":
        arguments = field(node, "arguments")
        return arguments is None or program.source(arguments).startswith("(")
    return False


def is_text(node: Node) -> bool:
    """A string-like or array literal (its ``+``/``*`` are not arithmetic)."""
    return node.type in TEXT_TYPES


def is_shift(program: Program, node: Node) -> bool:
    """A ``<<``/``>>`` that is plausibly an integer shift, not an append: an integer literal operand
    and not a statement of its own."""
    operands = [field(node, "left"), field(node, "right")]
    if any(operand is None or is_text(operand) for operand in operands):
        return False
    parent = node.parent
    at_statement = parent is not None and parent.type in BLOCKS
    return not at_statement and any(operand is not None and operand.type == "integer" for operand in operands)


def int_value(program: Program, node: Node) -> int | None:
    """The value of a decimal integer literal (``12``, ``1_000``, ``-3``); None for anything else."""
    if node.type == "unary" and op_text(program, node) == "-":
        operand = field(node, "operand")
        inner = None if operand is None or operand.type != "integer" else int_value(program, operand)
        return None if inner is None else -inner
    if node.type != "integer":
        return None
    text = program.source(node).replace("_", "")
    if not text.isdigit() or (len(text) > 1 and text.startswith("0")):
        return None  # hex, octal, binary literals stay as they are
    return int(text)


def statement_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The span to delete for a statement at ``[start, end)``: its whole lines when it owns them,
    with the spaces before it when it ends its line (``def f(x)  y = 1`` -> ``def f(x)``)."""
    wide = whole_lines(text, start, end)
    if wide != (start, end):
        return wide
    line_end = text.find("\n", end)
    if not text[end : len(text) if line_end < 0 else line_end].strip():
        while start > 0 and text[start - 1] in " \t":
            start -= 1
    return start, end


def delete_statement(program: Program, node: Node) -> SpanEdit:
    """The edit that deletes one statement (see :func:`statement_span`)."""
    return SpanEdit(*statement_span(program.text, *program.span(node)), "")


def delete_prefix(program: Program, node: Node, operand: Node) -> SpanEdit:
    """The edit that deletes everything from ``node``'s start up to ``operand`` (a prefix operator and its spacing)."""
    return SpanEdit(program.span(node)[0], program.span(operand)[0], "")


def delete_item(program: Program, items: list[Node], index: int) -> SpanEdit:
    """The edit that deletes one item of a separated list with its separator (the one after it,
    or the one before it for the last item)."""
    if index < len(items) - 1:
        return SpanEdit(program.span(items[index])[0], program.span(items[index + 1])[0], "")
    return SpanEdit(program.span(items[index - 1])[1], program.span(items[index])[1], "")


def shifted(program: Program, node: Node, delta: int) -> str:
    """The text of an integer-valued expression moved by ``delta``: a new literal for literals,
    ``n - 1`` -> ``n`` / ``n - 2`` for a literal offset, else ``x + 1`` (parenthesised when needed)."""
    value = int_value(program, node)
    if value is not None:
        return str(value + delta)
    if node.type == "binary" and op_text(program, node) in ("+", "-"):
        left, right, operator = field(node, "left"), field(node, "right"), program.operator_token(node)
        offset = None if right is None else int_value(program, right)
        if left is not None and right is not None and operator is not None and offset is not None and right.type == "integer":
            total = (offset if program.source(operator) == "+" else -offset) + delta
            head = program.text[program.span(node)[0] : program.span(operator)[0]]
            if total == 0:
                return head.rstrip()
            gap = program.text[program.span(operator)[1] : program.span(right)[0]]
            return f"{head}{'+' if total > 0 else '-'}{gap}{abs(total)}"
    text = program.source(node)
    if not (is_primary(program, node) or (node.type == "binary" and op_text(program, node) in PRECEDENCE)):
        text = f"({text})"
    return f"{text} + {delta}" if delta > 0 else f"{text} - {-delta}"


def negated(program: Program, node: Node) -> str:
    """``!c`` for a primary ``c``, else ``!(c)``."""
    text = program.source(node)
    return f"!{text}" if is_primary(program, node) else f"!({text})"


def dead_spans(program: Program) -> list[tuple[int, int]]:
    """Spans of unreachable code: what follows an unconditional ``return``/``next``/``break``/``raise``
    in the same block (MBXP has canonicals with junk after their ``return``)."""
    spans = []
    for block in blocks(program):
        body = statements(block)
        for index, statement in enumerate(body[:-1]):
            if is_exit(program, statement):
                spans.append((program.span(body[index + 1])[0], program.span(body[-1])[1]))
                break
    return spans


def methods(program: Program) -> Iterator[Node]:
    """Every method definition (``def`` and ``def self.``)."""
    return nodes(program, ("method", "singleton_method"))


def tails(program: Program, node: Node) -> Iterator[Node]:
    """The expressions whose value a method body returns implicitly (its last statement, through
    ``if``/``unless``/``case`` branches and ``begin``)."""
    if node.type in BLOCKS:
        body = statements(node)
        if body:
            yield from tails(program, body[-1])
    elif node.type in ("if", "unless", "elsif"):
        for name in ("consequence", "alternative"):
            branch = field(node, name)
            if branch is not None:
                yield from tails(program, branch)
    elif node.type == "case":
        for child in node.named_children:
            if child.type == "when":
                when_body = field(child, "body")
                if when_body is not None:
                    yield from tails(program, when_body)
            elif child.type == "else":
                yield from tails(program, child)
    elif node.type == "parenthesized_statements" and len(node.named_children) == 1:
        yield node.named_children[0]
    else:
        yield node


def returned_values(program: Program) -> Iterator[Node]:
    """The single value of every ``return x`` and every implicit return of a method body."""
    for node in nodes(program, ("return",)):
        values = [child for child in node.named_children if child.type == "argument_list"]
        if values and len(values[0].named_children) == 1:
            yield values[0].named_children[0]
    for method in methods(program):
        body = field(method, "body")
        if body is not None and body.type in BLOCKS:
            for tail in tails(program, body):
                if tail.type not in NOT_VALUES:
                    yield tail
