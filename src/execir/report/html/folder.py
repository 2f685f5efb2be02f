"""One folder's HTML report: leaderboard with CIs, significance, near-clone analyses, density
ablation, mutation operators, query languages, the systems and a per-query browser (pure)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields, is_dataclass
from typing import Any

from execir.dataset import Dataset
from execir.report.expansion import EXPANSION_HEADER, expanded_systems, expansion_rows
from execir.report.expansion import NOTE as EXPANSION_NOTE
from execir.report.html import charts
from execir.report.html.browser import OUTCOMES, browser_data
from execir.report.html.markup import Cell, Markup, esc, estimate_cell, join, table, tag
from execir.report.html.page import Section, chart, render_page
from execir.report.indexes import INDEX_HEADER, index_rows, indexed_systems
from execir.report.markdown import TIE_POLICY_TEXT, gap_header, gap_rows, outranks_phrase, system_order
from execir.report.tables import pct, pvalue
from execir.report.usage import NOTE as USAGE_NOTE
from execir.report.usage import USAGE_HEADER, usage_rows
from execir.results import Estimate, FolderResult, QueryRecord, SystemSummary

QUERIES_ID = "execir-queries"
SHOWN_FIELDS = {"name", "spec", "config", "encoded_texts", "queries", "metrics", "tie_rate", "density_ablation", "analyses", "by_language"}
"""SystemSummary fields with their own section; any other field is listed under the system generically."""
SIGNIFICANCE = 0.05


def metric_names(result: FolderResult) -> list[str]:
    """Every measure any system reports: in the configured order, then any other in the order first seen."""
    seen: dict[str, None] = {}
    for system in result.systems:
        seen.update(dict.fromkeys(system.metrics))
    configured = [str(m) for m in result.config.get("measures", ()) if m in seen]
    return configured + [m for m in seen if m not in configured]


def _p(text: str) -> Markup:
    return tag("p", text, class_="note")


def _leaderboard(result: FolderResult) -> Markup:
    measures = metric_names(result)
    rows: list[list[Cell]] = [
        [tag("span", s.name, class_="system"), *(estimate_cell(s.metrics.get(m)) for m in measures), s.encoded_texts] for s in system_order(result)
    ]
    note = _p("Means over queries with their 95% bootstrap intervals in brackets; best exec@1 first.")
    numeric = [False, *([True] * (len(measures) + 1))]
    return note + table(["system", *measures, "texts encoded"], rows, numeric=numeric, id_="leaderboard") + chart("leaderboard", "leaderboard chart")


def _indexes(result: FolderResult) -> Markup:
    note = _p(
        "Each indexed system searches the same embeddings as exact search through a faiss index. Δ: indexed minus exact with a "
        "paired bootstrap 95% CI; wins/losses: queries only the index / only exact search solves at rank 1 (exact McNemar); "
        "recall of exact: share of exact search's top k the index returns; ms/query: index search only; memory: the serialised index."
    )
    rows: list[list[Cell]] = [list(r) for r in index_rows(result)]
    return note + table(INDEX_HEADER, rows, numeric=[False, False, True, True, True, True, True, True, True, True], id_="indexes")


def _expansion(result: FolderResult) -> Markup:
    rows: list[list[Cell]] = [list(r) for r in expansion_rows(result)]
    notes = "".join(tag("li", n) for n in result.expansion_notes)
    body = _p(EXPANSION_NOTE.strip()) + table(EXPANSION_HEADER, rows, numeric=[False, False, *([True] * (len(EXPANSION_HEADER) - 2))], id_="expansion")
    return body + (_p("Not applied:") + tag("ul", Markup(notes)) if notes else Markup(""))


def _usage(result: FolderResult) -> Markup:
    rows: list[list[Cell]] = [list(r) for r in usage_rows(result)]
    return _p(USAGE_NOTE.strip()) + table(USAGE_HEADER, rows, numeric=[False, *([True] * (len(USAGE_HEADER) - 1))], id_="usage")


def _significance(result: FolderResult) -> Markup:
    if not result.comparisons:
        return _p("Only one system was evaluated.")
    rows: list[list[Cell]] = []
    for c in result.comparisons:
        significant = c.p_holm < SIGNIFICANCE
        verdict = tag("span", "yes" if significant else "no", class_="sig" if significant else "nosig")
        rows.append(
            [
                f"{c.a} vs {c.b}",
                c.n,
                f"{c.mean_a:.3f}",
                f"{c.mean_b:.3f}",
                f"{c.mean_diff:+.3f} [{c.ci_low:+.3f}, {c.ci_high:+.3f}]",
                f"{c.win}/{c.tie}/{c.loss}",
                f"{c.b10}/{c.b01}",
                pvalue(c.p_value),
                pvalue(c.p_holm),
                verdict,
            ]
        )
    header = [
        "pair (a vs b)",
        "n",
        "exec@1 a",
        "exec@1 b",
        "Δ a−b [95% CI]",
        "win/tie/loss",
        "discordant a-only/b-only",
        "exact McNemar p",
        "Holm p",
        f"Holm p < {SIGNIFICANCE}",
    ]
    note = _p(
        "Per-query exec@1 compared pairwise: wins, ties and losses of a; exact McNemar test over the discordant queries; Holm's correction over all pairs."
    )
    return note + table(header, rows, numeric=[False, *([True] * 8), False], id_="significance")


def _gaps(result: FolderResult) -> Markup:
    policy = result.tie_policy
    note = _p(f"Tie policy {policy}: " + TIE_POLICY_TEXT.get(policy, policy) + ". Shares with their denominators.")
    rows: list[list[Cell]] = [list(r) for r in gap_rows(result)]
    return note + table(gap_header(policy), rows, numeric=[False, True, True, True, True], id_="gaps")


def _ablation(result: FolderResult) -> Markup:
    systems = system_order(result)
    levels = sorted({level for s in systems for level in s.density_ablation})
    rows: list[list[Cell]] = []
    for level in levels:
        cells: list[Cell] = [level]
        for s in systems:
            values = s.density_ablation.get(level)
            cells.append(" / ".join(f"{values[m]:.3f}" if m in values else "n/a" for m in ("exec@1", "ndcg@10")) if values else "n/a")
        rows.append(cells)
    note = _p(f"exec@1 / nDCG@10 with at most N verified mutants per task in the pool (nested pools, same scores; n = {result.dataset.queries} queries).")
    body = table(["mutants per task", *(s.name for s in systems)], rows, numeric=[True] * (len(systems) + 1), id_="ablation")
    return note + body + (chart("density", "pool-density ablation chart") if levels else Markup(""))


def _operators(result: FolderResult) -> Markup:
    systems = system_order(result)
    counts = charts.operator_counts(result)
    if not counts:
        return _p("No query had a mutant in its pool.")
    rows: list[list[Cell]] = []
    for op, n in counts.items():
        cells: list[Cell] = [op, n]
        for s in systems:
            rate = s.analyses.per_operator.get(op)
            cells.append(f"{pct(rate.rate)} ({rate.outranks}/{rate.n})" if rate else "n/a")
        rows.append(cells)
    note = _p(
        f"Of the n queries with a mutant of the operator in their pool, the share where that mutant "
        f"{outranks_phrase(result.tie_policy)} the canonical solution."
    )
    body = table(["operator", "n", *(s.name for s in systems)], rows, numeric=[False, *([True] * (len(systems) + 1))], id_="operators")
    return note + body + chart("operators", "per-operator chart")


def _languages(result: FolderResult) -> Markup:
    systems = system_order(result)
    languages = sorted({g for s in systems for g in s.by_language})
    if len(languages) < 2:
        return _p(f"Every query is in one language ({languages[0] if languages else result.dataset.language or 'unknown'}).")
    measures = sorted({m for s in systems for v in s.by_language.values() for m in v if m != "n"})
    rows: list[list[Cell]] = [
        [s.name, g, f"{v.get('n', 0):g}", *(f"{v[m]:.3f}" if m in v else "n/a" for m in measures)] for s in systems for g, v in sorted(s.by_language.items())
    ]
    body = table(["system", "query language", "queries", *measures], rows, numeric=[False, False, *([True] * (len(measures) + 1))], id_="languages")
    return body + chart("languages", "per-language chart")


def describe(value: Any, depth: int = 0) -> Markup:
    """Any result value as HTML: an estimate with its interval, a record or mapping as a nested list
    (a nested mapping inside a nested one, such as a reranker's configuration, as indented JSON, which
    reads better than narrow nested columns), a number compactly."""
    if isinstance(value, Estimate):
        return estimate_cell(value)
    if is_dataclass(value) and not isinstance(value, type):
        value = {f.name.replace("_", " "): getattr(value, f.name) for f in fields(value)}
    if isinstance(value, Mapping):
        if depth >= 1 and any(isinstance(v, Mapping | list) for v in value.values()):
            return tag("pre", json.dumps(value, indent=1, sort_keys=True, default=str), class_="config")
        items = [tag("dt", k) + tag("dd", describe(v, depth + 1)) for k, v in value.items() if v is not None]
        return tag("dl", Markup("".join(items))) if items else Markup('<span class="na">none</span>')
    if isinstance(value, list | tuple):
        return join((describe(v, depth + 1) for v in value), ", ")
    if isinstance(value, float):
        return esc(f"{value:.4g}")
    return esc(value)


def _system_block(system: SystemSummary) -> Markup:
    stages = system.name.split(">>")
    kind = "first stage " + join((tag("code", s.strip()) for s in stages), " >> reranker ") if len(stages) > 1 else esc("retriever")
    facts = [
        ("spec", tag("code", system.spec)),
        ("kind", kind),
        ("queries", system.queries),
        ("texts encoded", system.encoded_texts),
        ("ties with a mutant", pct(system.tie_rate)),
    ]
    extra = "".join(
        tag("div", tag("h4", f.name.replace("_", " ")) + describe(getattr(system, f.name)), class_="field")
        for f in fields(system)
        if f.name not in SHOWN_FIELDS and getattr(system, f.name) is not None
    )
    items = "".join(tag("dt", k) + tag("dd", v) for k, v in facts)
    config = tag("details", tag("summary", "configuration") + tag("pre", json.dumps(system.config, indent=2, sort_keys=True, default=str)))
    return tag("div", tag("h3", system.name) + tag("dl", Markup(items)) + Markup(extra) + config, class_="system-card")


def _systems(result: FolderResult) -> Markup:
    return tag("div", Markup("".join(_system_block(s) for s in system_order(result))), class_="system-cards")


def _browser(result: FolderResult) -> Markup:
    systems = [s.name for s in system_order(result)]
    system_options = tag("option", "every system", value="") + Markup("".join(tag("option", s, value=s) for s in systems))
    outcome_options = tag("option", "every outcome", value="") + Markup("".join(tag("option", text, value=key) for key, (_, text) in OUTCOMES.items()))
    controls = (
        tag("label", "task or query id " + tag("input", "", type="search", id="qb-search", placeholder="e.g. HumanEval/12", autocomplete="off"))
        + tag("label", "system " + tag("select", system_options, id="qb-system"))
        + tag("label", "mutant operator above the canonical " + tag("select", tag("option", "any or none", value=""), id="qb-operator"))
        + tag("label", "outcome " + tag("select", outcome_options, id="qb-outcome"))
    )
    header = "".join(tag("th", h) for h in ("query", "system", "canonical rank", "outcome", "outranked by"))
    listing = tag(
        "div",
        tag("p", "", id="qb-count", class_="note", aria_live="polite")
        + tag("div", tag("table", Markup(f"<thead><tr>{header}</tr></thead>") + tag("tbody", "", id="qb-rows"), id="qb-table"), class_="table-wrap qb-list"),
    )
    detail = tag(
        "div",
        _p("Choose a row to see the query, its top 10 and the diff between the canonical program and the document that beat it."),
        id="qb-detail",
        class_="qb-detail",
    )
    note = _p("One row per system and query. Search matches query and task ids; choose a row for its ranked list.")
    return tag("div", note + tag("div", controls, class_="qb-controls") + tag("div", listing + detail, class_="qb-panes"), id="qb", hidden="hidden")


def _timing(result: FolderResult) -> Markup:
    rows: list[list[Cell]] = [[stage, f"{seconds:.2f}"] for stage, seconds in result.timing_seconds.items()]
    return table(["stage", "seconds"], rows, numeric=[False, True], id_="timing")


def _intro(result: FolderResult) -> Markup:
    d = result.dataset
    manifest = d.manifest_sha256[:16] if d.manifest_sha256 else "none"
    facts = [
        ("folder", d.name),
        ("task", d.task or "?"),
        ("language", d.language or "?"),
        ("split", d.split),
        ("queries", d.queries),
        ("documents", d.documents),
        ("tie policy", result.tie_policy),
        ("toolkit", result.toolkit_version),
        ("manifest sha256", manifest),
    ]
    items = "".join(tag("li", tag("span", k, class_="k") + " " + tag("span", v, class_="v")) for k, v in facts)
    text = "Documents are canonical solutions and execution-verified failing near clones; 95% intervals come from a seeded query bootstrap."
    return tag("p", text, class_="lede") + tag("ul", Markup(items), class_="facts")


def render_folder_html(result: FolderResult, records: Sequence[QueryRecord], dataset: Dataset) -> str:
    """The folder's ``report.html``: static tables for every number, plotly charts and a query browser."""
    sections = [
        Section("leaderboard", "Leaderboard", _leaderboard(result)),
        *([Section("indexes", "Vector indexes against exact search", _indexes(result))] if indexed_systems(result) else []),
        *([Section("expansion", "Query expansion", _expansion(result))] if expanded_systems(result) else []),
        *([Section("usage", "What the endpoints cost", _usage(result))] if usage_rows(result) else []),
        Section("significance", "Pairwise significance (exec@1)", _significance(result)),
        Section("near-clones", "Where retrievers fall for near clones", _gaps(result)),
        Section("density", "Pool-density ablation", _ablation(result)),
        Section("operators", "Mutation operators that fool each system", _operators(result)),
        Section("languages", "Per query language", _languages(result)),
        Section("systems", "Systems", _systems(result)),
        Section("queries", "Query browser", _browser(result) + tag("noscript", _p("The query browser needs JavaScript."))),
        Section("timing", "Where the time went", _timing(result)),
    ]
    figures: dict[str, Any] = {"leaderboard": charts.leaderboard_chart(result)}
    if any(s.density_ablation for s in result.systems):
        figures["density"] = charts.density_chart(result)
    if charts.operator_counts(result):
        figures["operators"] = charts.operator_chart(result)
    if len({g for s in result.systems for g in s.by_language}) >= 2:
        figures["languages"] = charts.language_chart(result)
    data = {QUERIES_ID: browser_data(records, dataset, [s.name for s in system_order(result)])}
    title = f"ExecIR report: {result.dataset.name}"
    return render_page(title, _intro(result), sections, figures, data)
