"""Vectorised measure kernels over :class:`~execir.metrics.positions.RelevantRanks`.

Each kernel maps the ranks of every query's relevant documents to one value per query.
Semantics (what "relevant" means, nDCG gains) are documented in :mod:`execir.metrics.measures`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from execir.metrics.measures import Measure
from execir.metrics.positions import RelevantRanks


def _within(ranked: RelevantRanks, k: int | None) -> np.ndarray:
    """(n_queries, width) bool: relevant document retrieved within the top k."""
    return ranked.ranks < (np.inf if k is None else k)


def _safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(num.shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _exec(ranked: RelevantRanks, k: int | None) -> np.ndarray:
    # np.asarray: the stubs type ``ndarray.any(axis=...)`` as possibly a scalar; here it is (n_queries,)
    return np.asarray(_within(ranked, k).any(axis=1), dtype=np.float64)


def _precision(ranked: RelevantRanks, k: int | None) -> np.ndarray:
    if k is None:
        raise ValueError("p needs a cutoff")
    return _within(ranked, k).sum(axis=1) / k


def _recall(ranked: RelevantRanks, k: int | None) -> np.ndarray:
    return _safe_div(_within(ranked, k).sum(axis=1).astype(np.float64), ranked.n_relevant)


def _mrr(ranked: RelevantRanks, k: int | None) -> np.ndarray:
    first = ranked.ranks[:, 0]  # ranks are sorted ascending
    return np.where(_within(ranked, k)[:, 0], 1.0 / (first + 1.0), 0.0)


def _map(ranked: RelevantRanks, k: int | None) -> np.ndarray:
    found = np.arange(1, ranked.ranks.shape[1] + 1)  # relevant documents seen up to each one
    precision = np.where(_within(ranked, k), found / (ranked.ranks + 1.0), 0.0)
    return _safe_div(precision.sum(axis=1), ranked.n_relevant)


def _ndcg(ranked: RelevantRanks, k: int | None) -> np.ndarray:
    dcg = np.where(_within(ranked, k), ranked.gains / np.log2(ranked.ranks + 2.0), 0.0).sum(axis=1)
    ideal = ranked.ideal[:, :k] if k is not None else ranked.ideal
    idcg = (ideal / np.log2(np.arange(2, ideal.shape[1] + 2))).sum(axis=1)
    return _safe_div(dcg, idcg)


KERNELS: dict[str, Callable[[RelevantRanks, int | None], np.ndarray]] = {
    "exec": _exec,
    "ndcg": _ndcg,
    "mrr": _mrr,
    "recall": _recall,
    "map": _map,
    "p": _precision,
}


def compute(ranked: RelevantRanks, measure: Measure) -> np.ndarray:
    """One value per query of ``ranked`` (in ``ranked.query_ids`` order)."""
    return KERNELS[measure.name](ranked, measure.k)
