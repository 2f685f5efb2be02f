"""The leaderboard, gap analyses, ablation and comparisons as terminal text (pure, from typed results)."""

from __future__ import annotations

from execir.report.expansion import EXPANSION_HEADER, expansion_rows
from execir.report.indexes import INDEX_HEADER, index_rows, indexed_systems
from execir.report.markdown import (
    ACTED_HEADER,
    RERANK_HEADER,
    acted_on_rows,
    gap_header,
    gap_rows,
    leaderboard_header,
    leaderboard_rows,
    outranks_phrase,
    rerank_rows,
    rerank_stats_rows,
    system_order,
)
from execir.report.tables import pct, text_table
from execir.results import FolderResult, SystemSummary


def format_leaderboard(result: FolderResult) -> str:
    """Leaderboard and gap analyses as terminal tables."""
    lines = [text_table(leaderboard_header(result), leaderboard_rows(result)), ""]
    if any(s.rerank is not None for s in result.systems):
        acted = acted_on_rows(result)
        lines += [
            text_table(RERANK_HEADER, rerank_rows(result)),
            "",
            *([text_table(ACTED_HEADER, acted), ""] if acted else []),
            text_table(["reranked system", "rerank spec", "queries", "pairs", "seconds", "reranker counts"], rerank_stats_rows(result)),
            "",
        ]
    if any(s.expansion is not None for s in result.systems):
        lines += [text_table(EXPANSION_HEADER, expansion_rows(result)), ""]
    if indexed_systems(result):
        lines += [text_table(INDEX_HEADER, index_rows(result)), ""]
    lines.append(text_table(gap_header(result.tie_policy), gap_rows(result)))
    lines += ["", _ablation_line(result), *_blind_operator_lines(result), ""]
    for c in result.comparisons:
        lines.append(
            f"{c.a} vs {c.b}: exec@1 diff {c.mean_diff:+.3f} [{c.ci_low:+.3f}, {c.ci_high:+.3f}], "
            f"W/T/L {c.win}/{c.tie}/{c.loss}, exact McNemar p={c.p_value:.3g} (Holm {c.p_holm:.3g})"
        )
    return "\n".join(lines)


def _ablation_line(result: FolderResult) -> str:
    parts = []
    levels: list[int] = []
    for s in system_order(result):
        levels = sorted(s.density_ablation)
        parts.append(f"{s.name} " + " -> ".join(f"{s.density_ablation[level]['exec@1']:.2f}" for level in levels))
    span = f"{levels[0]}..{levels[-1]}" if levels else "0"
    return f"exec@1 with {span} mutants per task in the pool: " + "; ".join(parts)


def _blind_operators(system: SystemSummary, top: int = 3, min_n: int = 5) -> list[str]:
    table = system.analyses.per_operator
    ranked = sorted((-v.rate, op) for op, v in table.items() if v.n >= min_n)
    return [f"{op} {pct(-rate)} (n={table[op].n})" for rate, op in ranked[:top]]


def _blind_operator_lines(result: FolderResult) -> list[str]:
    return [
        f"operators whose mutant {outranks_phrase(result.tie_policy)} the canonical most often for {s.name}: "
        + (", ".join(_blind_operators(s)) or "none with n >= 5")
        for s in system_order(result)
    ]
