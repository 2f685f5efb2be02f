"""``execir build SOURCE``: build an execution-verified text-to-code benchmark."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from execir.console import progress_enabled
from execir.construct.config import DEFAULT_COUNTERFACTUALS, DEFAULT_MAX_MUTANTS, DEFAULT_REWRITES, DEFAULT_SEED, DEFAULT_SPLITS, BuildConfig
from execir.construct.pipeline import BuildSummary, build
from execir.dataset.splits import parse_fractions
from execir.distributed.options import add_oracle_options, oracle_factory
from execir.errors import ExecIRError
from execir.execute import OracleConfig
from execir.paths import verdict_cache_path
from execir.tasks.registry import SOURCES, PathRule

BUILD_EPILOG = """examples:
  execir build humaneval --out data/he
  execir build humaneval --out data/he --limit 20 --max-mutants 2 --seed 1
  execir build mbpp --path mbpp.jsonl --out data/mbpp --workers 4
  execir build jsonl --path tasks.jsonl --out data/mine --cache /tmp/verdicts.sqlite
  execir build humanevalpack --language cpp --path ../shared/data --out data/hep-cpp
  execir build mbxp --language ruby --path ../shared/data --out data/mbxp-ruby --operators=-variable
  execir build humanevalpack --language python,cpp,java,go,js --out data/hep --tasks c2c,c2t
  execir build humaneval --out data/he --tasks t2c,c2t,c2c,c2c-rewrite
  execir build mbxp --language ruby --candidates ruby_samples.jsonl --out data/mbxp-ruby
  execir build livecodebench --path lcb.jsonl --candidates lcb_samples.jsonl --out data/lcb --tasks t2c

