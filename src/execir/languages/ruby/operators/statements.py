"""Statement-level operators: guards, loop control, deleted statements and collection elements."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.ruby.operators.nodes import blocks, delete_item, delete_statement, field, is_exit, method_name, nodes, op_text, statements
from execir.languages.treesitter import Program

SIMPLE_STATEMENTS = frozenset(
    {
        "assignment",
        "operator_assignment",
        "return",
        "yield",
        "if_modifier",
        "unless_modifier",
        "while_modifier",
        "until_modifier",
    }
)
"""Statements ``statement_delete`` may remove, besides calls with an effect (see :func:`has_effect`);
compound statements such as ``if ... end`` or loops are too large for one realistic bug."""

MUTATORS = frozenset(
    {
        "push",
        "append",
        "prepend",
        "pop",
        "shift",
        "unshift",
        "insert",
        "delete",
        "delete_at",
        "delete_if",
        "keep_if",
        "concat",
        "clear",
        "store",
        "update",
        "merge!",
        "replace",
        "fill",
        "puts",
        "print",
        "p",
        "raise",
    }
)
"""Methods called for their effect (a statement calling one of them changes state)."""


def has_effect(program: Program, node: Node) -> bool:
    """A statement whose deletion changes what runs: assignments and the like, an append
    (``a << x``), a call of a mutating, ``!`` or block-taking method, or of a method without receiver."""
    if node.type in SIMPLE_STATEMENTS:
        return True
    if node.type == "binary":
        return op_text(program, node) == "<<"
    if node.type == "call":
        name = method_name(program, node)
        return name in MUTATORS or name.endswith("!") or field(node, "block") is not None or field(node, "receiver") is None
    return False


def is_guard(program: Program, node: Node) -> bool:
    """``return x if c`` / ``next unless c`` / ``raise ... if c``, or an ``if``/``unless`` without
    ``else`` whose body only leaves (``if c then return x end``)."""
    if node.type in ("if_modifier", "unless_modifier"):
        guarded = field(node, "body")
        return guarded is not None and is_exit(program, guarded)
    if node.type in ("if", "unless") and field(node, "alternative") is None:
        consequence = field(node, "consequence")
        body = [] if consequence is None else statements(consequence)
        return bool(body) and all(is_exit(program, statement) for statement in body)
    return False


def guard_delete(program: Program) -> Iterator[SpanEdit]:
    """Delete one guard statement (see :func:`is_guard`), with its lines when it owns them."""
    for block in blocks(program):
        for statement in statements(block):
            if is_guard(program, statement):
                yield delete_statement(program, statement)


def loop_control_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap one ``break`` <-> ``next``."""
    for node in nodes(program, ("break", "next")):
        keyword = node.children[0]
        yield program.replace(keyword, "next" if node.type == "break" else "break")


def statement_delete(program: Program) -> Iterator[SpanEdit]:
    """Delete one simple statement with an effect (assignment, ``return``, modifier statement,
    mutating call; see :func:`has_effect`) from a block that has others; guards are left to
    ``guard_delete``, and a method's last statement (its return value) stays."""
    for block in blocks(program):
        body = statements(block)
        if len(body) < 2:
            continue
        if block.parent is not None and block.parent.type in ("method", "singleton_method"):
            body = body[:-1]
        for statement in body:
            if has_effect(program, statement) and not is_guard(program, statement):
                yield delete_statement(program, statement)


def element_delete(program: Program) -> Iterator[SpanEdit]:
    """Delete one element of an array, hash or ``%w[]`` literal that has at least two (with its separator)."""
    for node in nodes(program, ("array", "hash", "string_array", "symbol_array")):
        items = [child for child in node.named_children if child.type != "comment"]
        if len(items) < 2:
            continue
        for index in range(len(items)):
            yield delete_item(program, items, index)
