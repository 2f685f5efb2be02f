"""Per-query evaluation of a run against qrels.

Every query of ``qrels`` gets a value for every measure; a query absent from the run, or with
an empty result list, scores 0. Run queries that are not in ``qrels`` are ignored. Ties follow
:mod:`execir.metrics.ties`; measure semantics are in :mod:`execir.metrics.measures`.
"""

from __future__ import annotations

from collections.abc import Sequence

from execir.metrics.compute import compute
from execir.metrics.measures import parse_measure
from execir.metrics.positions import relevant_ranks
from execir.metrics.ties import TiePolicy, check_ties
from execir.types import Qrels, Run


def evaluate(
    qrels: Qrels, run: Run, measures: Sequence[str], *, ties: TiePolicy = "pessimistic"
) -> dict[str, dict[str, float]]:
    """Return measure name (as given) -> query id -> value, for every query in ``qrels``."""
    if isinstance(measures, str):
        raise ValueError("measures must be a sequence of names, e.g. ['ndcg@10'], not a string")
    check_ties(ties)
    parsed = {name: parse_measure(name) for name in measures}
    ranked = relevant_ranks(qrels, run, ties=ties)
    out: dict[str, dict[str, float]] = {}
    for name, measure in parsed.items():
        values = compute(ranked, measure).tolist()
        out[name] = dict(zip(ranked.query_ids, values))
    return out
