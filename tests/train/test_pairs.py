"""The pair recipe: counts, determinism, problem-disjointness, text-code order, dev candidates."""

from __future__ import annotations

from pathlib import Path

import pytest

from execir.dataset.read import load_dataset
from execir.train.pairs import PairSource, build_pairs, dev_candidates, first_hard_negative, query_is_text_side
from tests.train.helpers import source, write_build


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_build(tmp_path_factory.mktemp("build"))


def test_counts_follow_the_recipe(build: Path) -> None:
    train = source(build, "t2c-description")
    pairs, counts = build_pairs(train, seed=0)
    positives = sum(1 for q in train.queries for g in train.qrels[q].values() if g == 2)
    assert positives > 0
    # every positive: twice (positive, 1), once easy, once hard
    assert (counts.positives, counts.easy, counts.hard) == (2 * positives, positives, positives)
    assert counts.queries == len(train.queries) and counts.queries_without_hard == 0 and counts.queries_without_positive == 0
    assert len(pairs) == counts.pairs
    for pair in pairs:
        grade = train.qrels[pair.query_id].get(pair.doc_id, 0)
        assert {"positive": 2, "hard": 1, "easy": 0}[pair.kind] == grade
        assert pair.label == (1.0 if pair.kind == "positive" else 0.0)


def test_pairs_are_deterministic_and_seeded(build: Path) -> None:
    train = source(build, "t2c-description")
    first, _ = build_pairs(train, seed=3)
    again, _ = build_pairs(source(build, "t2c-description"), seed=3)
    other, _ = build_pairs(train, seed=4)
    assert first == again
    assert [p.doc_id for p in first] != [p.doc_id for p in other]
    assert [p.kind for p in first] == [p.kind for p in other]


@pytest.mark.parametrize("folder", ["t2c-description", "t2c-full", "c2t", "c2c"])
def test_no_dev_or_test_problem_enters_training_pairs(build: Path, folder: str) -> None:
    train = source(build, folder)
    held_out = {p for split in ("dev", "test") for p in load_dataset(build / folder, split).query_task.values()}
    assert held_out and not held_out & train.problems
    pairs, _ = build_pairs(train, seed=0)
    assert pairs
    for pair in pairs:
        assert train.query_problem[pair.query_id] not in held_out
        assert train.doc_problem[pair.doc_id] not in held_out
        assert pair.doc_id != pair.query_id


def test_c2t_pairs_put_the_description_first(build: Path) -> None:
    train = source(build, "c2t")
    assert not train.query_first
    pairs, _ = build_pairs(train, seed=0)
    for pair in pairs:
        assert pair.first == train.corpus[pair.doc_id]
        assert pair.second == train.queries[pair.query_id]
    t2c = source(build, "t2c-description")
    pair = build_pairs(t2c, seed=0)[0][0]
    assert (pair.first, pair.second) == (t2c.queries[pair.query_id], t2c.corpus[pair.doc_id])


def test_pair_order_by_task() -> None:
    assert [query_is_text_side(t) for t in ("t2c-description", "t2c-search", "c2c", "c2c-java", "c2t", "c2t-python", "")] == [
        True,
        True,
        True,
        True,
        False,
        False,
        True,
    ]


def _source(qrels: dict[str, dict[str, int]]) -> PairSource:
    problems = {"a1": "A", "a2": "A", "a3": "A", "b1": "B", "b2": "B", "c1": "C"}
    return PairSource(
        folder="f",
        query_first=True,
        queries={"qa": "query a", "qb": "query b"},
        qrels=qrels,
        query_problem={"qa": "A", "qb": "B"},
        doc_problem=problems,
        corpus={d: f"text {d}" for d in problems},
    )


def test_query_without_hard_negative_keeps_its_easy_pairs_and_is_counted() -> None:
    pairs, counts = build_pairs(_source({"qa": {"a1": 2, "a2": 1}, "qb": {"b1": 2}}), seed=0)
    assert counts.queries_without_hard == 1 and counts.queries == 2
    qb = [p for p in pairs if p.query_id == "qb"]
    assert [p.kind for p in qb] == ["positive", "easy"]
    assert qb[1].doc_id in {"a1", "a2", "a3"}  # a training problem other than B (C has no query: not a training problem)


def test_query_without_positive_gives_no_pairs() -> None:
    pairs, counts = build_pairs(_source({"qa": {"a1": 2, "a2": 1}, "qb": {"b2": 1}}), seed=0)
    assert counts.queries_without_positive == 1
    assert all(p.query_id == "qa" for p in pairs)


def test_mined_hard_negative_is_the_highest_ranked_same_problem_non_positive() -> None:
    src = _source({"qa": {"a1": 2, "a2": 1, "a3": 1}, "qb": {"b1": 2}})
    assert first_hard_negative(("b1", "a1", "c1", "a3", "a2"), "qa", src) == "a3"
    pairs, counts = build_pairs(src, seed=0, mined={"qa": ("a1", "a3", "a2"), "qb": ("a1", "b1", "c1")})
    assert [p.doc_id for p in pairs if p.kind == "hard"] == ["a3"]
    assert counts.queries_without_hard == 1


def test_dev_candidates_are_the_pool_plus_seeded_easy_negatives(build: Path) -> None:
    dev = source(build, "t2c-description", "dev")
    candidates = dev_candidates(dev, seed=0, easy=5)
    assert set(candidates) == set(dev.queries)
    for query_id, docs in candidates.items():
        pool = {d for d, g in dev.qrels[query_id].items() if g >= 1}
        others = [d for d in docs if d not in pool]
        assert pool <= set(docs) and len(others) == 5
        assert all(dev.doc_problem[d] != dev.query_problem[query_id] for d in others)
    assert dev_candidates(dev, seed=0, easy=5) == candidates
