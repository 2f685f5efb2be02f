"""evaluate_arrays() / RunMatrix: identical per-query values to evaluate() on the same run.

Identity with ``evaluate`` (itself cross-checked against ``pytrec_eval`` and a slow reference)
is asserted with ``==`` on every value, under both tie policies, on the random tie-heavy cases
(queries missing from the matrix, empty rows, run queries outside the qrels), in every layout
(ragged, top-k with padding, dense) and whatever the order of rows, columns and queries.
"""

from __future__ import annotations

import numpy as np
import pytest
from metrics_helpers import random_case
from test_metrics_evaluate import PAIRS, pytrec

from execir.metrics import RunMatrix, evaluate, evaluate_arrays

MEASURES = ["exec@1", "exec@5", "ndcg@3", "ndcg@10", "ndcg", "mrr@2", "mrr", "recall@4", "map@5", "map", "p@3"]
TIES = pytest.mark.parametrize("ties", ["pessimistic", "trec"])


def top_k(run: dict, seed: int) -> RunMatrix:
    """``run`` as a (n_queries, widest) top-k layout with -1 padding, rows and vocabulary shuffled."""
    rng = np.random.default_rng(seed)
    vocab = sorted({d for docs in run.values() for d in docs}, reverse=True)
    index = {d: i for i, d in enumerate(vocab)}
    qids = [q for q in run][::-1]
    width = max(map(len, run.values()))
    scores, columns = np.full((len(qids), width), 7.0), np.full((len(qids), width), -1)
    for i, q in enumerate(qids):
        place = rng.permutation(width)[: len(run[q])]
        scores[i, place] = list(run[q].values())
        columns[i, place] = [index[d] for d in run[q]]
    return RunMatrix.from_arrays(qids, vocab, scores, columns=columns)


@TIES
def test_ragged_matrix_equals_the_dict_path(case, ties):
    qrels, run = case
    expected = evaluate(qrels, run, MEASURES, ties=ties)
    assert evaluate_arrays(qrels, RunMatrix.from_run(run), MEASURES, ties=ties) == expected
    in_qrels_order = RunMatrix.from_run({q: run.get(q, {}) for q in qrels})  # rows used as they are
    assert evaluate_arrays(qrels, in_qrels_order, MEASURES, ties=ties) == expected


@TIES
def test_top_k_layout_with_padding_and_shuffles_equals_the_dict_path(case, ties):
    qrels, run = case
    matrix = top_k(run, seed=len(qrels))
    assert evaluate_arrays(qrels, matrix, MEASURES, ties=ties) == evaluate(qrels, run, MEASURES, ties=ties)


@TIES
@pytest.mark.parametrize("seed", range(4))
def test_dense_layout_equals_the_dict_path(seed, ties):
    qrels, _ = random_case(seed)
    rng = np.random.default_rng(seed)
    docs = [f"d{j:02d}" for j in rng.permutation(40)]
    qids = [q for q in qrels if int(q[1:]) % 7][:-1] + ["not-in-qrels"]  # some qrels queries missing
    scores = rng.integers(0, 3, size=(len(qids), len(docs))).astype(np.float32)  # heavy ties
    run = {q: {d: float(s) for d, s in zip(docs, row)} for q, row in zip(qids, scores)}
    ours = evaluate_arrays(qrels, RunMatrix.from_arrays(qids, docs, scores), MEASURES, ties=ties)
    assert ours == evaluate(qrels, run, MEASURES, ties=ties)


def test_trec_ties_match_pytrec_eval(case):
    qrels, run = case
    ours = evaluate_arrays(qrels, top_k(run, seed=1), list(PAIRS), ties="trec")
    theirs = pytrec(qrels, run)
    for measure, trec_name in PAIRS.items():
        for q in qrels:
            assert ours[measure][q] == pytest.approx(theirs.get(q, {}).get(trec_name, 0.0), abs=1e-12)


