"""Render ``report.md``: leaderboard with CIs, significance, gap analyses, ablation, failures (pure,
from typed results)."""

from __future__ import annotations

import difflib

from execir.dataset import Dataset
from execir.report.expansion import expansion_markdown
from execir.report.indexes import indexed_systems, indexes_markdown
from execir.report.tables import ci, markdown_table, pct, pvalue
from execir.report.usage import usage_markdown
from execir.results import FolderResult, QueryRecord, RankedDoc, SystemSummary

WORST_FAILURES = 5
TIE_POLICY_TEXT = {
    "pessimistic": "among equal scores a correct document ranks after every wrong one",
    "trec": "equal scores ordered by document id, descending, as trec_eval does",
}


def render_report(result: FolderResult, per_query: list[QueryRecord], dataset: Dataset, figures: dict[str, str] | None = None) -> str:
    """The whole markdown report; ``figures`` maps figure names to relative PNG paths."""
    figures = figures or {}
    sections = [
        _title(result),
        "## Leaderboard\n\n" + leaderboard_markdown(result) + _figure(figures, "leaderboard", "leaderboard with 95% CIs"),
        "## Reranking\n\n" + reranking_markdown(result),
        *(["## Query expansion\n\n" + expansion] if (expansion := expansion_markdown(result)) else []),
        *(["## Vector indexes against exact search\n\n" + indexes_markdown(result)] if indexed_systems(result) else []),
        *(["## What the endpoints cost\n\n" + usage] if (usage := usage_markdown(result)) else []),
        "## Pairwise significance (exec@1)\n\n" + _comparisons(result),
        "## Where retrievers fall for near clones\n\n" + _gap_table(result),
        "## Pool-density ablation\n\n" + _ablation(result) + _figure(figures, "density", "pool-density ablation"),
        "## Mutation operators that fool each system\n\n" + _operators(result) + _figure(figures, "operators", "per-operator outrank rates with n"),
        "## Worst near-clone failures\n\n" + _failures(result, per_query, dataset),
        "## Where the time went\n\n" + _timing(result),
    ]
    return "\n\n".join(sections) + "\n"


def _figure(figures: dict[str, str], name: str, alt: str) -> str:
    return f"\n\n![{alt}]({figures[name]})" if name in figures else ""


def _title(result: FolderResult) -> str:
    data = result.dataset
    manifest = data.manifest_sha256[:16] if data.manifest_sha256 else "none"
    depth = result.config.get("depth")
    depth_text = f"Each retriever's top {depth} documents per query are scored (a document beyond the depth is unranked). " if depth is not None else ""
    return (
        f"# ExecIR report: {data.source_name}\n\n"
        f"{data.queries} queries, {data.documents} documents (canonical solutions and execution-verified "
        f"failing near clones). {depth_text}Tie policy: **{result.tie_policy}** ({TIE_POLICY_TEXT[result.tie_policy]}). "
        f"95% CIs from a seeded query bootstrap. Toolkit {result.toolkit_version}, "
        f"dataset manifest sha256 `{manifest}`."
    )


def system_order(result: FolderResult) -> list[SystemSummary]:
    """The one order of systems in every table and figure: best exec@1 first, then by name."""
    return sorted(result.systems, key=lambda s: (-s.metrics["exec@1"].mean, s.name))


def outranks_phrase(ties: str) -> str:
    """How "a mutant outranks the canonical" reads under a tie policy (pessimistic: ties count)."""
    return "ranks above or tied with" if ties == "pessimistic" else "ranks above"


DEFAULT_DISPLAY = ("exec@1", "exec@10", "ndcg@10", "mrr@10")
"""The leaderboard's measures when the evaluation chose none (``--metrics``)."""
_LABELS = {"ndcg": "nDCG", "mrr": "MRR", "map": "MAP", "recall": "recall", "exec": "exec", "p": "P"}


def displayed_measures(result: FolderResult) -> list[str]:
    """The leaderboard's measures: the evaluation's chosen ones that were computed, else the default."""
    chosen = result.config.get("display_measures") or DEFAULT_DISPLAY
    return [m for m in chosen if all(m in s.metrics for s in result.systems)]


def measure_label(measure: str) -> str:
    """``ndcg@10`` as ``nDCG@10``, ``mrr@10`` as ``MRR@10``."""
    name, sep, k = measure.partition("@")
    return f"{_LABELS.get(name, name)}{sep}{k}"


def _cell(summary: SystemSummary, measure: str) -> str:
    """exec and nDCG with their CI, the others as a mean."""
    estimate = summary.metrics[measure]
    return ci(estimate) if measure.startswith(("exec", "ndcg")) else f"{estimate.mean:.3f}"


def leaderboard_header(result: FolderResult) -> list[str]:
    """Column names of the leaderboard."""
    return ["system", *(measure_label(m) for m in displayed_measures(result)), "texts encoded"]


def leaderboard_rows(result: FolderResult) -> list[list[str]]:
    """Rows of the leaderboard, in :func:`system_order`."""
    measures = displayed_measures(result)
    return [[s.name, *(_cell(s, m) for m in measures), str(s.encoded_texts)] for s in system_order(result)]


