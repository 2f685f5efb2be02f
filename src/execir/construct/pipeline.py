"""One benchmark build: load tasks, verify by execution, assemble, write (I/O at the ends)."""

from __future__ import annotations

import platform
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir.console import progress_enabled
from execir.construct.assemble import code_to_code, code_to_text, text_to_code
from execir.construct.config import BuildConfig
from execir.construct.extras import ExtrasOutcome, verify_candidates, verify_rewrites
from execir.construct.verify import VerifiedTask, VerifyOutcome, verify
from execir.dataset.files import atomic_write_bytes, json_bytes, sha256_hex
from execir.dataset.layout import BUILD_REPORT
from execir.dataset.records import FolderRecords
from execir.dataset.spec import TaskSpec, parse_tasks
from execir.dataset.splits import split_problems
from execir.dataset.write import write_collection
from execir.errors import ExecIRError
from execir.execute import Oracle, OracleConfig
from execir.execute.jobs import IN_PROCESS, JUDGED_OUTSIDE
from execir.languages import FAMILY_WEIGHTS, get_language, select_operators
from execir.languages.base import family_table
from execir.tasks.candidates import load_candidates
from execir.tasks.registry import task_source
from execir.texts.distractors import Distractor, load_distractors
from execir.types import Task, problem_of


@dataclass(frozen=True)
class LanguageBuild:
    """One language's verified tasks and the facts of verifying them."""

    language: str
    tasks: list[Task]
    outcome: VerifyOutcome


@dataclass(frozen=True)
class BuildSummary:
    """What a build produced, for printing: the collection manifest and the build report."""

    out: Path
    manifest: dict[str, Any]
    report: dict[str, Any]


def load_tasks(config: BuildConfig, language: str | None = None) -> list[Task]:
    """Load the configured task source in ``language`` (default: the build's only language)."""
    language = language or config.languages[0]
    source = task_source(config.source)
    if language not in source.languages:
        if source.languages == ("python",):
            raise ExecIRError(f"--language {language}: source {config.source} is Python only")
        raise ExecIRError(f"{config.source} has no {language} tasks ExecIR can run; languages: {', '.join(source.languages)}")
    tasks = source.load(source.resolve_path(config.path), language)
    return tasks[: config.limit_tasks] if config.limit_tasks else tasks


def source_path(config: BuildConfig) -> Path:
    """The file (or data folder) the tasks came from: ``--path``, or the source's default."""
    return task_source(config.source).resolve_path(config.path)


