"""Corpus metadata the analyses need: which task each document belongs to, and its kind."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class DocInfo:
    """Corpus metadata of one document."""

    task_id: str
    kind: str
    """``'canonical'`` or ``'mutant'``."""
    operator: str | None
    """Mutation operator name for a mutant, else None."""


def share(numerator: int, denominator: int) -> dict[str, float | int]:
    """``{"share", "numerator", "denominator"}`` with share 0.0 when the denominator is 0."""
    value = numerator / denominator if denominator else 0.0
    return {"share": value, "numerator": numerator, "denominator": denominator}


def task_pools(docs: Mapping[str, DocInfo]) -> dict[str, dict[str, list[str]]]:
    """task id -> {"canonical": [doc ids], "mutant": [doc ids]}, ids sorted."""
    pools: dict[str, dict[str, list[str]]] = defaultdict(lambda: {"canonical": [], "mutant": []})
    for doc_id in sorted(docs):
        info = docs[doc_id]
        if info.kind in ("canonical", "mutant"):
            pools[info.task_id][info.kind].append(doc_id)
    return dict(pools)
