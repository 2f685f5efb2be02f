"""The listwise recipe: one group per positive, its negatives' kinds and problems, determinism, shape checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from execir.dataset.read import load_dataset
from execir.errors import ExecIRError
from execir.train.groups import GroupShape, build_groups, hard_negatives, seeded_sample
from execir.train.pairs import PairSource
from tests.train.helpers import source, write_build


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_build(tmp_path_factory.mktemp("groups"))


def test_a_group_is_a_positive_then_distinct_hard_then_easy_negatives(build: Path) -> None:
    train = source(build, "t2c-description")
    groups, counts = build_groups(train, seed=0, shape=GroupShape(hard=2, easy=1))
    positives = sum(1 for q in train.queries for d, g in train.qrels[q].items() if g == 2 and d != q)
    assert len(groups) == positives == counts.positives > 0
    assert counts.hard == 2 * positives and counts.easy == positives and counts.queries_without_hard == 0
    for group in groups:
        assert [p.kind for p in group] == ["positive", "hard", "hard", "easy"]
        query = group[0].query_id
        assert {p.query_id for p in group} == {query}
        assert [p.label for p in group] == [1.0, 0.0, 0.0, 0.0]
        grades = [train.qrels[query].get(p.doc_id, 0) for p in group]
        assert grades[:3] == [2, 1, 1] and grades[3] == 0
        assert len({p.doc_id for p in group}) == len(group)
        assert train.doc_problem[group[3].doc_id] != train.query_problem[query]
        assert train.doc_problem[group[3].doc_id] in train.problems  # easy negatives come from training problems only


def test_groups_are_deterministic_seeded_and_keep_text_code_order(build: Path) -> None:
    train = source(build, "c2t")
    first, _ = build_groups(train, seed=1, shape=GroupShape(hard=1, easy=2))
    assert first == build_groups(source(build, "c2t"), seed=1, shape=GroupShape(hard=1, easy=2))[0]
    other, _ = build_groups(train, seed=2, shape=GroupShape(hard=1, easy=2))
    assert [p.doc_id for g in first for p in g] != [p.doc_id for g in other for p in g]
    for group in first:
        for pair in group:
            assert (pair.first, pair.second) == (train.corpus[pair.doc_id], train.queries[pair.query_id])


@pytest.mark.parametrize("folder", ["t2c-full", "c2t", "c2c"])
def test_no_held_out_problem_enters_a_group(build: Path, folder: str) -> None:
    train = source(build, folder)
    held_out = {p for split in ("dev", "test") for p in load_dataset(build / folder, split).query_task.values()}
    groups, _ = build_groups(train, seed=0)
    assert groups
    for pair in (p for g in groups for p in g):
        assert train.doc_problem[pair.doc_id] not in held_out and pair.doc_id != pair.query_id


def _source(qrels: dict[str, dict[str, int]]) -> PairSource:
    problems = {"a1": "A", "a2": "A", "a3": "A", "a4": "A", "b1": "B", "b2": "B", "c1": "C"}
    return PairSource(
        folder="f",
        query_first=True,
        queries={"qa": "query a", "qb": "query b"},
        qrels=qrels,
        query_problem={"qa": "A", "qb": "B"},
        doc_problem=problems,
        corpus={d: f"text {d}" for d in problems},
    )


def test_fewer_hard_negatives_than_asked_keep_what_there_is() -> None:
    groups, counts = build_groups(_source({"qa": {"a1": 2, "a2": 1}, "qb": {"b1": 2}}), seed=0, shape=GroupShape(hard=3, easy=1))
    by_query = {g[0].query_id: [p.kind for p in g] for g in groups}
    assert by_query == {"qa": ["positive", "hard", "easy"], "qb": ["positive", "easy"]}
    assert counts.queries_without_hard == 1 and counts.hard == 1 and counts.easy == 2


def test_a_positive_with_no_negative_gives_no_group_and_no_positive_gives_none() -> None:
    groups, counts = build_groups(_source({"qa": {"a1": 2}, "qb": {"b2": 1}}), seed=0, shape=GroupShape(hard=2, easy=0))
    assert groups == [] and counts.queries_without_positive == 1 and counts.positives == 0


def test_mined_hard_negatives_follow_the_ranking() -> None:
    src = _source({"qa": {"a1": 2, "a2": 1, "a3": 1, "a4": 1}, "qb": {"b1": 2}})
    assert hard_negatives(("b1", "a4", "a1", "c1", "a2", "a4", "a3"), "qa", src, 2) == ["a4", "a2"]
    groups, _ = build_groups(src, seed=0, shape=GroupShape(hard=2, easy=0), mined={"qa": ("a3", "a1", "a2"), "qb": ()})
    assert [[p.doc_id for p in g] for g in groups] == [["a1", "a3", "a2"]]


def test_seeded_sample_is_a_stable_subset() -> None:
    docs = [f"d{i}" for i in range(10)]
    picked = seeded_sample(docs, 3, 0, "q", "p")
    assert len(set(picked)) == 3 and set(picked) <= set(docs)
    assert seeded_sample(list(reversed(docs)), 3, 0, "q", "p") == picked
    assert seeded_sample(docs, 20, 0, "q", "p")[:3] == picked and sorted(seeded_sample(docs, 20, 0, "q", "p")) == docs
    assert seeded_sample(docs, 3, 1, "q", "p") != picked or seeded_sample(docs, 3, 2, "q", "p") != picked


def test_a_group_needs_a_negative() -> None:
    with pytest.raises(ExecIRError, match="at least one negative"):
        GroupShape(hard=0, easy=0)


def test_text_side_groups_pair_the_program_with_counterfactual_descriptions() -> None:
    from execir.texts.counterfactual import counterfactuals

    src = PairSource(
        folder="f",
        query_first=True,
        queries={"qa": "Return the smallest even number that is greater than 2.", "qb": "Sort it."},
        qrels={"qa": {"a1": 2, "a2": 1}, "qb": {"b1": 2, "b2": 1}},
        query_problem={"qa": "A", "qb": "B"},
        doc_problem={"a1": "A", "a2": "A", "b1": "B", "b2": "B"},
        corpus={d: f"def f(): return '{d}'" for d in ("a1", "a2", "b1", "b2")},
        query_is_text=True,
    )
    groups, counts = build_groups(src, seed=0, shape=GroupShape(hard=1, easy=0, text=3))
    text_groups = [g for g in groups if g[-1].kind == "counterfactual"]
    assert len(text_groups) == 1  # "Sort it." has no counterfactual
    positive, *negatives = text_groups[0]
    assert (positive.first, positive.second, positive.label) == (src.queries["qa"], src.corpus["a1"], 1.0)
    possible = {c.text for c in counterfactuals(src.queries["qa"])}
    assert len(negatives) == 3 and len({n.first for n in negatives}) == 3 and {n.first for n in negatives} <= possible
    assert all(n.second == src.corpus["a1"] and n.label == 0.0 and n.doc_id == "a1" for n in negatives)
    assert counts.counterfactual == 3 and counts.positives == 3 and counts.pairs == 3 + 2 + 3
    assert build_groups(src, seed=0, shape=GroupShape(hard=1, easy=0, text=3))[0] == groups
    code_queries = PairSource(**{**src.__dict__, "query_is_text": False})
    assert all(p.kind != "counterfactual" for g in build_groups(code_queries, seed=0, shape=GroupShape(hard=1, easy=0, text=3))[0] for p in g)


def test_folders_know_whether_their_queries_are_descriptions(build: Path) -> None:
    assert source(build, "t2c-description").query_is_text and source(build, "t2c-full").query_is_text
    assert not source(build, "c2t").query_is_text and not source(build, "c2c").query_is_text
