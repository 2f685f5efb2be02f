"""One benchmark build: load tasks, verify by execution, assemble, write (I/O at the ends)."""

from __future__ import annotations

import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir import __version__
from execir.console import progress_enabled
from execir.construct.assemble import assemble_text_to_code
from execir.construct.config import BuildConfig
from execir.construct.verify import VerifyOutcome, verify
from execir.construct.writer import (
    CORPUS,
    QRELS,
    QUERIES,
    atomic_write_bytes,
    json_bytes,
    jsonl_bytes,
    qrels_bytes,
    sha256_hex,
    write_dataset,
)
from execir.errors import ExecIRError
from execir.execute import Oracle, OracleConfig
from execir.languages import FAMILY_WEIGHTS, get_language, select_operators
from execir.languages.base import family_table
from execir.tasks import bundled_humaneval_path, load_humaneval, load_mbpp
from execir.tasks.multilingual import shared_data
from execir.tasks.multilingual.sources import MULTILINGUAL_SOURCES, load_multilingual
from execir.types import Task

DATASET_FORMAT = "execir-dataset/1"
BUILD_REPORT = "build_report.json"


@dataclass(frozen=True)
class BuildSummary:
    """What a build produced, for printing."""

    out: Path
    manifest: dict[str, Any]
    report: dict[str, Any]


def load_tasks(config: BuildConfig) -> list[Task]:
    """Load the configured task source."""
    if config.language != "python" and config.source not in MULTILINGUAL_SOURCES:
        raise ExecIRError(f"--language {config.language}: source {config.source} is Python only")
    if config.source == "humaneval":
        tasks = load_humaneval(config.path)
    elif config.source == "mbpp":
        tasks = load_mbpp(_required_path(config))
    elif config.source == "jsonl":
        tasks = load_humaneval(_required_path(config), source="jsonl")
    elif config.source in MULTILINGUAL_SOURCES:
        tasks = load_multilingual(config.source, config.language, source_path(config))
    else:
        raise ExecIRError(f"unknown task source '{config.source}' (expected humaneval, mbpp, jsonl, {', '.join(MULTILINGUAL_SOURCES)})")

    return tasks[: config.limit_tasks] if config.limit_tasks else tasks


def source_path(config: BuildConfig) -> Path:
    """The file (or data folder) the tasks came from: the bundled HumanEval when none was given, or
    ``../shared/data`` beside the checkout for the multilingual sources."""
    if config.path is not None:
        return config.path
    if config.source in MULTILINGUAL_SOURCES:
        data = shared_data()
        if data is None:
            raise ExecIRError(f"'execir build {config.source}' needs --path DIR (the folder holding humaneval-x/, humanevalpack/, mxeval/)")
        return data
    return bundled_humaneval_path()


def _required_path(config: BuildConfig) -> Path:
    if config.path is None:
        raise ExecIRError(f"'execir build {config.source}' needs --path FILE")
    return config.path


def build(config: BuildConfig, oracle_config: OracleConfig, *, oracle_factory: Callable[[OracleConfig], Oracle] = Oracle) -> BuildSummary:
    """Build the dataset described by ``config`` into ``config.out`` (``oracle_factory`` makes the oracle)."""
    started = time.perf_counter()
    if config.out.exists() and not config.out.is_dir():
        raise ExecIRError(f"--out {config.out} exists and is not a directory")
    tasks = load_tasks(config)
    if not tasks:
        raise ExecIRError(f"no tasks in {source_path(config)}")
    with oracle_factory(oracle_config) as oracle:
        outcome = verify(tasks, oracle, config, progress=progress_enabled(oracle_config.progress))
        reliability = oracle.reliability()
    if not outcome.verified:
        reasons = "; ".join(f"{e.task_id}: {e.reason}" for e in outcome.excluded[:3])
        raise ExecIRError(f"no task's canonical solution passed its own tests ({reasons})")
    records = assemble_text_to_code(outcome.verified)
    files = {
        CORPUS: jsonl_bytes(records.corpus),
        QUERIES: jsonl_bytes(records.queries),
        QRELS: qrels_bytes(records.qrels),
    }
    manifest = _manifest(config, tasks, outcome, records.counts, reliability)
    manifest = write_dataset(config.out, files, manifest)
    report = {
        "wall_seconds": round(time.perf_counter() - started, 3),
        "oracle": reliability,
        "manifest_sha256": sha256_hex(json_bytes(manifest)),
    }
    atomic_write_bytes(config.out / BUILD_REPORT, json_bytes(report))
    return BuildSummary(config.out, manifest, report)


