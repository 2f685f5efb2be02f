"""Generate every single-edit mutant of a program from its language's operators."""

from __future__ import annotations

from collections.abc import Iterable

from execir.edits import splice, to_edit
from execir.mutate.distance import levenshtein
from execir.types import Mutant


def generate_mutants(task_id: str, source: str, language: str = "python", operators: Iterable[str] | None = None) -> list[Mutant]:
    """All distinct single-edit mutants of ``source``, ordered by operator name then position.

    ``operators`` restricts the operators used (default: all of the language's). Each mutant's
    text differs from ``source`` in exactly one span, is valid for the language (parses; for
    Python, compiles), and differs from every earlier mutant (the first operator to produce a text
    keeps it). ``source`` must parse (:class:`~execir.languages.ParseError` otherwise).
    """
    from execir.languages import get_language  # languages import mutate.edits: import here

    lang = get_language(language)
    source_tokens = lang.tokens(source)
    seen = {source}
    seen_tokens = {source_tokens}
    mutants: list[Mutant] = []
    for name, span_edit in lang.candidates(source, operators):
        mutated = splice(source, span_edit)
        if mutated in seen or not lang.is_valid(mutated):
            continue
        seen.add(mutated)
        tokens = lang.tokens(mutated)
        if tokens in seen_tokens:
            continue  # the same program up to layout
        seen_tokens.add(tokens)
        mutants.append(
            Mutant(
                task_id=task_id,
                operator=name,
                edit=to_edit(source, span_edit),
                text=mutated,
                edit_distance=levenshtein(source_tokens, tokens),
            )
        )
    return mutants
