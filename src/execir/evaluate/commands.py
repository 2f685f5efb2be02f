"""``execir eval`` (evaluate retrievers on a dataset) and ``execir run`` (the main job)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from execir.build.commands import format_summary
from execir.build.config import BuildConfig
from execir.build.pipeline import build
from execir.evaluate.config import DEFAULT_RETRIEVERS, EvalConfig
from execir.evaluate.runner import run_evaluation
from execir.execute import OracleConfig
from execir.paths import embedding_cache_dir, verdict_cache_path
from execir.report.markdown import (
    GAP_HEADER,
    LEADERBOARD_HEADER,
    gap_rows,
    leaderboard_rows,
)
from execir.report.tables import pct, text_table


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``eval`` and ``run`` commands."""
    parser = subparsers.add_parser("eval", help="evaluate retrievers on a dataset")
    parser.add_argument("dataset", type=Path, help="dataset directory (BEIR layout)")
    parser.add_argument("--retriever", action="append", dest="retrievers", help="bm25 | dense | dense:<model> | hybrid (repeatable)")
    _add_eval_options(parser)
    parser.set_defaults(handler=run_eval)
    main_job = subparsers.add_parser("run", help="main job: build HumanEval (cached) and evaluate bm25, dense, hybrid")
    main_job.add_argument("--out", type=Path, default=Path("out"), help="where the dataset and report go")
    main_job.add_argument("--workers", type=int, default=2)
    _add_eval_options(main_job, with_out=False)
    main_job.set_defaults(handler=run_main_job)


def _add_eval_options(parser: argparse.ArgumentParser, *, with_out: bool = True) -> None:
    if with_out:
        parser.add_argument("--out", type=Path, required=True, help="output directory for results")
    parser.add_argument("--ties", choices=("pessimistic", "trec"), default="pessimistic", help="tie policy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cache-dir", type=Path, default=None, help="embedding cache directory (default: $EXECIR_CACHE_DIR/embeddings)")
    parser.add_argument("--no-progress", action="store_true")


def _eval_config(args: argparse.Namespace, dataset: Path, out: Path, retrievers: tuple[str, ...]) -> EvalConfig:
    return EvalConfig(
        dataset=dataset, out=out, retrievers=retrievers, ties=args.ties, seed=args.seed,
        cache_dir=args.cache_dir or embedding_cache_dir(), progress=not args.no_progress,
    )


def run_eval(args: argparse.Namespace) -> int:
    """Handler of ``execir eval``."""
    retrievers = tuple(args.retrievers or DEFAULT_RETRIEVERS)
    results, report = run_evaluation(_eval_config(args, args.dataset, args.out, retrievers))
    print(format_leaderboard(results))
    print(f"\nreport: {report}")
    return 0


def run_main_job(args: argparse.Namespace) -> int:
    """Handler of ``execir run``: build the HumanEval benchmark (verdicts cached), then evaluate."""
    started = time.perf_counter()
    dataset = args.out / "humaneval"
    config = BuildConfig(source="humaneval", path=None, out=dataset, seed=args.seed)
    oracle = OracleConfig(workers=args.workers, cache_path=verdict_cache_path(), progress=not args.no_progress)
    print("== building the HumanEval benchmark (execution-verified) ==")
    print(format_summary(build(config, oracle)))
    print("\n== evaluating bm25, dense (all-MiniLM-L6-v2) and hybrid ==")
    results, report = run_evaluation(_eval_config(args, dataset, args.out / "humaneval-eval", DEFAULT_RETRIEVERS))
    print(format_leaderboard(results))
    print(f"\nreport: {report}\ntotal wall time: {time.perf_counter() - started:.1f} s")
    return 0


def format_leaderboard(results: dict[str, Any]) -> str:
    """Leaderboard and gap analyses as terminal tables."""
    lines = [text_table(LEADERBOARD_HEADER, leaderboard_rows(results)), ""]
    lines.append(text_table(GAP_HEADER, gap_rows(results)))
    lines += ["", _ablation_line(results), *_blind_operator_lines(results), ""]
    for c in results["comparisons"]:
        lines.append(
            f"{c['a']} vs {c['b']}: exec@1 diff {c['mean_diff']:+.3f} [{c['ci_low']:+.3f}, {c['ci_high']:+.3f}], "
            f"W/T/L {c['win']}/{c['tie']}/{c['loss']}, exact McNemar p={c['p_value']:.3g} (Holm {c['p_holm']:.3g})"
        )
    return "\n".join(lines)


def _ablation_line(results: dict[str, Any]) -> str:
    parts = []
    for name, system in results["systems"].items():
        table = system["density_ablation"]
        parts.append(f"{name} " + " -> ".join(f"{table[level]['exec@1']:.2f}" for level in sorted(table, key=int)))
    return "exec@1 with 0..4 mutants per task in the pool: " + "; ".join(parts)


def _blind_operators(system: dict[str, Any], top: int = 3, min_n: int = 5) -> list[str]:
    table = system["analyses"].get("per_operator", {})
    ranked = sorted((-v["rate"], op) for op, v in table.items() if v["n"] >= min_n)
    return [f"{op} {pct(-rate)} (n={table[op]['n']})" for rate, op in ranked[:top]]


def _blind_operator_lines(results: dict[str, Any]) -> list[str]:
    return [f"operators {name} is most blind to: " + ", ".join(_blind_operators(s)) for name, s in results["systems"].items()]
