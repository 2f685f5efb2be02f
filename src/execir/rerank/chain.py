"""A chain of rerankers used as sort keys, left first (``exec+ce:<model>``).

The chain asks every stage to score the same request, then orders each query's candidates by the
first stage's score, then the next one's, and so on (all descending). Its own score is that
order's dense rank, turned into a descending integer: candidates equal on every stage share a
score, so the caller's tie-break (the first-stage retriever's order) decides between them, as
:mod:`execir.rerank.base` describes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from execir.errors import ExecIRError
from execir.rerank.base import Reranker, RerankRequest, RerankStats

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


def check_scores(name: str, request: RerankRequest, scores: dict[str, dict[str, float]]) -> None:
    """Raise ExecIRError unless ``scores`` has a score for exactly every candidate of every query."""
    for query, candidates in request.candidates.items():
        got = scores.get(query)
        if got is None or set(got) != set(candidates):
            raise ExecIRError(f"reranker '{name}' did not score exactly the candidates of query '{query}'")
        if any(math.isnan(value) for value in got.values()):
            raise ExecIRError(f"reranker '{name}' gave a NaN score for query '{query}'")


def lexicographic_scores(candidates: Sequence[str], keys: Sequence[dict[str, float]]) -> dict[str, float]:
    """One score per candidate whose descending order is the order of ``keys`` (left first, each
    descending); candidates equal on every key get the same score."""
    key_of = {doc: tuple(-key[doc] for key in keys) for doc in candidates}
    distinct = sorted(set(key_of.values()))
    position = {key: index for index, key in enumerate(distinct)}
    return {doc: float(len(distinct) - position[key_of[doc]]) for doc in candidates}


class RerankChain:
    """Rerankers applied as successive sort keys (see the module docstring)."""

    def __init__(self, stages: Sequence[Reranker]) -> None:
        if not stages:
            raise ExecIRError("a rerank chain needs at least one stage")
        self.stages = tuple(stages)
        self.name = "+".join(stage.name for stage in self.stages)
        self._stats: list[RerankStats] = []

    def use_task(self, task: TaskSpec | None) -> None:
        """Prepare every stage for ``task``."""
        for stage in self.stages:
            stage.use_task(task)

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        """Every stage scores the request; the result orders candidates by the stages' scores, left first."""
        keys = []
        for stage in self.stages:
            scores = stage.score(request)
            check_scores(stage.name, request, scores)
            keys.append(scores)
        self._stats = [stage.stats() for stage in self.stages]
        return {query: lexicographic_scores(candidates, [key[query] for key in keys]) for query, candidates in request.candidates.items()}

    def stats(self) -> RerankStats:
        """The stages' counts: queries and pairs of the first stage, summed seconds, and every stage's
        extra counts and seconds under ``<stage name>.<count>``; the queries acted on are the union of
        the stages' that report them (None when no stage does)."""
        if not self._stats:
            return RerankStats(0, 0, 0.0)
        extra: dict[str, float] = {}
        for stage, stats in zip(self.stages, self._stats):
            extra[f"{stage.name}.seconds"] = stats.seconds
            extra.update({f"{stage.name}.{key}": value for key, value in stats.extra.items()})
        first = self._stats[0]
        signals = [s.acted_on for s in self._stats if s.acted_on is not None]
        acted_on = frozenset().union(*signals) if signals else None
        return RerankStats(first.queries, first.pairs, sum(s.seconds for s in self._stats), extra, acted_on)

    def config(self) -> dict[str, object]:
        """Every stage's configuration, in order."""
        return {"chain": [stage.config() for stage in self.stages]}
