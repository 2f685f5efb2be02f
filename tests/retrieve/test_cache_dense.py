import json
from pathlib import Path

import numpy as np
import pytest

from execir.errors import ExecIRError
from execir.retrieve import CachingEncoder, DenseRetriever, HashingEncoder
from execir.retrieve.cache import EmbeddingCache, namespace_of
from execir.retrieve.dense import top_k_embeddings

CORPUS = {
    "d1": "sort a list of numbers ascending",
    "d2": "reverse a string of characters",
    "d3": "check if a number is prime",
    "d4": "check if a number is prime",
}
QUERIES = {"q1": "reverse string", "q2": "prime number check"}
BASE = {"model": "m", "revision": "r", "role": "query", "prompt": "", "max_seq_length": 256, "normalize": True}


@pytest.mark.parametrize(
    "change",
    [{"role": "document"}, {"prompt": "query: "}, {"model": "m2"}, {"max_seq_length": 512}, {"revision": "r2"}, {"normalize": False}],
)
def test_namespace_changes_with_every_key_field(change: dict[str, object]) -> None:
    assert namespace_of(BASE) != namespace_of({**BASE, **change})
    assert namespace_of(BASE) == namespace_of(dict(reversed(list(BASE.items()))))


def test_toy_encoder_key_tracks_role_and_prompt() -> None:
    enc = HashingEncoder(query_prompt="query: ")
    assert namespace_of(enc.cache_key("query")) != namespace_of(enc.cache_key("document"))
    assert namespace_of(enc.cache_key("query")) != namespace_of(HashingEncoder().cache_key("query"))


def test_cache_roundtrip_no_pickle(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path, BASE)
    vectors = np.arange(6, dtype=np.float32).reshape(2, 3)
    cache.put(["a", "b"], vectors)
    fresh = EmbeddingCache(tmp_path, BASE)
    found, missing = fresh.get(["b", "c", "a"])
    assert missing == [1]
    assert found[0].tolist() == [3, 4, 5] and found[2].tolist() == [0, 1, 2]  # type: ignore[union-attr]
    assert json.loads((fresh.dir / "namespace.json").read_text()) == BASE
    for npy in fresh.dir.glob("*.npy"):
        np.load(npy, allow_pickle=False)
    assert not list(tmp_path.rglob("*.tmp"))
    assert EmbeddingCache(tmp_path, {**BASE, "role": "document"}).get(["a"])[1] == [0]


def test_second_run_encodes_nothing(tmp_path: Path) -> None:
    first = DenseRetriever(HashingEncoder(), cache_dir=tmp_path)
    first.index(CORPUS)
    run1 = first.search(QUERIES, top_k=2)
    assert first.encoded_texts == 3 + 2  # duplicate document text encoded once
    toy = HashingEncoder()
    second = DenseRetriever(toy, cache_dir=tmp_path)
    second.index(CORPUS)
    assert second.search(QUERIES, top_k=2) == run1
    assert second.encoded_texts == 0 and toy.calls == 0
    other_prompt = DenseRetriever(HashingEncoder(query_prompt="query: "), cache_dir=tmp_path)
    other_prompt.index(CORPUS)
    other_prompt.search(QUERIES, top_k=2)
    assert other_prompt.encoded_texts == 2  # documents shared, queries re-encoded


def test_dense_ranking_ties_and_scores() -> None:
    r = DenseRetriever(HashingEncoder(dim=256))
    r.index(CORPUS)
    assert r.name == "dense-hashing-256"
    run = r.search(QUERIES, top_k=10)
    assert list(run["q1"])[0] == "d2"
    assert list(run["q2"])[:2] == ["d3", "d4"] and run["q2"]["d3"] == run["q2"]["d4"]
    assert len(run["q1"]) == len(CORPUS)
    qids, doc_ids, scores = r.score_matrix(QUERIES)
    assert qids == ["q1", "q2"] and doc_ids == sorted(CORPUS)
    assert run["q1"]["d2"] == float(scores[0, 1])
    assert r.search({}, top_k=3) == {}


def test_errors_and_config() -> None:
    r = DenseRetriever(HashingEncoder())
    with pytest.raises(ExecIRError):
        r.search(QUERIES, top_k=1)
    with pytest.raises(ExecIRError):
        r.index({})
    assert json.loads(json.dumps(r.config()))["encoder"]["query"]["role"] == "query"


def test_top_k_embeddings_exact() -> None:
    rng = np.random.default_rng(1)
    q = rng.standard_normal((20, 8)).astype(np.float32)
    d = rng.standard_normal((500, 8)).astype(np.float32)
    scores, idx = top_k_embeddings(q, d, 10)
    ref = np.argsort(-(q @ d.T), axis=1, kind="stable")[:, :10]
    assert (idx == ref).all() and np.allclose(scores, np.take_along_axis(q @ d.T, ref, 1))


def test_caching_encoder_without_cache_dir() -> None:
    enc = CachingEncoder(HashingEncoder(), None)
    assert enc.encode(["a", "a", "b"], role="query").shape == (3, 64)
    assert enc.encoded_texts == 2
