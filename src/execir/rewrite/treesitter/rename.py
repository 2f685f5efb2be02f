"""``rename_local`` for tree-sitter languages: one local of a function renamed at every use.

Conservative by construction: the old name must appear (as a token) only inside the function's
body, always as a plain ``identifier`` in a variable position (never a member, method, label or
key), its first occurrence must declare it, and the new name must appear nowhere in the program.
Where a language marks its variables (PHP's ``$x``), only marked tokens are the name's
occurrences; a language's :attr:`~execir.rewrite.treesitter.syntax.Syntax.blocked` check vetoes
names that text the tokens do not show refers to (format strings, dynamic variables).
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.treesitter.program import Program
from execir.rewrite.names import fresh_name
from execir.rewrite.treesitter.syntax import Syntax


def _outermost(program: Program, syntax: Syntax) -> Iterator[Node]:
    for function in program.walk(syntax.functions):
        parent = function.parent
        while parent is not None and parent.type not in syntax.functions:
            parent = parent.parent
        if parent is None:
            yield function


def _occurrence(leaf: Node, syntax: Syntax) -> bool:
    """Whether a token counts as an occurrence of a name (every token, or only marked variables)."""
    return syntax.variable is None or (leaf.parent is not None and leaf.parent.type == syntax.variable)


def _variable_position(node: Node, syntax: Syntax, program: Program) -> bool:
    if node.type != syntax.identifier:
        return False
    token = node
    if syntax.variable is not None:
        if node.parent is None or node.parent.type != syntax.variable:
            return False
        node = node.parent
    parent = node.parent
    if parent is None or parent.type in syntax.name_parents:
        return False
    if any(parent.type == kind and parent.child_by_field_name(field) == node for kind, field in syntax.name_fields):
        return False
    return syntax.position(program, token)


def _inside(node: Node, outer: Node) -> bool:
    return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte


def _candidates(program: Program, syntax: Syntax, function: Node, body: Node) -> list[str]:
    """Names declared inside the body, in order of first declaration."""
    names: dict[str, None] = {}
    for node in syntax.declared(program, function):
        if _inside(node, body):
            names.setdefault(program.source(node))
    return list(names)


def rename_local(program: Program, syntax: Syntax, reserved: frozenset[str]) -> Iterator[SpanEdit]:
    """Rename one local declared in a function body everywhere in that body (see the module doc)."""
    leaves = list(program.leaves())
    taken = {program.source(leaf) for leaf in leaves} | reserved | syntax.keywords
    by_text: dict[str, list[Node]] = {}
    for leaf in leaves:
        if _occurrence(leaf, syntax):
            by_text.setdefault(program.source(leaf), []).append(leaf)
    for function in _outermost(program, syntax):
        body = function.child_by_field_name("body")
        if body is None:
            continue
        declared = {node.id for node in syntax.declared(program, function)}
        for old in _candidates(program, syntax, function, body):
            uses = by_text.get(old, [])
            if old in reserved or not uses or uses[0].id not in declared:
                continue
            if not all(_inside(use, body) and _variable_position(use, syntax, program) for use in uses):
                continue
            if any(_in_comment(use, program) for use in uses) or syntax.blocked(program, function, old):
                continue
            new = fresh_name(old, taken)
            start, end = program.span(body)
            pieces, cursor = [], start
            for use in uses:
                first, last = program.span(use)
                pieces.append(program.text[cursor:first] + new)
                cursor = last
            pieces.append(program.text[cursor:end])
            yield SpanEdit(start, end, "".join(pieces))


def _in_comment(node: Node, program: Program) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in program.comment_types:
            return True
        parent = parent.parent
    return False
