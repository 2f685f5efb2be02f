"""Cross-encoder reranker: request pairs, pair order, label rule, and scores against CrossEncoder.predict."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from execir.dataset.spec import TASK_SPECS
from execir.errors import ExecIRError, MissingDependencyError
from execir.rerank.base import Reranker, RerankRequest
from execir.rerank.cross_encoder import _SCORED, CrossEncoderReranker, label_scores, local_model_dir, relevant_label
from execir.rerank.prompts import PAIR_ORDER_FILE, assemble, order_pair, parse_pair_order, plan_pairs, read_pair_order

from .conftest import make_tiny_cross_encoder

REQUEST = RerankRequest(
    queries={"q1": "sort a list", "q2": "add two numbers", "q3": "no candidates"},
    candidates={"q1": ("d1", "d2", "d3"), "q2": ("d3", "d1", "d2"), "q3": ()},
    documents={"d1": "def f(x):\n    return sorted(x)", "d2": "def g(a, b):\n    return a + b", "d3": "print('hi')", "d4": "unused"},
)


# ---- pairs of a request (pure) ----


def test_plan_pairs_scores_each_distinct_pair_once_and_maps_back() -> None:
    request = RerankRequest(
        queries={"a": "same", "b": "same", "c": "other"}, candidates={"a": ("x", "y", "x"), "b": ("y",), "c": ("x",)}, documents={"x": "doc", "y": "doc2"}
    )
    plan = plan_pairs(request)
    assert plan.texts == (("same", "doc"), ("same", "doc2"), ("other", "doc"))
    assert plan.pairs == 4
    assert assemble(plan, [0.5, 0.25, 1.0]) == {"a": {"x": 0.5, "y": 0.25}, "b": {"y": 0.25}, "c": {"x": 1.0}}


def test_plan_pairs_keeps_queries_without_candidates() -> None:
    plan = plan_pairs(REQUEST)
    assert list(plan.slots) == ["q1", "q2", "q3"]
    assert plan.slots["q3"] == ()
    assert assemble(plan, [0.0] * len(plan.texts))["q3"] == {}


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (RerankRequest(queries={"q": "t"}, candidates={"q": ("missing",)}, documents={}), "candidate 'missing' of query 'q'"),
        (RerankRequest(queries={}, candidates={"q": ("d",)}, documents={"d": "x"}), "query 'q' has candidates but no text"),
    ],
)
def test_plan_pairs_rejects_missing_text(request_: RerankRequest, message: str) -> None:
    with pytest.raises(ExecIRError, match=message):
        plan_pairs(request_)


def test_assemble_needs_one_score_per_pair() -> None:
    with pytest.raises(ValueError):
        assemble(plan_pairs(REQUEST), [1.0])


# ---- pair order (pure) ----


@pytest.mark.parametrize(
    ("task", "order", "expected"),
    [
        ("t2c-full", "query-document", ("Q", "D")),
        ("t2c-full", "text-code", ("Q", "D")),
        ("c2t", "query-document", ("Q", "D")),
        ("c2t", "text-code", ("D", "Q")),
        ("c2c", "text-code", ("Q", "D")),
    ],
)
def test_order_pair_puts_text_first_only_for_text_code_models(task: str, order: str, expected: tuple[str, str]) -> None:
    spec = TASK_SPECS[task]
    assert order_pair("Q", "D", order=order, query_kind=spec.query_kind, document_kind=spec.document_kind) == expected  # type: ignore[arg-type]


def test_parse_pair_order() -> None:
    assert parse_pair_order(None, "f") == "query-document"
    assert parse_pair_order('{"pair_order": "text-code", "base_model": "x"}', "f") == "text-code"
    assert parse_pair_order("{}", "f") == "query-document"
    with pytest.raises(ExecIRError, match="m/execir.json: field 'pair_order'"):
        parse_pair_order('{"pair_order": "code-text"}', "m/execir.json")
    with pytest.raises(ExecIRError, match="not valid JSON"):
        parse_pair_order("{", "f")
    with pytest.raises(ExecIRError, match="JSON object"):
        parse_pair_order('["text-code"]', "f")


def test_read_pair_order_from_model_directory(tmp_path: Path) -> None:
    assert read_pair_order(tmp_path) == "query-document"
    (tmp_path / PAIR_ORDER_FILE).write_text(json.dumps({"pair_order": "text-code"}))
    assert read_pair_order(tmp_path) == "text-code"


# ---- label rule, scores, paths (pure) ----


@pytest.mark.parametrize(
    ("id2label", "num_labels", "expected"),
    [
        ({0: "LABEL_0"}, 1, 0),
        ({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, 3, 2),
        ({0: "relevant", 1: "irrelevant"}, 2, 0),
        ({0: "not_relevant", 1: "Relevant"}, 2, 1),
        ({0: "contradiction", 1: "entailment", 2: "neutral"}, 3, 1),
        ({}, 2, 1),
    ],
)
def test_relevant_label(id2label: dict[int, str], num_labels: int, expected: int) -> None:
    assert relevant_label(id2label, num_labels) == expected


def test_label_scores() -> None:
    np.testing.assert_array_equal(label_scores(np.array([1.0, -2.0]), 0), [1.0, -2.0])
    np.testing.assert_array_equal(label_scores(np.array([[1.0], [-2.0]]), 0), [1.0, -2.0])
    logits = np.array([[0.0, 2.0], [3.0, -1.0], [1000.0, 0.0]])
    expected = [2.0 - np.log(1 + np.exp(2.0)), -1.0 - np.log(np.exp(3.0) + np.exp(-1.0)), -1000.0]
    np.testing.assert_allclose(label_scores(logits, 1), expected)


def test_local_model_dir(tmp_path: Path) -> None:
    assert local_model_dir(str(tmp_path)) == tmp_path
    assert local_model_dir("cross-encoder/ms-marco-MiniLM-L6-v2") is None
    (tmp_path / "file").write_text("x")
    with pytest.raises(ExecIRError, match="is a file"):
        local_model_dir(str(tmp_path / "file"))
    for missing in (str(tmp_path / "nope"), "./nope", "~/nope-execir", "a/b/c"):
        with pytest.raises(ExecIRError, match="does not exist"):
            local_model_dir(missing)


# ---- reranker without a model ----


def test_reranker_shape_and_errors_before_loading(tmp_path: Path) -> None:
    (tmp_path / "my-ce").mkdir()
    reranker = CrossEncoderReranker(str(tmp_path / "my-ce"), progress=False)
    assert isinstance(reranker, Reranker)
    assert reranker.name == "ce:my-ce"
    empty = RerankRequest(queries={"q": "text"}, candidates={"q": ()}, documents={})
    assert reranker.score(empty) == {"q": {}}  # nothing to score: the model is never loaded
    assert (reranker.stats().queries, reranker.stats().pairs) == (1, 0)
    assert reranker.config()["pair_order"] == "query-document"
    with pytest.raises(ExecIRError, match="batch size"):
        CrossEncoderReranker(str(tmp_path), batch_size=0)


def test_trained_model_folders_are_named_with_their_run() -> None:
    from execir.rerank.base import model_label

    assert [model_label(m) for m in ("models/mbpp/soup", "runs/a b/seed-1/", "models/mbpp/model", "BAAI/bge-reranker-base", "soup", "x/seed-x")] == [
        "mbpp-soup",
        "a-b-seed-1",
        "mbpp-model",
        "bge-reranker-base",
        "soup",
        "seed-x",
    ]


def test_two_rerankers_with_one_name_fail_before_any_work(tmp_path: Path) -> None:
    from execir.evaluate.config import EvalConfig
    from execir.evaluate.runner import eval_oracle, prepare_rerankers

    for run in ("a", "b"):
        (tmp_path / run / "x" / "ce").mkdir(parents=True)
    specs = (f"ce:{tmp_path / 'a' / 'x' / 'ce'}", f"ce:{tmp_path / 'b' / 'x' / 'ce'}")
    config = EvalConfig(dataset=tmp_path, out=tmp_path / "out", retrievers=("bm25",), reranks=specs)
    with pytest.raises(ExecIRError, match="both resolve to the reranker name 'ce:ce'"):
        prepare_rerankers(config, eval_oracle(config))


def test_missing_sentence_transformers_says_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(MissingDependencyError, match=r"execir\[rerank\]"):
        CrossEncoderReranker(str(tmp_path), progress=False).score(REQUEST)


# ---- with a tiny model (slow: loads torch and sentence-transformers) ----


def _predict(path: Path, pairs: list[tuple[str, str]], **kwargs: object) -> np.ndarray:
    import torch
    from sentence_transformers import CrossEncoder

    model = CrossEncoder(str(path))
    if "activation_fn" not in kwargs:
        kwargs["activation_fn"] = torch.nn.Identity()
    return np.asarray(model.predict(pairs, batch_size=4, show_progress_bar=False, **kwargs))


def _pairs(request: RerankRequest) -> list[tuple[str, str, str, str]]:
    return [(qid, doc, request.queries[qid], request.documents[doc]) for qid, docs in request.candidates.items() for doc in docs]


@pytest.mark.slow
def test_scores_are_cross_encoder_logits(tiny_cross_encoder: Path) -> None:
    reranker = CrossEncoderReranker(str(tiny_cross_encoder), progress=False)
    scores = reranker.score(REQUEST)
    assert {q: set(docs) for q, docs in scores.items()} == {q: set(docs) for q, docs in REQUEST.candidates.items()}
    rows = _pairs(REQUEST)
    expected = _predict(tiny_cross_encoder, [(q, d) for _, _, q, d in rows])
    np.testing.assert_allclose([scores[qid][doc] for qid, doc, _, _ in rows], expected, rtol=1e-5, atol=1e-5)
    assert len(set(expected.round(4))) > 1  # the tiny model does tell pairs apart
    sigmoid = _predict(tiny_cross_encoder, [(q, d) for _, _, q, d in rows], activation_fn=None)
    np.testing.assert_allclose(1 / (1 + np.exp(-expected)), sigmoid, rtol=1e-5)  # the default predict orders alike
    stats = reranker.stats()
    assert (stats.queries, stats.pairs, stats.extra["unique_pairs"]) == (3, 6, 6)
    config = reranker.config()
    assert (config["score"], config["num_labels"], config["batch_size"], config["pair_order"]) == ("logit", 1, 32, "query-document")
    assert str(config["revision"]).startswith("sha256:")


@pytest.mark.slow
def test_batch_size_and_repetition_do_not_change_scores(tiny_cross_encoder: Path) -> None:
    _SCORED.clear()
    one = CrossEncoderReranker(str(tiny_cross_encoder), batch_size=1, progress=False).score(REQUEST)
    _SCORED.clear()  # score again, in one batch
    many = CrossEncoderReranker(str(tiny_cross_encoder), batch_size=32, progress=False)
    first, again = many.score(REQUEST), many.score(REQUEST)
    assert first == again
    for qid, row in one.items():
        np.testing.assert_allclose([row[d] for d in row], [first[qid][d] for d in row], rtol=1e-5, atol=1e-5)


@pytest.mark.slow
def test_a_pair_is_scored_once_per_process_across_instances(tiny_cross_encoder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _SCORED.clear()
    first = CrossEncoderReranker(str(tiny_cross_encoder), progress=False).score(REQUEST)
    second = CrossEncoderReranker(str(tiny_cross_encoder), progress=False)  # as in `ce:M` beside `exec+ce:M`
    second._load()
    monkeypatch.setattr(second._encoder, "predict", lambda *a, **k: pytest.fail("scored again"))
    assert second.score(REQUEST) == first


@pytest.mark.slow
def test_text_code_model_gets_text_first_for_code_to_text(tiny_cross_encoder: Path, tmp_path: Path) -> None:
    model = shutil.copytree(tiny_cross_encoder, tmp_path / "ce")
    (model / PAIR_ORDER_FILE).write_text(json.dumps({"pair_order": "text-code"}))
    request = RerankRequest(
        queries={"q": "def f(x):\n    return x"}, candidates={"q": ("a", "b")}, documents={"a": "Return the input.", "b": "Return nothing."}
    )
    reranker = CrossEncoderReranker(str(model), progress=False)
    reranker.use_task(TASK_SPECS["c2t"])
    scores = reranker.score(request)
    swapped = _predict(model, [(request.documents[d], request.queries["q"]) for d in ("a", "b")])
    np.testing.assert_allclose([scores["q"]["a"], scores["q"]["b"]], swapped, rtol=1e-5, atol=1e-5)
    straight = _predict(model, [(request.queries["q"], request.documents[d]) for d in ("a", "b")])
    assert not np.allclose(swapped, straight)
    assert reranker.config()["pair_order"] == "text-code"


@pytest.mark.slow
def test_two_label_head_scores_the_relevant_label(tmp_path: Path) -> None:
    model = make_tiny_cross_encoder(tmp_path / "ce2", num_labels=2, id2label={0: "relevant", 1: "irrelevant"})
    reranker = CrossEncoderReranker(str(model), progress=False)
    scores = reranker.score(REQUEST)
    rows = _pairs(REQUEST)
    logits = _predict(model, [(q, d) for _, _, q, d in rows])
    assert logits.shape == (len(rows), 2)
    expected = logits[:, 0] - np.log(np.exp(logits).sum(axis=1))
    np.testing.assert_allclose([scores[qid][doc] for qid, doc, _, _ in rows], expected, rtol=1e-5, atol=1e-5)
    assert reranker.config()["score"] == "log_softmax[0]"


@pytest.mark.slow
def test_directory_without_a_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ExecIRError, match="cannot load cross-encoder"):
        CrossEncoderReranker(str(tmp_path), progress=False).score(REQUEST)
