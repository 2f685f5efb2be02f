"""PNG figures for the report (matplotlib, Agg backend; optional extra ``execir[report]``)."""

from __future__ import annotations

import io
from typing import Any

from execir.errors import MissingDependencyError


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


def density_plot(results: dict[str, Any]) -> bytes:
    """exec@1 and nDCG@10 against the number of verified mutants per task in the pool."""
    plt = _pyplot()
    figure, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    for name, system in results["systems"].items():
        table = system["density_ablation"]
        levels = sorted(table, key=int)
        for axis, measure in zip(axes, ("exec@1", "ndcg@10")):
            axis.plot([int(v) for v in levels], [table[v][measure] for v in levels], marker="o", label=name)
    for axis, measure in zip(axes, ("exec@1", "nDCG@10")):
        axis.set_xlabel("verified mutants per task in the pool")
        axis.set_ylabel(measure)
        axis.set_ylim(0, 1)
        axis.grid(alpha=0.3)
    axes[0].legend(fontsize=7, loc="upper right")
    figure.suptitle("Pool-density ablation (nested pools, same scores)")
    return _png(figure)


def operator_plot(results: dict[str, Any]) -> bytes:
    """Per mutation operator: share of queries where its mutant outranks the canonical."""
    plt = _pyplot()
    names = list(results["systems"])
    operators = sorted({op for s in results["systems"].values() for op in s["analyses"].get("per_operator", {})})
    figure, axis = plt.subplots(figsize=(8, 0.32 * len(operators) + 1.2))
    height = 0.8 / max(len(names), 1)
    for index, name in enumerate(names):
        table = results["systems"][name]["analyses"].get("per_operator", {})
        rates = [table.get(op, {}).get("rate", 0.0) for op in operators]
        axis.barh([i + index * height for i in range(len(operators))], rates, height=height, label=name)
    axis.set_yticks([i + height * (len(names) - 1) / 2 for i in range(len(operators))], operators, fontsize=8)
    axis.set_xlabel("share of queries where this operator's mutant ranks above the canonical")
    axis.set_xlim(0, 1)
    axis.invert_yaxis()
    axis.legend(fontsize=7, loc="lower right")
    axis.grid(axis="x", alpha=0.3)
    return _png(figure)
