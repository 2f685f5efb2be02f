"""Seeded priority order over candidate mutants: realistic families, distinct operators and lines first.

Taking a prefix of length k of :func:`order_candidates` gives k mutants spread over as many
operators and source lines as possible: operators are visited round-robin (so no operator gives a
second mutant before every applicable operator gave one), in a seeded order drawn by weight, and
each pick prefers a line no earlier pick has used. An operator's weight is its family's weight
(:data:`execir.languages.FAMILY_WEIGHTS`) shared among the family's operators that apply to the
program, so a family's chance of coming first does not grow with its number of operators. The order depends only on the
mutants (as a multiset) and the seed: inputs are sorted first, and only ``random.Random(seed)``
draws, so neither input order nor ``PYTHONHASHSEED`` changes it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from execir.types import Mutant


def _key(mutant: Mutant) -> tuple[str, str, int, int, str, str, str]:
    edit = mutant.edit
    return (mutant.task_id, mutant.operator, edit.line, edit.col, edit.before, edit.after, mutant.text)


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


def weighted_order(names: Sequence[str], weights: Mapping[str, float], rng: random.Random) -> list[str]:
    """Names in a seeded weighted order without replacement (Efraimidis-Spirakis keys
    ``u ** (1 / w)``, largest first); names are sorted first, so only the seed decides."""
    keyed = []
    for name in sorted(names):
        weight = weights.get(name, 1.0)
        draw = rng.random()
        keyed.append((draw ** (1.0 / weight) if weight > 0 else 0.0, name))
    return [name for _, name in sorted(keyed, key=lambda pair: (-pair[0], pair[1]))]


def operator_weights(operators: Sequence[str], families: Mapping[str, str], family_weights: Mapping[str, float]) -> dict[str, float]:
    """Each operator's weight: its family's weight divided by the family's operators present."""
    present: dict[str, int] = {}
    for name in operators:
        family = families.get(name, "")
        present[family] = present.get(family, 0) + 1
    return {name: family_weights.get(families.get(name, ""), 1.0) / present[families.get(name, "")] for name in operators}


def order_candidates(
    mutants: Sequence[Mutant],
    *,
    seed: int,
    families: Mapping[str, str] | None = None,
    family_weights: Mapping[str, float] | None = None,
) -> list[Mutant]:
    """All mutants in a seeded priority order (see the module docstring). ``families`` maps an
    operator to its family; without it every operator weighs the same."""
    rng = random.Random(seed)
    by_operator: dict[str, list[Mutant]] = {}
    for mutant in sorted(mutants, key=_key):
        by_operator.setdefault(mutant.operator, []).append(mutant)
    if families is None:
        weights = {name: 1.0 for name in by_operator}
    else:
        from execir.languages import FAMILY_WEIGHTS

        weights = operator_weights(list(by_operator), families, family_weights or FAMILY_WEIGHTS)
    names = weighted_order(list(by_operator), weights, rng)
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
