"""Benchmark: ``execir.metrics`` (dict and array paths) against ``pytrec_eval`` on a synthetic run.

10,000 queries x 100 retrieved documents, graded ExecIR-style qrels (one rel-2 canonical and
four rel-1 mutants per query, some of each missing from the run), scores rounded so that ties
occur (``--decimals``). The run exists both as dicts (for ``pytrec_eval`` and
:func:`execir.metrics.evaluate`) and as the top-k arrays a dense retriever returns (scores plus
column indices into the corpus ids, for :func:`execir.metrics.evaluate_arrays`). All compute the
same six measures under the ``trec`` tie policy; the per-query values must agree (to 1e-12 with
``pytrec_eval``, exactly between the two execir paths), then the best wall times of
``--repeats`` and their ratios are printed. ``RunMatrix.from_arrays`` (validation and copy, done
once per run) is timed separately and is not part of the array path's time.

Run: ``python benchmarks/bench_metrics.py [--queries N] [--docs D] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pytrec_eval

from execir.metrics import RunMatrix, evaluate, evaluate_arrays

PAIRS = {  # execir measure -> pytrec_eval measure (rel-1 mapped to 0, relevance_level=2)
    "ndcg@10": "ndcg_cut_10",
    "mrr@100": "recip_rank",  # recip_rank has no cutoff; runs hold 100 docs
    "recall@10": "recall_10",
    "map@10": "map_cut_10",
    "p@10": "P_10",
    "exec@10": "success_10",
}


def synthetic(n_queries: int, n_docs: int, seed: int, decimals: int = 2) -> tuple[dict, dict, tuple]:
    """ExecIR-like qrels, a run with ties (scores rounded) and the same run as top-k arrays
    ``(query_ids, doc_ids, scores, columns)``; deterministic given ``seed``."""
    rng = np.random.default_rng(seed)
    scores = np.round(rng.normal(size=(n_queries, n_docs)), decimals)
    rows = scores.tolist()
    qrels, run, index = {}, {}, {}
    columns = np.empty((n_queries, n_docs), dtype=np.int64)
    for i in range(n_queries):
        qid = f"q{i}"
        qrels[qid] = {f"t{i}-canon": 2, **{f"t{i}-m{j}": 1 for j in range(4)}}
        docs = [f"t{i}-canon", *(f"t{i}-m{j}" for j in range(4))] + [f"d{(i * 7 + j) % 50000}" for j in range(n_docs)]
        keep = docs[rng.integers(0, 2) :][:n_docs]  # the canonical is missing from about half the runs
        run[qid] = dict(zip(keep, rows[i]))
        columns[i] = [index.setdefault(d, len(index)) for d in keep]
    return qrels, run, (list(run), list(index), scores, columns)


def best_of(repeats: int, call) -> tuple[float, dict]:
    """Best wall time of ``repeats`` calls, and the last result."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return min(times), result


def binary_qrels(qrels: dict) -> dict:
    """rel-1 mapped to 0: ``pytrec_eval``'s nDCG gains then equal ExecIR's."""
    return {q: {d: (g if g >= 2 else 0) for d, g in docs.items()} for q, docs in qrels.items()}


def pytrec(binary: dict, run: dict) -> dict:
    return pytrec_eval.RelevanceEvaluator(binary, set(PAIRS.values()), relevance_level=2).evaluate(run)


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
    qrels, run, arrays = synthetic(args.queries, args.docs, seed=0, decimals=args.decimals)
    t_build, matrix = best_of(args.repeats, lambda: RunMatrix.from_arrays(*arrays[:3], columns=arrays[3]))
    binary = binary_qrels(qrels)
    times, results = {}, {}
    for _ in range(args.repeats):  # interleaved, so that load from other processes hits all alike
        for label, call in [
            ("pytrec_eval", lambda: pytrec(binary, run)),
            ("evaluate", lambda: evaluate(qrels, run, list(PAIRS), ties="trec")),
            ("evaluate_arrays", lambda: evaluate_arrays(qrels, matrix, list(PAIRS), ties="trec")),
            ("evaluate pessimistic", lambda: evaluate(qrels, run, list(PAIRS))),
            ("evaluate_arrays pessimistic", lambda: evaluate_arrays(qrels, matrix, list(PAIRS))),
        ]:
            elapsed, results[label] = best_of(1, call)
            times[label] = min(elapsed, times.get(label, elapsed))
    diff = max(max_difference(results[label], results["pytrec_eval"]) for label in ("evaluate", "evaluate_arrays"))
    if diff > 1e-12:
        raise SystemExit(f"per-query values differ from pytrec_eval by up to {diff}")
    for policy in ("", " pessimistic"):
        if results["evaluate" + policy] != results["evaluate_arrays" + policy]:
            raise SystemExit(f"evaluate_arrays differs from evaluate{policy or ' (trec)'}")
    exact = all(results["evaluate"][m][q] == results["pytrec_eval"][q][t] for m, t in PAIRS.items() for q in qrels)
    base = times["pytrec_eval"]
    print(f"{args.queries} queries x {args.docs} docs, measures: {', '.join(PAIRS)}; best of {args.repeats}")
    for label, elapsed in times.items():
        policy = "pessimistic" if "pessimistic" in label else "trec"
        name = label.removesuffix(" pessimistic")
        print(f"{name:<16} ties={policy:<12} {elapsed:7.3f} s   {base / elapsed:5.1f}x pytrec_eval")
    print(f"RunMatrix.from_arrays (once per run, not included above): {t_build:.3f} s")
    print(f"max |difference| vs pytrec_eval: {diff:.3g}; bit-identical: {exact}; dict == arrays: True")


if __name__ == "__main__":
    main()
