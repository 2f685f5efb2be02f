"""Per-query evaluation of a run against qrels, from dicts or from arrays.

Every query of ``qrels`` gets a value for every measure; a query absent from the run, or with
an empty result list, scores 0. Run queries that are not in ``qrels`` are ignored. Ties follow
:mod:`execir.metrics.ties`; measure semantics are in :mod:`execir.metrics.measures`. Both entry
points share one computation (:func:`execir.metrics.positions.rank_relevant`), so they give
identical values for the same run.
"""

from __future__ import annotations

from collections.abc import Sequence

from execir.metrics.compute import compute
from execir.metrics.dict_rows import DictRows
from execir.metrics.measures import Measure, parse_measure
from execir.metrics.positions import ScoredRows, rank_relevant
from execir.metrics.run_matrix import RunMatrix
from execir.metrics.ties import TiePolicy, check_ties
from execir.types import Qrels, Run


def _parse(measures: Sequence[str], ties: str) -> dict[str, Measure]:
    if isinstance(measures, str):
        raise ValueError("measures must be a sequence of names, e.g. ['ndcg@10'], not a string")
    check_ties(ties)
    return {name: parse_measure(name) for name in measures}


def _evaluate(qrels: Qrels, scored: ScoredRows, parsed: dict[str, Measure], ties: TiePolicy) -> dict[str, dict[str, float]]:
    ranked = rank_relevant(qrels, scored, ties=ties)
    return {name: dict(zip(ranked.query_ids, compute(ranked, m).tolist())) for name, m in parsed.items()}


def evaluate(qrels: Qrels, run: Run, measures: Sequence[str], *, ties: TiePolicy = "pessimistic") -> dict[str, dict[str, float]]:
    """Return measure name (as given) -> query id -> value, for every query in ``qrels``."""
    parsed = _parse(measures, ties)
    return _evaluate(qrels, DictRows.of(run, list(qrels)), parsed, ties)


def evaluate_arrays(qrels: Qrels, run: RunMatrix, measures: Sequence[str], *, ties: TiePolicy = "pessimistic") -> dict[str, dict[str, float]]:
    """:func:`evaluate` for a run held as arrays (:class:`~execir.metrics.run_matrix.RunMatrix`):
    the same values as ``evaluate`` on the equivalent dict run, without reading dicts of scores."""
    parsed = _parse(measures, ties)
    return _evaluate(qrels, run.rows_for(list(qrels)), parsed, ties)
