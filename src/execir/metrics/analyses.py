"""Gap analyses: how often, and to which mutants, a retriever loses the correct function.

Every analysis covers every query of ``qrels``. A query's *pool* is the corpus documents of its
task (``docs[d].task_id == query_task[q]``): its canonical solution(s) (``kind='canonical'``)
and its mutants (``kind='mutant'``). Rankings follow the tie policy of
:mod:`execir.metrics.ties`: under ``pessimistic`` a mutant tied with its canonical counts as
ranked above it (under ``trec`` the tie goes to the larger document id, as in the ranking, so
"below" always means "ranked below"). A document absent from the run has score ``-inf`` and is
never ranked: an absent mutant never outranks anything, a present mutant outranks an absent
canonical, and ``canonical_score``/``canonical_rank`` are reported as None (JSON null).
Shares with an empty denominator are reported as 0.0 (the denominator is reported alongside).

Runs truncated at a depth (the first stage's top ``depth``) need nothing else: a document beyond
the depth is absent, so it counts as ranked after every retrieved document. Whenever a query's own
pool (its canonicals and mutants) is within the depth, every analysis of that query equals the
full-depth one (up to equal scores cut at the depth); a canonical beyond the depth has
``canonical_rank`` None and is outranked by each of its retrieved mutants. :func:`tie_rate` only
sees ties among retrieved documents, so on a truncated run it is a lower bound of the full one.
Time and memory grow with the run (queries x depth) plus each query's own pool.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from execir.metrics.ablation import density_ablation
from execir.metrics.corpus import DocInfo, share, task_pools
from execir.metrics.ranking import rank_run
from execir.metrics.ties import TiePolicy, check_ties
from execir.types import Qrels, Run

__all__ = ["DocInfo", "density_ablation", "gap_analyses", "tie_rate"]


def _task_of(qid: str, query_task: Mapping[str, str]) -> str:
    if qid not in query_task:
        raise ValueError(f"query '{qid}' is in qrels but has no task in query_task")
    return query_task[qid]


@dataclass(frozen=True)
class _QueryView:
    """One query's ranking, with ranks (1-based) of its pool documents present in the run."""

    ranking: list[tuple[str, float]]
    ranks: dict[str, int]
    canonicals: list[str]
    mutants: list[str]

    @property
    def canonical(self) -> str | None:
        """The best-ranked canonical (the first by id when none was retrieved)."""
        present = [d for d in self.canonicals if d in self.ranks]
        if present:
            return min(present, key=self.ranks.__getitem__)
        return self.canonicals[0] if self.canonicals else None

    def beaten_by(self) -> list[str]:
        """Mutants ranked above the canonical, best first."""
        canonical = self.canonical
        if canonical is None:
            return []
        bound = self.ranks.get(canonical, len(self.ranking) + 1)
        return sorted((m for m in self.mutants if self.ranks.get(m, bound) < bound), key=self.ranks.__getitem__)


def _views(qrels: Qrels, run: Run, docs: Mapping[str, DocInfo], query_task: Mapping[str, str], ties: TiePolicy) -> dict[str, _QueryView]:
    pools = task_pools(docs)
    empty: dict[str, list[str]] = {"canonical": [], "mutant": []}
    views: dict[str, _QueryView] = {}
    for qid in qrels:
        pool = pools.get(_task_of(qid, query_task), empty)
        ranking = rank_run({qid: run.get(qid, {})}, qrels, ties=ties)[qid]
        ranks = {doc: i + 1 for i, (doc, _) in enumerate(ranking)}
        views[qid] = _QueryView(ranking, ranks, pool["canonical"], pool["mutant"])
    return views


def _paired_misses(qrels: Qrels, views: Mapping[str, _QueryView]) -> dict[str, float | int]:
    misses = paired = 0
    for qid, view in views.items():
        top = view.ranking[0][0] if view.ranking else None
        if top is None or qrels[qid].get(top, 0) < 2:
            misses += 1
            paired += top in view.mutants
    return share(paired, misses)


