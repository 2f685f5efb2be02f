"""The ``variable`` family's names: one use of a local replaced by another local in scope."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.families.nodes import enclosing
from execir.languages.treesitter.program import Program

MISUSE_CHOICES = 2
"""How many replacement names ``variable_misuse`` tries per use (the most similar ones)."""


@dataclass(frozen=True)
class Local:
    """A name declared in a function: where, with which declared type, and where it is visible."""

    name: str
    node: Node
    type: str | None
    scope: Node


def base_type(declared: str | None) -> str | None:
    """A declared type without layout and generic arguments (``List < Integer >`` -> ``List``),
    so that element types never block a swap the compiler may accept."""
    if declared is None:
        return None
    compact = "".join(declared.split())
    return compact.split("<", 1)[0] or compact


def locals_of(program: Program, grammar: Grammar, function: Node) -> list[Local]:
    """The names a function declares (parameters included), first declaration of each name."""
    seen: dict[str, Local] = {}
    scopes = grammar.blocks | grammar.scopes | grammar.functions
    for node, declared_type in grammar.declarations(program, function):
        name = program.source(node)
        scope = enclosing(node, scopes) or function
        if scope.type in grammar.body_scopes:
            scope = scope.child_by_field_name("body") or scope
        declared = "".join(declared_type.split()) if grammar.exact_types and declared_type is not None else base_type(declared_type)
        if name not in seen and name != "_":
            seen[name] = Local(name, node, declared, scope)
    return list(seen.values())


def _visible(local: Local, use: Node) -> bool:
    """The local is declared before the use and its scope contains it."""
    return local.node.end_byte <= use.start_byte and local.scope.start_byte <= use.start_byte < local.scope.end_byte


def similarity(a: str, b: str) -> int:
    """How alike two names look: shared prefix plus shared suffix, less the length difference
    (``s1``/``s0`` 1, ``depth``/``max_depth`` 1, ``s1``/``set1`` 0)."""
    prefix = 0
    while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(a), len(b)) - prefix and a[-1 - suffix] == b[-1 - suffix]:
        suffix += 1
    return prefix + suffix - abs(len(a) - len(b))


def _compatible(grammar: Grammar, first: str | None, second: str | None) -> bool:
    if first is None or second is None:
        return not grammar.typed_misuse
    return first == second


def _is_use(grammar: Grammar, node: Node) -> bool:
    """An identifier read or written as a variable (not a callee, member name or label)."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type in grammar.call and (parent.child_by_field_name(grammar.call_function) == node or parent.child_by_field_name("name") == node):
        return False
    if parent.type in grammar.member and parent.child_by_field_name(grammar.member[parent.type][1]) == node:
        return False
    return True


def _written(program: Program, grammar: Grammar, node: Node) -> bool:
    """The use is an assignment's target or the receiver of a method that changes it."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type in grammar.assignment:
        return parent.child_by_field_name("left") == node
    if parent.type in grammar.member and parent.child_by_field_name(grammar.member[parent.type][0]) == node:
        name = parent.child_by_field_name(grammar.member[parent.type][1])
        return name is not None and program.source(name) in grammar.mutating_methods
    return False


def variable_misuse(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Replace one use of a local name by another local visible there with the same declared type
    (any local when a type is unknown, unless the grammar asks for ``typed_misuse``; a written use
    only by a name the grammar does not call ``immutable``), trying only
    the :data:`MISUSE_CHOICES` most similar names."""
    for function in program.walk(grammar.functions):
        if enclosing(function, grammar.functions) is not None:
            continue  # nested functions are searched with their outermost function
        locals_ = locals_of(program, grammar, function)
        by_name = {local.name: local for local in locals_}
        declared = {local.node.id for local in locals_}
        for use in _walk_identifiers(program, grammar, function):
            own = by_name.get(program.source(use))
            if own is None or use.id in declared or not _is_use(grammar, use):
                continue
            others = [local for local in locals_ if local.name != own.name and _visible(local, use) and _compatible(grammar, own.type, local.type)]
            if grammar.immutable is not None and _written(program, grammar, use):
                others = [local for local in others if not grammar.immutable(local.node)]
            others.sort(key=lambda local: -similarity(own.name, local.name))  # stable: declaration order next
            for other in others[:MISUSE_CHOICES]:
                yield program.replace(use, other.name)


def _walk_identifiers(program: Program, grammar: Grammar, root: Node) -> Iterator[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in program.comment_types:
            continue
        if node.type in grammar.identifiers:
            yield node
        stack.extend(reversed(node.children))
