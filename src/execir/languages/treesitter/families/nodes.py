"""Node helpers the shared families build on: children without comments, wrappers looked through,
operator tokens, callees, arguments, indices, conditions, integer literals and enclosing nodes."""

from __future__ import annotations

from tree_sitter import Node

from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.program import Program


def named(node: Node) -> list[Node]:
    """A node's named children (comments included: callers filter with :func:`code`)."""
    return [child for child in node.children if child.is_named]


def code(program: Program, node: Node) -> list[Node]:
    """A node's named children that are not comments."""
    return [child for child in node.children if child.is_named and child.type not in program.comment_types]


def unwrap(grammar: Grammar, node: Node) -> Node:
    """The expression inside parentheses, condition wrappers and one-element expression lists."""
    wrappers = grammar.parenthesized | grammar.condition_wrappers | grammar.expression_lists | grammar.index_wrappers
    while node.type in wrappers:
        inner = [child for child in node.children if child.is_named and "comment" not in child.type]
        if len(inner) != 1:
            break
        node = inner[0]
    return node


def operator_text(program: Program, node: Node) -> tuple[Node, str] | None:
    """The operator token of a binary/unary/assignment/update node and its text."""
    token = program.operator_token(node)
    if token is None:
        return None
    return token, program.source(token)


def callee(grammar: Grammar, call: Node) -> Node | None:
    """The node naming a call's function or method (``max`` in ``std::max(a, b)``, ``size`` in
    ``v.size()``), or None for calls of computed expressions."""
    node = call.child_by_field_name(grammar.call_function) if call.child_by_field_name("name") is None else call
    while node is not None:
        if node.type in grammar.identifiers or node.type.endswith("identifier"):
            return node
        if node.type in grammar.member:
            node = node.child_by_field_name(grammar.member[node.type][1])
        elif node.child_by_field_name("name") is not None:
            node = node.child_by_field_name("name")
        else:
            return None
    return None


def call_arguments(program: Program, grammar: Grammar, call: Node) -> list[Node]:
    """A call's argument expressions (comments skipped)."""
    arguments = call.child_by_field_name(grammar.arguments)
    return [] if arguments is None else code(program, arguments)


def subscript_index(grammar: Grammar, node: Node) -> Node | None:
    """The index expression of a subscript node (looked through C++'s argument list)."""
    fields = grammar.subscript.get(node.type)
    if fields is None:
        return None
    index = node.child_by_field_name(fields[1])
    if index is not None and index.type in grammar.index_wrappers:
        inner = [child for child in index.children if child.is_named and "comment" not in child.type]
        return inner[0] if len(inner) == 1 else None
    return index


def condition_of(grammar: Grammar, node: Node) -> Node | None:
    """The condition expression of a conditional statement or ternary (wrappers removed), or None.

    A loop whose condition sits in a clause (Go's ``for_clause``) is looked into; a loop with
    neither a ``condition`` field nor a clause takes its one non-body child (Go's ``for c { }``).
    """
    holder = node
    if grammar.loop_clause is not None:
        holder = next((child for child in node.children if child.type == grammar.loop_clause), node)
    condition = holder.child_by_field_name("condition")
    if condition is not None and not condition.is_named:
        condition = next((child for child in named(holder) if holder.field_name_for_child(holder.children.index(child)) == "condition"), None)
    if condition is None and holder is node and node.type in grammar.loops:
        body = node.child_by_field_name("body")
        rest = [child for child in named(node) if child != body and "comment" not in child.type]
        if len(rest) == 1 and not rest[0].type.endswith("clause"):
            condition = rest[0]
    return None if condition is None else unwrap(grammar, condition)


def int_value(text: str) -> int | None:
    """The value of a plain decimal integer literal (``12``, ``-1``), else None."""
    body = text[1:] if text.startswith("-") else text
    if not body.isdigit() or (len(body) > 1 and body.startswith("0")):
        return None
    return int(text)


def enclosing(node: Node, types: frozenset[str]) -> Node | None:
    """The nearest ancestor of one of the types."""
    parent = node.parent
    while parent is not None:
        if parent.type in types:
            return parent
        parent = parent.parent
    return None


def atomic(grammar: Grammar, node: Node) -> bool:
    """True when ``node op e`` and ``e op node`` keep ``node`` whole for any arithmetic ``op``: a
    name, a literal, a call, a member access, a subscript or a parenthesized expression."""
    primaries = grammar.identifiers | grammar.numbers | grammar.strings | grammar.call | grammar.parenthesized
    return (
        node.type in primaries
        or node.type in grammar.member
        or node.type in grammar.subscript
        or node.type in grammar.booleans
        or node.type.endswith(("identifier", "literal"))
    )


def is_text(program: Program, grammar: Grammar, node: Node | None) -> bool:
    """A string literal, or a ``+`` chain that starts or ends with one (string concatenation)."""
    if node is None:
        return False
    node = unwrap(grammar, node)
    if node.type in grammar.strings:
        return True
    if node.type in grammar.binary:
        found = operator_text(program, node)
        if found is not None and found[1] == "+":
            return is_text(program, grammar, node.child_by_field_name("left")) or is_text(program, grammar, node.child_by_field_name("right"))
    return False


def returned(program: Program, grammar: Grammar, node: Node) -> Node | None:
    """The expression a return statement returns (one value only), or None."""
    values = [child for child in node.children if child.is_named and child.type not in program.comment_types]
    return unwrap(grammar, values[0]) if len(values) == 1 else None
