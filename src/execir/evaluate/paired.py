"""Paired deltas between two systems on the same queries: bootstrap CI of the mean difference per
measure and exact McNemar on exec@1 (a reranked system against its first stage, an indexed system
against exact search)."""

from __future__ import annotations

from collections.abc import Mapping

from execir.metrics.stats import bootstrap_ci, mcnemar_exact
from execir.results import Estimate, McNemar


def paired_deltas(
    before: Mapping[str, Mapping[str, float]],
    after: Mapping[str, Mapping[str, float]],
    measures: tuple[str, ...],
    *,
    n_resamples: int,
    seed: int,
) -> tuple[dict[str, Estimate], McNemar]:
    """``after`` minus ``before`` (measure -> query -> value) per measure over ``before``'s exec@1
    queries, with a seeded paired bootstrap 95% CI, and McNemar's wins (only ``after`` solves at rank
    1) and losses (only ``before`` does)."""
    queries = sorted(before["exec@1"])
    deltas = {}
    for measure in measures:
        diff = [after[measure][q] - before[measure][q] for q in queries]
        mean, low, high = bootstrap_ci(diff, n_resamples=n_resamples, seed=seed) if diff else (0.0, 0.0, 0.0)
        deltas[measure] = Estimate(mean, low, high)
    if not queries:
        return deltas, McNemar(0, 0, 1.0)
    test = mcnemar_exact([before["exec@1"][q] for q in queries], [after["exec@1"][q] for q in queries])
    return deltas, McNemar(int(test["b01"]), int(test["b10"]), float(test["p_value"]))
