"""Helpers for the metrics tests: random graded cases and a slow, obviously-correct reference
(measures computed from :func:`rank_run` lists)."""

from __future__ import annotations

import math

import numpy as np

from execir.metrics import rank_run


def reference_value(name: str, k: int | None, grades: list[int], ideal: list[int]) -> float:
    """One measure for one query from its ranked grades and its judged grades."""
    top = grades if k is None else grades[:k]
    n_rel = sum(g >= 2 for g in ideal)
    hits = [g >= 2 for g in top]
    if name == "exec":
        return float(any(hits))
    if name == "p":
        return sum(hits) / k
    if name == "recall":
        return sum(hits) / n_rel if n_rel else 0.0
    if name == "mrr":
        return next((1.0 / (i + 1) for i, h in enumerate(hits) if h), 0.0)
    if name == "map":
        found, total = 0, 0.0
        for i, h in enumerate(hits):
            found += h
            total += found / (i + 1) if h else 0.0
        return total / n_rel if n_rel else 0.0
    gains = [g if g >= 2 else 0 for g in top]
    best = sorted((g for g in ideal if g >= 2), reverse=True)[:k]
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains))
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(best))
    return dcg / idcg if idcg else 0.0


def reference_evaluate(qrels, run, measures, ties):
    """measure -> qid -> value, via rank_run (every qrels query; missing runs score 0)."""
    ranked = rank_run({q: run.get(q, {}) for q in qrels}, qrels, ties=ties)
    out = {}
    for text in measures:
        name, _, cut = text.partition("@")
        k = int(cut) if cut else None
        out[text] = {q: reference_value(name, k, [qrels[q].get(d, 0) for d, _ in ranked[q]], list(qrels[q].values())) for q in qrels}
    return out


def random_case(seed: int, n_queries: int = 40, depth: int = 15, levels: int = 4):
    """Graded qrels (0/1/2/3, some queries without any rel>=2), runs with many ties,
    empty runs, queries missing from the run, run queries not in qrels, unjudged docs."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for i in range(n_queries):
        q = f"q{i}"
        docs = [f"d{j:02d}" for j in rng.choice(40, size=12, replace=False)]
        qrels[q] = {d: int(rng.choice([0, 1, 1, 2, 2, 3])) for d in docs[: int(rng.integers(1, 7))]}
        mode = i % 10
        if mode == 0:
            continue  # query missing from the run
        if mode == 1:
            run[q] = {}
            continue
        retrieved = [f"d{j:02d}" for j in rng.choice(40, size=int(rng.integers(1, depth)), replace=False)]
        run[q] = {d: float(rng.integers(0, levels)) for d in retrieved}
    run["not-in-qrels"] = {"d00": 1.0}
    return qrels, run
