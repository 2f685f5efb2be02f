"""A run as arrays: the natural output of a dense retriever, evaluated without dicts of scores.

:class:`RunMatrix` holds one row of scores per query, over a vocabulary of document ids:

* **dense**: ``scores`` is (n_queries, n_docs); column j scores ``doc_ids[j]`` for every query.
* **top-k**: ``scores`` and ``columns`` are both (n_queries, k); ``scores[i, j]`` scores
  ``doc_ids[columns[i, j]]``.
* **ragged** (CSR): ``scores`` and ``columns`` are flat and query i owns the slice
  ``offsets[i]:offsets[i + 1]``.

A column of -1 is padding (no document; its score is ignored), so top-k rows may be short.

The order of a row does not matter (ranking is by score, then the tie policy). Every row's
documents must be distinct, scores must not be NaN, query and document ids must be unique:
:meth:`RunMatrix.from_arrays` checks all of it once, so that evaluation need not. Evaluated
by :func:`execir.metrics.evaluate_arrays` with the very ranks :func:`execir.metrics.evaluate`
computes for the equivalent dict run (see :meth:`RunMatrix.from_run`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from execir.metrics.padding import pad_rows, take_rows
from execir.types import Run


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


def _column_dtype(n_docs: int) -> type:
    """int32 column indices (half the memory traffic) unless the vocabulary needs more."""
    return np.int32 if n_docs < 2**31 - 1 else np.int64


def _index(ids: Sequence[str], what: str) -> dict[str, int]:
    index = {key: i for i, key in enumerate(ids)}
    if len(index) != len(ids):
        raise ValueError(f"run matrix: {what} ids must be unique")
    return index


def _check_offsets(offsets: np.ndarray, n_queries: int, n_scores: int) -> np.ndarray:
    if offsets.shape != (n_queries + 1,) or offsets[0] != 0 or offsets[-1] != n_scores:
        raise ValueError(f"run matrix: offsets must have n_queries + 1 = {n_queries + 1} entries from 0 to {n_scores}")
    lengths = np.diff(offsets)
    if (lengths < 0).any():
        raise ValueError("run matrix: offsets must be non-decreasing")
    return lengths


def _check_columns(columns: np.ndarray, n_docs: int, query_ids: Sequence[str]) -> None:
    valid = columns >= 0  # padding is -1
    if (columns[valid] >= n_docs).any() or (columns < -1).any():
        raise ValueError(f"run matrix: columns must index doc_ids (0 to {n_docs - 1})")
    ordered = np.sort(columns, axis=1)
    dup = (ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0)
    if dup.any():
        row = int(np.flatnonzero(dup.any(axis=1))[0])
        raise ValueError(f"run matrix: query '{query_ids[row]}' lists a document twice")


def _check_scores(scores: np.ndarray, query_ids: Sequence[str], real: np.ndarray | None) -> None:
    nan = np.isnan(scores) if real is None else np.isnan(scores) & real
    if nan.any():
        row = int(np.flatnonzero(nan.any(axis=1))[0])
        raise ValueError(f"run matrix: query '{query_ids[row]}': a score is NaN")


@dataclass(frozen=True, eq=False)
class RunMatrix:
    """Validated, read-only run arrays; build with :meth:`from_arrays` or :meth:`from_run`.

    ``scores``: (n_queries, width) float64, NaN after each row's last document.
    ``columns``: (n_queries, width) indices into ``doc_ids`` (-1 for padding), or None when
    column j is ``doc_ids[j]`` for every row (dense layout).
    """

    query_ids: tuple[str, ...]
    doc_ids: tuple[str, ...]
    scores: np.ndarray
    columns: np.ndarray | None
    query_index: dict[str, int] = field(repr=False)
    doc_index: dict[str, int] = field(repr=False)

    @classmethod
    def from_arrays(
        cls,
        query_ids: Sequence[str],
        doc_ids: Sequence[str],
        scores: np.ndarray,
        *,
        columns: np.ndarray | None = None,
        offsets: np.ndarray | None = None,
    ) -> RunMatrix:
        """Validate and copy: dense (``scores`` only), top-k (``columns`` of ``scores``' shape)
        or ragged (flat ``scores`` and ``columns`` plus ``offsets``); see the module doc."""
        qids, dids = tuple(query_ids), tuple(doc_ids)
        query_index = _index(qids, "query")
        doc_index = _index(dids, "document")
        values = np.array(scores, dtype=np.float64)
        cols = None if columns is None else np.array(columns, dtype=np.int64)
        if offsets is not None:
            if cols is None or values.ndim != 1 or cols.shape != values.shape:
                raise ValueError("run matrix: ragged layout needs flat scores and columns of the same length")
            lengths = _check_offsets(np.asarray(offsets, dtype=np.int64), len(qids), len(values))
            values, cols = pad_rows(values, lengths, np.nan), pad_rows(cols, lengths, -1)
        expected = (len(qids), len(dids) if cols is None else values.shape[-1])
        if values.ndim != 2 or values.shape != expected or (cols is not None and cols.shape != values.shape):
            raise ValueError(f"run matrix: scores (and columns) must have shape {expected}, got {values.shape}")
        if cols is not None:
            _check_columns(cols, len(dids), qids)
            values[cols < 0] = np.nan
        _check_scores(values, qids, None if cols is None else cols >= 0)
        if values.shape[1] == 0:
            values, cols = np.full((len(qids), 1), np.nan), np.full((len(qids), 1), -1)
        frozen_cols = None if cols is None else _frozen(cols.astype(_column_dtype(len(dids))))
        return cls(qids, dids, _frozen(values), frozen_cols, query_index, doc_index)

    @classmethod
    def from_run(cls, run: Run) -> RunMatrix:
        """The ragged equivalent of a dict-of-dict run (for tests and conversions at the edges)."""
        doc_index: dict[str, int] = {}
        cols = [doc_index.setdefault(d, len(doc_index)) for d in chain.from_iterable(run.values())]
        scores = np.fromiter(chain.from_iterable(map(dict.values, run.values())), np.float64, count=len(cols))
        offsets = np.cumsum([0, *map(len, run.values())])
        return cls.from_arrays(list(run), list(doc_index), scores, columns=np.array(cols, dtype=np.int64), offsets=offsets)

    def rows_for(self, query_ids: Sequence[str]) -> MatrixRows:
        """These rows re-ordered to ``query_ids``; a query without a row gets an empty one."""
        if tuple(query_ids) == self.query_ids:  # the common case: rows already in qrels order
            return MatrixRows(self, self.scores, self.columns)
        index = self.query_index
        rows = np.fromiter((index.get(q, -1) for q in query_ids), np.int64, count=len(query_ids))
        columns = None if self.columns is None else take_rows(self.columns, rows, -1)
        return MatrixRows(self, take_rows(self.scores, rows, np.nan), columns)


@dataclass(frozen=True)
class MatrixRows:
    """A :class:`RunMatrix` aligned with a list of query ids (a
    :class:`~execir.metrics.positions.ScoredRows`)."""

    run: RunMatrix
    matrix: np.ndarray
    columns: np.ndarray | None

    def _column_of(self, rows: np.ndarray, docs: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Matrix column holding ``docs[i]`` in row ``rows[i]``, and whether it is there at all."""
        index = self.run.doc_index
        dtype = np.int64 if self.columns is None else self.columns.dtype
        codes = np.array([index.get(d, -1) for d in docs], dtype=dtype)
        if self.columns is None:
            return np.maximum(codes, 0), codes >= 0
        hits = (self.columns[rows] == codes[:, None]) & (codes >= 0)[:, None]
        where = hits.argmax(axis=1)
        return where, hits[np.arange(len(rows)), where]

    def scores_of(self, rows: np.ndarray, docs: list[str]) -> np.ndarray:
        """Score of ``docs[i]`` in row ``rows[i]``; NaN where the row does not hold it."""
        where, found = self._column_of(rows, docs)
        return np.where(found, self.matrix[rows, where], np.nan)

    def ids_at(self, rows: np.ndarray, positions: np.ndarray) -> list[str]:
        """Document id at ``(rows[i], positions[i])`` of :attr:`matrix`."""
        codes = positions if self.columns is None else self.columns[rows, positions]
        ids = self.run.doc_ids
        return [ids[c] for c in codes.tolist()]
