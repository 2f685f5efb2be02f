"""Exact, deterministic top-k selection over score vectors and matrices.

Order is (score descending, document index ascending). Retrievers sort their document ids once at
index time, so the index order is the document-id order and the result never depends on dict
insertion order. Ties are *kept as ties* in the scores (no jitter); only which tied documents make
the cut at position ``k`` is decided by document id. Scores are returned at full precision
(``float(np.float32)`` is exact).
"""

from __future__ import annotations

import numpy as np

from execir.types import Run


def top_k_row(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` best entries of a 1-D score vector, best first."""
    n = scores.shape[0]
    k = min(k, n)
    if k <= 0:
        return np.empty(0, dtype=np.int64)
    if k < n:
        part = np.argpartition(scores, n - k)[n - k :]
        threshold = scores[part].min()
        above = np.flatnonzero(scores > threshold)
        tied = np.flatnonzero(scores == threshold)[: k - above.shape[0]]
        candidates = np.concatenate([above, tied])
    else:
        candidates = np.arange(n)
    order = np.lexsort((candidates, -scores[candidates]))
    return candidates[order]


def top_k_matrix(scores: np.ndarray, k: int) -> np.ndarray:
    """Row-wise :func:`top_k_row` for a 2-D ``(queries, docs)`` matrix; returns ``(queries, k)``.

    The common case (no tie straddling the cut) is fully vectorised; rows with a tie at the
    boundary fall back to :func:`top_k_row`.
    """
    n_rows, n = scores.shape
    k = min(k, n)
    if k <= 0 or n_rows == 0:
        return np.empty((n_rows, max(k, 0)), dtype=np.int64)
    if k == n:
        part = np.broadcast_to(np.arange(n), scores.shape).copy()
    else:
        part = np.argpartition(scores, n - k, axis=1)[:, n - k :]
    picked = np.take_along_axis(scores, part, axis=1)
    if k < n:
        threshold = picked.min(axis=1, keepdims=True)
        ambiguous = np.count_nonzero(scores >= threshold, axis=1) != k
        for row in np.flatnonzero(ambiguous):
            part[row] = top_k_row(scores[row], k)
            picked[row] = scores[row, part[row]]
    order = np.lexsort((part, -picked), axis=1)
    return np.take_along_axis(part, order, axis=1)


def to_run(qids: list[str], doc_ids: list[str], indices: np.ndarray, scores: np.ndarray) -> Run:
    """Build a run from per-query index rows and the matching full score matrix rows."""
    run: Run = {}
    for row, qid in enumerate(qids):
        idx = indices[row]
        values = scores[row, idx].tolist()
        run[qid] = {doc_ids[i]: float(v) for i, v in zip(idx.tolist(), values)}
    return run
