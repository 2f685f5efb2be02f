"""Plain-text and markdown table helpers (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from execir.results import Estimate


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub-flavoured markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def text_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A fixed-width table for terminals."""
    cells = [list(map(str, header))] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    out = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    out.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(out)


def pct(value: float | None) -> str:
    """A share as a percentage with one decimal."""
    return "n/a" if value is None else f"{100 * value:.1f}%"


def ci(estimate: Estimate) -> str:
    """``mean [low, high]`` with three decimals."""
    return f"{estimate.mean:.3f} [{estimate.low:.3f}, {estimate.high:.3f}]"


def pvalue(p: float) -> str:
    """A p-value printed compactly."""
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"