LEADERBOARD_HEADER = ["system", "exec@1", "exec@10", "nDCG@10", "MRR@10", "texts encoded"]
"""The leaderboard's columns with the default measures."""


def leaderboard_markdown(result: FolderResult) -> str:
    """The leaderboard as a markdown table."""
    return markdown_table(leaderboard_header(result), leaderboard_rows(result))


RERANK_HEADER = [
    "reranked system",
    "first stage",
    "exec@1 first → reranked",
    "Δ exec@1 [95% CI]",
    "Δ exec@10 [95% CI]",
    "Δ nDCG@10 [95% CI]",
    "wins/losses",
    "exact McNemar p",
    "rerank s/query",
]


def _delta(summary: SystemSummary, measure: str) -> str:
    assert summary.rerank is not None
    d = summary.rerank.deltas.get(measure)
    return "n/a" if d is None else f"{d.mean:+.3f} [{d.low:+.3f}, {d.high:+.3f}]"


def reranked_systems(result: FolderResult) -> list[SystemSummary]:
    """The reranked systems, grouped by first stage in :func:`system_order`, then by their own order."""
    order = {s.name: i for i, s in enumerate(system_order(result))}
    reranked = [s for s in result.systems if s.rerank is not None]
    return sorted(reranked, key=lambda s: (order.get(s.rerank.first_stage, len(order)) if s.rerank else 0, order[s.name]))


def rerank_rows(result: FolderResult) -> list[list[str]]:
    """One row per reranked system: first stage vs reranked exec@1, deltas, McNemar, time per query."""
    rows = []
    for s in reranked_systems(result):
        r = s.rerank
        assert r is not None
        first = next((f for f in result.systems if f.name == r.first_stage), None)
        before = f"{first.metrics['exec@1'].mean:.3f}" if first is not None else "n/a"
        rows.append(
            [
                s.name,
                r.first_stage,
                f"{before} → {s.metrics['exec@1'].mean:.3f}",
                _delta(s, "exec@1"),
                _delta(s, "exec@10"),
                _delta(s, "ndcg@10"),
                f"{r.mcnemar.wins}/{r.mcnemar.losses}",
                pvalue(r.mcnemar.p_value),
                f"{r.seconds_per_query:.4f}",
            ]
        )
    return rows


def rerank_stats_rows(result: FolderResult) -> list[list[str]]:
    """One row per reranked system: what its reranker did (queries, pairs, seconds, extra counts)."""
    rows = []
    for s in reranked_systems(result):
        r = s.rerank
        assert r is not None
        extra = ", ".join(f"{k} {v:g}" for k, v in sorted(r.extra.items())) or "none"
        rows.append([s.name, r.spec, str(r.queries), str(r.pairs), f"{r.seconds:.2f}", extra])
    return rows


ACTED_HEADER = ["reranked system", "queries acted on", "exec@1 first → reranked", "exec@10 first → reranked", "nDCG@10 first → reranked"]


def acted_on_rows(result: FolderResult) -> list[list[str]]:
    """One row per reranked system whose reranker reports the queries it had a signal for (``exec``:
    the queries whose text carries examples): the measures on those queries, first stage → reranked."""
    rows = []
    for s in reranked_systems(result):
        a = s.rerank.acted_on if s.rerank else None
        if a is None:
            continue
        cells = [f"{a.first.get(m, 0.0):.3f} → {a.reranked.get(m, 0.0):.3f}" for m in ("exec@1", "exec@10", "ndcg@10")]
        rows.append([s.name, f"{a.queries} of {s.queries}", *cells])
    return rows


def reranking_markdown(result: FolderResult) -> str:
    """The reranking section: each reranked system beside its first stage, then its reranker's counts."""
    if not any(s.rerank is not None for s in result.systems):
        return "No reranker was evaluated."
    note = (
        "Each reranker reorders its first stage's candidates (the same documents). Δ: reranked minus first stage, mean over "
        "queries with a paired bootstrap 95% CI; wins/losses: queries only the reranked / only the first stage solves at rank 1 "
        "(exact McNemar test).\n\n"
    )
    stats = markdown_table(["reranked system", "rerank spec", "queries", "pairs", "seconds", "reranker counts"], rerank_stats_rows(result))
    acted = acted_on_rows(result)
    acted_table = (
        ("\n\nOn the queries each reranker had a signal for (exec: the queries whose text carries examples):\n\n" + markdown_table(ACTED_HEADER, acted))
        if acted
        else ""
    )
    return note + markdown_table(RERANK_HEADER, rerank_rows(result)) + acted_table + "\n\n" + stats


def _comparisons(result: FolderResult) -> str:
    rows = [
        [
            f"{c.a} vs {c.b}",
            f"{c.mean_diff:+.3f} [{c.ci_low:+.3f}, {c.ci_high:+.3f}]",
            f"{c.win}/{c.tie}/{c.loss}",
            f"{c.b10}/{c.b01}",
            pvalue(c.p_value),
            pvalue(c.p_holm),
        ]
        for c in result.comparisons
    ]
    if not rows:
        return "Only one system was evaluated."
    return markdown_table(["pair (a vs b)", "Δ exec@1 a-b [95% CI]", "win/tie/loss", "discordant a-only/b-only", "exact McNemar p", "Holm p"], rows)