Each task gets its own BEIR-layout folder under --out (t2c-description, t2c-full, t2c-search, c2t, c2c;
text-to-code per language and c2c per language in a multi-language build), each with problem-disjoint
train/dev/test qrels, strict and TREC qrels and a dataset card; --out/manifest.json lists them.
c2c-rewrite, built only when --tasks names it, is c2c with the passing rewrites and candidates as
queries: its hard negatives (the canonical program's mutants) are then not edits of the query, so a
model cannot gain by ranking "unlike the query" first (read c2c exec@1 beside it).

Verdicts are cached (default: $EXECIR_CACHE_DIR/verdicts.sqlite, else ~/.cache/execir/verdicts.sqlite), \
so a rebuild, or a build resumed after being killed, executes nothing already verified."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``build`` command."""
    parser = subparsers.add_parser(
        "build",
        help="build an execution-verified benchmark",
        epilog=BUILD_EPILOG,
        description="Build a text-to-code benchmark: mutate each canonical solution, run every candidate against the "
        "task's tests in the sandbox, keep only mutants that verifiably fail, write the BEIR-layout dataset.",
    )
    sources = parser.add_subparsers(dest="source", required=True, metavar="SOURCE")
    for name, source in SOURCES.items():
        sub = sources.add_parser(name, help=source.help, description=f"Build from {source.help}.", epilog=BUILD_EPILOG)
        required = source.path is PathRule.FILE
        sub.add_argument("--path", type=Path, default=None, required=required, help=f"{source.path.value}")
        if source.languages != ("python",):
            sub.add_argument(
                "--language",
                type=_languages(source.languages),
                default=source.languages[0],
                help=f"task language, or several comma-separated for cross-language code-to-code ({', '.join(source.languages)}; 'all' for every one)",
            )
        add_build_options(sub)
        sub.set_defaults(handler=run_build)


def _languages(known: tuple[str, ...]) -> Callable[[str], str]:
    """argparse type of ``--language``: one or more known languages, comma-separated, or ``all``."""

    def parse(text: str) -> str:
        if text == "all":
            return ",".join(known)
        parts = [p.strip() for p in text.split(",") if p.strip()]
        unknown = [p for p in parts if p not in known]
        if not parts or unknown:
            raise argparse.ArgumentTypeError(f"{text!r}: choose from {', '.join(known)} (comma-separated) or 'all'")
        return ",".join(parts)

    return parse


def _fractions(text: str) -> tuple[float, float, float]:
    """argparse type of ``--splits`` (a usage error, not a traceback, when malformed)."""
    try:
        return parse_fractions(text)
    except ExecIRError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--splits ")) from None


def add_build_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by every build source."""
    parser.add_argument("--out", type=Path, required=True, help="output folder (one dataset folder per task inside)")
    parser.add_argument(
        "--tasks",
        default=None,
        help="tasks to build, comma-separated: t2c (its three subtypes), t2c-description, t2c-full, t2c-search, c2t, c2c, "
        "c2c-rewrite (default: every task but c2c-rewrite, which is built only when named)",
    )
    parser.add_argument("--rewrites", type=int, default=DEFAULT_REWRITES, help="semantics-preserving rewrites tried per canonical as extra correct documents")
    parser.add_argument(
        "--counterfactuals", type=int, default=DEFAULT_COUNTERFACTUALS, help="counterfactual descriptions per task (code-to-text hard negatives)"
    )
    parser.add_argument(
        "--candidates",
        type=Path,
        default=None,
        help="JSONL of programs to judge (task_id, language, code, optional source): each enters its task's pool as 2 (passes) or 1 (fails)",
    )
    parser.add_argument("--distractors", type=Path, default=None, help="JSONL of extra code-to-text hard negatives (task_id, text, optional source)")
    parser.add_argument("--splits", type=_fractions, default=DEFAULT_SPLITS, help="train,dev,test fractions of the problems (default 0.5,0.1,0.4)")
    parser.add_argument("--max-mutants", type=int, default=DEFAULT_MAX_MUTANTS, help="verified-failing mutants kept per task")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="mutant selection seed")
    parser.add_argument(
        "--operators",
        default=None,
        help="operators or families to use, comma-separated; '-name' excludes (e.g. 'missing,operator' or '-variable'); default: all",
    )
    parser.add_argument("--limit", type=int, default=None, help="use only the first N tasks (default: all)")
    parser.add_argument("--workers", type=int, default=2, help="parallel execution slots")
    parser.add_argument("--cache", type=Path, default=None, help="verdict cache (SQLite) path (default: $EXECIR_CACHE_DIR/verdicts.sqlite)")
    parser.add_argument("--no-progress", action="store_true", help="hide progress bars (they are never shown when stderr is not a terminal)")
    add_oracle_options(parser)


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
        tasks=args.tasks,
        rewrites=args.rewrites,
        counterfactuals=args.counterfactuals,
        candidates=args.candidates,
        distractors=args.distractors,
        splits=args.splits,
    )
    oracle = OracleConfig(workers=args.workers, cache_path=args.cache or verdict_cache_path(), progress=progress_enabled(not args.no_progress))
    return config, oracle


def run_build(args: argparse.Namespace) -> int:
    """Handler of ``execir build``."""
    config, oracle = config_from_args(args)
    print(format_summary(build(config, oracle, oracle_factory=oracle_factory(args))))
    return 0


def format_summary(summary: BuildSummary) -> str:
    """A short human-readable account of a build: per language what was verified (each excluded task
    with its reason), the extras, then one line per folder."""
    build = summary.manifest["build"]
    runs = summary.report["oracle"]
    lines = [f"output: {summary.out}"]
    for language, facts in build["languages"].items():
        lines += _language_lines(language, facts)
        lines += _hard_negative_lines(summary.report.get("languages", {}).get(language))
    lines += _extras_lines(build["extras"])
    lines.append(
        f"sandbox runs: {runs.get('runs_executed', 0)} executed, {runs.get('runs_cached', 0)} from the verdict cache; "
        f"isolation={build['oracle'].get('isolation', '?')}"
    )
    ray = summary.report.get("distributed")
    if ray:  # --ray: where the runs went
        hosts = ", ".join(f"{host} {n}" for host, n in ray["executions_per_host"].items())
        lines.append(f"ray {ray['ray_version']}: {ray['hosts']} hosts ({hosts} runs); {ray['resubmitted_batches']} batches resubmitted")
    lines.append("folders (queries / documents / correct per query / hard negatives per query / median query tokens / train,dev,test queries):")
    for name, folder in summary.manifest["folders"].items():
        c = folder["counts"]
        splits = ",".join(str(v) for v in c["queries_by_split"].values())
        lines.append(
            f"  {name:<24} {c['queries']:>5} / {c['documents']:>6} / {c['positives_per_query']:.2f} / "
            f"{c['hard_negatives_per_query']:.2f} / {c['median_query_tokens']} / {splits}"
        )
    for name in build["empty_folders"]:
        lines.append(f"  {name:<24} not written: no query has a correct document")
    lines.append(f"wall time: {summary.report['wall_seconds']:.1f} s")
    return "\n".join(lines)


def _language_lines(language: str, facts: dict) -> list[str]:
    counts = facts["counts"]
    excluded = facts["excluded"]
    rejected = ", ".join(f"{k}={v}" for k, v in counts["rejected"].items()) or "none"
    lines = [
        f"[{language}] tasks: {counts['tasks_kept']} kept of {counts['tasks_loaded']} loaded, "
        f"{counts['tasks_with_mutants']} with at least one mutant; excluded {len(excluded)}",
        *(f"  excluded {e['task_id']}: {e['reason']}" for e in excluded),
        f"  programs: {counts['canonical']} canonical, {counts['rewrite']} rewrites, {counts['candidate_pass']} passing candidates (correct); "
        f"{counts['mutant']} mutants, {counts['human']} human bugs, {counts['candidate_fail']} failing candidates (hard negatives)",
        "  mutants per operator: " + (", ".join(f"{k}={v}" for k, v in counts["per_operator"].items()) or "none"),
        f"  mutant candidates: {counts['candidates_generated']} generated, {counts['candidates_executed']} executed; "
        f"rejected: {rejected}; verified failing but not needed: {counts['verified_unused']}",
        f"  oracle: ground-truth pass rate={facts['oracle']['ground_truth_pass_rate']}, "
        f"flaky={len(facts['oracle']['flaky'])}, undecided={len(facts['oracle']['undecided'])}, "
        f"judged outside the candidate's process: {_judged_outside(facts['oracle'].get('judged_outside'))}",
    ]
    run = counts.get("human_bugs_run", 0)
    if run:
        human_rejected = ", ".join(f"{k}={v}" for k, v in counts.get("human_bugs_rejected", {}).items()) or "none"
        lines.append(f"  human-written bugs: {counts['human']} verified failing of {run} run; rejected: {human_rejected}")
    return lines


def _judged_outside(facts: dict | None) -> str:
    if not facts or not facts["of"]:
        return "-"
    inside = facts["in_process"]
    listed = ", ".join(inside[:5]) + (" ..." if len(inside) > 5 else "")
    return f"{facts['tasks']}/{facts['of']} tasks" + (f" (in-process: {listed})" if inside else "")


def _hard_negative_lines(report: dict | None) -> list[str]:
    """Per operator: compiled / generated (and executed), and the candidates rejected for not
    compiling or for reaching undefined behaviour."""
    if not report or not report["operators"]:
        return []
    totals = report["totals"]
    lines = [
        f"  hard negatives compile and fail at run time: {totals['does_not_compile']} rejected as not compiling, "
        f"{totals['undefined_behaviour']} for undefined behaviour; compile rate {totals['compile_rate']} of {totals['executed']} executed",
        "  per operator (compiled / executed / generated, not compiling, undefined behaviour, kept):",
    ]
    for name, row in report["operators"].items():
        lines.append(
            f"    {name:<22} {row['compiled']:>5} / {row['executed']:>5} / {row['generated']:>6}  "
            f"{row['does_not_compile']:>4}  {row['undefined_behaviour']:>4}  {row['kept']:>4}"
        )
    return lines


def _extras_lines(extras: dict) -> list[str]:
    rewrites, candidates = extras["rewrites"], extras["candidates"]
    lines = [
        f"rewrites: {rewrites['generated']} generated, {rewrites['run']} run, {rewrites['kept']} kept (passed every run); "
        f"rejected: {', '.join(f'{k}={v}' for k, v in rewrites['rejected'].items()) or 'none'}"
    ]
    if candidates["loaded"]:
        lines.append(
            f"candidates: {candidates['loaded']} loaded, {candidates['run']} run: {candidates['passed']} pass (2), {candidates['failed']} fail (1); "
            f"rejected: {', '.join(f'{k}={v}' for k, v in candidates['rejected'].items()) or 'none'}"
        )
    return lines
