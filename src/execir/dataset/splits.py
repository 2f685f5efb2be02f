"""Seeded, problem-disjoint train/dev/test splits.

A problem (a task in every language it exists in) goes whole to one split, so no problem's code or
text is judged in two splits: a reranker trained on ``train`` never saw a ``test`` problem. The
order is sha256 of ``"{seed}:{problem}"`` (never Python's ``hash``), and the sizes are the
fractions rounded by largest remainder, with every split non-empty when there are at least three
problems.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from execir.dataset.records import SPLITS
from execir.errors import ExecIRError

DEFAULT_FRACTIONS: tuple[float, float, float] = (0.5, 0.1, 0.4)


@dataclass(frozen=True)
class SplitPlan:
    """How problems were split."""

    seed: int
    fractions: tuple[float, float, float]
    assignment: dict[str, str]
    """problem -> split name."""

    def to_json(self) -> dict[str, object]:
        """Seed, fractions and problems per split (the manifest's ``splits``)."""
        sizes = {name: sum(1 for s in self.assignment.values() if s == name) for name in SPLITS}
        return {
            "seed": self.seed,
            "fractions": dict(zip(SPLITS, self.fractions)),
            "problems": sizes,
            "method": "problems ordered by sha256('{seed}:{problem}'), cut by largest-remainder sizes; problem-disjoint",
        }


def parse_fractions(text: str) -> tuple[float, float, float]:
    """``--splits 0.5,0.1,0.4`` -> fractions that sum to 1."""
    try:
        parts = tuple(float(p) for p in text.split(","))
    except ValueError:
        raise ExecIRError(f"--splits {text!r}: expected three numbers, e.g. 0.5,0.1,0.4") from None
    if len(parts) != 3 or any(p < 0 for p in parts) or abs(sum(parts) - 1.0) > 1e-6:
        raise ExecIRError(f"--splits {text!r}: expected three non-negative fractions (train,dev,test) summing to 1")
    return parts[0], parts[1], parts[2]


def _sizes(n: int, fractions: tuple[float, float, float]) -> list[int]:
    raw = [n * f for f in fractions]
    sizes = [int(r) for r in raw]
    for index in sorted(range(3), key=lambda i: (-(raw[i] - sizes[i]), i))[: n - sum(sizes)]:
        sizes[index] += 1
    if n >= 3:  # every split with a positive fraction gets a problem
        for index in range(3):
            if sizes[index] == 0 and fractions[index] > 0:
                donor = max(range(3), key=lambda i: sizes[i])
                sizes[donor] -= 1
                sizes[index] += 1
    return sizes


def split_problems(problems: Iterable[str], *, seed: int, fractions: tuple[float, float, float] = DEFAULT_FRACTIONS) -> SplitPlan:
    """Assign every problem to ``train``, ``dev`` or ``test``."""
    unique = sorted(set(problems))
    order = sorted(unique, key=lambda p: hashlib.sha256(f"{seed}:{p}".encode()).hexdigest())
    sizes = _sizes(len(order), fractions)
    assignment: dict[str, str] = {}
    start = 0
    for name, size in zip(SPLITS, sizes):
        for problem in order[start : start + size]:
            assignment[problem] = name
        start += size
    return SplitPlan(seed, fractions, assignment)
