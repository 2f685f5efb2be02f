"""Score fusion: a reranker's scores interpolated with the first stage's (``fuse:<w>:<spec>``).

A cross-encoder and a bi-encoder err differently: on code-to-text the trained cross-encoder tells a
description from its counterfactual edits far better than the bi-encoder, while the bi-encoder is
better at which task a description belongs to. Fusion keeps both signals. For each query, the
inner reranker's scores and the first stage's scores over the same candidates are each standardised
(z-scores: minus their mean, over their population standard deviation; a constant list becomes all
zeros), and a candidate's fused score is ``w * z(inner) + (1 - w) * z(first stage)``. ``w = 1`` is
the inner reranker's order, ``w = 0`` the first stage's. Standardising per query makes the weight
mean the same thing for any pair of score scales (logits, cosines, BM25), with no training.

The weight may differ by task: ``fuse:0.9,c2t=0.3:<spec>`` uses 0.3 on code-to-text folders and 0.9
on every other folder (and on folders whose task is unknown).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from execir.errors import ExecIRError
from execir.rerank.base import Reranker, RerankRequest, RerankStats
from execir.rerank.chain import check_scores

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


@dataclass(frozen=True)
class FusionWeights:
    """The reranker's share: ``default``, or ``per_task[task name]`` on a folder of that task."""

    default: float
    per_task: Mapping[str, float] = field(default_factory=dict)

    def for_task(self, task: str | None) -> float:
        """The weight on a folder of ``task`` (None: a folder whose task is unknown)."""
        return self.per_task.get(task, self.default) if task is not None else self.default

    def text(self) -> str:
        """The spec's weight part: ``0.9`` or ``0.9,c2t=0.3`` (tasks sorted)."""
        return ",".join([f"{self.default:g}", *(f"{task}={w:g}" for task, w in sorted(self.per_task.items()))])


def parse_weight(text: str) -> float | None:
    """One weight of a ``fuse:<w>:...`` spec: a number in [0, 1]; None when ``text`` is not one."""
    try:
        weight = float(text)
    except ValueError:
        return None
    return weight if 0.0 <= weight <= 1.0 else None  # also rejects NaN


def parse_weights(text: str, tasks: Collection[str]) -> FusionWeights | str:
    """The weights of ``<w>[,<task>=<w>...]`` (task names from ``tasks``), or why they are not valid."""
    default_text, *overrides = text.split(",")
    default = parse_weight(default_text.strip())
    if default is None:
        return f"the fusion weight '{default_text.strip()}' must be a number from 0 to 1, the reranker's share"
    per_task: dict[str, float] = {}
    for item in overrides:
        task, equals, value = item.partition("=")
        task = task.strip()
        weight = parse_weight(value.strip())
        if not equals or not task:
            return f"'{item}' is not <task>=<weight>; write the default weight first, then e.g. c2t=0.3"
        if task not in tasks:
            return f"unknown task '{task}' in the fusion weights (known: {', '.join(sorted(tasks))})"
        if task in per_task:
            return f"task '{task}' has two fusion weights"
        if weight is None:
            return f"the fusion weight '{value.strip()}' of {task} must be a number from 0 to 1, the reranker's share"
        per_task[task] = weight
    return FusionWeights(default, per_task)


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

    def __init__(self, inner: Reranker, weights: FusionWeights | float) -> None:
        self.weights = weights if isinstance(weights, FusionWeights) else FusionWeights(weights)
        if not all(0.0 <= w <= 1.0 for w in (self.weights.default, *self.weights.per_task.values())):
            raise ExecIRError(f"fusion weights {self.weights.text()} are not all in [0, 1]")
        self.inner = inner
        self.weight = self.weights.default
        """The weight in use: the current folder's (set by :meth:`use_task`)."""
        self.name = f"fuse:{self.weights.text()}:{inner.name}"

    def use_task(self, task: TaskSpec | None) -> None:
        """Take ``task``'s weight and prepare the inner reranker for it."""
        self.weight = self.weights.for_task(task.name if task is not None else None)
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
        """The weight used (the current folder's), every task's weight, the normalisation and the inner
        reranker's configuration."""
        weights = {"default": self.weights.default, **dict(sorted(self.weights.per_task.items()))}
        return {"fuse": {"weight": self.weight, "weights": weights, "normalise": "z-score per query", "inner": self.inner.config()}}
