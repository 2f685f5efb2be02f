"""Render ``report.md``: leaderboard with CIs, significance, gap analyses, ablation, failures."""

from __future__ import annotations

import difflib
from typing import Any

from execir.dataset import Dataset
from execir.report.tables import ci, markdown_table, pct, pvalue

WORST_FAILURES = 5
TIE_POLICY_TEXT = {
    "pessimistic": "among equal scores a correct document ranks after every wrong one",
    "trec": "equal scores ordered by document id, descending, as trec_eval does",
}


def render_report(
    results: dict[str, Any], per_query: list[dict[str, Any]], dataset: Dataset, figures: dict[str, str] | None = None
) -> str:
    """The whole markdown report; ``figures`` maps figure names to relative PNG paths."""
    figures = figures or {}
    sections = [
        _title(results),
        "## Leaderboard\n\n" + leaderboard_markdown(results) + _figure(figures, "leaderboard", "leaderboard with 95% CIs"),
        "## Pairwise significance (exec@1)\n\n" + _comparisons(results),
        "## Where retrievers fall for near clones\n\n" + _gap_table(results),
        "## Pool-density ablation\n\n" + _ablation(results) + _figure(figures, "density", "pool-density ablation"),
        "## Mutation operators that fool each system\n\n" + _operators(results) + _figure(figures, "operators", "per-operator outrank rates with n"),
        "## Worst near-clone failures\n\n" + _failures(results, per_query, dataset),
        "## Where the time went\n\n" + _timing(results),
    ]
    return "\n\n".join(sections) + "\n"


def _figure(figures: dict[str, str], name: str, alt: str) -> str:
    return f"\n\n![{alt}]({figures[name]})" if name in figures else ""


def _title(results: dict[str, Any]) -> str:
    data = results["dataset"]
    source = (data.get("source") or {}).get("name", "?")
    manifest = data["manifest_sha256"][:16] if data["manifest_sha256"] else "none"
    return (
        f"# ExecIR report: {source}\n\n"
        f"{data['queries']} queries, {data['documents']} documents (canonical solutions and execution-verified "
        f"failing near clones). Tie policy: **{results['tie_policy']}** ({TIE_POLICY_TEXT[results['tie_policy']]}). "
        f"95% CIs from a seeded query bootstrap. Toolkit {results['toolkit']['version']}, "
        f"dataset manifest sha256 `{manifest}`."
    )


def system_order(results: dict[str, Any]) -> list[str]:
    """The one order of systems in every table and figure: best exec@1 first, then by name."""
    return sorted(results["systems"], key=lambda name: (-results["systems"][name]["metrics"]["exec@1"]["mean"], name))


def outranks_phrase(ties: str) -> str:
    """How "a mutant outranks the canonical" reads under a tie policy (pessimistic: ties count)."""
    return "ranks above or tied with" if ties == "pessimistic" else "ranks above"


def leaderboard_rows(results: dict[str, Any]) -> list[list[str]]:
    """Rows of the leaderboard, in :func:`system_order`."""
    systems = [(name, results["systems"][name]) for name in system_order(results)]
    return [
        [
            name,
            ci(s["metrics"]["exec@1"]),
            ci(s["metrics"]["exec@10"]),
            ci(s["metrics"]["ndcg@10"]),
            f"{s['metrics']['mrr@10']['mean']:.3f}",
            str(s["encoded_texts"]),
        ]
        for name, s in systems
    ]


LEADERBOARD_HEADER = ["system", "exec@1", "exec@10", "nDCG@10", "MRR@10", "texts encoded"]


def leaderboard_markdown(results: dict[str, Any]) -> str:
    """The leaderboard as a markdown table."""
    return markdown_table(LEADERBOARD_HEADER, leaderboard_rows(results))


def _comparisons(results: dict[str, Any]) -> str:
    rows = []
    for c in results["comparisons"]:
        rows.append(
            [
                f"{c['a']} vs {c['b']}",
                f"{c['mean_diff']:+.3f} [{c['ci_low']:+.3f}, {c['ci_high']:+.3f}]",
                f"{c['win']}/{c['tie']}/{c['loss']}",
                f"{c['b10']}/{c['b01']}",
                pvalue(c["p_value"]),
                pvalue(c["p_holm"]),
            ]
        )
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


