"""Library entry points behind ``execir eval`` and ``execir run``."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from execir.dataset import discover, load_dataset
from execir.dataset.files import atomic_write_bytes, json_bytes
from execir.distributed_retrieve.record import distributed_section
from execir.errors import ExecIRError, MissingDependencyError
from execir.evaluate.collection import averages, folder_summary
from execir.evaluate.config import EvalConfig
from execir.evaluate.expansion import expansion_notes
from execir.evaluate.measures import check_depth
from execir.evaluate.outputs import write_outputs, write_results
from execir.evaluate.pipeline import Timer, compare_systems, dataset_task, evaluate_systems, folder_result
from execir.execute import OracleConfig
from execir.expand import Expansion, parse_expansions
from execir.expand import prepare_expansions as expansions_of
from execir.paths import verdict_cache_path
from execir.report.collection import render_collection
from execir.report.html import write_collection_html
from execir.rerank.base import Reranker
from execir.rerank.registry import get_reranker
from execir.results import CollectionResult, FolderResult, FolderSummary
from execir.retrieve import get_retriever
from execir.retrieve.base import Retriever


def check_config(config: EvalConfig) -> None:
    """Refuse options that cannot work together: a depth below a measure's cut-off, or ``name`` with
    other than exactly one retriever (or a name a reranked system's ``>>`` would make ambiguous)."""
    check_depth(config.depth, config.all_measures)
    parse_expansions(config.expansions)
    depth = config.rerank_depth
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= config.depth):
        raise ExecIRError(f"--rerank-depth must be between 1 and --depth ({config.depth}), got {depth!r}")
    if config.name is not None:
        if len(config.retrievers) != 1:
            raise ExecIRError(f"--name names the one retriever's system, but {len(config.retrievers)} retrievers were given")
        if not config.name.strip() or ">>" in config.name:
            raise ExecIRError(f"--name must be non-empty and without '>>', got '{config.name}'")


def prepare_expansions(config: EvalConfig) -> dict[str, Expansion]:
    """Parse every ``--expand`` spec (spec -> expansion); a bad spec or a missing generator
    directory fails here, before any dataset is read."""
    return expansions_of(config.expansions, cache_dir=config.generation_cache_dir, progress=config.progress)


def prepare_retrievers(config: EvalConfig) -> dict[str, Retriever]:
    """Build every configured retriever (no model is loaded yet): a bad spec, a missing local model
    directory, a missing optional dependency or a bad option fails here, before any dataset is read."""
    check_config(config)
    return {spec: get_retriever(spec, cache_dir=config.cache_dir, progress=config.progress) for spec in config.retrievers}


def eval_oracle(config: EvalConfig, workers: int = 2) -> OracleConfig:
    """The oracle the ``exec`` reranker runs candidates with: ``workers`` sandboxes, the shared verdict cache."""
    return OracleConfig(workers=workers, cache_path=verdict_cache_path(), progress=config.progress)


def prepare_rerankers(config: EvalConfig, oracle: OracleConfig) -> dict[str, Reranker]:
    """Build every configured reranker (spec -> reranker); like :func:`prepare_retrievers`, a bad spec
    fails here, before any dataset is read."""
    rerankers = {spec: get_reranker(spec, cache_dir=config.cache_dir, oracle_config=oracle, progress=config.progress) for spec in config.reranks}
    named: dict[str, str] = {}
    for spec, reranker in rerankers.items():
        if reranker.name in named:
            raise ExecIRError(
                f"--rerank '{named[reranker.name]}' and --rerank '{spec}' both resolve to the reranker name '{reranker.name}'; "
                "give the model folders distinct names"
            )
        named[reranker.name] = spec
    return rerankers


def run_evaluation(
    config: EvalConfig,
    retrievers: dict[str, Retriever] | None = None,
    rerankers: dict[str, Reranker] | None = None,
    expansions: dict[str, Expansion] | None = None,
) -> tuple[FolderResult, Path]:
    """Evaluate every configured retriever (and reranker, and expansion) on one dataset folder and write all outputs."""
    result, report, _ = _evaluate_folder(config, retrievers, rerankers, expansions)
    return result, report


def _evaluate_folder(
    config: EvalConfig,
    retrievers: dict[str, Retriever] | None,
    rerankers: dict[str, Reranker] | None,
    expansions: dict[str, Expansion] | None = None,
) -> tuple[FolderResult, Path, FolderSummary]:
    timer = Timer()
    with timer.stage("load models"):
        prepared = retrievers if retrievers is not None else prepare_retrievers(config)
        second = rerankers if rerankers is not None else prepare_rerankers(config, eval_oracle(config))
        expand = expansions if expansions is not None else prepare_expansions(config)
    with timer.stage("load dataset"):
        dataset = load_dataset(config.dataset, config.split)
    systems = evaluate_systems(dataset, config, timer, factory=prepared.__getitem__, rerankers=second, expansions=expand)
    with timer.stage("compare"):
        comparisons = compare_systems(systems, config)
    with timer.stage("report"):
        result = folder_result(dataset, config, systems, comparisons, timer)
        result = replace(result, distributed=distributed_section(prepared.values()))  # None unless a retriever ran on Ray
        result = replace(result, expansion_notes=expansion_notes(expand, dataset_task(dataset), prepared.values()))
        report = write_outputs(config.out, dataset, systems, result, config.run_depth)
    result = replace(result, timing_seconds=timer.rounded())
    write_results(config.out, result)  # now with the report stage timed
    return result, report, folder_summary(dataset, result, report.name)


def run_collection(
    config: EvalConfig,
    retrievers: dict[str, Retriever] | None = None,
    rerankers: dict[str, Reranker] | None = None,
    expansions: dict[str, Expansion] | None = None,
) -> tuple[CollectionResult, Path]:
    """Evaluate every dataset folder under ``config.dataset`` (one folder, or a build's output with
    one folder per task): each into ``out/<folder>/``, then the collection's ``results.json`` and
    ``report.md`` in ``out``. A single folder is evaluated into ``out`` itself."""
    started = time.perf_counter()
    prepared = retrievers if retrievers is not None else prepare_retrievers(config)
    second = rerankers if rerankers is not None else prepare_rerankers(config, eval_oracle(config))
    expand = expansions if expansions is not None else prepare_expansions(config)
    folders = discover(config.dataset)
    if folders == [config.dataset]:
        _, report, summary = _evaluate_folder(config, prepared, second, expand)
        result = CollectionResult(config.split, config.ties, (summary,), averages((summary,)), round(time.perf_counter() - started, 3))
        return result, report
    summaries: list[FolderSummary] = []
    folder_results: dict[str, FolderResult] = {}
    for folder in folders:
        sub = replace(config, dataset=folder, out=config.out / folder.name)
        folder_results[folder.name], _, summary = _evaluate_folder(sub, prepared, second, expand)
        summaries.append(replace(summary, report=f"{folder.name}/report.md"))
    result = CollectionResult(config.split, config.ties, tuple(summaries), averages(tuple(summaries)), round(time.perf_counter() - started, 3))
    atomic_write_bytes(config.out / "results.json", json_bytes(result.to_json()))
    report = config.out / "report.md"
    atomic_write_bytes(report, render_collection(result).encode("utf-8"))
    try:
        write_collection_html(config.out, result, folder_results)
    except MissingDependencyError:
        pass  # report.html needs plotly (the report extra); report.md is complete without it
    return result, report
