"""Declared configuration of an evaluation (defaults defined once, here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from execir.evaluate.measures import DISPLAY_MEASURES, computed_measures

HEADLINE_MEASURES: tuple[str, ...] = ("exec@1", "exec@5", "exec@10", "ndcg@10", "mrr@10", "recall@10", "map@10")
DEFAULT_RETRIEVERS: tuple[str, ...] = ("bm25", "dense", "hybrid")
DEFAULT_DEPTH = 100


@dataclass(frozen=True)
class EvalConfig:
    """Everything that determines an evaluation's numbers."""

    dataset: Path
    out: Path
    retrievers: tuple[str, ...] = DEFAULT_RETRIEVERS
    ties: Literal["pessimistic", "trec"] = "pessimistic"
    split: str = "test"
    """Which qrels to score: ``train``, ``dev``, ``test`` or ``all`` (zero-shot systems may use every split)."""
    depth: int = DEFAULT_DEPTH
    """Documents each first-stage retriever returns per query: metrics, analyses, rerankers and the
    TREC run files all work on this truncated run (a document beyond it is unranked)."""
    reranks: tuple[str, ...] = ()
    """Rerank specs, each applied on top of every retriever."""
    expansions: tuple[str, ...] = ()
    """``--expand`` specs, each adding ``<retriever>+<kind>`` beside every retriever it applies to."""
    generation_cache_dir: Path | None = None
    """Where generated expansions (HyDE, Query2doc) are cached (None: not on disk)."""
    rerank_depth: int | None = None
    """Candidates each reranker sees per query: the first stage's best ``rerank_depth`` (None: all
    ``depth``); the rest follow the reranked ones in the first stage's order."""
    name: str | None = None
    """The system name of the one retriever (None: the retriever's own name)."""
    seed: int = 0
    bootstrap_resamples: int = 2000
    ablation_levels: tuple[int, ...] = (0, 1, 2, 3, 4)
    measures: tuple[str, ...] = field(default=HEADLINE_MEASURES)
    """Measures computed (per query, with CIs); the report's required ones are added when absent."""
    display: tuple[str, ...] = DISPLAY_MEASURES
    """Measures the leaderboard shows (``--metrics``)."""
    cache_dir: Path | None = None
    progress: bool = True

    @property
    def run_depth(self) -> int:
        """Documents written per query in the TREC run files (the evaluation depth)."""
        return self.depth

    @property
    def all_measures(self) -> tuple[str, ...]:
        """Every measure computed: :attr:`measures`, the displayed ones, and the report's required ones."""
        return computed_measures((*self.measures, *self.display))

    def to_json(self) -> dict[str, object]:
        """JSON-able resolved config."""
        return {
            "dataset": str(self.dataset),
            "retrievers": list(self.retrievers),
            "reranks": list(self.reranks),
            "name": self.name,
            "ties": self.ties,
            "split": self.split,
            "depth": self.depth,
            "rerank_depth": self.rerank_depth,
            "run_depth": self.run_depth,
            "seed": self.seed,
            "bootstrap_resamples": self.bootstrap_resamples,
            "ablation_levels": list(self.ablation_levels),
            "measures": list(self.all_measures),
            "display_measures": list(self.display),
            **({"expansions": list(self.expansions)} if self.expansions else {}),
        }
