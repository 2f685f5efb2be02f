"""The ``operator`` family: one operator token replaced by a plausible other."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from execir.edits import SpanEdit
from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.families.nodes import is_text, operator_text
from execir.languages.treesitter.program import Program


def binary_swaps(program: Program, grammar: Grammar, table: Mapping[str, tuple[str, ...]]) -> Iterator[SpanEdit]:
    """One edit per replacement of every binary operator found in ``table``; ``+`` and ``-``
    between strings are left alone (concatenation is not arithmetic)."""
    for node in program.walk(grammar.binary):
        found = operator_text(program, node)
        if found is None or found[1] not in table:
            continue
        token, symbol = found
        if symbol == "+" and (is_text(program, grammar, node.child_by_field_name("left")) or is_text(program, grammar, node.child_by_field_name("right"))):
            continue
        for after in table[symbol]:
            yield program.replace(token, after)


def arith_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap one arithmetic operator (``+``<->``-``, ``*``<->``/``, ``%``->``/``; the grammar's table)."""
    return binary_swaps(program, grammar, grammar.arith)


def bitwise_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap one bitwise operator (``&``<->``|``, ``^``->``|``, ``<<``<->``>>``, ...)."""
    return binary_swaps(program, grammar, grammar.bitwise)


def compare_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap one comparison at its boundary or negation (``<``<->``<=``, ``==``<->``!=``, ...)."""
    return binary_swaps(program, grammar, grammar.compare_swap)


def compare_flip(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Flip one comparison's direction: ``<``<->``>``, ``<=``<->``>=``."""
    return binary_swaps(program, grammar, grammar.compare_flip)


def compare_replace(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Replace one comparison across the equality/ordering divide or by its negation
    (``==`` -> ``<``/``>``, ``<`` -> ``==``/``>=``, ``<=`` -> ``>``; the grammar's table)."""
    return binary_swaps(program, grammar, grammar.compare_replace)


def bool_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap one short-circuit operator: ``&&``<->``||`` (and the grammar's keyword spellings)."""
    return binary_swaps(program, grammar, grammar.boolean)


def augassign_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap one compound assignment operator (``+=``<->``-=``, ...) or make it plain (``+=`` -> ``=``)."""
    table = {**grammar.arith, **grammar.bitwise}
    for node in program.walk(grammar.assignment):
        found = operator_text(program, node)
        if found is None or not found[1].endswith("=") or found[1][:-1] not in table:
            continue
        token, symbol = found
        if symbol == "+=" and is_text(program, grammar, node.child_by_field_name("right")):
            yield program.replace(token, "=")
            continue
        for after in (*table[symbol[:-1]], ""):
            yield program.replace(token, after + "=")


def loop_control_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap one ``break`` <-> ``continue`` (labelled ones are left alone)."""
    for node in program.walk(grammar.loop_control):
        keyword = node.children[0] if node.children else None
        if keyword is None or any(child.is_named for child in node.children):
            continue
        yield program.replace(keyword, grammar.loop_control[node.type])


def increment_swap(program: Program, grammar: Grammar) -> Iterator[SpanEdit]:
    """Swap one increment <-> decrement (``i++``<->``i--``, ``++i``<->``--i``)."""
    for node in program.walk(grammar.update):
        for child in node.children:
            symbol = program.source(child)
            if not child.is_named and symbol in ("++", "--"):
                yield program.replace(child, "--" if symbol == "++" else "++")
