"""The bi-encoder rows recipe and the problem-disjoint batch guard (pure, no model)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from execir.train.embedder_config import EmbedderSettings
from execir.train.embedder_loop import epoch_batches
from execir.train.embedder_rows import Row, build_rows, problem_disjoint_batches, rows_digest
from execir.train.pairs import EasyPool
from tests.train.helpers import source, write_build


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_build(tmp_path_factory.mktemp("rows") / "build")


@pytest.mark.parametrize("folder", ["t2c-description", "c2t", "c2c"])
def test_rows_have_n_same_problem_negatives_and_a_positive(build: Path, folder: str) -> None:
    train = source(build, folder)
    rows, counts = build_rows(train, seed=0, negatives=3)
    assert rows and counts.rows == len(rows)
    for row in rows:
        problem = train.query_problem[row.query_id]
        assert len(row.negatives) == len(row.negative_ids) == 3
        assert train.qrels[row.query_id][row.positive_id] == 2
        assert row.anchor == train.queries[row.query_id] and row.positive == train.corpus[row.positive_id]
        assert all(train.qrels[row.query_id].get(d) == 1 and train.doc_problem[d] == problem for d in row.negative_ids)
        assert row.problems == {problem}
    assert counts.hard + counts.padded + counts.easy == 3 * counts.rows


def test_short_problems_repeat_their_negatives(build: Path) -> None:
    train = source(build, "t2c-description")
    rows, counts = build_rows(train, seed=0, negatives=5)
    assert counts.padded > 0 and all(len(r.negative_ids) == 5 for r in rows)
    assert all(set(r.negative_ids) <= {d for d, g in train.qrels[r.query_id].items() if g == 1} for r in rows)


def test_rows_without_hard_negatives_take_other_training_problems(build: Path) -> None:
    train = source(build, "t2c-description")
    stripped = {q: {d: g for d, g in judged.items() if g != 1} for q, judged in train.qrels.items()}
    no_hard = replace(train, qrels=stripped)
    rows, counts = build_rows(no_hard, seed=0, negatives=2, pool=EasyPool(no_hard, no_hard.problems))
    assert counts.rows_without_hard == counts.rows == len(rows) and counts.easy == 2 * len(rows)
    for row in rows:
        own = train.query_problem[row.query_id]
        assert all(train.doc_problem[d] != own and train.doc_problem[d] in train.problems for d in row.negative_ids)
        assert len(row.problems) > 1


def test_rows_are_seeded(build: Path) -> None:
    train = source(build, "c2c")
    assert build_rows(train, seed=3, negatives=2) == build_rows(train, seed=3, negatives=2)


def _row(name: str, *problems: str) -> Row:
    return Row(name, f"{name}+", (), name, f"{name}+", (), "f", frozenset(problems))


def test_batches_never_share_a_problem_and_keep_every_row() -> None:
    rows = [_row(f"r{i}", f"p{i % 3}") for i in range(9)] + [_row("x", "p0", "p7"), _row("y", "p7")]
    batches = problem_disjoint_batches(rows, list(range(len(rows))), 4)
    assert sorted(i for b in batches for i in b) == list(range(len(rows)))
    for batch in batches:
        seen: set[str] = set()
        for i in batch:
            assert seen.isdisjoint(rows[i].problems), f"batch {batch} holds two rows of one problem"
            seen |= rows[i].problems
    assert all(len(b) <= 4 for b in batches)


def test_batches_never_repeat_a_text() -> None:
    rows = [Row("same", "a", (), "q1", "d1", (), "f", frozenset({"p1"})), Row("same", "b", (), "q2", "d2", (), "f", frozenset({"p2"}))]
    assert problem_disjoint_batches(rows, [0, 1], 2) == [[0], [1]]


def test_training_batches_of_a_real_split_are_problem_disjoint(build: Path) -> None:
    train = source(build, "t2c-description")
    rows, _ = build_rows(train, seed=0, negatives=2)
    assert len(rows) > len(train.problems)  # several rows per problem, so the guard has work to do
    for epoch in epoch_batches(rows, EmbedderSettings(base="unused", batch_size=4, epochs=2), seed=0):
        for batch in epoch:
            problems = [p for i in batch for p in rows[i].problems]
            assert len(problems) == len(set(problems))


def test_code_to_code_anchors_own_program_is_one_more_positive(build: Path) -> None:
    train = source(build, "c2c")
    plain, plain_counts = build_rows(train, seed=0, negatives=2)
    rows, counts = build_rows(train, seed=0, negatives=2, self_positive=True)
    own = [r for r in rows if r.positive_id == r.query_id]
    assert own and counts.self_positives == len(own) == len(train.queries) and plain_counts.self_positives == 0
    assert counts.rows == plain_counts.rows + len(own)
    for row in own:
        assert row.positive == train.corpus[row.query_id] and train.qrels[row.query_id].get(row.query_id) is None
        assert all(train.qrels[row.query_id][d] == 1 for d in row.negative_ids)
    assert [r for r in rows if r.positive_id != r.query_id] == plain


@pytest.mark.parametrize("folder", ["t2c-description", "c2t"])
def test_only_code_to_code_anchors_get_their_own_program(build: Path, folder: str) -> None:
    train = source(build, folder)
    assert build_rows(train, seed=0, negatives=2, self_positive=True) == build_rows(train, seed=0, negatives=2)


def test_the_anchor_prompt_goes_before_every_anchor_and_nowhere_else(build: Path) -> None:
    train = source(build, "c2c")
    plain, _ = build_rows(train, seed=0, negatives=2)
    prompted, _ = build_rows(train, seed=0, negatives=2, anchor_prompt="Find: ")
    assert [replace(r, anchor="Find: " + r.anchor) for r in plain] == prompted


def test_mirrored_rows_anchor_each_rewrite_on_the_querys_own_program(build: Path) -> None:
    train = source(build, "c2c")
    plain, _ = build_rows(train, seed=0, negatives=2, anchor_prompt="Find: ")
    rows, counts = build_rows(train, seed=0, negatives=2, anchor_prompt="Find: ", mirror=True)
    mirrored = [r for r in rows if r.anchor_id]
    rewrites = sum(1 for q in train.queries for d, g in train.qrels[q].items() if g == 2 and d != q)
    assert mirrored and counts.mirrored == len(mirrored) == rewrites and counts.self_positives == 0
    assert [r for r in rows if not r.anchor_id] == plain
    for row in mirrored:
        assert train.qrels[row.query_id][row.anchor_id] == 2 and row.anchor == "Find: " + train.corpus[row.anchor_id]
        assert row.positive_id == row.query_id and row.positive == train.corpus[row.query_id]
        assert all(train.qrels[row.query_id][d] == 1 for d in row.negative_ids)
    assert rows_digest(rows) != rows_digest([replace(r, anchor_id="") for r in rows])
    t2c = source(build, "t2c-description")
    assert build_rows(t2c, seed=0, negatives=2, mirror=True) == build_rows(t2c, seed=0, negatives=2)
