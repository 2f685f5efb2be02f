"""The ``function`` family: a called function, method or member replaced by a related one."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.families.nodes import call_arguments, callee
from execir.languages.treesitter.families.types import Typing
from execir.languages.treesitter.program import Program

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
    ``startsWith``<->``endsWith``, ``ceil``<->``floor``; the grammar's ``methods`` table). In typed
    grammars a ``paired_methods`` name changes together with its sibling argument's
    (``sort(v.begin(), v.end())`` -> ``sort(v.rbegin(), v.rend())``, one edit) and a
    ``member_methods`` name only as a member (``std::find`` has no ``rfind``)."""
    seen: set[int] = set()
    paired = _paired_edits(program, grammar) if grammar.typed_edits else {}
    for name, _ in _member_names(program, grammar):
        seen.add(name.id)
        spelled = program.source(name)
        if grammar.typed_edits and spelled in grammar.paired_methods:
            if name.id in paired:
                yield paired[name.id]
            continue
        mirror = grammar.methods.get(spelled)
        if mirror is not None:
            yield program.replace(name, mirror)
    for call in program.walk(grammar.call):
        function = callee(grammar, call)
        if function is None or function.id in seen:
            continue
        spelled = program.source(function)
        if grammar.typed_edits and (spelled in grammar.member_methods or spelled in grammar.paired_methods):
            continue
        mirror = grammar.methods.get(spelled)
        if mirror is not None:
            yield program.replace(function, mirror)


def _paired_edits(program: Program, grammar: Grammar) -> dict[int, SpanEdit]:
    """Member name id -> the one edit mirroring it and its partner, for adjacent arguments
    ``x.begin(), y.end()`` of one ``paired_calls`` call whose names ``paired_methods`` pairs."""
    edits: dict[int, SpanEdit] = {}
    for call in program.walk(grammar.call):
        function = callee(grammar, call)
        if function is None or program.source(function) not in grammar.paired_calls:
            continue
        names = [callee(grammar, argument) if argument.type in grammar.call else None for argument in call_arguments(program, grammar, call)]
        for first, second in zip(names, names[1:]):
            if first is None or second is None or grammar.paired_methods.get(program.source(first)) != program.source(second):
                continue
            start, first_end = program.span(first)
            second_start, end = program.span(second)
            middle = program.text[first_end:second_start]
            edit = SpanEdit(start, end, grammar.methods[program.source(first)] + middle + grammar.methods[program.source(second)])
            edits[first.id] = edits[second.id] = edit
    return edits


def min_max_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap one call of ``min`` <-> ``max`` (``Math.max``, ``std::min``, ``Collections.max``, ...)."""
    for call in program.walk(grammar.call):
        name = callee(grammar, call)
        if name is not None and program.source(name) in grammar.min_max:
            yield program.replace(name, grammar.min_max[program.source(name)])


def attribute_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Replace one member name by another member name the file uses the same way: a method called
    with the same number of arguments, or a field, of a value or of the same namespace
    (``strings.Split`` only becomes another ``strings.`` function; in typed grammars a member of
    the same declared type or namespace, used with arguments of the same declared types, whose
    declared result is the same or is dropped (a call that is a statement of its own):
    ``s.size()`` <-> ``t.length()`` of strings, not ``v.begin()`` -> ``v.size()``); at most :data:`ATTRIBUTE_CHOICES` (the names used most often, then
    alphabetically)."""
    uses = list(_member_names(program, grammar))
    typing = Typing(program, grammar) if grammar.typed_edits else None
    owners = {name.id: _typed_owner(program, grammar, typing, name) for name, _ in uses}
    results = {name.id: _typed_result(typing, name, call) for name, call in uses}
    signatures = {name.id: _signature(program, grammar, typing, call) for name, call in uses}
    counts: dict[tuple[int | None, str | None, str], int] = {}
    given: dict[tuple[int | None, str | None, str], set[str | None]] = {}
    taken: dict[tuple[int | None, str | None, str], set[tuple[str | None, ...]]] = {}
    for name, call in uses:
        key = (_arity(program, grammar, call), owners[name.id], program.source(name))
        counts[key] = counts.get(key, 0) + 1
        given.setdefault(key, set()).add(results[name.id])
        taken.setdefault(key, set()).add(signatures[name.id])
    for name, call in uses:
        arity, owner, spelled, result = _arity(program, grammar, call), owners[name.id], program.source(name), results[name.id]
        signature = signatures[name.id]
        if owner is None or None in signature:
            continue
        free = call is not None and call.parent is not None and call.parent.type in grammar.statements
        others = sorted(
            (
                (count, other)
                for (other_arity, other_owner, other), count in counts.items()
                if other_arity == arity
                and other_owner == owner
                and other != spelled
                and signature in taken[(other_arity, other_owner, other)]
                and (free or (result is not None and given[(other_arity, other_owner, other)] == {result}))
            ),
            key=lambda pair: (-pair[0], pair[1]),
        )
        for _, other in others[:ATTRIBUTE_CHOICES]:
            yield program.replace(name, other)


def _typed_owner(program: Program, grammar: Grammar, typing: Typing | None, name: Node) -> str | None:
    """What a member name is used on: its namespace, else "" (untyped grammars) or the declared
    type of the value it is read on (None when unknown)."""
    namespace = _owner(program, grammar, name)
    if typing is None or namespace:
        return namespace
    parent = name.parent
    owner = None if parent is None else parent.child_by_field_name(grammar.member[parent.type][0])
    declared = None if owner is None else typing.of(owner)
    return None if declared is None else f"value {declared}"


def _signature(program: Program, grammar: Grammar, typing: Typing | None, call: Node | None) -> tuple[str | None, ...]:
    """The declared types of a call's arguments (empty in untyped grammars and for fields)."""
    if typing is None or call is None:
        return ()
    return tuple(typing.of(argument) for argument in call_arguments(program, grammar, call))


def _typed_result(typing: Typing | None, name: Node, call: Node | None) -> str | None:
    """The declared type a member use gives ("" in untyped grammars; None when unknown)."""
    if typing is None:
        return ""
    used = call if call is not None else name.parent
    return None if used is None else typing.of(used)


def _arity(program: Program, grammar: Grammar, call: Node | None) -> int | None:
    return None if call is None else len(call_arguments(program, grammar, call))