def _manifest(
    config: BuildConfig, tasks: list[Task], outcome: VerifyOutcome, counts: dict[str, Any], reliability: dict[str, Any]
) -> dict[str, Any]:
    path = source_path(config)
    admitted = len(outcome.verified)
    return {
        "format": DATASET_FORMAT,
        "toolkit": {"name": "execir", "version": __version__},
        "task": "text-to-code",
        "language": config.language,
        "source": _source_facts(config, path, tasks),
        "config": config.to_json(),
        "relevance": {"2": "canonical (passes)", "1": "same-task mutant or human-written bug verified to fail", "0": "other tasks (implicit)"},
        "mutation": _mutation_facts(config),
        "counts": {
            **counts,
            "tasks_loaded": len(tasks),
            "tasks_kept": admitted,
            "candidates_generated": outcome.candidates_generated,
            "candidates_executed": outcome.candidates_executed,
            "rejected": dict(sorted(outcome.rejected.items())),
            "verified_unused": outcome.surplus,
            "human_bugs_run": outcome.human_run,
            "human_bugs_rejected": dict(sorted(outcome.human_rejected.items())),
            "not_mutated": outcome.not_mutated,
        },
        "excluded": [{"task_id": e.task_id, "reason": e.reason} for e in outcome.excluded],
        "oracle": {
            **_stable_oracle_facts(reliability),
            "ground_truth_pass_rate": round(admitted / outcome.canonicals_run, 6) if outcome.canonicals_run else None,
            "flaky": sorted(outcome.flaky),
            "undecided": sorted(outcome.undecided),
            "mutant_verdicts": dict(sorted(outcome.verdicts.items())),
            "timeouts": outcome.timeouts,
            "near_limit_timeout_share": round(outcome.near_limit_timeouts / outcome.timeouts, 6) if outcome.timeouts else 0.0,
        },
        "runtime": {"python": platform.python_version(), "implementation": platform.python_implementation(), **_toolchain(reliability, config.language)},
    }


def _source_facts(config: BuildConfig, path: Path, tasks: list[Task]) -> dict[str, Any]:
    """The source's name and a content hash: of the file, or of the tasks loaded from a data folder."""
    if path.is_file():
        return {"name": config.source, "file": path.name, "sha256": sha256_hex(path.read_bytes())}
    digest = sha256_hex(json_bytes([[t.task_id, t.solution, t.tests.code, list(t.human_bugs)] for t in tasks]))
    return {"name": config.source, "file": path.name, "tasks_sha256": digest}


def _toolchain(reliability: dict[str, Any], language: str) -> dict[str, Any]:
    """The toolchain version of a non-Python build (part of every verdict's cache key)."""
    version = reliability.get("toolchains", {}).get(language)
    return {"toolchain": version} if version else {}


def _mutation_facts(config: BuildConfig) -> dict[str, Any]:
    """The operators used, their families and the family weights of the selection."""
    language = get_language(config.language)
    chosen = select_operators(language, config.operators)
    families = family_table(language)
    return {
        "operators": {name: families[name] for name in chosen},
        "family_weights": dict(FAMILY_WEIGHTS),
        "selection": (
            "seeded; operators visited round-robin in a family-weighted order (no second mutant of an operator "
            "before every applicable operator gave one), new lines first"
        ),
    }


_STABLE_KEYS = ("oracle_version", "isolation", "level", "limits_policy", "runtime")


def _stable_oracle_facts(reliability: dict[str, Any]) -> dict[str, Any]:
    """The parts of the oracle's reliability report that do not vary between identical builds."""
    return {k: reliability[k] for k in _STABLE_KEYS if k in reliability}
