"""Dev-split metrics of a saved model: rerank each dev query's own pool plus seeded easy negatives.

The model is loaded from its directory with ``sentence_transformers.CrossEncoder`` (exactly what
``ce:<path>`` loads) and scores raw logits (no activation, so saturation cannot create ties).
Metrics come from :func:`execir.metrics.evaluate` (pessimistic ties), averaged over the dev queries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir.metrics import evaluate
from execir.train.pairs import PairSource, pair_texts
from execir.types import Run

DEV_MEASURES: tuple[str, ...] = ("exec@1", "exec@10", "ndcg@10")


@dataclass(frozen=True)
class DevSet:
    """One folder's dev queries and the candidates each is reranked among."""

    source: PairSource
    candidates: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class DevMetrics:
    """A model's mean dev metrics on one folder."""

    folder: str
    queries: int
    pairs: int
    means: Mapping[str, float]

    def to_json(self) -> dict[str, Any]:
        """The metrics as JSON values."""
        return {"folder": self.folder, "queries": self.queries, "pairs": self.pairs, **{m: round(v, 6) for m, v in self.means.items()}}


def score_dev(model: Any, dev: DevSet, *, batch_size: int, progress: bool) -> Run:
    """query id -> candidate id -> raw cross-encoder logit."""
    import torch

    items = [(q, d) for q in sorted(dev.candidates) for d in dev.candidates[q]]
    texts = [text for q in sorted(dev.candidates) for text in pair_texts(dev.source, q, dev.candidates[q])]
    scores = model.predict(texts, batch_size=batch_size, activation_fn=torch.nn.Identity(), show_progress_bar=progress, convert_to_numpy=True) if texts else []
    run: Run = {q: {} for q in dev.candidates}
    for (query_id, doc_id), score in zip(items, scores):
        run[query_id][doc_id] = float(score)
    return run


def mean_metrics(qrels: Mapping[str, Mapping[str, int]], run: Run, measures: Sequence[str] = DEV_MEASURES) -> dict[str, float]:
    """Each measure's mean over every query of ``qrels`` (0 for a query without results)."""
    values = evaluate({q: dict(j) for q, j in qrels.items()}, run, list(measures))
    return {m: (sum(per_query.values()) / len(per_query) if per_query else 0.0) for m, per_query in values.items()}


def evaluate_model(path: Path, devs: Sequence[DevSet], *, device: str | None, batch_size: int, progress: bool) -> list[DevMetrics]:
    """Load ``path`` as a CrossEncoder and compute its dev metrics on every folder."""
    from sentence_transformers import CrossEncoder

    model = CrossEncoder(str(path), device=device)
    results = []
    for dev in devs:
        run = score_dev(model, dev, batch_size=batch_size, progress=progress)
        qrels = {q: dev.source.qrels.get(q, {}) for q in dev.candidates}
        results.append(DevMetrics(dev.source.folder, len(qrels), sum(len(c) for c in dev.candidates.values()), mean_metrics(qrels, run)))
    return results


SOUP_MEASURES: tuple[str, ...] = ("exec@1", "ndcg@10")
"""What the greedy soup compares, in order: the folders' mean dev exec@1, then their mean nDCG@10."""


def soup_score(metrics: Sequence[DevMetrics]) -> tuple[float, ...]:
    """A model's dev score for the greedy soup: each of :data:`SOUP_MEASURES` averaged over the folders
    (each folder counts once), rounded to 6 places as ``training.json`` records them."""
    if not metrics:
        raise ValueError("no dev metrics to score")
    return tuple(round(sum(m.means[measure] for m in metrics) / len(metrics), 6) for measure in SOUP_MEASURES)
