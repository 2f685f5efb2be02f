"""Reciprocal-rank fusion (RRF) of runs, and the hybrid retriever built on it.

``score(d) = sum over runs of 1 / (k + rank(d))`` with ``k = 60`` (Cormack et al., 2009); a run
that does not contain ``d`` contributes nothing. Ranks are *competition ranks* over the run's
scores: tied documents share the best rank of their tie group (scores 0.9, 0.7, 0.7, 0.5 get
ranks 1, 2, 2, 4), so a tie in an input run stays a tie in the fused contribution and is never
broken by document id. The fused run is cut to ``top_k`` by (score desc, doc id asc); fused
scores are summed in run order, so they are reproducible bit for bit.

Depth: :class:`HybridRetriever` fuses top-k lists, never full rankings. Each part is searched
``max(top_k, depth)`` deep (``depth`` defaults to :data:`PART_DEPTH`, ten times the evaluation's
usual first-stage depth of 100), so a document ranked below that in one part contributes only
its other parts' terms, and memory grows with queries x ``max(top_k, depth)`` per part whatever
the corpus size. When ``depth`` reaches the corpus size the result equals fusing full rankings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from execir.errors import ExecIRError
from execir.retrieve.base import Retriever, retriever_usage
from execir.types import Run

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec

RRF_K = 60
PART_DEPTH = 1000
"""Default depth each part of a hybrid is searched to before fusing (at least ``top_k``)."""


def competition_ranks(scores: dict[str, float]) -> dict[str, int]:
    """1-based competition ranks (ties share the best rank of their group)."""
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    ranks: dict[str, int] = {}
    previous: float | None = None
    rank = 0
    for position, (doc, score) in enumerate(ordered, start=1):
        if score != previous:
            rank, previous = position, score
        ranks[doc] = rank
    return ranks


def rrf(runs: list[Run], *, k: int = RRF_K, top_k: int | None = None) -> Run:
    """Fuse ``runs`` by reciprocal rank; every query id of any run appears in the output."""
    if k <= 0:
        raise ExecIRError(f"rrf: k must be positive, got {k}")
    fused: Run = {}
    for qid in sorted({q for run in runs for q in run}):
        total: dict[str, float] = {}
        for run in runs:
            for doc, rank in competition_ranks(run.get(qid, {})).items():
                total[doc] = total.get(doc, 0.0) + 1.0 / (k + rank)
        ordered = sorted(total.items(), key=lambda item: (-item[1], item[0]))
        fused[qid] = dict(ordered if top_k is None else ordered[:top_k])
    return fused


class HybridRetriever:
    """RRF of two (or more) retrievers; each is searched ``depth`` deep before fusing."""

    def __init__(self, parts: list[Retriever], *, k: int = RRF_K, depth: int = PART_DEPTH) -> None:
        if len(parts) < 2:
            raise ExecIRError("hybrid retrieval needs at least two retrievers")
        self.parts = parts
        self.k = k
        self.depth = depth
        self.name = "hybrid-" + "+".join(p.name for p in parts)

    @property
    def encoded_texts(self) -> int:
        """Sum of the parts' encoded texts."""
        return sum(p.encoded_texts for p in self.parts)

    def use_task(self, task: TaskSpec | None) -> None:
        """Forward ``task`` to every part."""
        for part in self.parts:
            part.use_task(task)

    def index(self, corpus: dict[str, str]) -> None:
        """Index the corpus in every part."""
        for part in self.parts:
            part.index(corpus)

    def search(self, queries: dict[str, str], *, top_k: int) -> Run:
        """Search every part ``max(top_k, depth)`` deep and fuse with RRF."""
        depth = max(top_k, self.depth)
        runs = [part.search(queries, top_k=depth) for part in self.parts]
        return rrf(runs, k=self.k, top_k=top_k)

    def usage(self) -> dict[str, Any] | None:
        """Each API-backed part's usage by part name; None when no part calls an API."""
        spent = {p.name: retriever_usage(p) for p in self.parts}
        return {name: u for name, u in spent.items() if u is not None} or None

    def config(self) -> dict[str, Any]:
        """JSON-able resolved configuration."""
        parts = [_part_config(p) for p in self.parts]
        return {"retriever": "hybrid", "fusion": "rrf", "k": self.k, "depth": self.depth, "parts": parts}


def _part_config(part: Retriever) -> dict[str, Any]:
    """A part's own ``config()`` when it has one (not part of the protocol), else its name."""
    config = getattr(part, "config", None)
    return config() if callable(config) else {"name": part.name}
