"""Vectorised measure kernels over a :class:`~execir.metrics.ranking.RankedRelevance`.

Each kernel maps the (n_queries, width) grade matrix to one value per query. Semantics (what
"relevant" means, nDCG gains) are documented in :mod:`execir.metrics.measures`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from execir.metrics.measures import Measure
from execir.metrics.ranking import RankedRelevance

RELEVANT = 2
"""Minimum grade counted as relevant by binary measures."""


def _hits(ranked: RankedRelevance, k: int | None) -> np.ndarray:
    return ranked.rels[:, :k] >= RELEVANT if k is not None else ranked.rels >= RELEVANT


def _safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(num.shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _exec(ranked: RankedRelevance, k: int | None) -> np.ndarray:
    return _hits(ranked, k).any(axis=1).astype(np.float64)


def _precision(ranked: RankedRelevance, k: int | None) -> np.ndarray:
    assert k is not None  # guaranteed by Measure validation
    return _hits(ranked, k).sum(axis=1) / k


def _recall(ranked: RankedRelevance, k: int | None) -> np.ndarray:
    return _safe_div(_hits(ranked, k).sum(axis=1).astype(np.float64), ranked.n_relevant)


def _mrr(ranked: RankedRelevance, k: int | None) -> np.ndarray:
    hits = _hits(ranked, k)
    first = hits.argmax(axis=1)
    return np.where(hits.any(axis=1), 1.0 / (first + 1.0), 0.0)


def _map(ranked: RankedRelevance, k: int | None) -> np.ndarray:
    hits = _hits(ranked, k)
    precision_at = np.cumsum(hits, axis=1) / np.arange(1, hits.shape[1] + 1)
    return _safe_div((precision_at * hits).sum(axis=1), ranked.n_relevant)


def _dcg(gains: np.ndarray) -> np.ndarray:
    discount = 1.0 / np.log2(np.arange(2, gains.shape[1] + 2))
    return (gains * discount).sum(axis=1)


def _ndcg(ranked: RankedRelevance, k: int | None) -> np.ndarray:
    rels = ranked.rels[:, :k] if k is not None else ranked.rels
    gains = np.where(rels >= RELEVANT, rels, 0).astype(np.float64)
    ideal = ranked.ideal[:, :k] if k is not None else ranked.ideal
    return _safe_div(_dcg(gains), _dcg(ideal))


KERNELS: dict[str, Callable[[RankedRelevance, int | None], np.ndarray]] = {
    "exec": _exec,
    "ndcg": _ndcg,
    "mrr": _mrr,
    "recall": _recall,
    "map": _map,
    "p": _precision,
}


def compute(ranked: RankedRelevance, measure: Measure) -> np.ndarray:
    """One value per query of ``ranked`` (in ``ranked.query_ids`` order)."""
    return KERNELS[measure.name](ranked, measure.k)
