"""Chains of rerankers: stages as sort keys, left first; equal keys stay tied for the caller."""

from __future__ import annotations

import math

import pytest

from execir.errors import ExecIRError
from execir.rerank.base import Reranker, RerankRequest, RerankStats
from execir.rerank.chain import RerankChain, check_scores, lexicographic_scores


class TableReranker:
    """Scores from a fixed table (doc -> score, the same for every query)."""

    def __init__(self, name: str, table: dict[str, float], extra: dict[str, float] | None = None) -> None:
        self.name = name
        self.table = table
        self.extra = extra or {}
        self.tasks: list[object] = []
        self.requests: list[RerankRequest] = []

    def use_task(self, task: object) -> None:
        self.tasks.append(task)

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        self.requests.append(request)
        return {q: {d: self.table[d] for d in docs} for q, docs in request.candidates.items()}

    def stats(self) -> RerankStats:
        pairs = sum(len(c) for c in self.requests[-1].candidates.values())
        return RerankStats(len(self.requests[-1].candidates), pairs, 0.5, self.extra)

    def config(self) -> dict[str, object]:
        return {"name": self.name}


REQUEST = RerankRequest(queries={"q": "text"}, candidates={"q": ("a", "b", "c", "d")}, documents={d: d for d in "abcd"})


def test_stages_are_sort_keys_left_first_and_full_ties_stay_tied() -> None:
    passes = TableReranker("exec", {"a": 0.0, "b": 1.0, "c": 1.0, "d": 0.0}, {"candidates_executed": 4})
    model = TableReranker("ce:m", {"a": 0.9, "b": 0.1, "c": 0.7, "d": 0.9})
    chain = RerankChain([passes, model])
    assert isinstance(chain, Reranker) and chain.name == "exec+ce:m"
    scores = chain.score(REQUEST)["q"]
    assert scores["c"] > scores["b"] > scores["a"] == scores["d"]  # a and d equal on both stages: left to the caller
    stats = chain.stats()
    assert (stats.queries, stats.pairs, stats.seconds) == (1, 4, 1.0)
    assert stats.extra == {"exec.seconds": 0.5, "exec.candidates_executed": 4, "ce:m.seconds": 0.5}
    assert chain.config() == {"chain": [{"name": "exec"}, {"name": "ce:m"}]}


class _Acting(TableReranker):
    def __init__(self, name: str, table: dict[str, float], acted_on: frozenset[str] | None) -> None:
        super().__init__(name, table)
        self.acted_on = acted_on

    def stats(self) -> RerankStats:
        return RerankStats(1, 4, 0.5, {}, self.acted_on)


def test_queries_acted_on_are_the_union_of_the_stages_that_report_them() -> None:
    table = dict.fromkeys("abcd", 0.0)
    assert RerankChain([_Acting("exec", table, frozenset({"q"})), _Acting("ce:m", table, None)]).stats().acted_on is None  # before score
    for stages, expected in (
        ([_Acting("exec", table, frozenset({"q"})), _Acting("ce:m", table, None)], frozenset({"q"})),
        ([_Acting("a", table, frozenset({"q"})), _Acting("b", table, frozenset({"r"}))], frozenset({"q", "r"})),
        ([_Acting("a", table, None), _Acting("b", table, None)], None),
    ):
        chain = RerankChain(stages)
        chain.score(REQUEST)
        assert chain.stats().acted_on == expected


def test_use_task_reaches_every_stage() -> None:
    stages = [TableReranker("x", {}), TableReranker("y", {})]
    RerankChain(stages).use_task("spec")
    assert [s.tasks for s in stages] == [["spec"], ["spec"]]


def test_lexicographic_scores_are_dense_descending_integers() -> None:
    scores = lexicographic_scores(["a", "b", "c"], [{"a": 1.0, "b": 1.0, "c": 2.0}, {"a": 0.5, "b": 0.7, "c": 0.0}])
    assert scores == {"c": 3.0, "b": 2.0, "a": 1.0}


def test_a_stage_that_misses_a_candidate_or_gives_nan_is_refused() -> None:
    with pytest.raises(ExecIRError, match="did not score exactly the candidates of query 'q'"):
        check_scores("bad", REQUEST, {"q": {"a": 1.0}})
    with pytest.raises(ExecIRError, match="NaN score"):
        check_scores("bad", REQUEST, {"q": {d: math.nan for d in "abcd"}})
    with pytest.raises(ExecIRError, match="at least one stage"):
        RerankChain([])
    with pytest.raises(ExecIRError, match="did not score exactly"):
        RerankChain([TableReranker("partial", {"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}), _Partial()]).score(REQUEST)


class _Partial(TableReranker):
    def __init__(self) -> None:
        super().__init__("partial2", {})

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        return {q: {} for q in request.candidates}
