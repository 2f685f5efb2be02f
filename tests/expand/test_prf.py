"""RM3 term weights on a hand-computed corpus, weighted BM25 scoring, and Rocchio's arithmetic."""

from __future__ import annotations

import numpy as np
import pytest

from execir.expand.expansions import rm3_search, rocchio_search
from execir.expand.rm3 import feedback_term_filter, interpolate, query_model, relevance_model, rm3_query
from execir.expand.rocchio import rocchio
from execir.retrieve import BM25Retriever, DenseRetriever, HashingEncoder

FEEDBACK = [{"sort": 2, "list": 1, "key": 1}, {"sort": 1, "merge": 1}]
SCORES = [2.0, 1.0]


def test_relevance_model_by_hand() -> None:
    # sort: 2/4*2 + 1/2*1 = 1.5; list, key, merge: 0.5 each -> top 3 (ties by term): sort, key, list; / 2.5
    model = relevance_model(FEEDBACK, SCORES, fb_terms=3)
    assert model == pytest.approx({"sort": 0.6, "key": 0.2, "list": 0.2})


def test_rm3_query_by_hand() -> None:
    # query model: sort 2/3, array 1/3; mixed half and half with the relevance model above
    weights = rm3_query(["sort", "sort", "array"], [(["sort", "sort", "list", "key"], 2.0), (["sort", "merge"], 1.0)], fb_terms=3, orig_weight=0.5)
    assert weights == pytest.approx({"array": 1 / 6, "key": 0.1, "list": 0.1, "sort": 1 / 3 + 0.3})
    assert sum(weights.values()) == pytest.approx(1.0)
    assert list(weights) == sorted(weights)


def test_interpolation_extremes_and_query_model() -> None:
    assert query_model(["a", "b", "b", "b"]) == {"a": 0.25, "b": 0.75}
    assert interpolate({"a": 1.0}, {"b": 1.0}, 1.0) == {"a": 1.0, "b": 0.0}
    assert interpolate({"a": 1.0}, {"b": 1.0}, 0.0) == {"a": 0.0, "b": 1.0}


def test_feedback_terms_follow_anserini_rules() -> None:
    df = {"sort": 9, "list": 1, "x": 1, "k" * 21: 1}.get
    keep = feedback_term_filter(lambda t: df(t) or 0, 10, 0.5)
    assert [t for t in ("sort", "list", "x", "k" * 21) if keep(t)] == ["list"]
    filtered = relevance_model(FEEDBACK, SCORES, fb_terms=10, keep=lambda t: t != "sort")
    assert filtered == pytest.approx({"list": 0.5 / 1.5, "key": 0.5 / 1.5, "merge": 0.5 / 1.5})


def test_zero_scores_leave_the_query_alone() -> None:
    assert rm3_query(["sort"], [(["list"], 0.0)], fb_terms=5, orig_weight=0.5) == {"sort": 0.5}


CORPUS = {
    "a": "def quick_sort(items): pivot partition",
    "b": "def partition(items, pivot): swap",
    "c": "def read_file(path): open",
    "d": "def write_file(path, text): open",
}


def test_weighted_bm25_matches_bm25s_and_scales() -> None:
    bm25 = BM25Retriever(progress=False)
    bm25.index(CORPUS)
    plain = bm25.scores("quick sort pivot")
    unit = bm25.weighted_scores({"quick": 1.0, "sort": 1.0, "pivot": 1.0, "unindexed": 5.0})
    np.testing.assert_allclose(unit, plain, rtol=1e-6)
    np.testing.assert_allclose(bm25.weighted_scores({"pivot": 2.0}), 2 * bm25.scores("pivot"), rtol=1e-6)
    assert bm25.document_frequency("pivot") == 2 and bm25.document_frequency("nothing") == 0


def test_rm3_search_reaches_documents_without_query_terms() -> None:
    bm25 = BM25Retriever(progress=False)
    bm25.index(CORPUS)
    queries = {"q": "quick sort"}
    assert bm25.search(queries, top_k=4)["q"]["b"] == 0.0
    run, records = rm3_search(bm25, CORPUS, queries, {"fb_docs": 1, "fb_terms": 10, "orig_weight": 0.5, "max_df": 0.5}, top_k=4)
    assert list(run["q"])[:2] == ["a", "b"] and run["q"]["b"] > 0 and run["q"]["c"] == 0.0
    assert records[0]["feedback_docs"] == ["a"] and records[0]["weights"]["pivot"] > 0
    assert "def" not in records[0]["weights"]  # in every document: above max_df, not a feedback term


def test_rocchio_by_hand() -> None:
    out = rocchio(np.array([1.0, 0.0], dtype=np.float32), np.array([[0.0, 1.0], [0.0, 1.0]], dtype=np.float32), alpha=0.4, beta=0.6)
    np.testing.assert_allclose(out, np.array([0.4, 0.6]) / np.hypot(0.4, 0.6), rtol=1e-6)
    np.testing.assert_allclose(rocchio(np.array([3.0, 4.0]), np.zeros((0, 2)), alpha=1.0, beta=1.0), [0.6, 0.8], rtol=1e-6)
    with pytest.raises(ValueError, match="feedback must be"):
        rocchio(np.zeros(2), np.zeros((1, 3)), alpha=1, beta=1)


def test_rocchio_search_uses_the_top_k_cached_vectors() -> None:
    dense = DenseRetriever(HashingEncoder(dim=32))
    dense.index(CORPUS)
    queries = {"q": "pivot partition items"}
    run, records = rocchio_search(dense, queries, {"k": 2, "alpha": 0.4, "beta": 0.6}, top_k=4)
    qids, q = dense.encode_queries(queries)
    top = [dense.doc_ids.index(d) for d in records[0]["feedback_docs"]]
    assert records[0]["feedback_docs"] == list(dense.search(queries, top_k=2)["q"])
    expected = rocchio(q[0], dense.doc_embeddings[top], alpha=0.4, beta=0.6) @ dense.doc_embeddings.T
    assert run["q"] == pytest.approx({d: float(expected[dense.doc_ids.index(d)]) for d in run["q"]}, rel=1e-5)
