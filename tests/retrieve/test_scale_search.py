"""Memory-bounded search returns what a full ranking cut to ``top_k`` returns."""

import random
import tracemalloc
from pathlib import Path

import bm25s
import numpy as np
import pytest

from execir.errors import ExecIRError
from execir.retrieve import BM25Retriever, CachingEncoder, DenseRetriever, HashingEncoder, HybridRetriever, rrf
from execir.retrieve import cache as cache_module
from execir.retrieve import dense as dense_module
from execir.retrieve import encoders as encoders_module
from execir.retrieve.bm25 import term_ids
from execir.retrieve.cache import EmbeddingCache
from execir.retrieve.tokenize import CodeTokenizer
from execir.retrieve.topk import to_run, top_k_matrix

WORDS = "sort list reverse string prime number count vowels sum digits max min parse date merge split".split()
KEY = {"model": "m", "revision": "r", "role": "document", "prompt": "", "max_seq_length": None, "normalize": True}


def texts(n: int, seed: int, words: int = 6) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, words))) for _ in range(n)]


def old_dense_run(qids: list[str], q: np.ndarray, doc_ids: list[str], d: np.ndarray, top_k: int) -> dict[str, dict[str, float]]:
    """The search before memory bounding: 256-query blocks, each against the whole corpus."""
    run: dict[str, dict[str, float]] = {}
    for start in range(0, q.shape[0], 256):
        scores = q[start : start + 256] @ d.T
        run.update(to_run(qids[start : start + 256], doc_ids, top_k_matrix(scores, top_k), scores))
    return run


def ordered(run: dict[str, dict[str, float]]) -> dict[str, list[tuple[str, float]]]:
    return {q: list(docs.items()) for q, docs in run.items()}


@pytest.mark.parametrize("top_k", [1, 10, 100, 700])
def test_dense_equals_previous_search_on_small_corpora(top_k: int) -> None:
    rng = np.random.default_rng(0)
    q = rng.standard_normal((300, 32), dtype=np.float32)
    d = rng.standard_normal((600, 32), dtype=np.float32)
    qids, doc_ids = [f"q{i:03d}" for i in range(300)], [f"d{i:04d}" for i in range(600)]
    assert dense_module.block_rows(len(doc_ids)) == dense_module.QUERY_CHUNK
    got = dense_module.search_embeddings(qids, q, doc_ids, d, top_k=top_k)
    assert ordered(got) == ordered(old_dense_run(qids, q, doc_ids, d, top_k))


def test_dense_small_blocks_keep_exact_ties(monkeypatch: pytest.MonkeyPatch) -> None:
    # integer-valued vectors: every dot product is exact in any summation order, with many ties
    rng = np.random.default_rng(1)
    q = rng.integers(-2, 3, (70, 8)).astype(np.float32)
    d = rng.integers(-2, 3, (900, 8)).astype(np.float32)
    qids, doc_ids = [f"q{i:02d}" for i in range(70)], [f"d{i:03d}" for i in range(900)]
    reference = {k: old_dense_run(qids, q, doc_ids, d, k) for k in (1, 5, 50, 900)}
    monkeypatch.setattr(dense_module, "SCORE_BUDGET_BYTES", 3 * 13 * 900)
    assert dense_module.block_rows(900) == 3
    for k, expected in reference.items():
        assert ordered(dense_module.search_embeddings(qids, q, doc_ids, d, top_k=k)) == ordered(expected)


def test_dense_small_blocks_float_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(2)
    q = rng.standard_normal((40, 16), dtype=np.float32)
    d = rng.standard_normal((500, 16), dtype=np.float32)
    qids, doc_ids = [f"q{i:02d}" for i in range(40)], [f"d{i:03d}" for i in range(500)]
    expected = old_dense_run(qids, q, doc_ids, d, 20)
    monkeypatch.setattr(dense_module, "SCORE_BUDGET_BYTES", 13 * 500)
    got = dense_module.search_embeddings(qids, q, doc_ids, d, top_k=20)
    for qid in qids:
        assert list(got[qid]) == list(expected[qid])
        assert np.allclose(list(got[qid].values()), list(expected[qid].values()), rtol=1e-6, atol=1e-6)


