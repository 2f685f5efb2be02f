"""``swap_commutative`` and ``de_morgan`` for tree-sitter languages."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.treesitter.program import Program
from execir.rewrite.treesitter.syntax import Syntax


def _operator(program: Program, node: Node) -> str:
    token = program.operator_token(node)
    return "" if token is None else program.source(token)


def _operands(node: Node) -> tuple[Node, Node] | None:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    return None if left is None or right is None else (left, right)


def _simple(node: Node, syntax: Syntax) -> bool:
    """An identifier, a literal, or member access and indexing built from those; a string literal
    only without interpolation (its named children are all tokens: no code runs inside it)."""
    if node.type not in syntax.simple:
        return False
    if node.type in syntax.member | syntax.index:
        return all(_simple(child, syntax) or child.type in syntax.field_names for child in node.named_children)
    return all(child.child_count == 0 for child in node.named_children)


def swap_commutative(program: Program, syntax: Syntax, reserved: frozenset[str]) -> Iterator[SpanEdit]:
    """Swap the operands of one ``==``/``!=`` whose operands are identifiers, literals, member
    access or indexing (no calls: nothing whose evaluation order could matter)."""
    del reserved
    for node in program.walk([syntax.binary]):
        operands = _operands(node)
        if operands is None or _operator(program, node) not in syntax.equality:
            continue
        left, right = operands
        if _simple(left, syntax) and _simple(right, syntax) and program.source(left) != program.source(right):
            middle = program.text[program.span(left)[1] : program.span(right)[0]]
            yield program.replace(node, program.source(right) + middle + program.source(left))


def _negated(program: Program, node: Node, syntax: Syntax) -> str:
    text = program.source(node)
    if node.type in syntax.simple | syntax.primary:
        return "!" + text
    return f"!({text})"


def _inner(node: Node, syntax: Syntax) -> Node | None:
    """The expression inside ``( ... )`` (None when the parentheses hold anything else)."""
    if node.type != syntax.paren:
        return None
    named = [child for child in node.named_children if child.type != "comment"]
    return named[0] if len(named) == 1 else None


def _fits(parent: Node | None, result: str, program: Program, syntax: Syntax) -> bool:
    """Whether an expression joined by ``result`` may stand unparenthesised where its parent has it."""
    if parent is None:
        return False
    if parent.type in syntax.loose_contexts:
        return True
    return parent.type == syntax.binary and _operator(program, parent) == "||" and result in ("||", "&&")


def _expand(program: Program, node: Node, syntax: Syntax) -> SpanEdit | None:
    """``!(a && b)`` -> ``!a || !b`` and ``!(a || b)`` -> ``!a && !b``."""
    argument = node.named_children[-1] if node.named_children else None
    inner = None if argument is None else _inner(argument, syntax)
    if inner is None or inner.type != syntax.binary or _operator(program, inner) not in ("&&", "||"):
        return None
    operands = _operands(inner)
    if operands is None:
        return None
    joined = "||" if _operator(program, inner) == "&&" else "&&"
    text = f"{_negated(program, operands[0], syntax)} {joined} {_negated(program, operands[1], syntax)}"
    if not _fits(node.parent, joined, program, syntax):
        text = f"({text})"
    return program.replace(node, text)


def _collapse(program: Program, node: Node, syntax: Syntax) -> SpanEdit | None:
    """``!a || !b`` -> ``!(a && b)`` and ``!a && !b`` -> ``!(a || b)``."""
    operator = _operator(program, node)
    operands = _operands(node)
    if operator not in ("&&", "||") or operands is None:
        return None
    inner: list[str] = []
    for operand in operands:
        if operand.type != syntax.unary or _operator(program, operand) != "!" or not operand.named_children:
            return None
        argument = operand.named_children[-1]
        if argument.type not in syntax.simple | syntax.primary or argument.type == syntax.unary:
            return None
        inner.append(program.source(argument))
    joined = "||" if operator == "&&" else "&&"
    return program.replace(node, f"!({inner[0]} {joined} {inner[1]})")


def de_morgan(program: Program, syntax: Syntax, reserved: frozenset[str]) -> Iterator[SpanEdit]:
    """Apply De Morgan's law at one negated ``&&``/``||`` or one ``&&``/``||`` of two negations."""
    del reserved
    for node in program.walk([syntax.unary, syntax.binary]):
        if node.type == syntax.unary and _operator(program, node) == "!":
            edit = _expand(program, node, syntax)
        elif node.type == syntax.binary:
            edit = _collapse(program, node, syntax)
        else:
            edit = None
        if edit is not None:
            yield edit
