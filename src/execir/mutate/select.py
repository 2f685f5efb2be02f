"""Seeded priority order over candidate mutants: distinct operators and lines first.

Taking a prefix of length k of :func:`order_candidates` gives k mutants spread over as many
operators and source lines as possible: operators are visited round-robin in a seeded shuffled
order, and each pick prefers a line no earlier pick has used. The order depends only on the
mutants (as a multiset) and the seed: inputs are sorted first, and only ``random.Random(seed)``
draws, so neither input order nor ``PYTHONHASHSEED`` changes it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from execir.types import Mutant


def _key(mutant: Mutant) -> tuple[str, str, int, int, str, str, str]:
    edit = mutant.edit
    return (
        mutant.task_id, mutant.operator, edit.line, edit.col, edit.before, edit.after, mutant.text
    )


def _spread_over_lines(mutants: list[Mutant], rng: random.Random) -> list[Mutant]:
    """Shuffle one operator's mutants, then interleave them line by line."""
    shuffled = list(mutants)
    rng.shuffle(shuffled)
    by_line: dict[int, list[Mutant]] = {}
    for mutant in shuffled:
        by_line.setdefault(mutant.edit.line, []).append(mutant)
    queues = list(by_line.values())
    spread: list[Mutant] = []
    for depth in range(max(len(queue) for queue in queues)):
        spread.extend(queue[depth] for queue in queues if depth < len(queue))
    return spread


def _take(queue: list[Mutant], used_lines: set[int]) -> Mutant:
    """Pop the first mutant on an unused line (or the first one when every line is used)."""
    for index, mutant in enumerate(queue):
        if mutant.edit.line not in used_lines:
            return queue.pop(index)
    return queue.pop(0)


def order_candidates(mutants: Sequence[Mutant], *, seed: int) -> list[Mutant]:
    """All mutants in a seeded priority order (see the module docstring)."""
    rng = random.Random(seed)
    by_operator: dict[str, list[Mutant]] = {}
    for mutant in sorted(mutants, key=_key):
        by_operator.setdefault(mutant.operator, []).append(mutant)
    names = sorted(by_operator)
    rng.shuffle(names)
    queues = [_spread_over_lines(by_operator[name], rng) for name in names]
    ordered: list[Mutant] = []
    used_lines: set[int] = set()
    while any(queues):
        for queue in queues:
            if queue:
                picked = _take(queue, used_lines)
                used_lines.add(picked.edit.line)
                ordered.append(picked)
    return ordered
