"""Encoding and sharded exact search on a real 2-node Ray cluster (one per module): equality with the
local dense retriever (runs, scores, ties across shards, TREC files), cache misses only, and a driver
that never receives the document matrix."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")

from ray.cluster_utils import Cluster  # noqa: E402

from execir.cli import build_parser  # noqa: E402
from execir.dataset import load_dataset  # noqa: E402
from execir.dataset.records import Document, FolderRecords, Query  # noqa: E402
from execir.dataset.splits import SplitPlan  # noqa: E402
from execir.dataset.write import write_folder  # noqa: E402
from execir.distributed_retrieve import encode as ray_encode  # noqa: E402
from execir.distributed_retrieve.encode import EncodeOptions  # noqa: E402
from execir.distributed_retrieve.options import ray_retrievers  # noqa: E402
from execir.distributed_retrieve.retriever import RayDenseRetriever, RayRetrieveOptions  # noqa: E402
from execir.distributed_retrieve.search import ShardedIndex, copy_plan, merge_top_k, shard_bounds  # noqa: E402
from execir.evaluate.config import EvalConfig  # noqa: E402
from execir.evaluate.runner import run_evaluation  # noqa: E402
from execir.retrieve import DenseRetriever, HashingEncoder  # noqa: E402
from execir.retrieve.cache import EmbeddingCache  # noqa: E402
from execir.retrieve.dense import identical_rows, search_embeddings  # noqa: E402
from execir.retrieve.fusion import HybridRetriever  # noqa: E402

MiB = 1 << 20
OPTIONS = RayRetrieveOptions(encode=EncodeOptions(actors=2, num_cpus=0.5, batch_size=8), shards=2, search_cpus=0.5)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """Two logical nodes of one CPU each (no dashboard, small object stores), shared by the module."""
    nodes = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False, "object_store_memory": 80 * MiB})
    nodes.add_node(num_cpus=1, object_store_memory=80 * MiB)
    nodes.wait_for_nodes()
    ray.init(address=nodes.address, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    try:
        yield nodes
    finally:
        ray.shutdown()
        nodes.shutdown()


WORDS = "sort list reverse string prime number sum digits count vowels max min merge split join filter map".split()


def corpus(n: int, seed: int = 0) -> dict[str, str]:
    """``n`` documents of random words; every 7th repeats an earlier one's words in another order and
    case (the hashing encoder gives it the identical vector), under an id that sorts far from it."""
    rng = np.random.default_rng(seed)
    docs = {f"d{i:05d}": " ".join(rng.choice(WORDS, size=5)) for i in range(n)}
    for i in range(0, n, 7):
        words = docs[f"d{i:05d}"].split()
        docs[f"z{i:05d}"] = " ".join(w.upper() for w in reversed(words))
    return docs


QUERIES = {f"q{i}": " ".join(WORDS[i : i + 3]) for i in range(12)}


def test_shard_bounds_cover_and_align() -> None:
    assert shard_bounds(10, 3) == [(0, 3), (3, 7), (7, 10)]
    assert shard_bounds(2, 5) == [(0, 1), (1, 2)]
    big = shard_bounds(100_000, 3)
    assert big[0][0] == 0 and big[-1][1] == 100_000 and all(hi % 256 == 0 for _, hi in big[:-1])


def test_merge_breaks_cross_shard_ties_by_global_index() -> None:
    left = (np.array([[0.5, 0.25]], dtype=np.float32), np.array([[7, 1]]))
    right = (np.array([[0.5, 0.5]], dtype=np.float32), np.array([[3, 9]]))
    scores, idx = merge_top_k([left, right], 3)
    assert idx.tolist() == [[3, 7, 9]] and scores.tolist() == [[0.5, 0.5, 0.5]]


def test_copy_plan_moves_copies_to_their_originals_shard() -> None:
    digests = [np.array([[1], [2]], dtype=np.uint8), np.array([[2], [1], [3], [3]], dtype=np.uint8)]
    plan = copy_plan(digests, [(0, 2), (2, 6)])
    assert [p[0].tolist() for p in plan] == [[], [2, 3, 5]]  # rows copying an earlier row leave their shard
    assert [(p[1].tolist(), p[2].tolist()) for p in plan] == [([2, 3], [1, 0]), ([5], [4])]


def test_sharded_search_equals_local_with_cross_shard_tie(cluster: Cluster, tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    docs = rng.standard_normal((3000, 48)).astype(np.float32)
    docs[2000] = docs[10]  # identical vectors on both sides of the shard boundary
    docs[2999] = docs[10]
    docs[1535] = docs[1536]  # and straddling it (shard boundaries are multiples of 256 rows)
    queries = rng.standard_normal((20, 48)).astype(np.float32)
    queries[0] = docs[10]
    texts = [f"doc {i}" for i in range(docs.shape[0])]
    key = {"model": "random", "role": "document"}
    EmbeddingCache(tmp_path, key).put(texts, docs)
    ids = [f"d{i:05d}" for i in range(docs.shape[0])]
    qids = [f"q{i:02d}" for i in range(queries.shape[0])]
    local = search_embeddings(qids, queries, ids, docs, top_k=25, same=identical_rows(docs))
    index = ShardedIndex(tmp_path, key, texts, shards=2, num_cpus=0.5)
    try:
        assert index.bounds == [(0, 1536), (1536, 3000)] and index.copies == 3
        assert {i["node_id"] for i in index.infos} == {n["NodeID"] for n in ray.nodes() if n["Alive"]}  # one shard per node
        scores, idx = index.search(queries, 25)
    finally:
        index.close()
    for row, qid in enumerate(qids):
        assert [ids[i] for i in idx[row]] == list(local[qid]), qid
        assert scores[row].tolist() == list(local[qid].values()), qid  # bitwise: float32 -> float is exact
    assert idx[0, :3].tolist() == [10, 2000, 2999]  # the tie across shards, by global index


def _arrays(value: Any) -> Iterator[np.ndarray]:
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _arrays(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _arrays(item)


def _spy_on_driver(monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Shapes of every array the driver gets from ``ray.get``, and of every encoded batch it streams back."""
    received: list[tuple[int, ...]] = []
    batches: list[tuple[int, ...]] = []
    real_get, real_rows = ray.get, ray_encode.encode_rows

    def get_spy(refs: Any, *args: Any, **kwargs: Any) -> Any:
        value = real_get(refs, *args, **kwargs)
        received.extend(a.shape for a in _arrays(value))
        return value

    def rows_spy(*args: Any, **kwargs: Any) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        for rows, vectors in real_rows(*args, **kwargs):
            batches.append(vectors.shape)
            yield rows, vectors

    monkeypatch.setattr(ray, "get", get_spy)
    monkeypatch.setattr(ray_encode, "encode_rows", rows_spy)
    monkeypatch.setattr(ray_encode, "ENCODE_CHUNK", 64)  # cache shards of 64 rows: the driver holds at most that many
    return received, batches


