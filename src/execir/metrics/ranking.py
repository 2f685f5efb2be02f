"""Ranked lists per query, as Python lists (:func:`rank_run`) or padded numpy arrays.

Both follow the tie policy of :mod:`execir.metrics.ties`. The array form is what the measures
are computed on: one row per qrels query, the relevance grades of its ranked documents in rank
order, padded with ``-1`` (padding is never relevant and has zero gain).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain, repeat

import numpy as np

from execir.metrics.ties import TiePolicy, check_ties, order_docs
from execir.types import Qrels, Run

PAD = -1
"""Relevance value of padding cells in :class:`RankedRelevance`."""


def _check_finite(qid: str, scores: dict[str, float]) -> None:
    for doc, score in scores.items():
        if math.isnan(score):
            raise ValueError(f"run: query '{qid}', document '{doc}': score is NaN")


def rank_run(run: Run, qrels: Qrels, *, ties: TiePolicy = "pessimistic") -> dict[str, list[tuple[str, float]]]:
    """Rank every query of ``run`` under the tie policy; ``qrels`` supplies the grades ties need.

    Returns query id -> ``[(doc_id, score), ...]`` best first. Inputs are not modified.
    """
    check_ties(ties)
    ranked: dict[str, list[tuple[str, float]]] = {}
    for qid, scores in run.items():
        _check_finite(qid, scores)
        ranked[qid] = order_docs(scores, qrels.get(qid, {}), ties)
    return ranked


@dataclass(frozen=True)
class RankedRelevance:
    """Relevance grades in rank order for every qrels query.

    ``rels``: (n_queries, width) int array, row i = grades of query i's ranked documents, padded
    with :data:`PAD`. ``ideal``: (n_queries, width_ideal) gains of the judged relevant documents,
    sorted descending, zero-padded. ``n_relevant``: judged documents with rel >= 2 per query.
    """

    query_ids: tuple[str, ...]
    rels: np.ndarray
    ideal: np.ndarray
    n_relevant: np.ndarray


def _flat(qrels: Qrels, run: Run, qids: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    empty: dict[str, float] = {}
    lengths = np.fromiter((len(run.get(q, empty)) for q in qids), np.int64, count=len(qids))
    total = int(lengths.sum())
    scores = np.fromiter(chain.from_iterable(run.get(q, empty).values() for q in qids), np.float64, count=total)
    grades = chain.from_iterable(map(qrels[q].get, run.get(q, empty), repeat(0)) for q in qids)
    rels = np.fromiter(grades, np.int64, count=total)
    return lengths, scores, rels


def _pad(lengths: np.ndarray, flat: np.ndarray, fill: float, dtype: type) -> np.ndarray:
    width = int(lengths.max(initial=0))
    out = np.full((len(lengths), width), fill, dtype=dtype)
    out[np.arange(width) < lengths[:, None]] = flat
    return out


def _trec_fix_ties(run: Run, qids: list[str], qrels: Qrels, scores: np.ndarray, rels: np.ndarray) -> None:
    """Re-rank, in place, the rows whose sorted scores contain ties (trec: doc id descending)."""
    valid = rels != PAD
    tied = ((scores[:, 1:] == scores[:, :-1]) & valid[:, 1:]).any(axis=1)
    for row in np.flatnonzero(tied):
        qid = qids[row]
        grades = qrels[qid]
        ordered = order_docs(run[qid], grades, "trec")
        rels[row, : len(ordered)] = [grades.get(doc, 0) for doc, _ in ordered]


def ranked_relevance(qrels: Qrels, run: Run, *, ties: TiePolicy = "pessimistic") -> RankedRelevance:
    """Build the padded rank-order grade matrix for every query of ``qrels`` (vectorised)."""
    check_ties(ties)
    qids = list(qrels)
    lengths, flat_scores, flat_rels = _flat(qrels, run, qids)
    if np.isnan(flat_scores).any():
        for qid in qids:
            _check_finite(qid, run.get(qid, {}))
    scores = _pad(lengths, -flat_scores, np.inf, np.float64)  # negated: ascending sort = best first
    rels = _pad(lengths, flat_rels, PAD, np.int64)
    if ties == "pessimistic":  # lower grade first among equal scores; padding last
        order = np.lexsort((np.where(rels == PAD, np.iinfo(np.int64).max, rels), scores), axis=-1)
    else:  # stable: keeps padding last; tied rows are re-ranked by doc id below
        order = np.argsort(scores, axis=-1, kind="stable")
    scores = np.take_along_axis(scores, order, axis=-1)
    rels = np.take_along_axis(rels, order, axis=-1)
    if ties == "trec":
        _trec_fix_ties(run, qids, qrels, scores, rels)
    return RankedRelevance(tuple(qids), rels, *_ideal(qrels, qids))


def _ideal(qrels: Qrels, qids: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Ideal gains (rel if rel >= 2 else 0), sorted descending per query; relevant counts."""
    gains = [sorted((g for g in qrels[q].values() if g >= 2), reverse=True) for q in qids]
    lengths = np.fromiter((len(g) for g in gains), np.int64, count=len(qids))
    ideal = _pad(lengths, np.fromiter(chain.from_iterable(gains), np.float64, count=int(lengths.sum())), 0.0, np.float64)
    return ideal, lengths
