"""Ranked lists per query as Python lists, under the tie policy of :mod:`execir.metrics.ties`.

The measures do not sort whole lists: :mod:`execir.metrics.positions` computes, vectorised,
the rank each relevant document would get here, under the same policy.
"""

from __future__ import annotations

import math

from execir.metrics.ties import TiePolicy, check_ties, order_docs
from execir.types import Qrels, Run


def check_finite(qid: str, scores: dict[str, float]) -> None:
    """Raise ValueError naming the query and document of the first NaN score."""
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
        check_finite(qid, scores)
        ranked[qid] = order_docs(scores, qrels.get(qid, {}), ties)
    return ranked
