"""Generate every single-edit mutant of a Python module from every operator."""

from __future__ import annotations

import ast

from execir.mutate.distance import levenshtein, python_tokens
from execir.mutate.edits import SpanEdit, splice, to_edit
from execir.mutate.operators import OPERATORS
from execir.mutate.source import SourceText
from execir.types import Mutant


def compiles(text: str) -> bool:
    """True when the text parses and compiles (catches ``break`` outside a loop, too)."""
    try:
        compile(text, "<mutant>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def generate_mutants(task_id: str, source: str) -> list[Mutant]:
    """All distinct single-edit mutants of ``source``, ordered by operator name then position.

    Each mutant's text differs from ``source`` in exactly one span, compiles, and differs from
    every earlier mutant (the first operator to produce a text keeps it). ``source`` must parse.
    """
    tree = ast.parse(source)
    text = SourceText(source)
    source_tokens = python_tokens(source)
    seen = {source}
    mutants: list[Mutant] = []
    for name, operator in OPERATORS.items():
        for span_edit in sorted(set(operator(tree, text))):
            mutated = splice(source, span_edit)
            if mutated in seen or not compiles(mutated):
                continue
            seen.add(mutated)
            mutants.append(_mutant(task_id, name, text, span_edit, mutated, source_tokens))
    return mutants


def _mutant(
    task_id: str,
    operator: str,
    source: SourceText,
    span_edit: SpanEdit,
    mutated: str,
    source_tokens: tuple[str, ...],
) -> Mutant:
    return Mutant(
        task_id=task_id,
        operator=operator,
        edit=to_edit(source, span_edit),
        text=mutated,
        edit_distance=levenshtein(source_tokens, python_tokens(mutated)),
    )
