"""The ``value`` family's other literals: booleans, conditions and returned values replaced by
constants, separator and bracket strings changed. ``return_bool_flip`` owns the boolean literals
that are returned, ``bool_literal_flip`` every other one."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.families.nodes import condition_of, operator_text, returned
from execir.languages.treesitter.program import Program


def return_bool_flip(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Flip one ``return true`` <-> ``return false``."""
    for node in program.walk(grammar.returns):
        value = returned(program, grammar, node)
        if value is not None and value.type in grammar.booleans:
            yield program.replace(value, grammar.booleans[value.type])


def bool_literal_flip(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Flip one boolean literal that is not returned (``ok = true`` -> ``ok = false``)."""
    owned = {value.id for node in program.walk(grammar.returns) if (value := returned(program, grammar, node)) is not None}
    for node in program.walk(grammar.booleans):
        if node.id not in owned:
            yield program.replace(node, grammar.booleans[node.type])


def condition_const(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Replace one ``if`` condition by ``true`` or ``false`` (a ``while`` condition by ``false``;
    a ternary's by either)."""
    for node in program.walk(grammar.branches | grammar.ternary):
        condition = condition_of(grammar, node)
        if condition is None or condition.type in grammar.booleans:
            continue
        literals = (grammar.true, grammar.false) if node.type in grammar.ternary or node.type == grammar.if_statement else (grammar.false,)
        for literal in literals:
            yield program.replace(condition, literal)


def return_const(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Replace one returned comparison or boolean expression by ``true``/``false``, or one returned
    arithmetic expression by ``0``."""
    for node in program.walk(grammar.returns):
        value = returned(program, grammar, node)
        if value is None or value.type not in grammar.binary:
            continue
        found = operator_text(program, value)
        if found is None:
            continue
        symbol = found[1]
        if symbol in grammar.compare_swap or symbol in grammar.boolean:
            for literal in (grammar.true, grammar.false):
                yield program.replace(value, literal)
        elif symbol in grammar.arith and symbol != "+":
            yield program.replace(value, "0")


STRING_SWAPS: dict[str, tuple[str, ...]] = {
    "": (" ",),
    " ": ("", ","),
    ",": (" ",),
    "<": (">",),
    ">": ("<",),
    "[": ("(",),
    "(": ("[",),
    "]": (")",),
    ")": ("]",),
}
"""String or character literal content -> replacement contents (separators, padding, mirrored
and confused brackets)."""


def string_edit(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Change one empty, space, comma or bracket string literal (``""`` -> ``" "``, ``' '`` ->
    ``','``, ``'<'`` -> ``'>'``, ...; :data:`STRING_SWAPS`); strings of imports and includes are
    left alone."""
    for node in program.walk(grammar.strings):
        text = program.source(node)
        if len(text) < 2 or text[0] != text[-1] or text[0] not in "\"'`" or _in_import(node):
            continue
        quote, content = text[0], text[1:-1]
        for after in STRING_SWAPS.get(content, ()):
            if after or quote != "'":  # '' is not a character
                yield program.replace(node, quote + after + quote)


def _in_import(node: Node) -> bool:
    parent = node.parent
    while parent is not None:
        if "import" in parent.type or "include" in parent.type:
            return True
        parent = parent.parent
    return False