def gap_header(ties: str) -> list[str]:
    """Column names of the gap table; where ties count against the canonical the names say so."""
    tied = " or tied with" if ties == "pessimistic" else ""
    return [
        "system",
        "rank-1 misses that are the paired mutant",
        f"a mutant above{tied} the canonical",
        f"intrusion@10 (a mutant above{tied} the first correct)",
        "canonical tied with a mutant",
    ]


def gap_rows(result: FolderResult) -> list[list[str]]:
    """One row of gap analyses per system (shares as percentages, with their denominators)."""
    rows = []
    for s in system_order(result):
        a = s.analyses
        shares = (a.paired_mutant_share_of_misses, a.canonical_below_distractor, a.intrusion)
        rows.append([s.name, *(f"{pct(x.share)} of {x.denominator}" for x in shares), pct(s.tie_rate)])
    return rows


def _gap_table(result: FolderResult) -> str:
    note = f"Tie policy {result.tie_policy}: a mutant with the same score as the canonical " + (
        "counts as ranked above it." if result.tie_policy == "pessimistic" else "is ordered by document id, as trec_eval does."
    )
    return note + "\n\n" + markdown_table(gap_header(result.tie_policy), gap_rows(result))


def _ablation(result: FolderResult) -> str:
    systems = system_order(result)
    levels = list(result.systems[0].density_ablation) if systems else []
    rows = [[str(level), *(f"{s.density_ablation[level]['exec@1']:.3f} / {s.density_ablation[level]['ndcg@10']:.3f}" for s in systems)] for level in levels]
    note = "exec@1 / nDCG@10 with at most N verified mutants per task in the pool (nested subsets, same scores).\n\n"
    return note + markdown_table(["mutants per task"] + [s.name for s in systems], rows)


def _operators(result: FolderResult) -> str:
    systems = system_order(result)
    tables = [s.analyses.per_operator for s in systems]
    operators = sorted({op for t in tables for op in t})
    operators.sort(key=lambda op: -max(t[op].rate if op in t else -1.0 for t in tables))  # worst first
    rows = [[op, *(f"{pct(t[op].rate)} of {t[op].n}" if op in t else "n/a" for t in tables)] for op in operators]
    note = (
        f"Share of the n queries with a mutant of that operator in their pool where that mutant "
        f"{outranks_phrase(result.tie_policy)} the canonical solution (cells: share of n).\n\n"
    )
    return note + markdown_table(["operator"] + [s.name for s in systems], rows)


def _own_mutant_first(record: QueryRecord) -> RankedDoc | None:
    """The query's top document when it is a mutant of the query's own task."""
    top = record.top10[0] if record.top10 else None
    if top is None or top.kind != "mutant" or top.task_id != record.task_id:
        return None
    return top


def _failures(result: FolderResult, per_query: list[QueryRecord], dataset: Dataset) -> str:
    by_system: dict[str, list[tuple[int, float, QueryRecord, RankedDoc]]] = {}
    for record in per_query:
        top = _own_mutant_first(record)
        if top is not None:
            margin = float("inf")  # beyond the depth (or unscored): worst
            if top.score is not None and record.canonical_score is not None:
                margin = top.score - record.canonical_score
            by_system.setdefault(record.system, []).append((record.canonical_rank or 10**9, margin, record, top))
    if not by_system:
        return "No query had its own mutant ranked first."
    blocks = [f"Per system, the {WORST_FAILURES} queries whose own failing mutant ranked first and whose canonical fell furthest (then by score margin)."]
    for system in [s.name for s in system_order(result) if s.name in by_system]:
        cases = sorted(by_system[system], key=lambda c: (-c[0], -c[1], c[2].query_id))
        blocks += [_failure_block(system, record, top, margin, dataset) for _, margin, record, top in cases[:WORST_FAILURES]]
    return "\n\n".join(blocks)


def _failure_block(system: str, record: QueryRecord, top: RankedDoc, margin: float, dataset: Dataset) -> str:
    canonical_id = next(d for d, g in dataset.qrels[record.query_id].items() if g >= 2)
    diff = difflib.unified_diff(
        dataset.corpus[canonical_id].splitlines(),
        dataset.corpus[top.doc_id].splitlines(),
        "canonical (passes)",
        f"mutant {top.operator} (fails)",
        lineterm="",
        n=1,
    )
    where = f"canonical at rank {record.canonical_rank}, mutant ahead by {margin:.4f}" if record.canonical_rank is not None else "canonical beyond the depth"
    return f"### {system}: {record.query_id} ({where})\n\n> {dataset.queries[record.query_id][:300]}\n\n```diff\n" + "\n".join(diff) + "\n```"


def _timing(result: FolderResult) -> str:
    return markdown_table(["stage", "seconds"], [[stage, f"{seconds:.2f}"] for stage, seconds in result.timing_seconds.items()])
