"""Library entry points behind ``execir eval`` and ``execir run``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from execir.construct.writer import atomic_write_bytes, json_bytes
from execir.evaluate.config import EvalConfig
from execir.evaluate.dataset import load_dataset
from execir.evaluate.outputs import write_outputs
from execir.evaluate.pipeline import (
    Timer,
    compare_systems,
    evaluate_systems,
    results_document,
)
from execir.retrieve import get_retriever
from execir.retrieve.base import Retriever


def prepare_retrievers(config: EvalConfig) -> dict[str, Retriever]:
    """Build every configured retriever (no model is loaded yet): a bad spec, a missing local model
    directory or a missing optional dependency fails here, before any dataset is read."""
    return {spec: get_retriever(spec, cache_dir=config.cache_dir, progress=config.progress) for spec in config.retrievers}


def run_evaluation(config: EvalConfig, retrievers: dict[str, Retriever] | None = None) -> tuple[dict[str, Any], Path]:
    """Evaluate every configured retriever on a dataset and write all outputs."""
    timer = Timer()
    with timer.stage("load models"):
        prepared = retrievers if retrievers is not None else prepare_retrievers(config)
    with timer.stage("load dataset"):
        dataset = load_dataset(config.dataset)
    systems = evaluate_systems(dataset, config, timer, factory=prepared.__getitem__)
    with timer.stage("compare"):
        comparisons = compare_systems(systems, config)
    with timer.stage("report"):
        results = results_document(dataset, config, systems, comparisons, timer)
        report = write_outputs(config.out, dataset, systems, results, config.run_depth, config.ties)
    results["timing_seconds"] = {k: round(v, 3) for k, v in timer.seconds.items()}
    atomic_write_bytes(config.out / "results.json", json_bytes(results))  # now with the report stage timed
    return results, report