def test_missing_queries_and_empty_rows_score_zero():
    qrels = {"a": {"x": 2}, "b": {"y": 2}, "c": {"z": 2, "w": 1}}
    matrix = RunMatrix.from_arrays(["extra", "c", "b"], ["x", "z", "w"], np.array([3.0, 1.0, 1.0]), columns=[0, 1, 2], offsets=[0, 1, 3, 3])
    out = evaluate_arrays(qrels, matrix, ["exec@1", "ndcg@10", "mrr@10", "p@10"])
    for values in out.values():
        assert set(values) == {"a", "b", "c"} and values["a"] == 0.0 and values["b"] == 0.0
    assert out["exec@1"]["c"] == 0.0 and out["mrr@10"]["c"] == 0.5  # pessimistic: the tied rel-1 first
    assert out == evaluate(qrels, {"extra": {"x": 3.0}, "c": {"z": 1.0, "w": 1.0}, "b": {}}, list(out))


def test_empty_inputs():
    empty = RunMatrix.from_arrays([], [], np.zeros((0, 0)))
    assert evaluate_arrays({"q": {"d": 2}}, empty, ["ndcg@10"]) == {"ndcg@10": {"q": 0.0}}
    assert evaluate_arrays({}, RunMatrix.from_run({"q": {"d": 1.0}}), ["ndcg@10"]) == {"ndcg@10": {}}
    no_docs = RunMatrix.from_arrays(["q"], [], np.zeros((1, 0)))
    assert evaluate_arrays({"q": {"d": 2}}, no_docs, ["mrr"], ties="trec") == {"mrr": {"q": 0.0}}


def test_inputs_are_copied_and_the_matrix_is_read_only():
    scores, columns = np.array([[1.0, 2.0]]), np.array([[0, -1]])
    matrix = RunMatrix.from_arrays(["q"], ["d"], scores, columns=columns)
    assert scores.tolist() == [[1.0, 2.0]] and columns.tolist() == [[0, -1]]
    with pytest.raises(ValueError):
        matrix.scores[0, 0] = 5.0
    assert np.isnan(matrix.scores[0, 1])  # padding ignores its score


def test_block_size_does_not_change_values(case, monkeypatch):
    from execir.metrics import positions

    qrels, run = case
    matrix = RunMatrix.from_run(run)
    whole = evaluate_arrays(qrels, matrix, MEASURES, ties="trec")
    monkeypatch.setattr(positions, "_BLOCK_CELLS", 1)
    assert evaluate_arrays(qrels, matrix, MEASURES, ties="trec") == whole


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((["q"], ["d"], [[np.nan]]), {}, "query 'q': a score is NaN"),
        ((["q", "q"], ["d"], [[1.0], [2.0]]), {}, "query ids must be unique"),
        ((["q"], ["d", "d"], [[1.0, 2.0]]), {}, "document ids must be unique"),
        ((["q"], ["d", "e"], [[1.0]]), {}, r"shape \(1, 2\)"),
        ((["q"], ["d", "e"], [[1.0, 2.0]]), {"columns": [[1, 1]]}, "query 'q' lists a document twice"),
        ((["q"], ["d"], [[1.0]]), {"columns": [[3]]}, "columns must index doc_ids"),
        ((["q"], ["d"], [[1.0]]), {"columns": [[0, 0]]}, "must have shape"),
        ((["q"], ["d"], [1.0]), {"columns": [0], "offsets": [0, 2]}, "offsets must have"),
        ((["q", "r"], ["d"], [1.0]), {"columns": [0], "offsets": [0, 2, 1]}, "non-decreasing"),
        ((["q"], ["d"], [[1.0]]), {"offsets": [0, 1]}, "ragged layout needs"),
    ],
)
def test_invalid_arrays_are_rejected_with_explicit_errors(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        RunMatrix.from_arrays(*args, **kwargs)


def test_measure_and_policy_errors_match_evaluate():
    matrix = RunMatrix.from_run({"q": {"d": 1.0}})
    with pytest.raises(ValueError, match="unknown measure"):
        evaluate_arrays({"q": {"d": 2}}, matrix, ["foo@1"])
    with pytest.raises(ValueError, match="tie policy"):
        evaluate_arrays({"q": {"d": 2}}, matrix, ["ndcg@10"], ties="optimistic")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sequence of names"):
        evaluate_arrays({"q": {"d": 2}}, matrix, "ndcg@10")
