"""Plotly figure specs (JSON-able dicts) for the HTML report, built and validated with
``plotly.graph_objects``; the page draws them with the inlined plotly.js."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from execir.errors import MissingDependencyError
from execir.report.markdown import outranks_phrase, system_order
from execir.results import CollectionResult, Estimate, FolderResult

LEADERBOARD_MEASURES = ("exec@1", "exec@10", "ndcg@10")
COLORWAY = ["#2c6fbb", "#d9782d", "#3a9a5b", "#b8434f", "#7d5cb5", "#8c6d46", "#c560a8", "#6b6b6b", "#a7a832", "#2aa3b5"]
Figure = dict[str, Any]


def _go() -> Any:
    try:
        import plotly.graph_objects as go
    except ModuleNotFoundError as exc:
        raise MissingDependencyError("the HTML report needs plotly: pip install 'execir[report]'") from exc
    return go


def _layout(title: str, height: int, **extra: Any) -> dict[str, Any]:
    """A plain white layout (no template, so every figure stays small)."""
    layout: dict[str, Any] = {
        "template": "none",
        "title": {"text": title, "x": 0, "xanchor": "left", "font": {"size": 15}},
        "height": height,
        "colorway": COLORWAY,
        "font": {"family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif", "size": 12, "color": "#222"},
        "margin": {"l": 10, "r": 10, "t": 48, "b": 40},
        "legend": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0, "xanchor": "left"},
        "paper_bgcolor": "#fff",
        "plot_bgcolor": "#fff",
        "hoverlabel": {"namelength": -1},
    }
    layout.update(extra)
    return layout


def _axis(title: str, **extra: Any) -> dict[str, Any]:
    return {"title": {"text": title}, "gridcolor": "#e6e6e6", "zerolinecolor": "#bbb", "automargin": True, **extra}


def _plain(figure: Any) -> Figure:
    """A validated figure as plain JSON types."""
    return dict(json.loads(figure.to_json()))


def _ci_trace(go: Any, name: str, labels: Sequence[str], values: Sequence[Estimate | None], *, horizontal: bool) -> Any:
    """Means as dots with their 95% intervals as asymmetric error bars."""
    present = [(label, v) for label, v in zip(labels, values) if v is not None]
    means = [v.mean for _, v in present]
    plus = [v.high - v.mean for _, v in present]
    minus = [v.mean - v.low for _, v in present]
    where = [label for label, _ in present]
    error = {"type": "data", "symmetric": False, "array": plus, "arrayminus": minus, "thickness": 1.5, "width": 4}
    hover = [f"{name}<br>{label}: {v.mean:.3f} [{v.low:.3f}, {v.high:.3f}]" for label, v in present]
    if horizontal:
        return go.Scatter(x=means, y=where, error_x=error, mode="markers", name=name, marker={"size": 9}, hovertext=hover, hoverinfo="text")
    return go.Scatter(x=where, y=means, error_y=error, mode="markers", name=name, marker={"size": 9}, hovertext=hover, hoverinfo="text")


def leaderboard_chart(result: FolderResult) -> Figure:
    """exec@1, exec@10 and nDCG@10 (those measured) per system with 95% intervals, best system on top."""
    go = _go()
    systems = system_order(result)
    names = [s.name for s in systems]
    measures = [m for m in LEADERBOARD_MEASURES if any(m in s.metrics for s in systems)]
    traces = [_ci_trace(go, m, names, [s.metrics.get(m) for s in systems], horizontal=True) for m in measures]
    layout = _layout(
        f"Leaderboard: means with 95% bootstrap intervals (n = {result.dataset.queries} queries)",
        110 + 70 * max(len(names), 1),
        scattermode="group",
        xaxis=_axis("score", range=[-0.02, 1.02]),
        yaxis=_axis("", autorange="reversed", type="category"),
    )
    return _plain(go.Figure(data=traces, layout=layout))


def density_chart(result: FolderResult) -> Figure:
    """exec@1 and nDCG@10 against the number of verified mutants per task in the pool."""
    go = _go()
    traces = []
    for index, system in enumerate(system_order(result)):
        levels = sorted(system.density_ablation)
        color = COLORWAY[index % len(COLORWAY)]
        for axis, measure in (("", "exec@1"), ("2", "ndcg@10")):
            ys = [system.density_ablation[v].get(measure) for v in levels]
            traces.append(
                go.Scatter(
                    x=levels,
                    y=ys,
                    mode="lines+markers",
                    name=system.name,
                    legendgroup=system.name,
                    showlegend=not axis,
                    line={"color": color},
                    xaxis=f"x{axis}",
                    yaxis=f"y{axis}",
                    hovertemplate=f"{system.name}<br>%{{x}} mutants per task: {measure} %{{y:.3f}}<extra></extra>",
                )
            )
    x_title = "verified mutants per task in the pool"
    layout = _layout(
        f"Pool-density ablation (nested pools, same scores; n = {result.dataset.queries} queries)",
        400,
        xaxis=_axis(x_title, domain=[0, 0.45], dtick=1),
        xaxis2=_axis(x_title, domain=[0.55, 1], dtick=1),
        yaxis=_axis("exec@1", range=[0, 1.02]),
        yaxis2=_axis("nDCG@10", range=[0, 1.02], anchor="x2"),
    )
    return _plain(go.Figure(data=traces, layout=layout))


def operator_counts(result: FolderResult) -> dict[str, int]:
    """Per operator, the number of queries with one of its mutants in their pool (the same for every system)."""
    counts: dict[str, int] = {}
    for system in result.systems:
        for op, row in system.analyses.per_operator.items():
            counts[op] = max(counts.get(op, 0), row.n)
    return dict(sorted(counts.items()))


def operator_chart(result: FolderResult) -> Figure:
    """Per operator (labelled with its n), the share of queries where its mutant outranks the canonical."""
    go = _go()
    counts = operator_counts(result)
    labels = [f"{op} (n={n})" for op, n in counts.items()]
    traces = []
    for system in system_order(result):
        table = system.analyses.per_operator
        rates = [table[op].rate if op in table else None for op in counts]
        hover = [f"{system.name}<br>{op}: {table[op].outranks} of {table[op].n}" if op in table else f"{system.name}<br>{op}: n/a" for op in counts]
        traces.append(go.Bar(x=rates, y=labels, orientation="h", name=system.name, hovertext=hover, hoverinfo="text"))
    layout = _layout(
        f"Mutation operators: share of the n queries where the operator's mutant {outranks_phrase(result.tie_policy)} the canonical",
        120 + max(len(labels), 1) * (8 + 9 * len(traces)),
        barmode="group",
        xaxis=_axis("share of n", range=[0, 1], tickformat=".0%"),
        yaxis=_axis("", autorange="reversed", type="category"),
    )
    return _plain(go.Figure(data=traces, layout=layout))


def language_chart(result: FolderResult, measure: str = "exec@1") -> Figure:
    """``measure`` per query language and system, each language labelled with its n."""
    go = _go()
    systems = system_order(result)
    languages = sorted({g for s in systems for g in s.by_language})
    counts = {g: max(int(s.by_language[g].get("n", 0)) for s in systems if g in s.by_language) for g in languages}
    labels = [f"{g} (n={counts[g]})" for g in languages]
    traces = [go.Bar(x=labels, y=[s.by_language.get(g, {}).get(measure) for g in languages], name=s.name) for s in systems]
    layout = _layout(
        f"{measure} per query language", 380, barmode="group", xaxis=_axis("query language", type="category"), yaxis=_axis(measure, range=[0, 1.02])
    )
    return _plain(go.Figure(data=traces, layout=layout))


def averages_chart(result: CollectionResult, systems: Sequence[str]) -> Figure:
    """CoREB's averages: mean nDCG@10 per direction and overall, per system."""
    go = _go()
    groups = [d for d in ("t2c", "c2t", "c2c") if any(d in v for v in result.average.values())] + ["overall"]
    traces = [go.Bar(x=groups, y=[result.average[s].get(g) for g in groups], name=s) for s in systems]
    layout = _layout("Mean nDCG@10 per direction and overall", 380, barmode="group", xaxis=_axis("", type="category"), yaxis=_axis("nDCG@10", range=[0, 1.02]))
    return _plain(go.Figure(data=traces, layout=layout))


