"""The leaderboard, gap analyses, ablation and comparisons as terminal text (pure)."""

from __future__ import annotations

from typing import Any

from execir.report.markdown import LEADERBOARD_HEADER, gap_header, gap_rows, leaderboard_rows, outranks_phrase, system_order
from execir.report.tables import pct, text_table


def format_leaderboard(results: dict[str, Any]) -> str:
    """Leaderboard and gap analyses as terminal tables."""
    lines = [text_table(LEADERBOARD_HEADER, leaderboard_rows(results)), ""]
    lines.append(text_table(gap_header(results["tie_policy"]), gap_rows(results)))
    lines += ["", _ablation_line(results), *_blind_operator_lines(results), ""]
    for c in results["comparisons"]:
        lines.append(
            f"{c['a']} vs {c['b']}: exec@1 diff {c['mean_diff']:+.3f} [{c['ci_low']:+.3f}, {c['ci_high']:+.3f}], "
            f"W/T/L {c['win']}/{c['tie']}/{c['loss']}, exact McNemar p={c['p_value']:.3g} (Holm {c['p_holm']:.3g})"
        )
    return "\n".join(lines)


def _ablation_line(results: dict[str, Any]) -> str:
    parts = []
    levels: list[str] = []
    for name in system_order(results):
        table = results["systems"][name]["density_ablation"]
        levels = sorted(table, key=int)
        parts.append(f"{name} " + " -> ".join(f"{table[level]['exec@1']:.2f}" for level in levels))
    span = f"{levels[0]}..{levels[-1]}" if levels else "0"
    return f"exec@1 with {span} mutants per task in the pool: " + "; ".join(parts)


def _blind_operators(system: dict[str, Any], top: int = 3, min_n: int = 5) -> list[str]:
    table = system["analyses"].get("per_operator", {})
    ranked = sorted((-v["rate"], op) for op, v in table.items() if v["n"] >= min_n)
    return [f"{op} {pct(-rate)} (n={table[op]['n']})" for rate, op in ranked[:top]]


def _blind_operator_lines(results: dict[str, Any]) -> list[str]:
    return [
        f"operators whose mutant {outranks_phrase(results['tie_policy'])} the canonical most often for {name}: "
        + (", ".join(_blind_operators(results["systems"][name])) or "none with n >= 5")
        for name in system_order(results)
    ]
