"""Score fusion: a reranker's scores interpolated with the first stage's (``fuse:<w>:<spec>``).

A cross-encoder and a bi-encoder err differently: on code-to-text the trained cross-encoder tells a
description from its counterfactual edits far better than the bi-encoder, while the bi-encoder is
better at which task a description belongs to. Fusion keeps both signals. For each query, the
inner reranker's scores and the first stage's scores over the same candidates are each standardised
(z-scores: minus their mean, over their population standard deviation; a constant list becomes all
zeros), and a candidate's fused score is ``w * z(inner) + (1 - w) * z(first stage)``. ``w = 1`` is
the inner reranker's order, ``w = 0`` the first stage's. Standardising per query makes the weight
mean the same thing for any pair of score scales (logits, cosines, BM25), with no training.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from execir.errors import ExecIRError
from execir.rerank.base import Reranker, RerankRequest, RerankStats
from execir.rerank.chain import check_scores

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


def parse_weight(text: str) -> float | None:
    """The weight of a ``fuse:<w>:...`` spec: a number in [0, 1]; None when ``text`` is not one."""
    try:
        weight = float(text)
    except ValueError:
        return None
    return weight if 0.0 <= weight <= 1.0 else None  # also rejects NaN


def standardised(values: Sequence[float]) -> list[float]:
    """``values`` as z-scores (population standard deviation); all zeros when they are all equal."""
    if not values:
        return []
    mean = math.fsum(values) / len(values)
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))
    if spread <= 1e-12 * max(1.0, abs(mean)):
        return [0.0] * len(values)
    return [(v - mean) / spread for v in values]


def fused_scores(candidates: Sequence[str], inner: Mapping[str, float], first: Mapping[str, float], weight: float) -> dict[str, float]:
    """One query's fused scores: ``weight * z(inner) + (1 - weight) * z(first)`` per candidate."""
    z_inner = standardised([inner[doc] for doc in candidates])
    z_first = standardised([first[doc] for doc in candidates])
    return {doc: weight * a + (1.0 - weight) * b for doc, a, b in zip(candidates, z_inner, z_first)}


class FusionReranker:
    """An inner reranker's scores fused with the first stage's (see the module docstring)."""

    def __init__(self, inner: Reranker, weight: float) -> None:
        if not 0.0 <= weight <= 1.0:
            raise ExecIRError(f"fusion weight {weight} is not in [0, 1]")
        self.inner = inner
        self.weight = weight
        self.name = f"fuse:{weight:g}:{inner.name}"

    def use_task(self, task: TaskSpec | None) -> None:
        """Prepare the inner reranker for ``task``."""
        self.inner.use_task(task)

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        """The inner reranker's scores fused, per query, with the first stage's scores of the request."""
        inner = self.inner.score(request)
        check_scores(self.inner.name, request, inner)
        out: dict[str, dict[str, float]] = {}
        for query, candidates in request.candidates.items():
            first = request.first_scores.get(query, {})
            missing = [doc for doc in candidates if doc not in first]
            if missing:
                raise ExecIRError(f"reranker '{self.name}' needs the first stage's scores; query '{query}' has none for {missing[0]}")
            out[query] = fused_scores(candidates, inner[query], first, self.weight)
        return out

    def stats(self) -> RerankStats:
        """The inner reranker's counts (fusion itself adds no model calls)."""
        return self.inner.stats()

    def config(self) -> dict[str, object]:
        """The weight, the normalisation and the inner reranker's configuration."""
        return {"fuse": {"weight": self.weight, "normalise": "z-score per query", "inner": self.inner.config()}}
