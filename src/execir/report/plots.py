"""PNG figures for the report (matplotlib, Agg backend; optional extra ``execir[report]``)."""

from __future__ import annotations

import io
from typing import Any

from execir.errors import MissingDependencyError
from execir.report.markdown import outranks_phrase, system_order
from execir.results import FolderResult

LEADERBOARD_MEASURES = ("exec@1", "exec@10", "ndcg@10")


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ModuleNotFoundError as exc:
        raise MissingDependencyError("plots need matplotlib: pip install 'execir[report]'") from exc
    return plt


def _png(figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    _pyplot().close(figure)
    return buffer.getvalue()


def density_plot(result: FolderResult) -> bytes:
    """exec@1 and nDCG@10 against the number of verified mutants per task in the pool."""
    plt = _pyplot()
    figure, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    for system in system_order(result):
        table = system.density_ablation
        levels = sorted(table)
        for axis, measure in zip(axes, ("exec@1", "ndcg@10")):
            axis.plot(levels, [table[v][measure] for v in levels], marker="o", label=system.name)
    for axis, measure in zip(axes, ("exec@1", "nDCG@10")):
        axis.set_xlabel("verified mutants per task in the pool")
        axis.set_ylabel(measure)
        axis.set_ylim(0, 1)
        axis.grid(alpha=0.3)
    axes[0].legend(fontsize=7, loc="upper right")
    figure.suptitle("Pool-density ablation (nested pools, same scores)")
    return _png(figure)


def leaderboard_plot(result: FolderResult) -> bytes:
    """exec@1, exec@10 and nDCG@10 per system with their 95% bootstrap CIs as error bars."""
    plt = _pyplot()
    systems = system_order(result)
    names = [s.name for s in systems]
    figure, axes = plt.subplots(1, len(LEADERBOARD_MEASURES), figsize=(3.2 * len(LEADERBOARD_MEASURES), 0.45 * len(names) + 1.4), sharey=True)
    for axis, measure in zip(axes, LEADERBOARD_MEASURES):
        values = [s.metrics[measure] for s in systems]
        means = [v.mean for v in values]
        errors = [[v.mean - v.low for v in values], [v.high - v.mean for v in values]]
        axis.errorbar(means, range(len(names)), xerr=errors, fmt="o", capsize=3)
        axis.set_xlim(0, 1)
        axis.set_xlabel(f"{measure} (95% CI)")
        axis.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(names)), names, fontsize=8)
    axes[0].invert_yaxis()
    figure.suptitle(f"Leaderboard ({result.dataset.queries} queries, tie policy {result.tie_policy})")
    return _png(figure)


def operator_labels(result: FolderResult) -> list[str]:
    """``operator (n=queries)`` for every operator seen, sorted by name (n is the same for every system)."""
    counts: dict[str, int] = {}
    for system in result.systems:
        for op, row in system.analyses.per_operator.items():
            counts[op] = max(counts.get(op, 0), row.n)
    return [f"{op} (n={counts[op]})" for op in sorted(counts)]


def operator_plot(result: FolderResult) -> bytes:
    """Per mutation operator (with its n): share of queries where its mutant outranks the canonical."""
    plt = _pyplot()
    systems = system_order(result)
    labels = operator_labels(result)
    operators = [label.rsplit(" (n=", 1)[0] for label in labels]
    figure, axis = plt.subplots(figsize=(8, 0.32 * len(operators) + 1.2))
    height = 0.8 / max(len(systems), 1)
    for index, system in enumerate(systems):
        table = system.analyses.per_operator
        rates = [table[op].rate if op in table else 0.0 for op in operators]
        axis.barh([i + index * height for i in range(len(operators))], rates, height=height, label=system.name)
    axis.set_yticks([i + height * (len(systems) - 1) / 2 for i in range(len(operators))], labels, fontsize=8)
    axis.set_xlabel(f"share of the n queries where this operator's mutant {outranks_phrase(result.tie_policy)} the canonical")
    axis.set_xlim(0, 1)
    axis.invert_yaxis()
    axis.legend(fontsize=7, loc="lower right")
    axis.grid(axis="x", alpha=0.3)
    return _png(figure)