def test_ray_retriever_equals_local_encodes_misses_only_and_driver_never_holds_the_matrix(
    cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = corpus(400)
    n = len(docs)
    local = DenseRetriever(HashingEncoder(32), cache_dir=tmp_path / "local")
    remote = RayDenseRetriever(HashingEncoder(32), cache_dir=tmp_path / "ray", options=OPTIONS)
    local.index(docs)
    received, batches = _spy_on_driver(monkeypatch)
    remote.index(docs)
    queries = {**QUERIES, "q_same": QUERIES["q3"]}  # a repeated text is encoded once and shares its vector
    got = remote.search(queries, top_k=30)
    monkeypatch.undo()
    expected = local.search(queries, top_k=30)
    assert got == expected and [list(r) for r in got.values()] == [list(r) for r in expected.values()]  # ids, scores, order
    assert remote.last_search["identical_rows_moved"] > 0 and remote.last_search["shards"] == 2
    assert remote.encoded_texts == len(set(docs.values())) + len(QUERIES) and remote.encoder.stats.runs == 2  # documents, then queries
    # the driver: encoded batches and cache shards smaller than the pool, only (queries, k) results and half-pool digests from actors
    assert batches and max(s[0] for s in batches) < n and remote.encoder.stats.max_rows_held < 64 + OPTIONS.encode.batch_size
    assert remote.encoder.stats.shards_written >= n // 64 - 1
    assert (len(queries), 30) in received and all(len(s) < 2 or s[0] <= n // 2 for s in received), received
    assert all(len(s) < 2 or s[1] != 32 for s in received if s != (len(queries), 32)), received  # no document vectors at all
    assert not any(isinstance(v, np.ndarray) and v.ndim == 2 and v.shape[0] >= n for v in vars(remote).values())
    again = RayDenseRetriever(HashingEncoder(32), cache_dir=tmp_path / "ray", options=OPTIONS)
    again.index(docs)
    assert again.encoded_texts == 0 and again.encoder.stats.runs == 0  # a second run: Ray Data never ran
    more = {**docs, "new1": "brand new words here", "new2": "another fresh text"}
    again.index(more)
    assert again.encoded_texts == 2 and again.encoder.stats.texts == 2  # only the two misses
    local.index(more)
    assert again.search(QUERIES, top_k=30) == local.search(QUERIES, top_k=30)
    assert again.encoded_texts == 2  # the queries came from the cache


def test_eval_through_ray_writes_the_same_trec_runs(cluster: Cluster, tmp_path: Path) -> None:
    folder = _bigger_dataset(tmp_path / "ds")
    outs = {}
    for mode in ("local", "ray"):
        config = EvalConfig(dataset=folder, out=tmp_path / mode, retrievers=("dense", "hybrid"), bootstrap_resamples=50, progress=False, depth=20)
        dense = DenseRetriever(HashingEncoder(32), cache_dir=tmp_path / f"cache-{mode}")
        hybrid = HybridRetriever([_bm25(), DenseRetriever(HashingEncoder(32), cache_dir=tmp_path / f"cache-{mode}")])
        retrievers: dict[str, Any] = {"dense": dense, "hybrid": hybrid}
        if mode == "ray":  # what `execir eval --ray ADDRESS --encode-actors 2 ...` does with the parsed arguments
            argv = ["eval", str(folder), "--out", str(config.out), "--ray", cluster.address, "--encode-actors", "2", "--encode-cpus", "0.5"]
            args = build_parser().parse_args([*argv, "--encode-batch", "8", "--search-shards", "2"])
            retrievers = ray_retrievers(retrievers, args)
            assert isinstance(retrievers["dense"], RayDenseRetriever) and isinstance(retrievers["hybrid"].parts[1], RayDenseRetriever)
        run_evaluation(config, retrievers, {})
        outs[mode] = tmp_path / mode
    local_runs = sorted(p.name for p in (outs["local"] / "runs").glob("*.trec"))
    assert local_runs == sorted(p.name for p in (outs["ray"] / "runs").glob("*.trec")) and len(local_runs) == 2
    for name in local_runs:
        assert (outs["local"] / "runs" / name).read_bytes() == (outs["ray"] / "runs" / name).read_bytes(), name

    local_json = json.loads((outs["local"] / "results.json").read_text())
    ray_json = json.loads((outs["ray"] / "results.json").read_text())
    assert "distributed" not in local_json
    section = ray_json["distributed"]
    assert section["ray_version"] == ray.__version__ and len(section["nodes"]) == 2
    assert set(section["retrievers"]) == {"dense-hashing-32"} and section["retrievers"]["dense-hashing-32"]["search"]["shards"] == 2
    assert ray_json["systems"]["dense-hashing-32"]["metrics"] == local_json["systems"]["dense-hashing-32"]["metrics"]


def _bm25() -> Any:
    from execir.retrieve import BM25Retriever

    return BM25Retriever(progress=False)


def _bigger_dataset(root: Path) -> Path:
    """A t2c-description folder of 12 problems, each with a canonical and 3 mutants (one reordered
    copy of the canonical's words under an id that sorts far away: an exact tie across shards)."""
    rng = np.random.default_rng(3)
    documents, queries, qrels, plan = [], [], [], {}
    for t in range(12):
        task = f"t{t:02d}"
        words = list(rng.choice(WORDS, size=6))
        texts = {
            f"{task}-c": " ".join(words),
            f"{task}-m1": " ".join(words[:-1] + ["split"]),
            f"{task}-m2": " ".join(words[1:]),
            f"z{task}-m3": " ".join(reversed(words)),
        }
        for doc_id, text in texts.items():
            canonical = doc_id.endswith("-c")
            kind, grade, verdict = ("canonical", 2, "PASS") if canonical else ("mutant", 1, "FAIL")
            documents.append(Document(doc_id, text, task, task, kind, "python", grade, operator="" if canonical else "op", verdict=verdict))
            qrels.append((task, doc_id, 2 if canonical else 1))
        queries.append(Query(task, " ".join(words[:3]), task, task, "t2c-description", "description", "python"))
        plan[task] = "test"
    records = FolderRecords("toy", "t2c-description", "python", tuple(documents), tuple(queries), tuple(qrels))
    write_folder(root, records, SplitPlan(0, (0.0, 0.0, 1.0), plan), {"source": {"name": "toy"}})
    load_dataset(root)
    return root


def test_a_shard_whose_rows_are_not_in_the_cache_is_refused_clearly(cluster: Cluster, tmp_path: Path) -> None:
    from execir.errors import ExecIRError

    EmbeddingCache(tmp_path, {"model": "m"}).put(["a", "b"], np.eye(2, dtype=np.float32))
    with pytest.raises(
        ExecIRError, match="^sharded search failed: search shard at row 2: 1 of its 2 documents are not in the embedding cache .* storage every node sees"
    ):
        ShardedIndex(tmp_path, {"model": "m"}, ["a", "b", "c", "a"], shards=2, num_cpus=0.5)
