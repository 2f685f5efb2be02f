"""Benchmark: sharded exact search and Ray Data encoding against the local dense retriever, one run.

Figures (each a ratio of runs made back to back on the same machine):

1. **Search.** A synthetic pool (``--docs`` x ``--dim`` float32, unit rows, a few identical rows placed
   across shard boundaries) in an embedding cache; ``--queries`` queries, top ``--k``. Local: the
   matrix read from the cache, ``identical_rows`` and ``search_embeddings`` (what ``DenseRetriever``
   does). Ray: ``ShardedIndex`` with ``--shards`` actors on ``--nodes`` logical nodes (each actor
   loads its rows from the cache, digests them, then searches), and the driver's merge. Reported:
   seconds of each, the ratio, and whether every query's ids and scores are equal (bitwise).
2. **Encoding.** ``--texts`` texts through the deterministic ``HashingEncoder`` (fresh caches):
   ``CachingEncoder`` locally vs ``RayCachingEncoder`` (Ray Data, ``--actors`` actors); texts/s,
   the ratio (the fixed cost of Ray Data against a toy model: a real model dominates it), and the
   vectors' max abs difference.
3. **A real model** (``--st-texts N``, optional): the bundled all-MiniLM-L6-v2 on CPU, local vs Ray Data
   (``--actors`` actors of ``--st-cpus`` CPUs), texts/s with the model loads included, max abs difference.
4. **Driver peak memory** (``--peak-docs N``, optional): a child process searches an N-document pool
   locally, another through the shard actors; each reports its own peak RSS (``ru_maxrss``).

Run: ``python benchmarks/bench_ray_search.py [--docs 200000] [--dim 384] [--queries 200] [--k 100]
[--nodes 2] [--shards 2] [--texts 20000] [--actors 2] [--st-texts 0] [--peak-docs 0]``.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import ray
from ray.cluster_utils import Cluster

from execir.distributed_retrieve.encode import EncodeOptions, RayCachingEncoder
from execir.distributed_retrieve.search import ShardedIndex, shard_bounds
from execir.retrieve import CachingEncoder, HashingEncoder
from execir.retrieve.cache import EmbeddingCache
from execir.retrieve.dense import identical_rows, search_embeddings

KEY = {"model": "synthetic", "role": "document"}
MiB = 1 << 20


def pool(root: Path, n: int, dim: int, shards: int, seed: int = 0) -> tuple[list[str], np.ndarray]:
    """Write an ``n x dim`` pool into the cache at ``root`` (32768-row shards); returns its texts and queries."""
    rng = np.random.default_rng(seed)
    cache = EmbeddingCache(root, KEY)
    texts = [f"doc {i}" for i in range(n)]
    cuts = [lo for lo, _ in shard_bounds(n, shards)][1:]
    for start in range(0, n, 32768):
        block = rng.standard_normal((min(32768, n - start), dim)).astype(np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        for cut in cuts:  # identical rows straddling each boundary, and one copy far away
            for row, source in ((cut - start, 5), (cut - 1 - start, cut - start), (n - 1 - start, 5)):
                if 0 <= row < block.shape[0] and 0 <= source < block.shape[0]:
                    block[row] = block[source]
        cache.put(texts[start : start + block.shape[0]], block)
    queries = rng.standard_normal((0, dim)).astype(np.float32)
    return texts, queries


def queries_for(n: int, dim: int, seed: int = 1) -> np.ndarray:
    q = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def local_search(root: Path, texts: list[str], queries: np.ndarray, k: int) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    started = time.perf_counter()
    docs, missing = EmbeddingCache(root, KEY).lookup(texts)
    assert docs is not None and not missing
    read = time.perf_counter()
    same = identical_rows(docs)
    prepared = time.perf_counter()
    run = search_embeddings([f"q{i}" for i in range(queries.shape[0])], queries, texts, docs, top_k=k, same=same)
    done = time.perf_counter()
    return run, {"read": read - started, "identical": prepared - read, "search": done - prepared, "total": done - started}


def ray_search(root: Path, texts: list[str], queries: np.ndarray, k: int, shards: int) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    started = time.perf_counter()
    index = ShardedIndex(root, KEY, texts, shards=shards, num_cpus=0.5)
    loaded = time.perf_counter()
    try:
        scores, idx = index.search(queries, k)
        searched = time.perf_counter()
        index.search(queries, k)
        again = time.perf_counter()
    finally:
        index.close()
    run = {f"q{r}": {texts[i]: float(s) for i, s in zip(idx[r].tolist(), scores[r].tolist())} for r in range(queries.shape[0])}
    return run, {"load": loaded - started, "search": searched - loaded, "search_again": again - searched, "total": searched - started, "copies": index.copies}


def equal_runs(a: dict[str, dict[str, float]], b: dict[str, dict[str, float]]) -> int:
    """Queries whose ranked (id, score) lists differ."""
    return sum(1 for q in a if list(a[q].items()) != list(b.get(q, {}).items()))


def encoding(texts: int, actors: int, dim: int, tmp: Path) -> dict[str, float]:
    rng = np.random.default_rng(2)
    words = [f"w{i}" for i in range(5000)]
    corpus = [" ".join(rng.choice(words, size=30)) + f" #{i}" for i in range(texts)]
    started = time.perf_counter()
    local = CachingEncoder(HashingEncoder(dim), tmp / "enc-local").encode(corpus, role="document")
    local_s = time.perf_counter() - started
    remote = RayCachingEncoder(HashingEncoder(dim), tmp / "enc-ray", EncodeOptions(actors=actors, num_cpus=0.5, batch_size=1024))
    started = time.perf_counter()
    vectors = remote.encode(corpus, role="document")
    ray_s = time.perf_counter() - started
    remote2 = RayCachingEncoder(HashingEncoder(dim), tmp / "enc-ray2", EncodeOptions(actors=actors, num_cpus=0.5, batch_size=1024))
    started = time.perf_counter()
    remote2.encode(corpus, role="document")
    ray2_s = time.perf_counter() - started
    return {"local_s": local_s, "ray_s": ray_s, "ray_again_s": ray2_s, "max_abs_diff": float(np.max(np.abs(local - vectors)))}


def st_encoding(texts: int, actors: int, cpus: float, tmp: Path) -> dict[str, float]:
    """The bundled all-MiniLM-L6-v2: local CachingEncoder vs Ray Data (model load included in both)."""
    from execir.retrieve.registry import _dense_encoder

    rng = np.random.default_rng(4)
    words = [f"w{i}" for i in range(5000)]
    corpus = [" ".join(rng.choice(words, size=30)) + f" #{i}" for i in range(texts)]
    started = time.perf_counter()
    local = CachingEncoder(_dense_encoder(None, device="cpu", progress=False), tmp / "st-local").encode(corpus, role="document")
    local_s = time.perf_counter() - started
    remote = RayCachingEncoder(_dense_encoder(None, device="cpu", progress=False), tmp / "st-ray", EncodeOptions(actors=actors, num_cpus=cpus, batch_size=256))
    started = time.perf_counter()
    vectors = remote.encode(corpus, role="document")
    ray_s = time.perf_counter() - started
    return {"local_s": local_s, "ray_s": ray_s, "max_abs_diff": float(np.max(np.abs(local - vectors)))}


def peak_child(mode: str, n: int, dim: int, queries: int, k: int, shards: int, address: str) -> None:
    """Run in a child: build nothing, search the pool already in the cache, print peak RSS (MiB)."""
    root = Path(sys.argv[sys.argv.index("--cache") + 1])
    texts = [f"doc {i}" for i in range(n)]
    q = queries_for(queries, dim)
    if mode == "local":
        seconds = local_search(root, texts, q, k)[1]["total"]
    else:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        started = time.perf_counter()
        ray_search(root, texts, q, k, shards)
        seconds = time.perf_counter() - started
        ray.shutdown()
    print(json.dumps({"mode": mode, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "seconds": seconds}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=200_000)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=100)
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--shards", type=int, default=2)
    parser.add_argument("--texts", type=int, default=20_000)
    parser.add_argument("--actors", type=int, default=2)
    parser.add_argument("--st-texts", type=int, default=0, help="also encode this many texts with the bundled MiniLM, local vs Ray Data (0: skip)")
    parser.add_argument("--st-cpus", type=float, default=1.0, help="CPUs per MiniLM encoder actor")
    parser.add_argument("--peak-docs", type=int, default=0, help="also measure driver peak RSS for a pool this large (0: skip)")
    parser.add_argument("--child", choices=("local", "ray"), default=None, help=argparse.SUPPRESS)
    parser.add_argument("--cache", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--address", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        peak_child(args.child, args.peak_docs, args.dim, args.queries, args.k, args.shards, args.address)
        return
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False, "object_store_memory": 200 * MiB})
    for _ in range(args.nodes - 1):
        cluster.add_node(num_cpus=1, object_store_memory=200 * MiB)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            texts, _ = pool(root / "pool", args.docs, args.dim, args.shards)
            queries = queries_for(args.queries, args.dim)
            local_run, local_s = local_search(root / "pool", texts, queries, args.k)
            ray_run, ray_s = ray_search(root / "pool", texts, queries, args.k, args.shards)
            differ = equal_runs(local_run, ray_run)
            print(
                f"search {args.docs} x {args.dim}, {args.queries} queries, k={args.k}, {args.shards} shards on {args.nodes} nodes "
                f"({ray_s['copies']} identical rows moved to their first copy's shard)"
            )
            print(
                f"  local: cache read {local_s['read']:.2f} s, identical_rows {local_s['identical']:.2f} s, search {local_s['search']:.2f} s, "
                f"total {local_s['total']:.2f} s"
            )
            print(
                f"  ray: load+digest {ray_s['load']:.2f} s, search+merge {ray_s['search']:.2f} s "
                f"(again {ray_s['search_again']:.2f} s), total {ray_s['total']:.2f} s"
            )
            print(
                f"  ratio ray/local: total {ray_s['total'] / local_s['total']:.2f}x; load+digest vs read+identical_rows "
                f"{ray_s['load'] / (local_s['read'] + local_s['identical']):.2f}x; search (warm shards) {ray_s['search_again'] / local_s['search']:.2f}x"
            )
            print(f"  queries whose ranked ids or scores differ from local: {differ} of {args.queries} (bitwise scores)")
            enc = encoding(args.texts, args.actors, args.dim, root)
            print(f"encoding {args.texts} texts (HashingEncoder {args.dim}), {args.actors} Ray Data actors:")
            print(
                f"  local {args.texts / enc['local_s']:.0f} texts/s ({enc['local_s']:.2f} s); "
                f"ray {args.texts / enc['ray_s']:.0f} texts/s ({enc['ray_s']:.2f} s), "
                f"again {args.texts / enc['ray_again_s']:.0f} texts/s ({enc['ray_again_s']:.2f} s)"
            )
            print(
                f"  ratio ray/local time {enc['ray_s'] / enc['local_s']:.1f}x (again {enc['ray_again_s'] / enc['local_s']:.1f}x); "
                f"fixed overhead ~{enc['ray_again_s'] - enc['local_s']:.1f} s; max abs diff {enc['max_abs_diff']}"
            )
            if args.st_texts:
                st = st_encoding(args.st_texts, args.actors, args.st_cpus, root)
                print(
                    f"MiniLM {args.st_texts} texts, {args.actors} actors x {args.st_cpus} CPU: local {args.st_texts / st['local_s']:.1f} texts/s "
                    f"({st['local_s']:.1f} s), ray {args.st_texts / st['ray_s']:.1f} texts/s ({st['ray_s']:.1f} s); "
                    f"ratio ray/local time {st['ray_s'] / st['local_s']:.2f}x; max abs diff {st['max_abs_diff']:.2e}"
                )
            if args.peak_docs:
                pool(root / "peak", args.peak_docs, args.dim, args.shards)
                for mode in ("local", "ray"):
                    command = [
                        sys.executable,
                        __file__,
                        "--child",
                        mode,
                        "--peak-docs",
                        str(args.peak_docs),
                        "--dim",
                        str(args.dim),
                        "--queries",
                        str(args.queries),
                        "--k",
                        str(args.k),
                        "--shards",
                        str(args.shards),
                        "--cache",
                        str(root / "peak"),
                        "--address",
                        cluster.address,
                    ]
                    out = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
                    print(f"driver peak RSS, {args.peak_docs} x {args.dim} pool, {mode}: {out['peak_rss_mib']:.0f} MiB ({out['seconds']:.1f} s)")
    finally:
        ray.shutdown()
        cluster.shutdown()


if __name__ == "__main__":
    main()
