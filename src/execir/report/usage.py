"""The endpoint-cost table of a folder report: what each system's embedding or rerank API calls
cost in this folder (pure, from the ``usage`` blocks of typed results)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from execir.report.tables import markdown_table
from execir.results import FolderResult

USAGE_HEADER = ["system", "requests", "inputs", "tokens (estimated)", "retries", "cached texts", "search units", "estimated cost (USD)"]
NOTE = (
    "Calls this folder made to hosted or self-hosted endpoints. Tokens are the provider's own counts where it reports them; "
    "the part in brackets was estimated (one token per 3 bytes). Cached texts (or pairs) were served from ExecIR's cache and "
    "not paid for. Cost: tokens (or Cohere search units) times the price table's rate; n/a where no price is known.\n\n"
)


def _blocks(name: str, usage: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """``usage`` as (row name, counts): a hybrid's is keyed by part."""
    if "requests" in usage:
        return [(name, usage)]
    return [(f"{name} [{part}]", counts) for part, counts in usage.items() if isinstance(counts, Mapping)]


def _count(counts: Mapping[str, Any], key: str) -> str:
    value = counts.get(key)
    return "-" if value is None else f"{int(value):,}"


def _cost(counts: Mapping[str, Any]) -> str:
    value = counts.get("estimated_cost_usd")
    return "n/a" if value is None else f"{float(value):.6f}"


def usage_rows(result: FolderResult) -> list[list[str]]:
    """One row per system (per part of a hybrid) that called an endpoint in this folder."""
    rows = []
    for system in result.systems:
        if not system.usage:
            continue
        for name, counts in _blocks(system.name, system.usage):
            tokens = f"{_count(counts, 'tokens')} ({_count(counts, 'estimated_tokens')})"
            rows.append(
                [
                    name,
                    _count(counts, "requests"),
                    _count(counts, "inputs"),
                    tokens,
                    _count(counts, "retries"),
                    _count(counts, "cached_texts"),
                    _count(counts, "search_units"),
                    _cost(counts),
                ]
            )
    return rows


def usage_markdown(result: FolderResult) -> str:
    """The section body; empty when no system called an endpoint."""
    rows = usage_rows(result)
    if not rows:
        return ""
    return NOTE + markdown_table(USAGE_HEADER, rows)
