"""Evaluate retrievers on a dataset: first stage to a depth -> rerank -> score -> analyse -> compare
(pure steps), with reading the dataset and writing results at the edges (:mod:`execir.evaluate.outputs`).

Every first-stage retriever returns its top ``config.depth`` documents per query; every measure and
analysis works on that truncated run, where a document beyond the depth is unranked (as in
``trec_eval``; the analyses count it as ranked after every retrieved document). Memory and time
grow with queries x depth, never queries x corpus."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from execir import __version__
from execir.dataset import Dataset
from execir.dataset.spec import TaskSpec, get_spec
from execir.errors import ExecIRError
from execir.evaluate.config import EvalConfig
from execir.evaluate.expansion import applicable
from execir.evaluate.indexed import index_summary
from execir.evaluate.paired import paired_deltas
from execir.evaluate.second_stage import rerank_request, reranked_run, search_depth, source_record, truncate, without_identical
from execir.expand import Expansion, expand_search
from execir.metrics import evaluate
from execir.metrics.analyses import density_ablation, gap_analyses, tie_rate
from execir.metrics.stats import bootstrap_ci, paired_comparisons
from execir.rerank.base import Reranker, reranker_usage
from execir.rerank.chain import check_scores
from execir.results import ActedOn, Comparison, DatasetFacts, Estimate, ExpansionSummary, FolderResult, GapAnalyses, RerankSummary, SystemSummary
from execir.retrieve import get_retriever
from execir.retrieve.base import Retriever, apply_task, retriever_usage, usage_since
from execir.retrieve.indexed import IndexedRetriever
from execir.types import Run


@dataclass(frozen=True)
class SystemResult:
    """Everything measured for one system (a first-stage retriever, or one reranked by a reranker):
    the typed summary the report reads, and the run, per-query metric vectors and per-query
    analysis details that runs/ and per_query.jsonl need."""

    name: str
    spec: str
    run: Run
    """The evaluated run, truncated at the depth (a reranked system's scores are ``n - rank + 1``)."""
    per_query: dict[str, dict[str, float]]
    """measure -> query -> value."""
    summary: SystemSummary
    query_details: dict[str, dict[str, Any]]
    """query -> ``canonical``, ``canonical_rank``, ``canonical_score``, ``top1_doc``, ``top1_kind``, ``beaten_by``."""
    raw_scores: Run | None = None
    """The scores shown beside the run (runs/<system>.scores.tsv, per_query.jsonl): the reranker's
    own scores for a reranked system; None means :attr:`run`."""
    expansion_records: tuple[dict[str, Any], ...] = ()
    """A query-expanded system's per-query expansion (weighted terms, or prompt and generated texts),
    written to ``expansions/<system>.jsonl``; empty for every other system."""

    @property
    def shown_scores(self) -> Run:
        """:attr:`raw_scores`, or the run's own scores."""
        return self.run if self.raw_scores is None else self.raw_scores


@dataclass
class Timer:
    """Accumulates wall time per named stage."""

    seconds: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time the enclosed block under ``name``."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - started

    def rounded(self) -> dict[str, float]:
        """Seconds per stage, to the millisecond."""
        return {k: round(v, 3) for k, v in self.seconds.items()}


RetrieverFactory = Callable[[str], Retriever]
DELTA_MEASURES: tuple[str, ...] = ("exec@1", "exec@10", "ndcg@10")
"""The measures a reranked system's deltas against its first stage are reported for."""


def evaluate_systems(
    dataset: Dataset,
    config: EvalConfig,
    timer: Timer,
    factory: RetrieverFactory | None = None,
    rerankers: Mapping[str, Reranker] | None = None,
    expansions: Mapping[str, Expansion] | None = None,
) -> list[SystemResult]:
    """Search with every configured retriever to ``config.depth`` and measure each run; then apply
    every reranker (``rerankers``: spec -> reranker, in ``config.reranks`` order) on top of every
    retriever's candidates and measure those systems too. First stages come first, in configured order,
    then the query-expanded systems (``expansions``: spec -> expansion, on the folders and retrievers
    each applies to, see :func:`~execir.evaluate.expansion.expansion_applies`), then the reranked ones
    (reranking the unexpanded first stages)."""
    make = factory or (lambda spec: get_retriever(spec, cache_dir=config.cache_dir, progress=config.progress))
    results: list[SystemResult] = []
    expanded: list[SystemResult] = []
    task = dataset_task(dataset)
    for spec in config.retrievers:
        with timer.stage("load models"):
            retriever = make(spec)
        name = config.name if config.name is not None and len(config.retrievers) == 1 else retriever.name
        _check_unique(results, name, spec)
        apply_task(retriever, task)  # prompts may depend on the task
        spent_before = retriever_usage(retriever)  # one retriever serves every folder of a collection
        with timer.stage("first stage"):
            retriever.index(dataset.corpus)
            run = truncate(without_identical(retriever.search(dataset.queries, top_k=search_depth(dataset, config.depth))), config.depth)
        config_record = retriever.config() if hasattr(retriever, "config") else {}
        identity = SystemIdentity(name, spec, config_record, retriever.encoded_texts, usage_since(spent_before, retriever_usage(retriever)))
        result = score_system(dataset, config, timer, identity, run)
        if isinstance(retriever, IndexedRetriever):
            with timer.stage("exact search for the index"):
                index = index_summary(dataset, config, retriever, run, result.per_query)
            result = replace(result, summary=replace(result.summary, index=index))
        results.append(result)
        for expansion in applicable(expansions, task, retriever):
            expanded.append(expand_system(dataset, config, timer, results[-1], retriever, expansion, results + expanded))
    first_stages = list(results)
    results.extend(expanded)
    for rerank_spec in config.reranks:
        reranker = (rerankers or {})[rerank_spec]
        reranker.use_task(task)
        for first in first_stages:
            results.append(rerank_system(dataset, config, timer, first, rerank_spec, reranker, results))
    return results


def _check_unique(results: list[SystemResult], name: str, spec: str) -> None:
    clash = next((r.spec for r in results if r.name == name), None)
    if clash is not None:
        raise ExecIRError(f"systems '{clash}' and '{spec}' both resolve to the system name '{name}'")


@dataclass(frozen=True)
class SystemIdentity:
    """What names a system in the results: its name, spec, own configuration and texts encoded."""

    name: str
    spec: str
    config: dict[str, Any]
    encoded_texts: int
    usage: dict[str, Any] | None = None
    """What an embedding API cost this system (see :meth:`SystemSummary.usage`); None for local models."""


def rerank_system(
    dataset: Dataset,
    config: EvalConfig,
    timer: Timer,
    first: SystemResult,
    spec: str,
    reranker: Reranker,
    done: list[SystemResult],
) -> SystemResult:
    """``first``'s candidates reordered by ``reranker``, measured, with its deltas against ``first``."""
    name = f"{first.name}>>{reranker.name}"
    _check_unique(done, name, f"{first.spec}>>{spec}")
    request = rerank_request(dataset, first.run, config.rerank_depth)
    spent_before = reranker_usage(reranker)  # one reranker serves every folder of a collection
    started = time.perf_counter()
    with timer.stage(f"rerank:{name}"):
        scores = reranker.score(request)
        check_scores(reranker.name, request, scores)
        run = reranked_run(first.run, scores, dataset.qrels, config.ties)
    seconds = time.perf_counter() - started
    identity = SystemIdentity(
        name, f"{first.spec}>>{spec}", reranker.config(), first.summary.encoded_texts, usage_since(spent_before, reranker_usage(reranker))
    )
    result = score_system(dataset, config, timer, identity, run, raw_scores=scores)
    rerank = rerank_summary(first, result, spec, reranker, seconds / max(len(request.queries), 1), config)
    return replace(result, summary=replace(result.summary, rerank=rerank))


def expand_system(
    dataset: Dataset, config: EvalConfig, timer: Timer, first: SystemResult, retriever: Retriever, expansion: Expansion, done: list[SystemResult]
) -> SystemResult:
    """``first``'s retriever (still indexed) searched with expanded queries, measured, with its deltas against ``first``."""
    name = f"{first.name}+{expansion.kind}"
    _check_unique(done, name, f"{first.spec}+{expansion.spec.text}")
    calls, cached = expansion.generator_calls, expansion.cached_generations
    started = time.perf_counter()
    with timer.stage(f"expand:{name}"):
        searched, records = expand_search(expansion, retriever, dataset.corpus, dataset.queries, top_k=search_depth(dataset, config.depth))
        run = truncate(without_identical(searched), config.depth)
    seconds = time.perf_counter() - started
    own = {"first_stage": first.summary.config, "expansion": expansion.config()}
    identity = SystemIdentity(name, f"{first.spec}+{expansion.spec.text}", own, retriever.encoded_texts)
    result = score_system(dataset, config, timer, identity, run)
    deltas, mcnemar = paired_deltas(first.per_query, result.per_query, DELTA_MEASURES, n_resamples=config.bootstrap_resamples, seed=config.seed)
    summary = ExpansionSummary(
        first_stage=first.name,
        spec=expansion.spec.text,
        config=expansion.config(),
        generator_calls=expansion.generator_calls - calls,
        cached_prompts=expansion.cached_generations - cached,
        seconds=round(seconds, 3),
        seconds_per_query=seconds / max(len(dataset.queries), 1),
        deltas=deltas,
        mcnemar=mcnemar,
    )
    return replace(result, summary=replace(result.summary, expansion=summary), expansion_records=tuple(records))


def rerank_summary(first: SystemResult, reranked: SystemResult, spec: str, reranker: Reranker, per_query_seconds: float, config: EvalConfig) -> RerankSummary:
    """The reranker's identity and counts, and the reranked system's paired deltas against its first stage."""
    queries = sorted(first.per_query["exec@1"])
    deltas, mcnemar = paired_deltas(first.per_query, reranked.per_query, DELTA_MEASURES, n_resamples=config.bootstrap_resamples, seed=config.seed)
    stats = reranker.stats()
    acted_on = None
    if stats.acted_on is not None:
        subset = [q for q in queries if q in stats.acted_on]
        acted_on = ActedOn(
            len(subset),
            {m: float(np.mean([first.per_query[m][q] for q in subset])) if subset else 0.0 for m in DELTA_MEASURES},
            {m: float(np.mean([reranked.per_query[m][q] for q in subset])) if subset else 0.0 for m in DELTA_MEASURES},
        )
    return RerankSummary(
        first_stage=first.name,
        spec=spec,
        config=dict(reranker.config()),
        queries=stats.queries,
        pairs=stats.pairs,
        seconds=round(stats.seconds, 3),
        extra={k: float(v) for k, v in stats.extra.items()},
        seconds_per_query=per_query_seconds,
        deltas=deltas,
        mcnemar=mcnemar,
        acted_on=acted_on,
    )


def dataset_task(dataset: Dataset) -> TaskSpec | None:
    """The folder's task spec (None for a BEIR folder made elsewhere)."""
    try:
        return get_spec(dataset.task) if dataset.task else None
    except ExecIRError:
        return None


def group_means(per_query: dict[str, dict[str, float]], groups: dict[str, str], measures: tuple[str, ...]) -> dict[str, dict[str, float]]:
    """group -> measure -> mean and ``n`` over the queries of that group (query -> group)."""
    out: dict[str, dict[str, float]] = {}
    for group in sorted(set(groups.values())):
        members = [q for q, g in groups.items() if g == group]
        out[group] = {"n": float(len(members)), **{m: float(np.mean([per_query[m][q] for q in members])) for m in measures}}
    return out


def score_system(dataset: Dataset, config: EvalConfig, timer: Timer, identity: SystemIdentity, run: Run, *, raw_scores: Run | None = None) -> SystemResult:
    """Metrics with bootstrap CIs, gap analyses and the density ablation for one (truncated) run."""
    with timer.stage("score"):
        per_query = evaluate(dataset.qrels, run, config.all_measures, ties=config.ties)
        metrics = {measure: _estimate(values, config) for measure, values in per_query.items()}
    with timer.stage("analyse"):
        analyses = gap_analyses(dataset.qrels, run, dataset.docs, dataset.query_task, k=10, ties=config.ties)
        ablation = density_ablation(
            dataset.qrels,
            run,
            dataset.docs,
            dataset.query_task,
            levels=config.ablation_levels,
            seed=config.seed,
            ties=config.ties,
        )
        ties_share = tie_rate(dataset.qrels, run, dataset.docs, dataset.query_task)
    summary = SystemSummary(
        name=identity.name,
        spec=identity.spec,
        config=identity.config,
        encoded_texts=identity.encoded_texts,
        usage=identity.usage,
        queries=len(dataset.qrels),
        metrics=metrics,
        tie_rate=ties_share,
        density_ablation=dict(ablation),
        analyses=GapAnalyses.of(analyses),
        by_language=group_means(per_query, {q: i.language or "?" for q, i in dataset.query_info.items()}, ("exec@1", "ndcg@10")),
    )
    return SystemResult(identity.name, identity.spec, run, per_query, summary, analyses["per_query"], raw_scores)


def _estimate(values: dict[str, float], config: EvalConfig) -> Estimate:
    """The mean over queries (in id order) with its seeded bootstrap CI."""
    mean, low, high = bootstrap_ci([values[q] for q in sorted(values)], n_resamples=config.bootstrap_resamples, seed=config.seed)
    return Estimate(mean, low, high)


def compare_systems(systems: list[SystemResult], config: EvalConfig) -> tuple[Comparison, ...]:
    """Exact McNemar (Holm-corrected), win/tie/loss and bootstrap CI of the difference on exec@1."""
    if len(systems) < 2:
        return ()
    per_system = {s.name: s.per_query["exec@1"] for s in systems}
    return tuple(Comparison.of(row) for row in paired_comparisons(per_system, seed=config.seed))


def dataset_facts(dataset: Dataset) -> DatasetFacts:
    """The folder's identity as ``results.json`` records it."""
    return DatasetFacts(
        path=str(dataset.root),
        name=dataset.name,
        task=dataset.task,
        language=dataset.language,
        split=dataset.split,
        manifest_sha256=dataset.manifest_sha256,
        source=source_record(dataset),
        queries=len(dataset.queries),
        documents=len(dataset.corpus),
    )


def folder_result(dataset: Dataset, config: EvalConfig, systems: list[SystemResult], comparisons: tuple[Comparison, ...], timer: Timer) -> FolderResult:
    """The typed result of one folder's evaluation (``results.json`` is its :meth:`FolderResult.to_json`)."""
    return FolderResult(
        toolkit_version=__version__,
        dataset=dataset_facts(dataset),
        config=config.to_json(),
        tie_policy=config.ties,
        systems=tuple(s.summary for s in systems),
        comparisons=comparisons,
        timing_seconds=timer.rounded(),
    )