def folder_chart(result: CollectionResult, systems: Sequence[str], measure: str = "ndcg@10") -> Figure:
    """``measure`` with its 95% interval per folder and system (each folder labelled with its n)."""
    go = _go()
    labels = [f"{f.name} (n={f.composition.queries})" for f in result.folders]
    traces = []
    for system in systems:
        values = [next((s.metrics.get(measure) for s in f.scores if s.system == system), None) for f in result.folders]
        traces.append(_ci_trace(go, system, labels, values, horizontal=False))
    layout = _layout(
        f"{measure} per folder with 95% bootstrap intervals",
        420,
        scattermode="group",
        xaxis=_axis("", type="category"),
        yaxis=_axis(measure, range=[-0.02, 1.02]),
    )
    return _plain(go.Figure(data=traces, layout=layout))


def subtype_chart(rows: Sequence[tuple[str, str, str, float | None]], subtypes: Sequence[str]) -> Figure:
    """nDCG@10 per text-to-code subtype: ``rows`` are (language, system, subtype, value)."""
    go = _go()
    series: dict[str, dict[str, float | None]] = {}
    for language, system, subtype, value in rows:
        series.setdefault(f"{system} ({language})", {})[subtype] = value
    traces = [go.Bar(x=list(subtypes), y=[values.get(s) for s in subtypes], name=name) for name, values in series.items()]
    layout = _layout(
        "nDCG@10 per text-to-code query subtype", 380, barmode="group", xaxis=_axis("subtype", type="category"), yaxis=_axis("nDCG@10", range=[0, 1.02])
    )
    return _plain(go.Figure(data=traces, layout=layout))
