"""Rocchio pseudo-relevance feedback over cached embeddings (pyserini's dense ``--prf-method rocchio``).

``q' = alpha * q + beta * mean(top-k document vectors)`` (positive feedback only), scaled back to
unit length so the inner product stays a cosine for normalised document vectors (the scaling does
not change the ranking). No model is called: the document vectors are the index's own.
"""

from __future__ import annotations

import numpy as np


def rocchio(query: np.ndarray, feedback: np.ndarray, *, alpha: float, beta: float) -> np.ndarray:
    """One expanded query vector from a ``(dim,)`` query and ``(k, dim)`` feedback document vectors,
    re-normalised (returned as computed when its norm is zero)."""
    if feedback.ndim != 2 or feedback.shape[1] != query.shape[0]:
        raise ValueError(f"feedback must be (k, {query.shape[0]}), got {feedback.shape}")
    mixed = alpha * query.astype(np.float64)
    if feedback.shape[0]:
        mixed = mixed + beta * feedback.astype(np.float64).mean(axis=0)
    norm = float(np.linalg.norm(mixed))
    return (mixed / norm if norm > 0 else mixed).astype(np.float32)