def gap_rows(results: dict[str, Any]) -> list[list[str]]:
    """One row of gap analyses per system (shares as percentages, with their denominators)."""
    rows = []
    for name in system_order(results):
        s = results["systems"][name]
        a = s["analyses"]
        shares = (a["paired_mutant_share_of_misses"], a["canonical_below_distractor"], a["intrusion@10"])
        rows.append([name, *(f"{pct(x['share'])} of {x['denominator']}" for x in shares), pct(s["tie_rate"])])
    return rows


def _gap_table(results: dict[str, Any]) -> str:
    note = (
        f"Tie policy {results['tie_policy']}: a mutant with the same score as the canonical "
        + ("counts as ranked above it." if results["tie_policy"] == "pessimistic" else "is ordered by document id, as trec_eval does.")
    )
    return note + "\n\n" + markdown_table(gap_header(results["tie_policy"]), gap_rows(results))


def _ablation(results: dict[str, Any]) -> str:
    names = system_order(results)
    levels = list(next(iter(results["systems"].values()))["density_ablation"]) if names else []
    rows = []
    for level in levels:
        row = [level]
        for name in names:
            values = results["systems"][name]["density_ablation"][level]
            row.append(f"{values['exec@1']:.3f} / {values['ndcg@10']:.3f}")
        rows.append(row)
    note = "exec@1 / nDCG@10 with at most N verified mutants per task in the pool (nested subsets, same scores).\n\n"
    return note + markdown_table(["mutants per task"] + names, rows)


def _operators(results: dict[str, Any]) -> str:
    names = system_order(results)
    operators = sorted({op for s in results["systems"].values() for op in s["analyses"].get("per_operator", {})})
    tables = [results["systems"][name]["analyses"]["per_operator"] for name in names]
    operators.sort(key=lambda op: -max(t[op]["rate"] if op in t else -1.0 for t in tables))  # worst first
    rows = [[op, *(f"{pct(t[op]['rate'])} of {t[op]['n']}" if op in t else "n/a" for t in tables)] for op in operators]
    note = (
        f"Share of the n queries with a mutant of that operator in their pool where that mutant "
        f"{outranks_phrase(results['tie_policy'])} the canonical solution (cells: share of n).\n\n"
    )
    return note + markdown_table(["operator"] + names, rows)


def _failures(results: dict[str, Any], per_query: list[dict[str, Any]], dataset: Dataset) -> str:
    by_system: dict[str, list[tuple[int, float, dict[str, Any], dict[str, Any]]]] = {}
    for row in per_query:
        top = row["top10"][0] if row["top10"] else None
        if not top or top["kind"] != "mutant" or top["task_id"] != row["task_id"] or row["canonical_score"] is None:
            continue
        rank = row["canonical_rank"] or 10**9
        by_system.setdefault(row["system"], []).append((rank, top["score"] - row["canonical_score"], row, top))
    if not by_system:
        return "No query had its own mutant ranked first."
    blocks = [
        f"Per system, the {WORST_FAILURES} queries whose own failing mutant ranked first and whose canonical "
        "fell furthest (then by score margin)."
    ]
    for system in [name for name in system_order(results) if name in by_system]:
        cases = by_system[system]
        cases.sort(key=lambda c: (-c[0], -c[1], c[2]["query_id"]))
        blocks += [_failure_block(system, row, top, margin, dataset) for _, margin, row, top in cases[:WORST_FAILURES]]
    return "\n\n".join(blocks)


def _failure_block(system: str, row: dict[str, Any], top: dict[str, Any], margin: float, dataset: Dataset) -> str:
    canonical_id = next(d for d, g in dataset.qrels[row["query_id"]].items() if g >= 2)
    diff = difflib.unified_diff(
        dataset.corpus[canonical_id].splitlines(), dataset.corpus[top["doc_id"]].splitlines(),
        "canonical (passes)", f"mutant {top['operator']} (fails)", lineterm="", n=1,
    )
    return (
        f"### {system}: {row['query_id']} (canonical at rank {row['canonical_rank']}, "
        f"mutant ahead by {margin:.4f})\n\n> {dataset.queries[row['query_id']][:300]}\n\n```diff\n" + "\n".join(diff) + "\n```"
    )


def _timing(results: dict[str, Any]) -> str:
    rows = [[stage, f"{seconds:.2f}"] for stage, seconds in results["timing_seconds"].items()]
    return markdown_table(["stage", "seconds"], rows)
