"""Evaluate retrievers on a dataset: retrieve -> score -> analyse -> compare (pure steps),
with reading the dataset and writing results at the edges (:mod:`execir.evaluate.outputs`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from execir import __version__
from execir.dataset import Dataset
from execir.dataset.spec import TaskSpec, get_spec
from execir.errors import ExecIRError
from execir.evaluate.config import EvalConfig
from execir.metrics import evaluate
from execir.metrics.analyses import density_ablation, gap_analyses, tie_rate
from execir.metrics.stats import bootstrap_ci, paired_comparisons
from execir.results import Comparison, DatasetFacts, Estimate, FolderResult, GapAnalyses, SystemSummary
from execir.retrieve import get_retriever
from execir.retrieve.base import Retriever, apply_task
from execir.types import Run


@dataclass(frozen=True)
class SystemResult:
    """Everything measured for one retrieval system: the typed summary the report reads, and the
    run, per-query metric vectors and per-query analysis details that runs/ and per_query.jsonl need."""

    name: str
    spec: str
    run: Run
    per_query: dict[str, dict[str, float]]
    """measure -> query -> value."""
    summary: SystemSummary
    query_details: dict[str, dict[str, Any]]
    """query -> ``canonical``, ``canonical_rank``, ``canonical_score``, ``top1_doc``, ``top1_kind``, ``beaten_by``."""


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


def evaluate_systems(dataset: Dataset, config: EvalConfig, timer: Timer, factory: RetrieverFactory | None = None) -> list[SystemResult]:
    """Retrieve with every configured system and compute all per-system measurements."""
    make = factory or (lambda spec: get_retriever(spec, cache_dir=config.cache_dir, progress=config.progress))
    results: list[SystemResult] = []
    for spec in config.retrievers:
        with timer.stage("load models"):
            retriever = make(spec)
        clash = next((r.spec for r in results if r.name == retriever.name), None)
        if clash is not None:
            raise ExecIRError(f"retrievers '{clash}' and '{spec}' both resolve to the system name '{retriever.name}'")
        apply_task(retriever, dataset_task(dataset))  # prompts may depend on the task
        with timer.stage("index + encode + search"):
            retriever.index(dataset.corpus)
            run = without_identical(retriever.search(dataset.queries, top_k=len(dataset.corpus)))
        results.append(score_system(dataset, config, timer, retriever, spec, run))
    return results


def dataset_task(dataset: Dataset) -> TaskSpec | None:
    """The folder's task spec (None for a BEIR folder made elsewhere)."""
    try:
        return get_spec(dataset.task) if dataset.task else None
    except ExecIRError:
        return None


def without_identical(run: Run) -> Run:
    """The run without any document whose id is its query's id: a code-to-code anchor is never in
    its own pool (BEIR's and MTEB's ``ignore_identical_ids``). Always applied."""
    return {q: {d: s for d, s in docs.items() if d != q} for q, docs in run.items()}


def group_means(per_query: dict[str, dict[str, float]], groups: dict[str, str], measures: tuple[str, ...]) -> dict[str, dict[str, float]]:
    """group -> measure -> mean and ``n`` over the queries of that group (query -> group)."""
    out: dict[str, dict[str, float]] = {}
    for group in sorted(set(groups.values())):
        members = [q for q, g in groups.items() if g == group]
        out[group] = {"n": float(len(members)), **{m: float(np.mean([per_query[m][q] for q in members])) for m in measures}}
    return out


def score_system(dataset: Dataset, config: EvalConfig, timer: Timer, retriever: Retriever, spec: str, run: Run) -> SystemResult:
    """Metrics with bootstrap CIs, gap analyses and the density ablation for one run."""
    with timer.stage("score"):
        per_query = evaluate(dataset.qrels, run, config.measures, ties=config.ties)
        metrics = {measure: _estimate(values, config) for measure, values in per_query.items()}
    with timer.stage("analyse"):
        analyses = gap_analyses(dataset.qrels, run, dataset.docs, dataset.query_task, k=10, ties=config.ties)
        ablation = density_ablation(
            dataset.qrels, run, dataset.docs, dataset.query_task, levels=config.ablation_levels, seed=config.seed,
            ties=config.ties,
        )
        ties_share = tie_rate(dataset.qrels, run, dataset.docs, dataset.query_task)
    summary = SystemSummary(
        name=retriever.name,
        spec=spec,
        config=retriever.config() if hasattr(retriever, "config") else {},
        encoded_texts=retriever.encoded_texts,
        queries=len(dataset.qrels),
        metrics=metrics,
        tie_rate=ties_share,
        density_ablation=dict(ablation),
        analyses=GapAnalyses.of(analyses),
        by_language=group_means(per_query, {q: i.language or "?" for q, i in dataset.query_info.items()}, ("exec@1", "ndcg@10")),
    )
    return SystemResult(retriever.name, spec, run, per_query, summary, analyses["per_query"])


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
        path=str(dataset.root), name=dataset.name, task=dataset.task, language=dataset.language, split=dataset.split,
        manifest_sha256=dataset.manifest_sha256, source=dataset.manifest.get("source"),
        queries=len(dataset.queries), documents=len(dataset.corpus),
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
