"""Execution-verified builds in every language, and how retrievers fare on mutants vs human bugs.

For each language, in one run: build the HumanEvalPack set (MBXP for Ruby, PHP and TypeScript) from ``../shared/data``
with an empty verdict cache (cold) and again with the cache it left (warm), then report tasks kept,
the canonicals' pass rate, mutants and human bugs per task, operators used, and bm25 / dense
(MiniLM) exec@1 (and the pairwise share of negatives ranked below their canonical) with three pools
per task: the canonical plus its mutants only, plus its human
bugs only, and plus both. The three pools are compared on the same queries: tasks that kept at least
one mutant and one human bug (MBXP has no human bugs: Ruby, PHP and TypeScript, mutants only).

Usage: ``python benchmarks/bench_language_builds.py [--languages python,cpp,java,go,js,ruby,rust,php,typescript]
[--limit N] [--out DIR] [--retrievers bm25,dense] [--json OUT]``; needs ``../shared/data``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from execir.construct.config import BuildConfig
from execir.construct.pipeline import build
from execir.dataset import Dataset, load_dataset
from execir.execute import OracleConfig
from execir.metrics import evaluate
from execir.retrieve.registry import get_retriever
from execir.tasks.multilingual import shared_data

SOURCES = {
    "python": "humanevalpack",
    "cpp": "humanevalpack",
    "java": "humanevalpack",
    "go": "humanevalpack",
    "js": "humanevalpack",
    "rust": "humanevalpack",
    "ruby": "mbxp",
    "php": "mbxp",
    "typescript": "mbxp",
}
POOLS = {"mutants": ("mutant",), "human": ("human",), "both": ("mutant", "human")}


def build_twice(language: str, data: Path, out: Path, limit: int | None) -> tuple[dict[str, Any], float, float]:
    """The language's build facts (counts, oracle, excluded) and the cold and warm build times
    (seconds). Only the ``t2c-description`` folder is built, without rewrites: the pools compared
    here are the canonical and its hard negatives."""
    cache = out / "verdicts.sqlite"
    times = []
    manifest: dict[str, Any] = {}
    for attempt in ("cold", "warm"):
        config = BuildConfig(source=SOURCES[language], path=data, out=out / attempt, language=language, limit_tasks=limit, tasks="t2c-description", rewrites=0)
        started = time.perf_counter()
        manifest = build(config, OracleConfig(cache_path=cache, progress=False)).manifest["build"]["languages"][language]
        times.append(time.perf_counter() - started)
    return manifest, times[0], times[1]


def pool_exec1(dataset: Dataset, retrievers: list[str], kinds: tuple[str, ...], tasks: set[str]) -> dict[str, float]:
    """exec@1 per retriever over the queries of ``tasks``, each pool holding the canonicals and
    the negatives of the given kinds; and (``<spec> pairwise``) the share of (canonical, same-task
    negative) pairs where the canonical scores strictly higher, which does not depend on how many
    negatives a pool has."""
    keep = {d for d, info in dataset.docs.items() if info.kind == "canonical" or info.kind in kinds}
    corpus = {d: t for d, t in dataset.corpus.items() if d in keep}
    queries = {q: t for q, t in dataset.queries.items() if dataset.query_task[q] in tasks}
    qrels = {q: {d: r for d, r in dataset.qrels[q].items() if d in keep} for q in queries}
    out = {}
    for spec in retrievers:
        retriever = get_retriever(spec, progress=False)
        retriever.index(corpus)
        run = retriever.search(queries, top_k=len(corpus))
        values = evaluate(qrels, run, ["exec@1"])["exec@1"]
        out[spec] = sum(values.values()) / len(values) if values else 0.0
        wins = pairs = 0
        for query, grades in qrels.items():
            scores = run.get(query, {})
            floor = min(scores.values(), default=0.0) - 1.0
            canonical = [scores.get(d, floor) for d, grade in grades.items() if grade == 2]
            for doc, grade in grades.items():
                if grade == 1 and canonical:
                    pairs += 1
                    wins += max(canonical) > scores.get(doc, floor)
        out[f"{spec} pairwise"] = wins / pairs if pairs else 0.0
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--languages", default="python,cpp,java,go,js,ruby")
    parser.add_argument("--limit", type=int, default=None, help="first N tasks per language")
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="where the datasets go (default: a temporary folder)")
    parser.add_argument("--retrievers", default="bm25,dense")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    data = args.data or shared_data()
    if data is None:
        print("bench_language_builds: skipped, ../shared/data is absent (pass --data DIR)", file=sys.stderr)
        return 0
    retrievers = args.retrievers.split(",")
    rows = []
    with tempfile.TemporaryDirectory(prefix="execir-bench-") as scratch:
        root = args.out or Path(scratch)
        for language in args.languages.split(","):
            manifest, cold, warm = build_twice(language, data, root / language, args.limit)
            dataset = load_dataset(root / language / "warm" / "t2c-description", "all")  # every split: no training here
            counts = manifest["counts"]
            kinds_per_task: dict[str, Counter[str]] = {}
            for info in dataset.docs.values():
                kinds_per_task.setdefault(info.task_id, Counter())[info.kind] += 1
            both = {t for t, c in kinds_per_task.items() if c["mutant"] and c["human"]}
            with_mutants = {t for t, c in kinds_per_task.items() if c["mutant"]}
            scored: dict[str, dict[str, float]] = {}
            if both:
                for pool, kinds in POOLS.items():
                    scored[pool] = pool_exec1(dataset, retrievers, kinds, both)
            else:
                scored["mutants"] = pool_exec1(dataset, retrievers, POOLS["mutants"], with_mutants)
            row = {
                "language": language,
                "tasks_loaded": counts["tasks_loaded"],
                "tasks_kept": counts["tasks_kept"],
                "canonical_pass_rate": manifest["oracle"]["ground_truth_pass_rate"],
                "mutants_per_task": round(counts["mutant"] / max(counts["tasks_kept"], 1), 2),
                "human_kept": counts["human"],
                "human_run": counts["human_bugs_run"],
                "operators_used": len(counts["per_operator"]),
                "per_operator": counts["per_operator"],
                "build_seconds_cold": round(cold, 1),
                "build_seconds_warm": round(warm, 1),
                "compared_queries": len(both) if both else len(with_mutants),
                "exec@1": scored,
                "excluded": manifest["excluded"],
            }
            rows.append(row)
            print(
                f"{language}: kept {row['tasks_kept']}/{row['tasks_loaded']} tasks (canonical pass rate {row['canonical_pass_rate']}), "
                f"{row['mutants_per_task']} mutants/task, human bugs kept {row['human_kept']}/{row['human_run']}, "
                f"{row['operators_used']} operators used; build cold {row['build_seconds_cold']} s, warm {row['build_seconds_warm']} s"
            )
            for pool, values in scored.items():
                print(f"  exec@1 on {row['compared_queries']} queries, pool = canonical + {pool}: " + ", ".join(f"{k} {v:.3f}" for k, v in values.items()))
            for excluded in manifest["excluded"]:
                print(f"  excluded {excluded['task_id']}: {excluded['reason'][:160]}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
