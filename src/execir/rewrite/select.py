"""Seeded choice of a few rewrites spread over rules.

Rules are visited round-robin in a seeded order and each rule's rewrites in a seeded shuffle, so a
prefix of the order covers as many rules as possible. Inputs are sorted first and only
``random.Random(seed)`` draws: neither input order nor ``PYTHONHASHSEED`` changes the choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from execir.rewrite.types import Rewrite


def select_rewrites(rewrites: Sequence[Rewrite], *, limit: int, seed: int) -> list[Rewrite]:
    """Up to ``limit`` distinct rewrites, spread over rules (see the module docstring)."""
    if limit < 0:
        raise ValueError("limit must be non-negative")
    rng = random.Random(seed)
    by_rule: dict[str, list[Rewrite]] = {}
    for rewrite in sorted(set(rewrites), key=lambda r: (r.rule, r.text)):
        by_rule.setdefault(rewrite.rule, []).append(rewrite)
    rules = sorted(by_rule)
    rng.shuffle(rules)
    queues = []
    for rule in rules:
        queue = by_rule[rule]
        rng.shuffle(queue)
        queues.append(queue)
    chosen: list[Rewrite] = []
    depth = 0
    while len(chosen) < limit and any(depth < len(queue) for queue in queues):
        chosen.extend(queue[depth] for queue in queues if depth < len(queue))
        depth += 1
    return chosen[:limit]