def _intrusion(qrels: Qrels, views: Mapping[str, _QueryView], k: int) -> dict[str, float | int]:
    hits = 0
    for qid, view in views.items():
        grades = [qrels[qid].get(doc, 0) for doc, _ in view.ranking[:k]]
        first_bad = next((i for i, g in enumerate(grades) if g == 1), None)
        first_good = next((i for i, g in enumerate(grades) if g >= 2), k)
        hits += first_bad is not None and first_bad < first_good
    return share(hits, len(views))


def _intrusion_coreb(qrels: Qrels, views: Mapping[str, _QueryView], k: int) -> dict[str, float | int]:
    """CoREB's intrusion: a hard negative (grade 1) ranked above a correct document (grade 2), both
    within the top ``k``. Unlike ``intrusion@k`` it does not count a query whose top ``k`` holds a
    hard negative but no correct document."""
    hits = 0
    for qid, view in views.items():
        grades = [qrels[qid].get(doc, 0) for doc, _ in view.ranking[:k]]
        first_bad = next((i for i, g in enumerate(grades) if g == 1), None)
        hits += first_bad is not None and any(g >= 2 for g in grades[first_bad + 1 :])
    return share(hits, len(views))


def _per_operator(docs: Mapping[str, DocInfo], views: Mapping[str, _QueryView]) -> dict[str, dict[str, float | int]]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for view in views.values():
        if view.canonical is None:
            continue
        beaten = {docs[m].operator for m in view.beaten_by()}
        for operator in {docs[m].operator for m in view.mutants}:
            name = str(operator)
            counts[name][0] += 1
            counts[name][1] += operator in beaten
    return {op: {"n": n, "outranks": k, "rate": k / n} for op, (n, k) in sorted(counts.items())}


def _per_query(docs: Mapping[str, DocInfo], run: Run, qid: str, view: _QueryView) -> dict[str, Any]:
    canonical = view.canonical
    top = view.ranking[0][0] if view.ranking else None
    return {
        "canonical": canonical,
        "canonical_rank": view.ranks.get(canonical) if canonical else None,
        "canonical_score": run.get(qid, {}).get(canonical) if canonical else None,
        "top1_doc": top,
        "top1_kind": docs[top].kind if top is not None and top in docs else None,
        "beaten_by": view.beaten_by(),
    }


def gap_analyses(
    qrels: Qrels,
    run: Run,
    docs: Mapping[str, DocInfo],
    query_task: Mapping[str, str],
    *,
    k: int = 10,
    ties: TiePolicy = "pessimistic",
) -> dict[str, Any]:
    """JSON-able gap analyses of ``run`` (see the module docstring for the conventions).

    Returns ``{"n_queries", "k", "ties", "paired_mutant_share_of_misses",
    "canonical_below_distractor", "intrusion@<k>", "coreb_intrusion@<k>", "per_operator",
    "per_query"}``; the four shares are ``{"share", "numerator", "denominator"}``.
    """
    check_ties(ties)
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    views = _views(qrels, run, docs, query_task, ties)
    with_canonical = [v for v in views.values() if v.canonical is not None]
    return {
        "n_queries": len(views),
        "k": k,
        "ties": ties,
        "paired_mutant_share_of_misses": _paired_misses(qrels, views),
        "canonical_below_distractor": share(sum(bool(v.beaten_by()) for v in with_canonical), len(with_canonical)),
        f"intrusion@{k}": _intrusion(qrels, views, k),
        f"coreb_intrusion@{k}": _intrusion_coreb(qrels, views, k),
        "per_operator": _per_operator(docs, views),
        "per_query": {qid: _per_query(docs, run, qid, view) for qid, view in views.items()},
    }


def tie_rate(qrels: Qrels, run: Run, docs: Mapping[str, DocInfo], query_task: Mapping[str, str]) -> float:
    """Share of ``qrels`` queries whose canonical's score exactly equals one of its own mutants'.

    Only documents present in the run are compared (absent documents have no score).
    """
    pools = task_pools(docs)
    tied = 0
    for qid in qrels:
        pool = pools.get(_task_of(qid, query_task), {"canonical": [], "mutant": []})
        scores = run.get(qid, {})
        canon = {scores[d] for d in pool["canonical"] if d in scores}
        tied += any(scores[m] in canon for m in pool["mutant"] if m in scores)
    return tied / len(qrels) if qrels else 0.0