def test_block_rows_bounds_the_score_block(monkeypatch: pytest.MonkeyPatch) -> None:
    assert dense_module.block_rows(1_000_000) == 20
    assert dense_module.block_rows(10) == dense_module.QUERY_CHUNK
    assert dense_module.block_rows(10**12) == 1
    for n in (1, 999, 80_000, 1_000_000, 5_000_000):
        assert dense_module.block_rows(n) * n * 13 <= max(dense_module.SCORE_BUDGET_BYTES, n * 13)
    monkeypatch.setattr(dense_module, "SCORE_BUDGET_BYTES", 4 * 13 * 100)
    q, d = np.ones((50, 4), dtype=np.float32), np.ones((100, 4), dtype=np.float32)
    shapes = {scores.shape for _, scores in dense_module._chunks(q, d)}
    assert shapes == {(4, 100), (2, 100)}


def test_dense_retriever_search_matches_full_ranking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = {f"d{i:03d}": t for i, t in enumerate(texts(300, 3))}
    queries = {f"q{i:02d}": t for i, t in enumerate(texts(30, 4, words=3))}
    r = DenseRetriever(HashingEncoder(dim=32), cache_dir=tmp_path)
    r.index(corpus)
    full = r.search(queries, top_k=len(corpus))
    monkeypatch.setattr(dense_module, "SCORE_BUDGET_BYTES", 2 * 13 * 300)
    for k in (1, 7, 100):
        cut = r.search(queries, top_k=k)
        assert cut.keys() == full.keys()
        # smaller query blocks may round a float32 dot product differently in the last bit (BLAS
        # kernels treat a block's edge rows apart, differently on different CPUs): the same
        # documents in the same order, except that two whose full scores are that close may swap
        for q in cut:
            ranked, top = list(cut[q]), list(full[q])[:k]
            assert len(ranked) == k and all(np.isclose(cut[q][d], full[q][d], rtol=1e-6, atol=1e-7) for d in ranked)
            kth = full[q][top[-1]]
            assert {d for d in top if full[q][d] > kth + 1e-6} <= set(ranked)
            assert all(full[q][d] >= kth - 1e-6 for d in ranked)
            exact = [full[q][d] for d in ranked]
            assert all(a >= b - 1e-6 for a, b in zip(exact, exact[1:]))
            assert sum(a != b for a, b in zip(ranked, top)) <= 2 * sum(abs(a - b) <= 1e-6 for a, b in zip(exact, exact[1:]))


def test_bm25_term_ids_give_bm25s_token_scores_bit_for_bit() -> None:
    docs = texts(400, 5) + ["", "def parseHTTPResponse(sha256): return 10"]
    tok = CodeTokenizer()
    reference = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    reference.index(tok.tokenize_many(docs), show_progress=False)
    ids, vocab = term_ids(tok, docs)
    assert [[list(vocab)[i] for i in row] for row in ids] == tok.tokenize_many(docs)
    ours = BM25Retriever(progress=False)
    ours.index({f"d{i:03d}": t for i, t in enumerate(docs)})
    for query in ["sort the list", "count vowels in a string", "parse http response sha", "zebra", "max max min"]:
        assert ours.scores(query).tolist() == reference.get_scores(tok(query) or [""]).tolist()


def test_bm25_corpus_without_terms_is_a_clear_error() -> None:
    with pytest.raises(ExecIRError, match="none of the 2 documents has a term"):
        BM25Retriever(progress=False).index({"a": "", "b": "+ -"})


