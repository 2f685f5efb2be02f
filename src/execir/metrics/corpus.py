"""Corpus metadata the analyses need: which task each document belongs to, and its kind."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class DocInfo:
    """Corpus metadata of one document."""

    task_id: str
    """The problem whose pool the document belongs to (shared by a task's versions in every language)."""
    kind: str
    """``'canonical'``, ``'mutant'``, ``'human'``, ``'rewrite'``, ``'candidate'``, ``'description'``..."""
    operator: str | None
    """Mutation operator (or rewrite rule, counterfactual rule, candidate source), else None."""
    grade: int = -1
    """The document's grade for its own problem's queries: 2 correct, 1 hard negative, 0 neither;
    -1 when unknown (then ``kind`` decides: canonical correct, mutant hard negative)."""

    @property
    def pool(self) -> str | None:
        """``'canonical'`` (a correct document of its problem), ``'mutant'`` (a same-problem hard
        negative) or None."""
        if self.grade >= 0:
            return {2: "canonical", 1: "mutant"}.get(self.grade)
        return self.kind if self.kind in ("canonical", "mutant") else None


def share(numerator: int, denominator: int) -> dict[str, float | int]:
    """``{"share", "numerator", "denominator"}`` with share 0.0 when the denominator is 0."""
    value = numerator / denominator if denominator else 0.0
    return {"share": value, "numerator": numerator, "denominator": denominator}


def task_pools(docs: Mapping[str, DocInfo]) -> dict[str, dict[str, list[str]]]:
    """problem -> {"canonical": [correct doc ids], "mutant": [hard-negative doc ids]}, ids sorted."""
    pools: dict[str, dict[str, list[str]]] = defaultdict(lambda: {"canonical": [], "mutant": []})
    for doc_id in sorted(docs):
        info = docs[doc_id]
        if info.pool is not None:
            pools[info.task_id][info.pool].append(doc_id)
    return dict(pools)
