"""Statistics on hand-computed cases: exact McNemar, bootstrap CI, Holm, win/tie/loss."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from execir.metrics.stats import (
    bootstrap_ci,
    holm,
    mcnemar_exact,
    paired_comparisons,
    win_tie_loss,
)


def test_mcnemar_hand_computed():
    # 1 pair a=0,b=1; 9 pairs a=1,b=0; 5 concordant pairs
    a = [0] + [1] * 9 + [1, 1, 0, 0, 1]
    b = [1] + [0] * 9 + [1, 1, 0, 0, 1]
    out = mcnemar_exact(a, b)
    assert out["b01"] == 1 and out["b10"] == 9
    assert out["p_value"] == pytest.approx(2 * (comb(10, 0) + comb(10, 1)) / 2**10) == 0.021484375
    assert mcnemar_exact(b, a)["p_value"] == out["p_value"]


def test_mcnemar_edge_cases():
    assert mcnemar_exact([True, False], [True, False]) == {"b01": 0, "b10": 0, "p_value": 1.0}
    assert mcnemar_exact([1] * 5 + [0] * 5, [0] * 5 + [1] * 5)["p_value"] == 1.0  # capped
    with pytest.raises(ValueError, match="0/1"):
        mcnemar_exact([0.5], [1.0])
    with pytest.raises(ValueError, match="length"):
        mcnemar_exact([1, 0], [1])


def test_bootstrap_constant_values_have_zero_width():
    assert bootstrap_ci([0.25] * 50) == (0.25, 0.25, 0.25)


def test_bootstrap_is_seeded_and_sane():
    values = np.random.default_rng(1).random(200)
    a = bootstrap_ci(values, seed=5)
    assert a == bootstrap_ci(values.tolist(), seed=5)
    assert a != bootstrap_ci(values, seed=6)
    mean, low, high = a
    assert mean == pytest.approx(values.mean()) and low < mean < high
    narrow = bootstrap_ci(values, confidence=0.5, seed=5)
    assert a[1] <= narrow[1] <= narrow[2] <= a[2]
    with pytest.raises(ValueError):
        bootstrap_ci([])
    with pytest.raises(ValueError):
        bootstrap_ci([1.0], confidence=1.0)


def test_holm_hand_worked():
    # sorted: d .005*4=.02, a .01*3=.03, c .03*2=.06, b .04*1=.04 -> monotone: .06
    out = holm({"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.005})
    assert out == pytest.approx({"a": 0.03, "b": 0.06, "c": 0.06, "d": 0.02})
    assert list(out) == ["a", "b", "c", "d"]
    assert holm({"x": 0.5, "y": 0.6}) == {"x": 1.0, "y": 1.0}
    assert holm({}) == {}
    with pytest.raises(ValueError):
        holm({"x": 1.5})


def test_win_tie_loss():
    assert win_tie_loss([1, 0, 1, 0.5], [0, 0, 1, 1]) == {"win": 1, "tie": 2, "loss": 1}


def test_paired_comparisons():
    rng = np.random.default_rng(0)
    qids = [f"q{i}" for i in range(100)]
    systems = {name: dict(zip(qids, (rng.random(100) < p).astype(float).tolist())) for name, p in [("bm25", 0.3), ("dense", 0.6), ("rerank", 0.62)]}
    rows = paired_comparisons(systems, seed=1)
    assert [(r["a"], r["b"]) for r in rows] == [("bm25", "dense"), ("bm25", "rerank"), ("dense", "rerank")]
    for r in rows:
        a, b = np.array(list(systems[r["a"]].values())), np.array(list(systems[r["b"]].values()))
        assert r["mean_diff"] == pytest.approx(a.mean() - b.mean())
        assert r["ci_low"] <= r["mean_diff"] <= r["ci_high"]
        assert r["p_holm"] >= r["p_value"] and r["win"] + r["tie"] + r["loss"] == r["n"] == 100
        assert r["win"] == r["b10"] and r["loss"] == r["b01"]
    assert rows[0]["p_holm"] < 0.05 and rows[2]["p_holm"] > 0.05
    assert rows == paired_comparisons(systems, seed=1)


def test_paired_comparisons_needs_the_same_queries():
    with pytest.raises(ValueError, match="different set of queries"):
        paired_comparisons({"a": {"q1": 1.0}, "b": {"q2": 1.0}})
