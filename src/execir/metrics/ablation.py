"""Distractor-density ablation: how scores change as each task keeps fewer of its mutants.

For every task, its mutants (``kind='mutant'`` in ``docs``, ids sorted) are shuffled once with
``numpy.random.default_rng(seed)`` (tasks visited in sorted order); level ``L`` keeps the first
``L`` of that permutation, so the kept pools are nested (level L is a subset of level L+1). The
other mutants are removed from the qrels and from every query's run; the remaining scores are
reused unchanged (no re-scoring), then the run is evaluated with :func:`execir.metrics.evaluate`.

On a run truncated at a depth, a document beyond it stays unranked at every level. Removing
mutants only moves retrieved documents up, so exec@1 (and every measure of a query whose relevant
documents are all retrieved) equals the full-depth ablation's whenever the query's pool is within
the depth.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from execir.metrics.corpus import DocInfo, task_pools
from execir.metrics.evaluate import evaluate
from execir.metrics.measures import parse_measure
from execir.metrics.ties import TiePolicy
from execir.types import Qrels, Run


def mutant_orders(docs: Mapping[str, DocInfo], *, seed: int = 0) -> dict[str, list[str]]:
    """task id -> its mutant ids in the seeded order that defines every level's kept pool."""
    rng = np.random.default_rng(seed)
    pools = task_pools(docs)
    return {task: [pools[task]["mutant"][i] for i in rng.permutation(len(pools[task]["mutant"]))] for task in sorted(pools)}


def kept_mutants(docs: Mapping[str, DocInfo], level: int, *, seed: int = 0) -> frozenset[str]:
    """The mutants kept at ``level`` (at most ``level`` per task)."""
    if level < 0:
        raise ValueError(f"density level must be >= 0, got {level}")
    return frozenset(m for order in mutant_orders(docs, seed=seed).values() for m in order[:level])


def _without(mapping: Mapping[str, Mapping[str, float]], dropped: frozenset[str]) -> dict[str, dict[str, float]]:
    return {q: {d: v for d, v in docs.items() if d not in dropped} for q, docs in mapping.items()}


class _SortedRun:
    """Each query's documents sorted by score once, so every level keeps only the head it needs.

    For measures with a cutoff ``k`` only the top ``k`` kept documents matter, plus every document
    tied with the ``k``-th (the tie policy may reorder them): keeping exactly those is exact.
    """

    def __init__(self, run: Run) -> None:
        self.rows: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for query, scores in run.items():
            ids = np.array(list(scores), dtype=object)
            values = np.fromiter(scores.values(), dtype=np.float64, count=len(scores))
            order = np.argsort(-values, kind="stable")
            self.rows[query] = (ids[order], values[order])

    def head(self, dropped: frozenset[str], depth: int) -> dict[str, dict[str, float]]:
        """Per query: the ``depth`` best kept documents and everything tied with the last of them."""
        out: dict[str, dict[str, float]] = {}
        for query, (ids, values) in self.rows.items():
            kept: dict[str, float] = {}
            last = None
            for doc, value in zip(ids.tolist(), values.tolist()):
                if doc in dropped:
                    continue
                if len(kept) >= depth and value != last:
                    break
                kept[doc] = value
                last = value
            out[query] = kept
        return out


def _max_cutoff(measures: Sequence[str]) -> int | None:
    cutoffs = [parse_measure(m).k for m in measures]
    return None if any(k is None for k in cutoffs) else max(cutoffs)  # type: ignore[type-var]


def density_ablation(
    qrels: Qrels,
    run: Run,
    docs: Mapping[str, DocInfo],
    query_task: Mapping[str, str],
    *,
    levels: Sequence[int] = (0, 1, 2, 3, 4),
    seed: int = 0,
    measures: Sequence[str] = ("exec@1", "ndcg@10"),
    ties: TiePolicy = "pessimistic",
) -> dict[int, dict[str, float]]:
    """level -> measure -> mean over every ``qrels`` query, with at most ``level`` mutants per task.

    ``query_task`` is validated to cover every query (the pools are corpus-wide, so it is not
    otherwise needed). Deterministic given ``seed``.
    """
    missing = [q for q in qrels if q not in query_task]
    if missing:
        raise ValueError(f"queries without a task in query_task: {missing[:5]}")
    all_mutants = frozenset(d for d, info in docs.items() if info.pool == "mutant")
    depth = _max_cutoff(measures)
    sorted_run = _SortedRun(run) if depth is not None else None
    out: dict[int, dict[str, float]] = {}
    for level in levels:
        dropped = all_mutants - kept_mutants(docs, level, seed=seed)
        pruned = sorted_run.head(dropped, depth) if sorted_run is not None and depth is not None else _without(run, dropped)
        values = evaluate(_without(qrels, dropped), pruned, measures, ties=ties)  # type: ignore[arg-type]
        out[level] = {m: float(np.mean(list(v.values()))) if v else 0.0 for m, v in values.items()}
    return out
