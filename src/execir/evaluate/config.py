"""Declared configuration of an evaluation (defaults defined once, here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

HEADLINE_MEASURES: tuple[str, ...] = ("exec@1", "exec@5", "exec@10", "ndcg@10", "mrr@10", "recall@10", "map@10")
DEFAULT_RETRIEVERS: tuple[str, ...] = ("bm25", "dense", "hybrid")


@dataclass(frozen=True)
class EvalConfig:
    """Everything that determines an evaluation's numbers."""

    dataset: Path
    out: Path
    retrievers: tuple[str, ...] = DEFAULT_RETRIEVERS
    ties: Literal["pessimistic", "trec"] = "pessimistic"
    split: str = "test"
    """Which qrels to score: ``train``, ``dev``, ``test`` or ``all`` (zero-shot systems may use every split)."""
    run_depth: int = 100
    """Documents written per query in the TREC run files."""
    seed: int = 0
    bootstrap_resamples: int = 2000
    ablation_levels: tuple[int, ...] = (0, 1, 2, 3, 4)
    measures: tuple[str, ...] = field(default=HEADLINE_MEASURES)
    cache_dir: Path | None = None
    progress: bool = True

    def to_json(self) -> dict[str, object]:
        """JSON-able resolved config."""
        return {
            "dataset": str(self.dataset),
            "retrievers": list(self.retrievers),
            "ties": self.ties,
            "split": self.split,
            "run_depth": self.run_depth,
            "seed": self.seed,
            "bootstrap_resamples": self.bootstrap_resamples,
            "ablation_levels": list(self.ablation_levels),
            "measures": list(self.measures),
        }
