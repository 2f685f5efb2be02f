"""Distractor-density ablation: nested pools, determinism, fewer mutants -> no lower exec@1."""

from __future__ import annotations

import copy

import pytest

from execir.metrics.ablation import kept_mutants, mutant_orders
from execir.metrics.analyses import DocInfo, density_ablation


def corpus(n_tasks: int = 6, n_mutants: int = 5):
    """Every task's mutants all score above its canonical (so each one costs exec@1)."""
    docs, qrels, run, query_task = {}, {}, {}, {}
    for t in range(n_tasks):
        task, q = f"T{t}", f"q{t}"
        docs[f"{task}-c"] = DocInfo(task, "canonical", None)
        qrels[q] = {f"{task}-c": 2}
        run[q] = {f"{task}-c": 0.5, "other": 0.1}
        query_task[q] = task
        for m in range(n_mutants - t % 3):  # unequal pool sizes: 5, 4, 3 mutants
            doc = f"{task}-m{m}"
            docs[doc] = DocInfo(task, "mutant", f"op{m}")
            qrels[q][doc] = 1
            run[q][doc] = 0.6 + 0.05 * m
    docs["other"] = DocInfo("X", "canonical", None)
    return qrels, run, docs, query_task


def test_pools_are_nested_and_sized():
    _, _, docs, _ = corpus()
    pools = [kept_mutants(docs, level, seed=3) for level in range(7)]
    assert pools[0] == frozenset()
    for small, big in zip(pools, pools[1:]):
        assert small <= big
    for level, pool in enumerate(pools):
        for task in mutant_orders(docs, seed=3):
            n = sum(1 for d in pool if docs[d].task_id == task)
            assert n == min(level, sum(1 for i in docs.values() if i.task_id == task and i.kind == "mutant"))


def test_fewer_mutants_never_lower_exec_at_1():
    qrels, run, docs, query_task = corpus()
    out = density_ablation(qrels, run, docs, query_task)
    assert list(out) == [0, 1, 2, 3, 4]
    assert out[0]["exec@1"] == 1.0 and out[0]["ndcg@10"] == 1.0
    assert out[4]["exec@1"] == 0.0
    assert out[0]["exec@1"] >= out[4]["exec@1"]
    ndcg = [out[level]["ndcg@10"] for level in out]
    assert ndcg == sorted(ndcg, reverse=True)


def test_deterministic_given_seed_and_pure():
    qrels, run, docs, query_task = corpus()
    before = copy.deepcopy((qrels, run, docs, query_task))
    a = density_ablation(qrels, run, docs, query_task, seed=7, measures=("mrr@10",), levels=(1, 2))
    b = density_ablation(qrels, run, docs, query_task, seed=7, measures=("mrr@10",), levels=(1, 2))
    assert a == b and set(a[1]) == {"mrr@10"}
    assert (qrels, run, docs, query_task) == before
    assert mutant_orders(docs, seed=1) == mutant_orders(docs, seed=1)
    assert any(mutant_orders(docs, seed=s) != mutant_orders(docs, seed=0) for s in range(1, 5))


def test_errors():
    qrels, run, docs, query_task = corpus()
    with pytest.raises(ValueError, match=">= 0"):
        kept_mutants(docs, -1)
    with pytest.raises(ValueError, match="without a task"):
        density_ablation(qrels, run, docs, {})


def test_head_pruning_matches_full_runs_on_tie_heavy_data():
    """Cut-off measures are computed on each query's pruned head; values equal the full-run path."""
    import random

    from execir.metrics.ablation import _without
    from execir.metrics.analyses import DocInfo as Info
    from execir.metrics.evaluate import evaluate

    rng = random.Random(3)
    docs = {}
    qrels = {}
    for t in range(30):
        docs[f"c{t}"] = Info(f"T{t}", "canonical", None)
        qrels[f"q{t}"] = {f"c{t}": 2}
        for m in range(rng.randint(0, 4)):
            docs[f"m{t}_{m}"] = Info(f"T{t}", "mutant", "op")
            qrels[f"q{t}"][f"m{t}_{m}"] = 1
    run = {q: {d: round(rng.random(), 1) for d in docs} for q in qrels}
    query_task = {f"q{t}": f"T{t}" for t in range(30)}
    for ties in ("pessimistic", "trec"):
        fast = density_ablation(qrels, run, docs, query_task, measures=("exec@1", "ndcg@3", "mrr@5"), ties=ties)
        for level, values in fast.items():
            dropped = frozenset(d for d, i in docs.items() if i.kind == "mutant") - kept_mutants(docs, level)
            full = evaluate(_without(qrels, dropped), _without(run, dropped), ("exec@1", "ndcg@3", "mrr@5"), ties=ties)
            for measure, per_query in full.items():
                assert values[measure] == pytest.approx(sum(per_query.values()) / len(per_query), abs=1e-12)
