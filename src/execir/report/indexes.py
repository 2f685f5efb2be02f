"""The vector-index section of a folder report: each indexed system against exact search on its
own embeddings (pure, from typed results)."""

from __future__ import annotations

from execir.report.tables import markdown_table, pvalue
from execir.results import Estimate, FolderResult, SystemSummary

INDEX_HEADER = [
    "indexed system",
    "index",
    "Δ exec@1 [95% CI]",
    "Δ nDCG@10 [95% CI]",
    "wins/losses",
    "exact McNemar p",
    "recall of exact",
    "ms/query",
    "memory",
    "build s",
]


def _delta(estimate: Estimate | None) -> str:
    return "n/a" if estimate is None else f"{estimate.mean:+.3f} [{estimate.low:+.3f}, {estimate.high:+.3f}]"


def _bytes(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def indexed_systems(result: FolderResult) -> list[SystemSummary]:
    """The systems searched through a vector index, in configured order."""
    return [s for s in result.systems if s.index is not None]


def index_rows(result: FolderResult) -> list[list[str]]:
    """One row per indexed system: deltas against exact search, McNemar, recall of exact, cost."""
    rows = []
    for s in indexed_systems(result):
        x = s.index
        assert x is not None
        params = ",".join(f"{k}={v}" for k, v in sorted(x.params.items()))
        rows.append(
            [
                s.name,
                f"{x.kind}({params})" if params else x.kind,
                _delta(x.deltas.get("exec@1")),
                _delta(x.deltas.get("ndcg@10")),
                f"{x.mcnemar.wins}/{x.mcnemar.losses}",
                pvalue(x.mcnemar.p_value),
                f"{x.recall_of_exact:.3f}@{x.recall_k}",
                f"{x.ms_per_query:.3f}",
                _bytes(x.memory_bytes),
                f"{x.build_seconds:.2f}",
            ]
        )
    return rows


def indexes_markdown(result: FolderResult) -> str:
    """The section body; empty when no system used a vector index."""
    if not indexed_systems(result):
        return ""
    note = (
        "Each indexed system searches the same embeddings as exact search (its `exact` system) through a faiss index. "
        "Δ: indexed minus exact, mean over queries with a paired bootstrap 95% CI; wins/losses: queries only the index / "
        "only exact search solves at rank 1 (exact McNemar); recall of exact: share of exact search's top k the index returns; "
        "ms/query: index search only (query encoding excluded); memory: the serialised index.\n\n"
    )
    return note + markdown_table(INDEX_HEADER, index_rows(result))
