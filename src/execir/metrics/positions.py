"""Vectorised ranks of the relevant documents of every query, under a tie policy.

Ranking measures only depend on where the relevant (rel >= 2) documents land, so instead of
sorting every result list we count, for each relevant document ``d`` of query ``q``, the
documents of ``q``'s run that precede it:

* ``pessimistic``: every document with a higher score, every document with an equal score and
  a lower grade (all unjudged, rel-0 and rel-1 documents), and, among relevant documents with
  equal score and grade, those judged earlier (which one of two interchangeable documents
  comes first cannot change any measure).
* ``trec``: every document with a higher score, and every document with an equal score and a
  larger document id (``trec_eval`` order). Ties are rare in dense runs; only tied pairs are
  resolved in Python.

This reproduces the positions :func:`execir.metrics.rank_run` gives, in O(n_queries x depth)
numpy work after one pass that reads the scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

import numpy as np

from execir.metrics.ranking import check_finite
from execir.metrics.ties import TiePolicy, check_ties
from execir.types import Qrels, Run

RELEVANT = 2
"""Minimum grade counted as relevant (see :mod:`execir.metrics.measures`)."""

_EMPTY: dict[str, float] = {}
_BLOCK_CELLS = 1 << 24
"""Comparison cells (queries x relevant x depth) per block: bounds the temporary memory."""


@dataclass(frozen=True)
class RelevantRanks:
    """Per query (row, in ``query_ids`` order) the 0-based ranks of its relevant documents.

    ``ranks``: (n_queries, width) floats sorted ascending, ``inf`` for a relevant document the run
    did not retrieve and for padding. ``gains``: the matching gains (grade; 0 for padding).
    ``ideal``: every relevant grade of the query sorted descending, 0-padded.
    ``n_relevant``: number of judged relevant documents per query.
    """

    query_ids: tuple[str, ...]
    ranks: np.ndarray
    gains: np.ndarray
    ideal: np.ndarray
    n_relevant: np.ndarray


def _pad(rows: np.ndarray, flat: np.ndarray, n_rows: int, fill: float) -> np.ndarray:
    """Scatter ``flat`` (sorted by ``rows``) into an (n_rows, widest) matrix padded with ``fill``."""
    counts = np.bincount(rows, minlength=n_rows)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    out = np.full((n_rows, max(1, int(counts.max(initial=0)))), fill, dtype=flat.dtype)
    out[rows, np.arange(len(rows)) - starts[rows]] = flat
    return out


def _score_matrix(runs: list[dict[str, float]], qids: list[str]) -> np.ndarray:
    """(n_queries, depth) scores in run insertion order, NaN-padded (NaN never compares equal)."""
    lengths = np.fromiter(map(len, runs), np.int64, count=len(runs))
    flat = np.fromiter(chain.from_iterable([r.values() for r in runs]), np.float64, count=int(lengths.sum()))
    if np.isnan(flat).any():
        for qid, scores in zip(qids, runs):
            check_finite(qid, scores)
    width = max(1, int(lengths.max(initial=0)))
    if (lengths == width).all():
        return flat.reshape(len(runs), width)
    out = np.full((len(runs), width), np.nan)
    out[np.arange(width) < lengths[:, None]] = flat
    return out


@dataclass(frozen=True)
class _Relevant:
    """Relevant judgements as (n_queries, width) matrices; ``docs[starts[q] + j]`` is doc (q, j)."""

    docs: list[str]
    starts: np.ndarray
    grades: np.ndarray
    scores: np.ndarray


def _relevant(qrels: Qrels, runs: list[dict[str, float]], qids: list[str]) -> _Relevant:
    """Relevant documents per query with their grades and run scores (NaN: not retrieved)."""
    judged = [qrels[q] for q in qids]
    counts = np.fromiter(map(len, judged), np.int64, count=len(judged))
    flat_grades = np.fromiter(chain.from_iterable(map(dict.values, judged)), np.float64, count=int(counts.sum()))
    keep = np.flatnonzero(flat_grades >= RELEVANT)
    rows = np.repeat(np.arange(len(qids)), counts)[keep]
    flat_docs = list(chain.from_iterable(judged))
    docs = [flat_docs[i] for i in keep.tolist()]
    scores = np.array([runs[r].get(d, np.nan) for r, d in zip(rows.tolist(), docs)], dtype=np.float64)
    n = len(qids)
    starts = np.searchsorted(rows, np.arange(n))
    return _Relevant(docs, starts, _pad(rows, flat_grades[keep], n, 0.0), _pad(rows, scores, n, np.nan))


def _compare_counts(matrix: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per relevant doc: how many run scores are higher than, and equal to, its own (row blocks)."""
    higher = np.empty(scores.shape, dtype=np.int64)
    equal = np.empty(scores.shape, dtype=np.int64)
    step = max(1, _BLOCK_CELLS // (scores.shape[1] * matrix.shape[1]))
    for start in range(0, len(scores), step):
        block, own = matrix[start : start + step, None, :], scores[start : start + step, :, None]
        higher[start : start + step] = (block > own).sum(axis=2)
        equal[start : start + step] = (block == own).sum(axis=2)
    return higher, equal


def _pessimistic_after(grades: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Per relevant doc d: relevant docs tied with d that do not precede it (d included)."""
    same = scores[:, :, None] == scores[:, None, :]  # [q, d, e]
    higher = grades[:, None, :] > grades[:, :, None]
    equal_later = (grades[:, None, :] == grades[:, :, None]) & np.triu(np.ones(same.shape[1:], bool))
    return (same & (higher | equal_later)).sum(axis=2)


def _trec_before(runs: list[dict[str, float]], rel: _Relevant, matrix: np.ndarray, tied: np.ndarray) -> np.ndarray:
    """Per relevant doc d: tied documents with a larger id (trec_eval order); Python on tied pairs only."""
    before = np.zeros(rel.scores.shape, dtype=np.int64)
    rows, cols = np.nonzero(tied)
    if len(rows) == 0:
        return before
    pair, where = np.nonzero(matrix[rows] == rel.scores[rows, cols][:, None])  # each tied (doc, position)
    keys: dict[int, list[str]] = {}
    for p, w in zip(pair.tolist(), where.tolist()):
        row, col = int(rows[p]), int(cols[p])
        ids = keys.get(row) or keys.setdefault(row, list(runs[row]))
        before[row, col] += ids[w] > rel.docs[rel.starts[row] + col]
    return before


def relevant_ranks(qrels: Qrels, run: Run, *, ties: TiePolicy = "pessimistic") -> RelevantRanks:
    """Ranks of every relevant document of every ``qrels`` query in ``run`` (see module doc)."""
    check_ties(ties)
    qids = list(qrels)
    runs = [run.get(q, _EMPTY) for q in qids]
    matrix = _score_matrix(runs, qids)
    rel = _relevant(qrels, runs, qids)
    higher, equal = _compare_counts(matrix, rel.scores)
    if ties == "pessimistic":
        ranks = higher + equal - _pessimistic_after(rel.grades, rel.scores)
    else:
        ranks = higher + _trec_before(runs, rel, matrix, equal > 1)
    ranks = np.where(np.isnan(rel.scores), np.inf, ranks)
    order = np.argsort(ranks, axis=1, kind="stable")
    ideal = -np.sort(-rel.grades, axis=1)
    n_relevant = (rel.grades > 0).sum(axis=1)
    gains = np.take_along_axis(rel.grades, order, 1)
    return RelevantRanks(tuple(qids), np.take_along_axis(ranks, order, 1), gains, ideal, n_relevant)
