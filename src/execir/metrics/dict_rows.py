"""A dict-of-dict run read as rows for :func:`execir.metrics.positions.rank_relevant`.

Reading every score out of the dicts (one pass, ``numpy.fromiter``) is the bulk of the dict
path's cost; :class:`execir.metrics.run_matrix.RunMatrix` skips it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

import numpy as np

from execir.metrics.padding import pad_rows
from execir.metrics.ranking import check_finite
from execir.types import Run

_EMPTY: dict[str, float] = {}


@dataclass(frozen=True)
class DictRows:
    """The result lists of ``query_ids`` (empty when absent from the run), in insertion order."""

    runs: list[dict[str, float]]
    matrix: np.ndarray
    """(n_queries, depth) scores in insertion order, NaN-padded (NaN never compares equal)."""

    @classmethod
    def of(cls, run: Run, query_ids: list[str]) -> DictRows:
        """Read ``run``'s scores for ``query_ids``; raise ValueError naming a NaN score."""
        runs = [run.get(q, _EMPTY) for q in query_ids]
        lengths = np.fromiter(map(len, runs), np.int64, count=len(runs))
        flat = np.fromiter(chain.from_iterable(map(dict.values, runs)), np.float64, count=int(lengths.sum()))
        if np.isnan(flat).any():
            for qid, scores in zip(query_ids, runs):
                check_finite(qid, scores)
        return cls(runs, pad_rows(flat, lengths, np.nan))

    def scores_of(self, rows: np.ndarray, docs: list[str]) -> np.ndarray:
        """Score of ``docs[i]`` in row ``rows[i]``; NaN where the run did not retrieve it."""
        runs = self.runs
        return np.array([runs[r].get(d, np.nan) for r, d in zip(rows.tolist(), docs)], dtype=np.float64)

    def ids_at(self, rows: np.ndarray, positions: np.ndarray) -> list[str]:
        """Document id at ``(rows[i], positions[i])`` of the matrix."""
        keys = {r: list(self.runs[r]) for r in set(rows.tolist())}
        return [keys[r][p] for r, p in zip(rows.tolist(), positions.tolist())]
