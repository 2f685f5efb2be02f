"""The reranker protocol: the second stage of a two-stage system.

A first-stage retriever searches every query to a depth (``--depth``, default 100); a reranker then
sees only that query's candidates, in the previous stage's order, and scores them. A chain
(``exec+ce:<model>``) uses its stages as sort keys, left first: the final order sorts candidates by
the first reranker's score, then the next one's, and the first stage's order breaks what is still
tied. So ``exec`` (pass the query's examples: 1, else 0) in front of a cross-encoder puts the
candidates that pass first, each group in the cross-encoder's order; ``exec`` alone keeps the first
stage's order within each group.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from execir.model_identity import safe_name

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


TRAINED_NAMES = re.compile(r"^(model|soup|seed-\d+)$")
"""Folder names that ``train-reranker`` gives every run's models (labelled with their run's folder too)."""


def model_label(model: str) -> str:
    """A model's short name in system names: the last part of a hub id or path, prefixed by the run
    folder for the generic names of ``train-reranker`` outputs (``models/mbpp/soup`` -> ``mbpp-soup``)."""
    path = Path(model.rstrip("/"))
    if TRAINED_NAMES.match(path.name) and path.parent.name not in ("", ".", ".."):
        return safe_name(f"{path.parent.name}-{path.name}")
    return safe_name(path.name)


@dataclass(frozen=True)
class RerankRequest:
    """One folder's reranking work: every query with its candidates.

    ``candidates`` lists each query's candidate document ids in the previous stage's order (best
    first). ``documents`` holds the text of every candidate (and may hold more). ``doc_language``
    and ``query_language`` give the programming language where the dataset records one (empty
    string when unknown); ``source`` is the dataset's task source (``humaneval``, ``mbpp``,
    ``livecodebench``, ...), empty when unknown."""

    queries: Mapping[str, str]
    candidates: Mapping[str, tuple[str, ...]]
    documents: Mapping[str, str]
    doc_language: Mapping[str, str] = field(default_factory=dict)
    query_language: Mapping[str, str] = field(default_factory=dict)
    source: str = ""
    first_scores: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    """The previous stage's score of each query's candidates (query -> document -> score), for
    rerankers that combine their own scores with it (``fuse:``); empty when the caller has none."""


@dataclass(frozen=True)
class RerankStats:
    """What a reranker did on one request, for the report (all counts; empty ``extra`` when none).

    ``queries`` and ``pairs`` count the queries and (query, candidate) pairs scored; ``seconds``
    the wall time of :meth:`Reranker.score`. ``extra`` holds reranker-specific counts, e.g. the
    execution reranker's ``queries_with_examples`` and ``candidates_executed``."""

    queries: int
    pairs: int
    seconds: float
    extra: Mapping[str, float] = field(default_factory=dict)
    acted_on: frozenset[str] | None = None
    """The queries the reranker had a signal for (``exec``: the queries whose text carries examples);
    None when it scores every query on its own terms. The report gives the measures on these
    queries too, first stage beside reranked."""


@runtime_checkable
class Reranker(Protocol):
    """Scores a query's candidates; higher is better. Never sees documents outside the candidates.

    Usage: ``r.use_task(spec)`` for the folder's task (prompts and instructions may depend on it;
    None means text to code), then ``r.score(request)``. The returned mapping has, for every query
    of the request, a score for every one of its candidates (no more, no fewer)."""

    name: str

    def use_task(self, task: TaskSpec | None) -> None:
        """Prepare for ``task``; call before :meth:`score`."""
        ...

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        """query id -> candidate id -> score, for every candidate of every query."""
        ...

    def stats(self) -> RerankStats:
        """Counts of the last :meth:`score` call."""
        ...

    def config(self) -> dict[str, object]:
        """The reranker's identity for ``results.json`` (model, revision, batch size, ...)."""
        ...


def reranker_usage(reranker: object) -> dict[str, Any] | None:
    """``reranker.usage_json()`` when the reranker calls an endpoint (requests, tokens, search units,
    estimated cost); None for local rerankers (usage is not part of the protocol)."""
    usage_json = getattr(reranker, "usage_json", None)
    return usage_json() if callable(usage_json) else None
