"""The query-expansion tables: each ``<retriever>+<expansion>`` beside its unexpanded first stage
(pure, from typed results), for a folder's report and for the collection's."""

from __future__ import annotations

from execir.report.tables import markdown_table, pvalue
from execir.results import CollectionResult, Estimate, FolderResult, SystemSummary

EXPANSION_HEADER = [
    "expanded system",
    "first stage",
    "exec@1 first → expanded",
    "Δ exec@1 [95% CI]",
    "Δ exec@10 [95% CI]",
    "Δ nDCG@10 [95% CI]",
    "wins/losses",
    "exact McNemar p",
    "generator calls",
    "expand s/query",
]
COLLECTION_EXPANSION_HEADER = ["folder", "subtype", "expanded system", "first stage", "Δ exec@1 [95% CI]", "Δ nDCG@10 [95% CI]"]
NOTE = (
    "Each expanded system searches the same corpus as its first stage with an expanded query (RM3, Rocchio, HyDE or "
    "Query2doc). Δ: expanded minus first stage, mean over queries with a paired bootstrap 95% CI; wins/losses: queries "
    "only the expanded / only the first stage solves at rank 1 (exact McNemar test). Generator calls: requests made in "
    "this run (0 when every generated text came from the cache).\n\n"
)


def _signed(value: Estimate | None) -> str:
    return "n/a" if value is None else f"{value.mean:+.3f} [{value.low:+.3f}, {value.high:+.3f}]"


def expanded_systems(result: FolderResult) -> list[SystemSummary]:
    """The expanded systems in configured order."""
    return [s for s in result.systems if s.expansion is not None]


def expansion_rows(result: FolderResult) -> list[list[str]]:
    """One row per expanded system: first stage vs expanded exec@1, deltas, McNemar, generator calls, time."""
    rows = []
    for s in expanded_systems(result):
        e = s.expansion
        assert e is not None
        first = next((f for f in result.systems if f.name == e.first_stage), None)
        before = f"{first.metrics['exec@1'].mean:.3f}" if first is not None else "n/a"
        rows.append(
            [
                s.name,
                e.first_stage,
                f"{before} → {s.metrics['exec@1'].mean:.3f}",
                *(_signed(e.deltas.get(m)) for m in ("exec@1", "exec@10", "ndcg@10")),
                f"{e.mcnemar.wins}/{e.mcnemar.losses}",
                pvalue(e.mcnemar.p_value),
                str(e.generator_calls),
                f"{e.seconds_per_query:.4f}",
            ]
        )
    return rows


def expansion_markdown(result: FolderResult) -> str:
    """The folder report's query-expansion section ('' when no expansion was asked for)."""
    notes = "".join(f"\n- {n}" for n in result.expansion_notes)
    if not expanded_systems(result):
        return ("No query expansion was applied on this folder:" + notes) if notes else ""
    return NOTE + markdown_table(EXPANSION_HEADER, expansion_rows(result)) + (f"\n\nNot applied:{notes}" if notes else "")


def collection_expansion_rows(result: CollectionResult) -> list[list[str]]:
    """Per folder (hence per subtype) and expanded system: its deltas against its unexpanded first stage."""
    return [
        [f.name, f.subtype or f.direction, s.system, s.expanded_from, _signed(s.deltas.get("exec@1")), _signed(s.deltas.get("ndcg@10"))]
        for f in result.folders
        for s in f.scores
        if s.expanded_from is not None
    ]


def collection_expansion_markdown(result: CollectionResult) -> str:
    """The collection report's query-expansion section ('' without expanded systems)."""
    rows = collection_expansion_rows(result)
    if not rows:
        return ""
    return (
        "Each expanded system against its unexpanded first stage on the same folder: mean difference (expanded minus first "
        "stage) with a paired bootstrap 95% CI. Expansion applies to text-to-code search and description folders only, "
        "so expanded systems are left out of the averages above.\n\n" + markdown_table(COLLECTION_EXPANSION_HEADER, rows)
    )
