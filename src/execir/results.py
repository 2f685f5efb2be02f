"""Typed evaluation results, shared by the evaluation (which makes them) and the reports (which
render them): neither imports the other's internals. Serialised to JSON only at the edge."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% bootstrap interval."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, metric: dict[str, float]) -> Estimate:
        """From a ``{"mean", "ci_low", "ci_high"}`` record."""
        return cls(metric["mean"], metric["ci_low"], metric["ci_high"])


@dataclass(frozen=True)
class FolderScore:
    """One system's headline numbers on one folder."""

    system: str
    metrics: dict[str, Estimate]
    intrusion: float
    """ExecIR's intrusion@10: a hard negative above the first correct document in the top 10 (or none there)."""
    coreb_intrusion: float
    """CoREB's: a hard negative above a correct document, both in the top 10."""
    by_language: dict[str, dict[str, float]]


@dataclass(frozen=True)
class Composition:
    """What a folder holds."""

    queries: int
    documents: int
    positives_per_query: float
    hard_negatives_per_query: float
    median_query_tokens: float
    documents_by_kind: dict[str, int]
    queries_by_language: dict[str, int]


@dataclass(frozen=True)
class FolderSummary:
    """One folder's identity, composition and scores."""

    name: str
    task: str
    direction: str
    subtype: str
    language: str
    split: str
    composition: Composition
    scores: tuple[FolderScore, ...]
    report: str
    """The folder report's path, relative to the collection's output."""


@dataclass(frozen=True)
class CollectionResult:
    """Every folder's summary and the averages over folders."""

    split: str
    ties: str
    folders: tuple[FolderSummary, ...]
    average: dict[str, dict[str, float]]
    """system -> ``t2c``/``c2t``/``c2c`` (mean nDCG@10 over that direction's folders) and ``overall``
    (mean over the directions present), as CoREB reports."""
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """JSON-able form (``results.json`` of the collection)."""
        return asdict(self)
