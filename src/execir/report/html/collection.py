"""The collection's HTML report: CoREB's averages, a leaderboard per folder with CIs, the
significance of each folder's best system, the composition of every folder, the text-to-code
subtypes, the query languages and links to every folder's ``report.html`` (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from execir.report.collection import COMPOSITION_HEADER, RERANK_HEADER, average_rows, composition_rows, rerank_rows
from execir.report.html import charts
from execir.report.html.markup import Cell, Markup, estimate_cell, table, tag
from execir.report.html.page import Section, chart, render_page
from execir.report.markdown import system_order
from execir.report.tables import pct, pvalue
from execir.results import CollectionResult, FolderResult

SUBTYPES = ("description", "full", "search")
HEADLINE = ("exec@1", "ndcg@10", "mrr@10")


def html_link(report: str) -> str:
    """A folder's ``report.html``, beside the ``report.md`` its summary names."""
    return str(PurePosixPath(report).with_name("report.html"))


def systems_by_average(result: CollectionResult) -> list[str]:
    """Systems, best overall average first (then any system with no nDCG@10 anywhere)."""
    ranked = sorted(result.average, key=lambda s: (-result.average[s].get("overall", 0.0), s))
    others = sorted({s.system for f in result.folders for s in f.scores} - set(ranked))
    return ranked + others


def _p(text: str) -> Markup:
    return tag("p", text, class_="note")


def _averages(result: CollectionResult) -> Markup:
    header, rows = average_rows(result)
    note = _p("Mean nDCG@10 over each direction's folders, then over the directions (as CoREB reports).")
    body = table(header, [list(r) for r in rows], numeric=[False, *([True] * (len(header) - 1))], id_="averages")
    return note + body + (chart("averages", "averages chart") if rows else Markup(""))


def _best_pair(folder: FolderResult | None) -> str:
    """The best system's comparison with the runner-up on exec@1, from the folder's own results."""
    if folder is None or len(folder.systems) < 2:
        return "n/a"
    best, second = (s.name for s in system_order(folder)[:2])
    pair = next((c for c in folder.comparisons if {c.a, c.b} == {best, second}), None)
    if pair is None:
        return "n/a"
    return f"{best} vs {second}: Holm p {pvalue(pair.p_holm)}"


def _leaderboard(result: CollectionResult, folders: Mapping[str, FolderResult]) -> Markup:
    rows: list[list[Cell]] = []
    for f in result.folders:
        link = tag("a", f.name, href=html_link(f.report))
        scores = sorted(f.scores, key=lambda s: (-(s.metrics["ndcg@10"].mean if "ndcg@10" in s.metrics else -1.0), s.system))
        for index, s in enumerate(scores):
            rows.append(
                [
                    link if index == 0 else Markup(""),
                    s.system,
                    *(estimate_cell(s.metrics.get(m)) for m in HEADLINE),
                    pct(s.intrusion),
                    pct(s.coreb_intrusion),
                    _best_pair(folders.get(f.name)) if index == 0 else "",
                ]
            )
    header = ["folder", "system", *(f"{m} [95% CI]" for m in HEADLINE), "intrusion@10", "CoREB intrusion@10", "best vs runner-up (exec@1)"]
    note = _p(
        "Best nDCG@10 first within each folder. intrusion@10: a hard negative above the first correct document within the top 10 "
        "(or none there); CoREB intrusion@10: a hard negative above a correct document, both in the top 10."
    )
    body = table(header, rows, numeric=[False, False, True, True, True, True, True, False], id_="folder-leaderboard")
    return note + body + (chart("folders", "per-folder chart") if result.folders else Markup(""))


def subtype_rows(result: CollectionResult) -> tuple[list[str], list[tuple[str, str, str, float | None]]]:
    """The text-to-code subtypes present and (language, system, subtype, nDCG@10) for each."""
    t2c = [f for f in result.folders if f.direction == "t2c"]
    subtypes = [s for s in SUBTYPES if any(f.subtype == s for f in t2c)]
    rows = []
    for language in sorted({f.language for f in t2c}):
        for system in sorted({s.system for f in t2c if f.language == language for s in f.scores}):
            for subtype in subtypes:
                folder = next((f for f in t2c if f.language == language and f.subtype == subtype), None)
                score = next((s for s in folder.scores if s.system == system), None) if folder else None
                value = score.metrics["ndcg@10"].mean if score and "ndcg@10" in score.metrics else None
                rows.append((language, system, subtype, value))
    return subtypes, rows


