"""The collection report: CoREB's averages, a leaderboard per task with CIs, the composition of
every folder, the search-query collapse and the per-language breakdown (pure, from typed results)."""

from __future__ import annotations

from execir.report.expansion import COLLECTION_EXPANSION_HEADER, collection_expansion_markdown, collection_expansion_rows
from execir.report.tables import ci, markdown_table, pct, text_table
from execir.results import CollectionResult, Estimate, FolderSummary

DIRECTIONS = ("t2c", "c2t", "c2c")


def _est(value: Estimate | None) -> str:
    return "n/a" if value is None else ci(value)


def _systems(result: CollectionResult) -> list[str]:
    """Systems, best overall average first."""
    return sorted(result.average, key=lambda s: (-result.average[s].get("overall", 0.0), s))


def average_rows(result: CollectionResult) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the averages table."""
    present = [d for d in DIRECTIONS if any(d in v for v in result.average.values())]
    rows = [
        [s, *(f"{result.average[s][d]:.3f}" if d in result.average[s] else "n/a" for d in present), f"{result.average[s]['overall']:.3f}"]
        for s in _systems(result)
    ]
    return ["system", *(f"{d} nDCG@10" for d in present), "overall"], rows


LEADERBOARD_HEADER = ["folder", "system", "exec@1 [95% CI]", "nDCG@10 [95% CI]", "MRR@10", "intrusion@10", "CoREB intrusion@10"]


def leaderboard_rows(folder: FolderSummary) -> list[list[str]]:
    """One row per system on a folder, best nDCG@10 first."""
    scores = sorted(folder.scores, key=lambda s: (-(s.metrics["ndcg@10"].mean if "ndcg@10" in s.metrics else 0.0), s.system))
    return [
        [
            folder.name,
            s.system,
            _est(s.metrics.get("exec@1")),
            _est(s.metrics.get("ndcg@10")),
            f"{s.metrics['mrr@10'].mean:.3f}" if "mrr@10" in s.metrics else "n/a",
            pct(s.intrusion),
            pct(s.coreb_intrusion),
        ]
        for s in scores
    ]


COMPOSITION_HEADER = [
    "folder",
    "task",
    "language",
    "queries",
    "documents",
    "correct / query",
    "hard negatives / query",
    "median query tokens",
    "documents by kind",
]


def composition_rows(result: CollectionResult) -> list[list[str]]:
    """What each folder holds (queries of the evaluated split)."""
    rows = []
    for f in result.folders:
        c = f.composition
        kinds = ", ".join(f"{k} {n}" for k, n in c.documents_by_kind.items())
        rows.append(
            [
                f.name,
                f.task,
                f.language,
                str(c.queries),
                str(c.documents),
                f"{c.positives_per_query:.2f}",
                f"{c.hard_negatives_per_query:.2f}",
                f"{c.median_query_tokens:g}",
                kinds,
            ]
        )
    return rows


def _search_collapse(result: CollectionResult) -> str:
    """nDCG@10 of each text-to-code subtype side by side, per system and language."""
    t2c = [f for f in result.folders if f.direction == "t2c"]
    subtypes = [s for s in ("description", "full", "search") if any(f.subtype == s for f in t2c)]
    if len(subtypes) < 2:
        return "Fewer than two text-to-code subtypes were evaluated."
    rows = []
    for language in sorted({f.language for f in t2c}):
        systems = sorted({s.system for f in t2c if f.language == language for s in f.scores})
        for system in systems:
            cells = []
            for subtype in subtypes:
                folder = next((f for f in t2c if f.language == language and f.subtype == subtype), None)
                score = next((s for s in folder.scores if s.system == system), None) if folder else None
                cells.append(f"{score.metrics['ndcg@10'].mean:.3f}" if score and "ndcg@10" in score.metrics else "n/a")
            rows.append([language, system, *cells])
    note = (
        "nDCG@10 per text-to-code subtype. CoREB found short keyword queries (search) collapse every model to "
        "0.000-0.015; here the search query is derived mechanically from the description and the function name.\n\n"
    )
    return note + markdown_table(["language", "system", *subtypes], rows)


def _languages(result: CollectionResult) -> str:
    rows = []
    for f in result.folders:
        for s in f.scores:
            if len(s.by_language) < 2:
                continue
            for language, values in s.by_language.items():
                rows.append([f.name, s.system, language, f"{values['n']:g}", f"{values['exec@1']:.3f}", f"{values['ndcg@10']:.3f}"])
    if not rows:
        return "Every folder's queries are in one language."
    return markdown_table(["folder", "system", "query language", "queries", "exec@1", "nDCG@10"], rows)


RERANK_HEADER = ["folder", "reranked system", "first stage", "Δ exec@1 [95% CI]", "Δ nDCG@10 [95% CI]"]


def _signed(value: Estimate | None) -> str:
    return "n/a" if value is None else f"{value.mean:+.3f} [{value.low:+.3f}, {value.high:+.3f}]"


def rerank_rows(result: CollectionResult) -> list[list[str]]:
    """Per folder and reranked system: its deltas against its first stage (reranked minus first stage)."""
    return [
        [f.name, s.system, s.first_stage, _signed(s.deltas.get("exec@1")), _signed(s.deltas.get("ndcg@10"))]
        for f in result.folders
        for s in f.scores
        if s.first_stage is not None
    ]


def _reranking(result: CollectionResult) -> str:
    rows = rerank_rows(result)
    if not rows:
        return "No reranker was evaluated."
    return (
        "Each reranked system against its own first stage on the same folder: mean difference (reranked minus first stage) "
        "with a paired bootstrap 95% CI.\n\n" + markdown_table(RERANK_HEADER, rows)
    )


def render_collection(result: CollectionResult) -> str:
    """The whole markdown report of a collection."""
    header, rows = average_rows(result)
    leaderboard = [row for f in result.folders for row in leaderboard_rows(f)]
    links = "\n".join(f"- [{f.name}]({f.report})" for f in result.folders)
    sections = [
        f"# ExecIR collection report\n\n{len(result.folders)} folders, split **{result.split}**, tie policy **{result.ties}**. "
        "Every relevance label was decided by execution (or a recorded mechanical edit for text). 95% CIs from a seeded query bootstrap.",
        "## Averages (as CoREB reports them)\n\nMean nDCG@10 over each direction's folders, then over the directions.\n\n" + markdown_table(header, rows),
        "## Leaderboard per task\n\nintrusion@10: a hard negative ranked above the first correct document within the top 10 (or with none "
        "there); CoREB intrusion@10: a hard negative ranked above a correct document, both in the top 10.\n\n"
        + markdown_table(LEADERBOARD_HEADER, leaderboard),
        "## Reranking\n\n" + _reranking(result),
        *(["## Query expansion\n\n" + expansion] if (expansion := collection_expansion_markdown(result)) else []),
        "## Dataset composition\n\n" + markdown_table(COMPOSITION_HEADER, composition_rows(result)),
        "## Text-to-code query subtypes\n\n" + _search_collapse(result),
        "## Per query language\n\n" + _languages(result),
        "## Folder reports\n\n" + links,
        f"Evaluated in {result.seconds:.1f} s.",
    ]
    return "\n\n".join(sections) + "\n"


def format_collection(result: CollectionResult) -> str:
    """Averages and the per-task leaderboard as terminal tables."""
    header, rows = average_rows(result)
    leaderboard = [row for f in result.folders for row in leaderboard_rows(f)]
    tables = [text_table(header, rows), text_table(LEADERBOARD_HEADER, leaderboard)]
    reranked = rerank_rows(result)
    if reranked:
        tables.append(text_table(RERANK_HEADER, reranked))
    expanded = collection_expansion_rows(result)
    if expanded:
        tables.append(text_table(COLLECTION_EXPANSION_HEADER, expanded))
    return "\n\n".join(tables)
