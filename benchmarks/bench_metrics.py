"""Benchmark: ``execir.metrics.evaluate`` against ``pytrec_eval`` on a synthetic run.

10,000 queries x 100 retrieved documents, graded ExecIR-style qrels (one rel-2 canonical and
four rel-1 mutants per query, some of each missing from the run), scores rounded so that ties
occur (``--decimals``). Both tools compute the same six measures under the ``trec`` tie policy; the per-query
values must agree (to 1e-12), then the wall times and their ratio are printed.

Run: ``python benchmarks/bench_metrics.py [--queries N] [--docs D] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pytrec_eval

from execir.metrics import evaluate

PAIRS = {  # execir measure -> pytrec_eval measure (rel-1 mapped to 0, relevance_level=2)
    "ndcg@10": "ndcg_cut_10",
    "mrr@100": "recip_rank",  # recip_rank has no cutoff; runs hold 100 docs
    "recall@10": "recall_10",
    "map@10": "map_cut_10",
    "p@10": "P_10",
    "exec@10": "success_10",
}


def synthetic(n_queries: int, n_docs: int, seed: int, decimals: int = 2) -> tuple[dict, dict]:
    """ExecIR-like qrels and a run with ties (scores rounded); deterministic given ``seed``."""
    rng = np.random.default_rng(seed)
    scores = np.round(rng.normal(size=(n_queries, n_docs)), decimals).tolist()
    qrels, run = {}, {}
    for i in range(n_queries):
        qid = f"q{i}"
        qrels[qid] = {f"t{i}-canon": 2, **{f"t{i}-m{j}": 1 for j in range(4)}}
        docs = [f"t{i}-canon", *(f"t{i}-m{j}" for j in range(4))] + [f"d{(i * 7 + j) % 50000}" for j in range(n_docs)]
        keep = docs[rng.integers(0, 2) :][:n_docs]  # the canonical is missing from about half the runs
        run[qid] = dict(zip(keep, scores[i]))
    return qrels, run


def time_pytrec(qrels: dict, run: dict) -> tuple[float, dict]:
    binary = {q: {d: (g if g >= 2 else 0) for d, g in docs.items()} for q, docs in qrels.items()}
    start = time.perf_counter()
    evaluator = pytrec_eval.RelevanceEvaluator(binary, set(PAIRS.values()), relevance_level=2)
    result = evaluator.evaluate(run)
    return time.perf_counter() - start, result


def time_execir(qrels: dict, run: dict) -> tuple[float, dict]:
    start = time.perf_counter()
    result = evaluate(qrels, run, list(PAIRS), ties="trec")
    return time.perf_counter() - start, result


def max_difference(ours: dict, theirs: dict) -> float:
    worst = 0.0
    for measure, trec_name in PAIRS.items():
        for qid, value in ours[measure].items():
            worst = max(worst, abs(value - theirs[qid][trec_name]))
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--decimals", type=int, default=2, help="score rounding (fewer: more ties)")
    args = parser.parse_args()
    qrels, run = synthetic(args.queries, args.docs, seed=0, decimals=args.decimals)
    trec_times, ours_times = [], []
    for _ in range(args.repeats):
        t_trec, theirs = time_pytrec(qrels, run)
        t_ours, ours = time_execir(qrels, run)
        trec_times.append(t_trec)
        ours_times.append(t_ours)
    diff = max_difference(ours, theirs)
    if diff > 1e-12:
        raise SystemExit(f"per-query values differ from pytrec_eval by up to {diff}")
    exact = all(ours[m][q] == theirs[q][t] for m, t in PAIRS.items() for q in qrels)
    pessimistic_times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        evaluate(qrels, run, list(PAIRS))
        pessimistic_times.append(time.perf_counter() - start)
    best_trec, best_ours = min(trec_times), min(ours_times)
    print(f"{args.queries} queries x {args.docs} docs, measures: {', '.join(PAIRS)} (ties='trec')")
    print(f"pytrec_eval:    {best_trec:.3f} s (best of {args.repeats})")
    print(f"execir.evaluate:{best_ours:.3f} s (best of {args.repeats})")
    print(f"speed-up:       {best_trec / best_ours:.1f}x")
    print(f"execir.evaluate, ties='pessimistic' (default): {min(pessimistic_times):.3f} s")
    print(f"max |difference|: {diff:.3g}; bit-identical: {exact}")


if __name__ == "__main__":
    main()
