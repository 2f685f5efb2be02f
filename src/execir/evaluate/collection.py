"""Typed results of evaluating every folder of a build, and CoREB's averages over them.

A build writes one folder per task (``t2c-description``, ``c2t``, ``c2c``...). Each is evaluated
on its own (its own ``results.json`` and ``report.md``); this module keeps what the collection
report needs from each, as typed records, and averages nDCG@10 the way CoREB does: over the
folders of a direction, then over directions.
"""

from __future__ import annotations

import statistics

from execir.dataset import Dataset
from execir.dataset.spec import get_spec
from execir.dataset.stats import judgement_means, median_tokens
from execir.errors import ExecIRError
from execir.results import Composition, Estimate, FolderResult, FolderScore, FolderSummary, SystemSummary

HEADLINE = ("exec@1", "ndcg@10", "mrr@10")
COLLECTION_DELTAS = ("exec@1", "ndcg@10")
"""A reranked system's deltas against its first stage that the collection report shows."""


def folder_summary(dataset: Dataset, result: FolderResult, report: str) -> FolderSummary:
    """The collection's view of one evaluated folder."""
    try:
        spec = get_spec(dataset.task)
        direction, subtype = spec.direction, spec.subtype
    except ExecIRError:
        direction, subtype = "t2c", ""
    scores = tuple(
        FolderScore(
            system=s.name,
            metrics={m: s.metrics[m] for m in HEADLINE if m in s.metrics},
            intrusion=s.analyses.intrusion.share,
            coreb_intrusion=s.analyses.coreb_intrusion.share,
            by_language=s.by_language,
            first_stage=s.rerank.first_stage if s.rerank is not None else None,
            deltas=_deltas(s),
            expanded_from=s.expansion.first_stage if s.expansion is not None else None,
        )
        for s in result.systems
    )
    return FolderSummary(dataset.name, dataset.task or dataset.name, direction, subtype, dataset.language, dataset.split, composition(dataset), scores, report)


def _deltas(system: SystemSummary) -> dict[str, Estimate]:
    """A reranked or expanded system's :data:`COLLECTION_DELTAS` against its first stage (empty otherwise)."""
    second = system.rerank or system.expansion
    return {m: second.deltas[m] for m in COLLECTION_DELTAS if m in second.deltas} if second is not None else {}


def composition(dataset: Dataset) -> Composition:
    """Counts of the loaded split (queries) and the folder (documents)."""
    positives, negatives = judgement_means([list(v.values()) for v in dataset.qrels.values()])
    kinds: dict[str, int] = {}
    for info in dataset.docs.values():
        kinds[info.kind] = kinds.get(info.kind, 0) + 1
    languages: dict[str, int] = {}
    for query in dataset.query_info.values():
        languages[query.language or "?"] = languages.get(query.language or "?", 0) + 1
    return Composition(
        queries=len(dataset.queries),
        documents=len(dataset.corpus),
        positives_per_query=positives,
        hard_negatives_per_query=negatives,
        median_query_tokens=median_tokens(dataset.queries.values()),
        documents_by_kind=dict(sorted(kinds.items())),
        queries_by_language=dict(sorted(languages.items())),
    )


def averages(folders: tuple[FolderSummary, ...]) -> dict[str, dict[str, float]]:
    """Per system: mean nDCG@10 per direction over its folders, and ``overall`` over the directions.
    Query-expanded systems are left out: they exist only on search and description folders, so their
    means would not compare with their first stages'."""
    by_system: dict[str, dict[str, list[float]]] = {}
    for folder in folders:
        for score in folder.scores:
            if "ndcg@10" in score.metrics and score.expanded_from is None:  # expanded systems exist on some folders only
                by_system.setdefault(score.system, {}).setdefault(folder.direction, []).append(score.metrics["ndcg@10"].mean)
    out: dict[str, dict[str, float]] = {}
    for system, directions in sorted(by_system.items()):
        means = {d: statistics.mean(v) for d, v in sorted(directions.items())}
        out[system] = {**means, "overall": statistics.mean(means.values())}
    return out