def build(config: BuildConfig, oracle_config: OracleConfig, *, oracle_factory: Callable[[OracleConfig], Oracle] = Oracle) -> BuildSummary:
    """Build every configured task folder into ``config.out`` (``oracle_factory`` makes the oracle)."""
    started = time.perf_counter()
    if config.out.exists() and not config.out.is_dir():
        raise ExecIRError(f"--out {config.out} exists and is not a directory")
    specs = parse_tasks(config.tasks)
    loaded = {language: load_tasks(config, language) for language in config.languages}
    for language, tasks in loaded.items():
        if not tasks:
            raise ExecIRError(f"no {language} tasks in {source_path(config)}")
    candidates = load_candidates(config.candidates, languages=config.languages) if config.candidates else []
    distractors = load_distractors(config.distractors) if config.distractors else []
    extras = ExtrasOutcome(candidates_loaded=len(candidates))
    wants_positives = any(s.document_kind == "code" for s in specs)
    builds: list[LanguageBuild] = []
    with oracle_factory(oracle_config) as oracle:
        for language, tasks in loaded.items():
            outcome = verify(tasks, oracle, config, progress=progress_enabled(oracle_config.progress))
            if wants_positives:
                verify_rewrites(outcome.verified, oracle, extras, per_task=config.rewrites, seed=config.seed)
            verify_candidates(outcome.verified, oracle, extras, candidates)
            builds.append(LanguageBuild(language, tasks, outcome))
        reliability = oracle.reliability()
        distributed = oracle.distributed_facts() if hasattr(oracle, "distributed_facts") else None  # --ray: hosts, slots, executions
    kept = {(v.task.task_id, v.task.language) for b in builds for v in b.outcome.verified}
    unmatched = sum((c.task_id, c.language) not in kept for c in candidates)
    if unmatched:
        extras.candidates_rejected["task_not_in_build"] += unmatched
    for language_build in builds:
        if not language_build.outcome.verified:
            reasons = "; ".join(f"{e.task_id}: {e.reason}" for e in language_build.outcome.excluded[:3])
            raise ExecIRError(f"no {language_build.language} task's canonical solution passed its own tests ({reasons})")
    folders = assemble_folders(specs, builds, config, distractors)
    empty = [f.name for f in folders if not f.queries]
    folders = [f for f in folders if f.queries]
    if not folders:
        raise ExecIRError("no folder has a query with a correct document (c2c needs rewrites or candidates; see --rewrites, --candidates)")
    verified = [v for b in builds for v in b.outcome.verified]
    plan = split_problems({problem_of(v.task) for v in verified}, seed=config.seed, fractions=config.splits)
    facts = _build_facts(config, builds, extras, reliability, empty)
    manifest = write_collection(config.out, folders, plan, facts)
    report = {
        "wall_seconds": round(time.perf_counter() - started, 3),
        "languages": {b.language: hard_negative_report(b.outcome) for b in builds},
        "oracle": reliability,
        "manifest_sha256": sha256_hex(json_bytes(manifest)),
        **({"distributed": distributed} if distributed else {}),
    }
    atomic_write_bytes(config.out / BUILD_REPORT, json_bytes(report))
    return BuildSummary(config.out, manifest, report)


def assemble_folders(specs: Sequence[TaskSpec], builds: Sequence[LanguageBuild], config: BuildConfig, distractors: Sequence[Distractor]) -> list[FolderRecords]:
    """Every folder of the build, in spec order (per language for text-to-code in a multi-language build)."""
    multi = len(builds) > 1
    every = [v for b in builds for v in b.outcome.verified]
    folders: list[FolderRecords] = []
    for spec in specs:
        if spec.direction == "t2c":
            for language_build in builds:
                folders.append(text_to_code(language_build.outcome.verified, spec.subtype, language=language_build.language if multi else None))
        elif spec.direction == "c2t":
            folders.append(code_to_text(every, counterfactual_limit=config.counterfactuals, seed=config.seed, distractors=distractors))
        else:
            folders.append(code_to_code(every, constraint=None, subtype=spec.subtype))
            if multi:
                folders.extend(code_to_code(every, constraint=b.language, subtype=spec.subtype) for b in builds)
    return folders


def _build_facts(config: BuildConfig, builds: Sequence[LanguageBuild], extras: ExtrasOutcome, reliability: dict[str, Any], empty: list[str]) -> dict[str, Any]:
    """What every folder's manifest records of the build that made it."""
    path = source_path(config)
    return {
        "source": _source_facts(config, path, [t for b in builds for t in b.tasks]),
        "config": config.to_json(),
        "languages": {b.language: _language_facts(config, b, reliability) for b in builds},
        "extras": extras.to_json(),
        "empty_folders": empty,
        "oracle": _stable_oracle_facts(reliability),
        "runtime": {"python": platform.python_version(), "implementation": platform.python_implementation()},
    }


