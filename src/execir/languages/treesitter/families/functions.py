"""The ``function`` family: a called function, method or member replaced by a related one."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.families.nodes import call_arguments, callee
from execir.languages.treesitter.program import Program
from execir.mutate.edits import SpanEdit

ATTRIBUTE_CHOICES = 2
"""How many replacement names ``attribute_swap`` tries per member use."""


def _member_names(program: Program, grammar: Grammar) -> Iterator[tuple[Node, Node | None]]:
    """(member-name node, the call it names or None) for every member access and method call
    (``obj.name``; a method called without an object is no member)."""
    called: dict[int, Node] = {}
    for call in program.walk(grammar.call):
        name = callee(grammar, call)
        if name is not None and (call.child_by_field_name("name") is not None or name.parent != call):
            called[name.id] = call
    for node in program.walk(grammar.member):
        name = node.child_by_field_name(grammar.member[node.type][1])
        if name is not None and node.child_by_field_name(grammar.member[node.type][0]) is not None:
            yield name, called.get(name.id)


def _owner(program: Program, grammar: Grammar, name: Node) -> str:
    """The namespace a member name belongs to (``strings`` for ``strings.Split``), or "" for a
    member of a value."""
    parent = name.parent
    owner = None if parent is None else parent.child_by_field_name(grammar.member[parent.type][0])
    text = "" if owner is None else program.source(owner)
    return text if text in grammar.namespaces else ""


def method_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap one called method or member for its mirror (``toUpperCase``<->``toLowerCase``,
    ``startsWith``<->``endsWith``, ``ceil``<->``floor``; the grammar's ``methods`` table)."""
    seen: set[int] = set()
    for name, _ in _member_names(program, grammar):
        seen.add(name.id)
        mirror = grammar.methods.get(program.source(name))
        if mirror is not None:
            yield program.replace(name, mirror)
    for call in program.walk(grammar.call):
        function = callee(grammar, call)
        if function is None or function.id in seen:
            continue
        mirror = grammar.methods.get(program.source(function))
        if mirror is not None:
            yield program.replace(function, mirror)


def min_max_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap one call of ``min`` <-> ``max`` (``Math.max``, ``std::min``, ``Collections.max``, ...)."""
    for call in program.walk(grammar.call):
        name = callee(grammar, call)
        if name is not None and program.source(name) in grammar.min_max:
            yield program.replace(name, grammar.min_max[program.source(name)])


def attribute_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Replace one member name by another member name the file uses the same way: a method called
    with the same number of arguments, or a field, of a value or of the same namespace
    (``strings.Split`` only becomes another ``strings.`` function); at most
    :data:`ATTRIBUTE_CHOICES` (the names used most often, then alphabetically)."""
    uses = list(_member_names(program, grammar))
    counts: dict[tuple[int | None, str, str], int] = {}
    for name, call in uses:
        key = (_arity(program, grammar, call), _owner(program, grammar, name), program.source(name))
        counts[key] = counts.get(key, 0) + 1
    for name, call in uses:
        arity, owner, spelled = _arity(program, grammar, call), _owner(program, grammar, name), program.source(name)
        others = sorted(
            (
                (count, other)
                for (other_arity, other_owner, other), count in counts.items()
                if other_arity == arity and other_owner == owner and other != spelled
            ),
            key=lambda pair: (-pair[0], pair[1]),
        )
        for _, other in others[:ATTRIBUTE_CHOICES]:
            yield program.replace(name, other)


def _arity(program: Program, grammar: Grammar, call: Node | None) -> int | None:
    return None if call is None else len(call_arguments(program, grammar, call))
