"""Is a trained reranker's soup as good as its best seed? Pools the per-query exec@1 of a soup and
its seeds over every evaluation folder given (their ``per_query.jsonl``) and compares them with the
exact McNemar test and a query-bootstrap CI of the difference, per folder and pooled, also against
the better seed of each folder (chosen after seeing that folder's results, which favours the seeds): on one folder of 150 queries a seed and a soup differ by
a few queries; over thousands of queries a real difference shows.

    python benchmarks/soup_vs_seeds.py --run mbpp-si2 results/he-tr-all results/hxgo-all results/hxjava-all

A folder argument is one evaluation output (with ``per_query.jsonl``) or a collection's output
(each task folder inside it). Systems are matched by the ending ``<run>-<model>`` of their name
(``dense-all-MiniLM-L6-v2>>fuse:0.9,c2t=0.3:ce:mbpp-si2-soup``), chains (``exec+...``) left out; a
folder that lacks one of the models, or has two systems ending so, is an error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from execir.metrics.stats import bootstrap_ci, mcnemar_exact

PER_QUERY = "per_query.jsonl"


def eval_folders(paths: Sequence[Path]) -> list[Path]:
    """Each path itself when it holds ``per_query.jsonl``, else its task folders that do."""
    found: list[Path] = []
    for path in paths:
        if (path / PER_QUERY).is_file():
            inside = [path]
        else:
            inside = sorted(p for p in path.iterdir() if (p / PER_QUERY).is_file()) if path.is_dir() else []
        if not inside:
            raise SystemExit(f"{path}: no {PER_QUERY} in it or in its folders")
        found += inside
    return found


def exec_at_1(folder: Path, run: str, models: Sequence[str]) -> dict[str, dict[str, float]]:
    """model -> query id -> exec@1 of the system whose name ends with ``<run>-<model>``."""
    by_system: dict[str, dict[str, float]] = {}
    for number, line in enumerate((folder / PER_QUERY).read_text().splitlines(), start=1):
        try:
            row = json.loads(line)
            by_system.setdefault(row["system"], {})[row["query_id"]] = float(row["exec@1"])
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{folder / PER_QUERY}:{number}: not a per-query line with system, query_id and exec@1 ({exc})") from None
    chosen: dict[str, dict[str, float]] = {}
    for model in models:
        names = [s for s in by_system if s.endswith(f"{run}-{model}") and "+" not in s.split(">>", 1)[-1]]
        if len(names) != 1:
            raise SystemExit(f"{folder}: {len(names)} systems end with '{run}-{model}' (expected one): {', '.join(names) or 'none'}")
        chosen[model] = by_system[names[0]]
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", help="evaluation outputs (execir eval --out)")
    parser.add_argument("--run", required=True, help="the training run's folder name, as in the system names (e.g. mbpp-si2)")
    parser.add_argument("--seeds", default="seed-0,seed-1", help="the seed models (default: seed-0,seed-1)")
    parser.add_argument("--soup", default="soup", help="the soup model (default: soup)")
    args = parser.parse_args(argv)
    seeds = [s for s in args.seeds.split(",") if s]
    models = [*seeds, args.soup]
    pooled: dict[str, list[float]] = {m: [] for m in models}
    best_seed: list[float] = []
    for folder in eval_folders(args.folders):
        values = exec_at_1(folder, args.run, models)
        queries = sorted(values[args.soup])
        for model in models:
            if sorted(values[model]) != queries:
                raise SystemExit(f"{folder}: {model} and {args.soup} were scored on different queries")
            pooled[model] += [values[model][q] for q in queries]
        best = max(seeds, key=lambda m: sum(values[m].values()))
        best_seed += [values[best][q] for q in queries]
        means = ", ".join(f"{m} {sum(values[m][q] for q in queries) / len(queries):.3f}" for m in models)
        print(f"{folder} ({len(queries)} queries): {means}")
    n = len(pooled[args.soup])
    print(f"pooled over {n} queries: " + ", ".join(f"{m} {sum(v) / n:.4f}" for m, v in pooled.items()))
    against = {seed: pooled[seed] for seed in seeds}
    against["the better seed of each folder"] = best_seed
    for seed, seed_values in against.items():
        print(f"{args.soup} vs {seed}: {versus(pooled[args.soup], seed_values)}")
    return 0


def versus(soup: Sequence[float], seed: Sequence[float]) -> str:
    """The soup against one seed over the same queries: discordant queries, exact McNemar p, and the
    difference of exec@1 with its query-bootstrap 95% CI."""
    test = mcnemar_exact(soup, seed)
    delta, low, high = bootstrap_ci([a - b for a, b in zip(soup, seed)])
    return (
        f"{test['b10']} queries only the soup solves at rank 1, {test['b01']} only the seed; exact McNemar p {test['p_value']:.2g}; "
        f"delta exec@1 {delta:+.4f} [95% CI {low:+.4f}, {high:+.4f}]"
    )


if __name__ == "__main__":
    sys.exit(main())