def _language_facts(config: BuildConfig, language_build: LanguageBuild, reliability: dict[str, Any]) -> dict[str, Any]:
    """One language's counts, mutation settings, exclusions and oracle facts."""
    outcome = language_build.outcome
    admitted = sum(1 for v in outcome.verified if v.has_canonical)
    return {
        "counts": {
            **pool_counts(outcome.verified),
            "tasks_loaded": len(language_build.tasks),
            "tasks_kept": len(outcome.verified),
            "candidates_generated": outcome.candidates_generated,
            "candidates_executed": outcome.candidates_executed,
            "rejected": dict(sorted(outcome.rejected.items())),
            "verified_unused": outcome.surplus,
            "human_bugs_run": outcome.human_run,
            "human_bugs_rejected": dict(sorted(outcome.human_rejected.items())),
            "not_mutated": outcome.not_mutated,
        },
        "mutation": _mutation_facts(config, language_build.language),
        "excluded": [{"task_id": e.task_id, "reason": e.reason} for e in outcome.excluded],
        "oracle": {
            "ground_truth_pass_rate": round(admitted / outcome.canonicals_run, 6) if outcome.canonicals_run else None,
            "judged_outside": judged_outside(outcome.verified),
            "flaky": sorted(outcome.flaky),
            "undecided": sorted(outcome.undecided),
            "mutant_verdicts": dict(sorted(outcome.verdicts.items())),
            "timeouts": outcome.timeouts,
            "near_limit_timeout_share": round(outcome.near_limit_timeouts / outcome.timeouts, 6) if outcome.timeouts else 0.0,
        },
        **_toolchain(reliability, language_build.language),
    }


def judged_outside(verified: Sequence[VerifiedTask]) -> dict[str, Any]:
    """How many kept tasks had their tests judged outside the candidate's process (the rest ran
    in-process: tests the runtime cannot split, or whose record run did not complete)."""
    judged = [v for v in verified if v.has_canonical]
    outside = sorted(v.task.task_id for v in judged if v.protocol == JUDGED_OUTSIDE)
    share = round(len(outside) / len(judged), 6) if judged else None
    return {"tasks": len(outside), "of": len(judged), "share": share, "in_process": sorted(v.task.task_id for v in judged if v.protocol == IN_PROCESS)}


def pool_counts(verified: Sequence[VerifiedTask]) -> dict[str, Any]:
    """Programs per kind over a language's verified tasks."""
    per_operator: Counter[str] = Counter(k.mutant.operator for v in verified for k in v.mutants)
    per_task = Counter(len(v.mutants) for v in verified)
    return {
        "canonical": sum(1 for v in verified if v.has_canonical),
        "mutant": sum(len(v.mutants) for v in verified),
        "human": sum(len(v.human) for v in verified),
        "rewrite": sum(1 for v in verified for e in v.extras if e.kind == "rewrite"),
        "candidate_pass": sum(1 for v in verified for e in v.extras if e.kind == "candidate" and e.grade == 2),
        "candidate_fail": sum(1 for v in verified for e in v.extras if e.kind == "candidate" and e.grade == 1),
        "tasks_with_mutants": sum(1 for v in verified if v.mutants),
        "per_operator": dict(sorted(per_operator.items())),
        "mutants_per_task": {str(k): n for k, n in sorted(per_task.items())},
    }


def hard_negative_report(outcome: VerifyOutcome) -> dict[str, Any]:
    """The build report's account of one language's mutant candidates: per operator how many were
    generated, executed, compiled, rejected for not compiling or for reaching undefined behaviour,
    and kept; the totals with the compile rate (compiled / executed); the human-written bugs
    rejected the same ways; and the undefined-behaviour probes run."""
    keys = ("generated", "executed", "compiled", "does_not_compile", "undefined_behaviour", "kept")
    per_operator = {name: {key: counts[key] for key in keys} for name, counts in outcome.operators.items()}
    totals = {key: sum(row[key] for row in per_operator.values()) for key in keys}
    return {
        "operators": {name: {**row, "compile_rate": _rate(row)} for name, row in per_operator.items()},
        "totals": {**totals, "compile_rate": _rate(totals)},
        "human_bugs": {
            "run": outcome.human_run,
            "does_not_compile": outcome.human_rejected.get("does_not_compile", 0),
            "undefined_behaviour": outcome.human_rejected.get("undefined_behaviour", 0),
        },
        "undefined_behaviour_probes": outcome.undefined_behaviour,
    }


def _rate(row: dict[str, int]) -> float | None:
    """Compiled / executed (None when nothing was executed)."""
    return round(row["compiled"] / row["executed"], 4) if row["executed"] else None


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


def _mutation_facts(config: BuildConfig, name: str) -> dict[str, Any]:
    """The operators used, their families and the family weights of the selection."""
    language = get_language(name)
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
