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
numpy work. The run arrives as :class:`ScoredRows`: a score matrix aligned with the qrels
queries plus two look-ups, implemented over dicts (:class:`execir.metrics.dict_rows.DictRows`)
and over arrays (:class:`execir.metrics.run_matrix.RunMatrix`); both give identical ranks.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from operator import gt
from typing import Protocol

import numpy as np

from execir.metrics.padding import pad_rows
from execir.metrics.ties import TiePolicy, check_ties
from execir.types import Qrels

RELEVANT = 2
"""Minimum grade counted as relevant (see :mod:`execir.metrics.measures`)."""

_BLOCK_CELLS = 1 << 24
"""Comparison cells (queries x relevant x depth) per block: bounds the temporary memory."""


class ScoredRows(Protocol):
    """A run as rows aligned with a list of query ids (row i: the i-th query)."""

    @property
    def matrix(self) -> np.ndarray:
        """(n_queries, depth) float64 scores of each row's documents, NaN-padded; no NaN scores."""
        ...

    def scores_of(self, rows: np.ndarray, docs: list[str]) -> np.ndarray:
        """Score of ``docs[i]`` in row ``rows[i]``; NaN where the row does not hold it."""
        ...

    def ids_at(self, rows: np.ndarray, positions: np.ndarray) -> list[str]:
        """Document id at ``(rows[i], positions[i])`` of :attr:`matrix`."""
        ...


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
    return pad_rows(flat, np.bincount(rows, minlength=n_rows), fill)


@dataclass(frozen=True)
class _Relevant:
    """Relevant judgements as (n_queries, width) matrices; ``docs[starts[q] + j]`` is doc (q, j)."""

    docs: list[str]
    starts: np.ndarray
    grades: np.ndarray
    scores: np.ndarray


def _relevant(qrels: Qrels, scored: ScoredRows) -> _Relevant:
    """Relevant documents per query (row i: the i-th of ``qrels``) with their grades and run
    scores (NaN: not retrieved)."""
    judged = list(qrels.values())
    counts = np.fromiter(map(len, judged), np.int64, count=len(judged))
    flat_grades = np.fromiter(chain.from_iterable(map(dict.values, judged)), np.float64, count=int(counts.sum()))
    keep = np.flatnonzero(flat_grades >= RELEVANT)
    rows = np.repeat(np.arange(len(judged)), counts)[keep]
    flat_docs = list(chain.from_iterable(judged))
    docs = [flat_docs[i] for i in keep.tolist()]
    scores = scored.scores_of(rows, docs)
    n = len(judged)
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


def _trec_before(scored: ScoredRows, rel: _Relevant, tied: np.ndarray) -> np.ndarray:
    """Per relevant doc d: tied documents with a larger id (trec_eval order); only tied rows compared."""
    before = np.zeros(rel.scores.shape, dtype=np.int64)
    rows, cols = np.nonzero(tied)
    if len(rows) == 0:
        return before
    pair, where = np.nonzero(scored.matrix[rows] == rel.scores[rows, cols][:, None])  # tied (doc, position)
    rows, cols = rows[pair], cols[pair]
    theirs = scored.ids_at(rows, where)
    mine = [rel.docs[i] for i in (rel.starts[rows] + cols).tolist()]
    np.add.at(before, (rows, cols), np.fromiter(map(gt, theirs, mine), np.int64, count=len(mine)))
    return before


def rank_relevant(qrels: Qrels, scored: ScoredRows, *, ties: TiePolicy = "pessimistic") -> RelevantRanks:
    """Ranks of every relevant document of every ``qrels`` query; ``scored`` row i is the i-th
    query of ``qrels`` (see the module doc)."""
    check_ties(ties)
    rel = _relevant(qrels, scored)
    higher, equal = _compare_counts(scored.matrix, rel.scores)
    if ties == "pessimistic":
        ranks = higher + equal - _pessimistic_after(rel.grades, rel.scores)
    else:
        ranks = higher + _trec_before(scored, rel, equal > 1)
    ranks = np.where(np.isnan(rel.scores), np.inf, ranks)
    order = np.argsort(ranks, axis=1, kind="stable")
    ideal = -np.sort(-rel.grades, axis=1)
    n_relevant = (rel.grades > 0).sum(axis=1)
    gains = np.take_along_axis(rel.grades, order, 1)
    return RelevantRanks(tuple(qrels), np.take_along_axis(ranks, order, 1), gains, ideal, n_relevant)
