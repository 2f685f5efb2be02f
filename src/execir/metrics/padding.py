"""Ragged rows to padded matrices, and row selection with a fill for missing rows."""

from __future__ import annotations

import numpy as np


def pad_rows(flat: np.ndarray, lengths: np.ndarray, fill: float) -> np.ndarray:
    """Rows of ``flat`` (row ``i`` has ``lengths[i]`` items, in order) as an (n_rows, widest)
    matrix padded with ``fill`` (at least one column). A view of ``flat`` when no row is short."""
    n_rows = len(lengths)
    width = max(1, int(lengths.max(initial=0)))
    if len(flat) == n_rows * width:
        return flat.reshape(n_rows, width)
    out = np.full((n_rows, width), fill, dtype=flat.dtype)
    out[np.arange(width) < lengths[:, None]] = flat
    return out


def take_rows(matrix: np.ndarray, rows: np.ndarray, fill: float) -> np.ndarray:
    """``matrix[rows]``, where a row index of -1 gives a row of ``fill``; ``matrix`` itself
    when ``rows`` selects every row in order."""
    if len(rows) == len(matrix) and np.array_equal(rows, np.arange(len(matrix))):
        return matrix
    out = matrix[np.maximum(rows, 0)] if len(matrix) else np.empty((len(rows), matrix.shape[1]), matrix.dtype)
    out[rows < 0] = fill
    return out