def test_bm25_top_k_is_the_full_ranking_cut() -> None:
    corpus = {f"d{i:03d}": t for i, t in enumerate(texts(500, 6))}  # few words: many exact ties
    queries = {f"q{i:02d}": t for i, t in enumerate(texts(20, 7, words=3))}
    r = BM25Retriever(progress=False)
    r.index(corpus)
    full = r.search(queries, top_k=len(corpus))
    for k in (1, 3, 50, 100):
        cut = r.search(queries, top_k=k)
        assert {q: list(v.items())[:k] for q, v in full.items()} == {q: list(v.items()) for q, v in cut.items()}


def test_hybrid_fuses_full_rankings_when_depth_covers_the_corpus() -> None:
    corpus = {f"d{i:03d}": t for i, t in enumerate(texts(120, 8))}
    queries = {f"q{i:02d}": t for i, t in enumerate(texts(10, 9, words=3))}
    bm25, dense = BM25Retriever(progress=False), DenseRetriever(HashingEncoder(dim=16))
    hybrid = HybridRetriever([bm25, dense])
    hybrid.index(corpus)
    full = rrf([bm25.search(queries, top_k=len(corpus)), dense.search(queries, top_k=len(corpus))])
    got = hybrid.search(queries, top_k=10)
    assert got == {q: dict(list(v.items())[:10]) for q, v in full.items()}
    shallow = HybridRetriever([bm25, dense], depth=5).search(queries, top_k=10)
    assert shallow == rrf([bm25.search(queries, top_k=10), dense.search(queries, top_k=10)], top_k=10)


def test_cache_lookup_reads_rows_across_shards_in_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache_module, "READ_BLOCK_ROWS", 3)
    cache = EmbeddingCache(tmp_path, KEY)
    words = [f"text {i}" for i in range(40)]
    vectors = np.arange(40 * 5, dtype=np.float32).reshape(40, 5)
    cache.put(words[:25], vectors[:25])
    cache.put(words[25:], vectors[25:])
    wanted = [words[i] for i in (39, 0, 7, 8, 30, 24, 24)] + ["absent", words[2]]
    fresh = EmbeddingCache(tmp_path, KEY)
    matrix, missing = fresh.lookup(wanted)
    assert missing == [7] and matrix is not None
    expected = vectors[[39, 0, 7, 8, 30, 24, 24, 0, 2]]
    expected[7] = 0
    assert (matrix == expected).all()
    assert EmbeddingCache(tmp_path / "empty", KEY).lookup(["a"]) == (None, [0])


def test_caching_encoder_chunks_misses_and_reads_them_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encoders_module, "ENCODE_CHUNK", 4)
    items = texts(30, 10) + ["dup", "dup"]
    direct = HashingEncoder(dim=16).encode(items, role="document")
    first = CachingEncoder(HashingEncoder(dim=16), tmp_path)
    assert (first.encode(items[:10], role="document") == direct[:10]).all()
    assert (first.encode(items, role="document") == direct).all()
    unique = len(set(items))
    assert first.encoded_texts == unique
    namespace = next(p for p in tmp_path.iterdir() if p.is_dir())
    assert len(list(namespace.glob("*.npy"))) == -(-len(set(items[:10])) // 4) + -(-(unique - len(set(items[:10]))) // 4)
    toy = HashingEncoder(dim=16)
    second = CachingEncoder(toy, tmp_path)
    assert (second.encode(items, role="document") == direct).all() and toy.calls == 0


def test_cached_corpus_costs_one_matrix_not_two(tmp_path: Path) -> None:
    rows, dim = 20_000, 384
    items = [f"document number {i}" for i in range(rows)]
    vectors = np.random.default_rng(0).standard_normal((rows, dim), dtype=np.float32)
    EmbeddingCache(tmp_path, KEY).put(items, vectors)
    cache = EmbeddingCache(tmp_path, KEY)
    tracemalloc.start()
    matrix, missing = cache.lookup(items)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert missing == [] and matrix is not None and (matrix == vectors).all()
    # the result, the hash index and a read block or two; loading the shard whole and stacking its
    # rows into the result (the way before) needs more than twice the matrix
    assert peak < 1.7 * vectors.nbytes