def _subtypes(result: CollectionResult) -> Markup:
    subtypes, rows = subtype_rows(result)
    if len(subtypes) < 2:
        return _p("Fewer than two text-to-code subtypes were evaluated.")
    cells: dict[tuple[str, str], dict[str, float | None]] = {}
    for language, system, subtype, value in rows:
        cells.setdefault((language, system), {})[subtype] = value
    table_rows: list[list[Cell]] = [
        [language, system, *(f"{v[s]:.3f}" if v.get(s) is not None else "n/a" for s in subtypes)] for (language, system), v in cells.items()
    ]
    note = _p(
        "nDCG@10 per text-to-code subtype. The search query is derived mechanically from the description and the function name; "
        "CoREB found such short keyword queries collapse every model."
    )
    body = table(["language", "system", *subtypes], table_rows, numeric=[False, False, *([True] * len(subtypes))], id_="subtypes")
    return note + body + chart("subtypes", "subtypes chart")


def _languages(result: CollectionResult) -> Markup:
    rows: list[list[Cell]] = [
        [f.name, s.system, language, f"{values.get('n', 0):g}", *(f"{values[m]:.3f}" if m in values else "n/a" for m in ("exec@1", "ndcg@10"))]
        for f in result.folders
        for s in f.scores
        if len(s.by_language) >= 2
        for language, values in s.by_language.items()
    ]
    if not rows:
        return _p("Every folder's queries are in one language.")
    return table(
        ["folder", "system", "query language", "queries", "exec@1", "nDCG@10"],
        rows,
        numeric=[False, False, False, True, True, True],
        id_="collection-languages",
    )


def _composition(result: CollectionResult) -> Markup:
    rows: list[list[Cell]] = [list(r) for r in composition_rows(result)]
    return table(COMPOSITION_HEADER, rows, numeric=[False, False, False, True, True, True, True, True, False], id_="composition")


def _reranking(result: CollectionResult) -> Markup:
    rows = rerank_rows(result)
    if not rows:
        return _p("No reranker was evaluated.")
    note = _p(
        "Each reranked system against its own first stage on the same folder: mean difference (reranked minus first stage) with a paired bootstrap 95% CI."
    )
    return note + table(RERANK_HEADER, [list(r) for r in rows], numeric=[False, False, False, True, True], id_="reranking")


def _links(result: CollectionResult) -> Markup:
    if not result.folders:
        return _p("No folder was evaluated.")
    items = "".join(
        tag("li", tag("a", f.name, href=html_link(f.report)) + f" ({f.task}, {f.language}, {f.composition.queries} queries)") for f in result.folders
    )
    return tag("ul", Markup(items), class_="folder-links")


def _intro(result: CollectionResult) -> Markup:
    facts = [("folders", len(result.folders)), ("split", result.split), ("tie policy", result.ties), ("evaluated in", f"{result.seconds:.1f} s")]
    items = "".join(tag("li", tag("span", k, class_="k") + " " + tag("span", v, class_="v")) for k, v in facts)
    text = (
        "Every relevance label was decided by execution (or a recorded mechanical edit for text); 95% intervals come from a "
        "seeded query bootstrap. Each folder's own report has its significance tests, ablations and a query browser."
    )
    return tag("p", text, class_="lede") + tag("ul", Markup(items), class_="facts")


def render_collection_html(result: CollectionResult, folders: Mapping[str, FolderResult]) -> str:
    """The collection's ``report.html``; ``folders`` maps folder names to their results (for the significance column)."""
    systems = systems_by_average(result)
    sections = [
        Section("averages", "Averages", _averages(result)),
        Section("per-folder", "Leaderboard per folder", _leaderboard(result, folders)),
        Section("reranking", "Reranking", _reranking(result)),
        Section("subtypes", "Text-to-code query subtypes", _subtypes(result)),
        Section("languages", "Per query language", _languages(result)),
        Section("composition", "Dataset composition", _composition(result)),
        Section("reports", "Folder reports", _links(result)),
    ]
    figures: dict[str, Any] = {}
    if result.average:
        figures["averages"] = charts.averages_chart(result, [s for s in systems if s in result.average])
    if result.folders:
        figures["folders"] = charts.folder_chart(result, systems)
    subtypes, rows = subtype_rows(result)
    if len(subtypes) >= 2:
        figures["subtypes"] = charts.subtype_chart(rows, subtypes)
    return render_page("ExecIR collection report", _intro(result), sections, figures)
