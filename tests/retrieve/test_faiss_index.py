"""faiss indexes: deterministic builds, recall of exact search, the tie policy, parameter checks."""

from __future__ import annotations

import numpy as np
import pytest

from execir.errors import ExecIRError
from execir.retrieve.dense import DenseRetriever, top_k_embeddings
from execir.retrieve.encoders import HashingEncoder
from execir.retrieve.indexed import IndexedRetriever, expand_copies

pytest.importorskip("faiss")

from execir.retrieve.faiss_index import FaissIndex, IndexSpec, parse_index_spec  # noqa: E402


def _unit(rows: int, dim: int, seed: int) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal((rows, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


DOCS = _unit(3000, 32, 1)
QUERIES = _unit(50, 32, 2)
_, EXACT = top_k_embeddings(QUERIES, DOCS, 10)


def _recall(ids: np.ndarray) -> float:
    return float(np.mean([len(set(a) & set(b)) / len(b) for a, b in zip(ids.tolist(), EXACT.tolist())]))


@pytest.mark.parametrize(
    ("spec", "floor"),
    [("hnsw,efSearch=64", 0.95), ("ivf,nlist=30,nprobe=30", 0.999), ("ivf,nlist=30,nprobe=3", 0.3), ("sq8", 0.9), ("ivfpq,nlist=8,m=8,nprobe=8", 0.2)],
)
def test_recall_of_exact_on_random_vectors(spec: str, floor: float) -> None:
    index = FaissIndex(parse_index_spec(spec, spec), DOCS)
    scores, ids = index.search(QUERIES, 10)
    assert _recall(ids) >= floor
    assert np.all(np.diff(scores, axis=1) <= 1e-6)  # best first


def test_ivf_probing_every_list_is_exact_and_fewer_lists_lose_recall() -> None:
    full = FaissIndex(parse_index_spec("ivf,nlist=30,nprobe=30", "t"), DOCS).search(QUERIES, 10)[1]
    one = FaissIndex(parse_index_spec("ivf,nlist=30,nprobe=1", "t"), DOCS).search(QUERIES, 10)[1]
    assert _recall(full) == 1.0
    assert _recall(one) < 1.0


@pytest.mark.parametrize("spec", ["hnsw,M=8", "ivf,nlist=20", "ivfpq,nlist=8,m=4", "sq8"])
def test_two_builds_give_identical_results(spec: str) -> None:
    first = FaissIndex(parse_index_spec(spec, spec), DOCS, seed=3)
    second = FaissIndex(parse_index_spec(spec, spec), DOCS, seed=3)
    s1, i1 = first.search(QUERIES, 20)
    s2, i2 = second.search(QUERIES, 20)
    assert np.array_equal(i1, i2) and np.array_equal(s1, s2)
    assert first.memory_bytes == second.memory_bytes > 0


def test_hnsw_honours_a_depth_beyond_ef_search() -> None:
    index = FaissIndex(IndexSpec("hnsw", (("efSearch", 4),)), DOCS)
    _, ids = index.search(QUERIES[:3], 100)
    assert (ids >= 0).all()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ivf,nlist=5000", "nlist=5000 needs at least 5000 documents"),
        ("ivfpq,m=5", "m=5 must divide the embedding dimension 32"),
        ("ivfpq,nbits=12", "needs at least 4096"),
    ],
)
def test_parameters_are_checked_against_the_data(spec: str, message: str) -> None:
    with pytest.raises(ExecIRError, match=message):
        FaissIndex(parse_index_spec(spec, spec), DOCS)


def test_copies_share_their_original_score_and_sort_by_row() -> None:
    rows, scores = expand_copies(np.array([1, 0, -1]), np.array([0.9, 0.5, 0.0], dtype=np.float32), np.array([2, 5]), {5: [1], 2: [7]}, 3)
    assert rows == [1, 5, 2]
    assert scores[0] == scores[1] > scores[2]


CORPUS = {
    "a": "sum of two numbers add",
    "b": "sum of two numbers add",  # identical to a: must tie exactly with it
    "c": "largest element of a list",
    "d": "reverse a string",
    "e": "count vowels in a word",
}


def test_indexed_retriever_ties_identical_documents_like_exact_search() -> None:
    retriever = IndexedRetriever(DenseRetriever(HashingEncoder(16)), IndexSpec("hnsw"))
    retriever.index(CORPUS)
    queries = {"q1": "add two numbers", "q2": "list largest"}
    run = retriever.search(queries, top_k=5)
    exact = retriever.exact_search(queries, top_k=5)
    assert run["q1"]["a"] == run["q1"]["b"]
    assert list(run["q1"])[:2] == ["a", "b"]
    assert {q: list(d) for q, d in run.items()} == {q: list(d) for q, d in exact.items()}
    stats = retriever.stats()
    assert (stats.documents, stats.indexed_vectors, stats.queries) == (5, 4, 2)
    assert retriever.config()["index"]["params"]["M"] == 32
