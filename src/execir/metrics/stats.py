"""Paired statistics over per-query vectors: bootstrap CIs, exact McNemar, Holm, win/tie/loss.

Inputs are per-query values aligned by position (or, for :func:`paired_comparisons`, by query
id). Randomness comes only from ``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
from scipy.stats import binom

_CHUNK = 256
"""Bootstrap resamples drawn per block (bounds memory; part of the seeded stream's definition)."""


def _vector(values: Sequence[float] | np.ndarray, name: str = "values") -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-d sequence of numbers")
    if np.isnan(array).any():
        raise ValueError(f"{name} contains NaN")
    return array


def _pair(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x, y = _vector(a, "a"), _vector(b, "b")
    if x.shape != y.shape:
        raise ValueError(f"paired vectors differ in length: {x.size} != {y.size}")
    return x, y


def bootstrap_ci(values: Sequence[float] | np.ndarray, *, n_resamples: int = 2000, confidence: float = 0.95, seed: int = 0) -> tuple[float, float, float]:
    """Query-bootstrap percentile CI of the mean: ``(mean, low, high)``."""
    x = _vector(values)
    if n_resamples < 1 or not 0.0 < confidence < 1.0:
        raise ValueError("need n_resamples >= 1 and 0 < confidence < 1")
    rng = np.random.default_rng(seed)
    means = np.empty(n_resamples)
    for start in range(0, n_resamples, _CHUNK):
        size = min(_CHUNK, n_resamples - start)
        means[start : start + size] = x[rng.integers(0, x.size, size=(size, x.size))].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(x.mean()), float(low), float(high)


def _binary(x: np.ndarray, name: str) -> np.ndarray:
    if not np.isin(x, (0.0, 1.0)).all():
        raise ValueError(f"{name} must hold only 0/1 (or booleans) for McNemar's test")
    return x.astype(bool)


def mcnemar_exact(a: Sequence[bool | float] | np.ndarray, b: Sequence[bool | float] | np.ndarray) -> dict[str, float | int]:
    """Exact two-sided McNemar test on paired binary outcomes.

    ``b01``: pairs with a=0, b=1; ``b10``: a=1, b=0;
    ``p_value = min(1, 2 * Binom(b01 + b10, 1/2).cdf(min(b01, b10)))``, 1.0 with no discordant pair.
    """
    x, y = _pair(a, b)
    x, y = _binary(x, "a"), _binary(y, "b")
    b01, b10 = int((~x & y).sum()), int((x & ~y).sum())
    n = b01 + b10
    p = 1.0 if n == 0 else min(1.0, 2.0 * float(binom.cdf(min(b01, b10), n, 0.5)))
    return {"b01": b01, "b10": b10, "p_value": p}


def holm(p_values: Mapping[str, float]) -> dict[str, float]:
    """Holm step-down adjusted p-values (monotone, capped at 1), keyed like the input."""
    names = sorted(p_values, key=lambda name: (p_values[name], name))
    m = len(names)
    adjusted: dict[str, float] = {}
    running = 0.0
    for i, name in enumerate(names):
        p = p_values[name]
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p-value for '{name}' is not in [0, 1]: {p}")
        running = max(running, min(1.0, (m - i) * p))
        adjusted[name] = running
    return {name: adjusted[name] for name in p_values}


def win_tie_loss(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> dict[str, int]:
    """Queries where a > b (win), a == b (tie), a < b (loss)."""
    x, y = _pair(a, b)
    return {"win": int((x > y).sum()), "tie": int((x == y).sum()), "loss": int((x < y).sum())}


def _aligned(per_system: Mapping[str, Mapping[str, float]]) -> tuple[list[str], dict[str, np.ndarray]]:
    systems = list(per_system)
    qids = sorted(per_system[systems[0]]) if systems else []
    for name in systems:
        if set(per_system[name]) != set(qids):
            raise ValueError(f"system '{name}' has values for a different set of queries than '{systems[0]}'")
    return qids, {name: np.array([per_system[name][q] for q in qids], dtype=np.float64) for name in systems}


def paired_comparisons(
    per_system: Mapping[str, Mapping[str, float]],
    *,
    seed: int = 0,
    n_resamples: int = 2000,
    confidence: float = 0.95,
) -> list[dict[str, Any]]:
    """Compare every pair of systems (input order) on per-query binary values (e.g. exec@1).

    Each entry: ``a, b, n, mean_a, mean_b, mean_diff, ci_low, ci_high`` (bootstrap CI of the
    mean of a - b), ``b01, b10, p_value`` (exact McNemar), ``p_holm`` (Holm over all pairs),
    ``win, tie, loss`` (a vs b).
    """
    _, vectors = _aligned(per_system)
    rows: list[dict[str, Any]] = []
    for a, b in combinations(vectors, 2):
        x, y = vectors[a], vectors[b]
        diff, low, high = bootstrap_ci(x - y, n_resamples=n_resamples, confidence=confidence, seed=seed)
        row = {"a": a, "b": b, "n": int(x.size), "mean_a": float(x.mean()), "mean_b": float(y.mean())}
        row |= {"mean_diff": diff, "ci_low": low, "ci_high": high}
        rows.append(row | mcnemar_exact(x, y) | win_tie_loss(x, y))
    adjusted = holm({f"{r['a']}\x00{r['b']}": r["p_value"] for r in rows})
    for r in rows:
        r["p_holm"] = adjusted[f"{r['a']}\x00{r['b']}"]
    return rows
