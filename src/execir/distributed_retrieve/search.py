"""Exact inner-product search over document shards held by Ray actors.

The sorted document pool is cut into ``S`` contiguous shards of global rows ``[lo, hi)``; each
:class:`ShardSearcher` actor loads its own rows from the embedding cache (so the cache directory must
be on storage every node sees) and the driver never holds the document matrix. For each query
block an actor scores its rows exactly as :mod:`execir.retrieve.dense` does (the same float32
``matmul`` call, the same query blocks: :func:`~execir.retrieve.dense.block_rows` of the *whole*
pool), keeps its top ``k`` by (score desc, global index asc) with
:func:`~execir.retrieve.topk.top_k_matrix`, and the driver merges the ``S x k`` candidates per query
on (score desc, global index asc). The merge of per-part top-k lists is the top-k of the union, so
the run equals the single-machine search, ties included, as long as a column's score does not
depend on how many columns its matrix has (true of the BLAS kernels measured; shard boundaries are
multiples of :data:`ALIGN` rows on large pools, so column tiles line up with the single matrix's).

Identical document vectors: the local search gives every later copy of a vector the score of its
first occurrence (:func:`~execir.retrieve.dense.identical_rows`), so identical vectors tie exactly.
Here each actor reports a 16-byte blake2b digest per row; the driver finds every copy's first
occurrence across all shards, and the copy is scored by the *original's* shard (a column that
repeats the original's score under the copy's global index) and left out of its own shard. Every
global index is thus a candidate in exactly one shard, with the local search's score.
"""

from __future__ import annotations

import hashlib
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from execir.distributed_retrieve.connect import require_ray
from execir.errors import ExecIRError
from execir.retrieve.cache import EmbeddingCache, KeyFields
from execir.retrieve.dense import block_rows
from execir.retrieve.topk import top_k_matrix

ALIGN = 256
"""Shard boundaries are multiples of this many rows when every shard gets at least 4 x ALIGN rows."""


def shard_bounds(n: int, shards: int) -> list[tuple[int, int]]:
    """Contiguous ``[lo, hi)`` row ranges of ``n`` documents cut into at most ``shards`` non-empty shards."""
    shards = max(1, min(shards, n))
    align = ALIGN if n >= shards * ALIGN * 4 else 1
    cuts = [0, *(min(n, round(n * i / shards / align) * align) for i in range(1, shards)), n]
    return [(lo, hi) for lo, hi in zip(cuts, cuts[1:]) if hi > lo]


def row_digests(matrix: np.ndarray) -> np.ndarray:
    """``(rows, 16)`` uint8: the blake2b-128 digest of each row's bytes (as ``identical_rows`` uses)."""
    out = np.empty((matrix.shape[0], 16), dtype=np.uint8)
    for i, row in enumerate(matrix):
        out[i] = np.frombuffer(hashlib.blake2b(row.tobytes(), digest_size=16).digest(), dtype=np.uint8)
    return out


def copy_plan(digests: Sequence[np.ndarray], bounds: Sequence[tuple[int, int]]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per shard ``(excluded, copies, originals)`` in global indices: the shard's rows that copy an
    earlier row (scored elsewhere), and the copies whose first occurrence (``originals``) it holds."""
    first: dict[bytes, int] = {}
    copies: list[int] = []
    originals: list[int] = []
    for (lo, _), digest in zip(bounds, digests):
        for i, row in enumerate(digest):
            g = lo + i
            earliest = first.setdefault(row.tobytes(), g)
            if earliest != g:
                copies.append(g)
                originals.append(earliest)
    c, o = np.asarray(copies, dtype=np.int64), np.asarray(originals, dtype=np.int64)
    plan = []
    for lo, hi in bounds:
        mine = (o >= lo) & (o < hi)
        plan.append((c[(c >= lo) & (c < hi)], c[mine], o[mine]))
    return plan


def merge_top_k(parts: Sequence[tuple[np.ndarray, np.ndarray]], k: int) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, global indices)`` of the best ``k`` per query over every shard's ``(scores, indices)``,
    ordered by (score desc, global index asc)."""
    scores = np.concatenate([p[0] for p in parts], axis=1)
    indices = np.concatenate([p[1] for p in parts], axis=1)
    order = np.lexsort((indices, -scores), axis=1)[:, :k]
    return np.take_along_axis(scores, order, axis=1), np.take_along_axis(indices, order, axis=1)


class ShardSearcher:
    """A Ray actor holding document rows ``[start, start + len(texts))``, read from the embedding cache."""

    def __init__(self, cache_root: str, key: dict[str, Any], texts: list[str], start: int, n_total: int) -> None:
        cache = EmbeddingCache(Path(cache_root), key)
        matrix, missing = cache.lookup(texts)
        self.problem = None  # raised by the first call, where Ray hands the driver the error itself
        if missing or matrix is None:
            self.problem = (
                f"search shard at row {start}: {len(missing)} of its {len(texts)} documents are not in the embedding cache {cache.dir} "
                f"on {socket.gethostname()} (the cache directory must be on storage every node sees)"
            )
            matrix = np.zeros((len(texts), 1), dtype=np.float32)
        self.docs = np.ascontiguousarray(matrix, dtype=np.float32)
        self.start = start
        self.rows_per_block = block_rows(n_total)
        self.columns: tuple[np.ndarray, np.ndarray] | None = None
        """(score column, global index) of every candidate, by global index, when copies move columns."""

    def info(self) -> dict[str, Any]:
        """Where this shard lives and what it holds."""
        ray = require_ray()
        return {"node_id": ray.get_runtime_context().get_node_id(), "host": socket.gethostname(), "start": self.start, "rows": int(self.docs.shape[0])}

    def digests(self) -> np.ndarray:
        """Each row's 16-byte digest (:func:`row_digests`); the first call, so it reports a missing row."""
        if self.problem is not None:
            raise ExecIRError(self.problem)
        return row_digests(self.docs)

    def set_copies(self, excluded: np.ndarray, copies: np.ndarray, originals: np.ndarray) -> None:
        """Leave out ``excluded`` rows (copies scored by their original's shard) and add a column per
        copy in ``copies`` repeating its original's (a row of this shard) score."""
        if excluded.size == 0 and copies.size == 0:
            self.columns = None
            return
        keep = np.setdiff1d(np.arange(self.docs.shape[0], dtype=np.int64), excluded - self.start)
        source = np.concatenate([keep, originals - self.start])
        glob = np.concatenate([keep + self.start, copies])
        order = np.argsort(glob, kind="stable")
        self.columns = (source[order], glob[order])

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """``(scores, global indices)``, ``(queries, k')`` each: this shard's best ``k`` per query."""
        n_cols = self.docs.shape[0] if self.columns is None else self.columns[0].shape[0]
        k = min(k, n_cols)
        out_scores = np.empty((queries.shape[0], k), dtype=np.float32)
        out_idx = np.empty((queries.shape[0], k), dtype=np.int64)
        rows = self.rows_per_block
        buffer = np.empty((min(rows, queries.shape[0]), self.docs.shape[0]), dtype=np.float32)
        docs_t = self.docs.T
        for start in range(0, queries.shape[0], rows):
            block = queries[start : start + rows]
            scores = buffer[: block.shape[0]]
            np.matmul(block, docs_t, out=scores)
            if self.columns is not None:
                scores = scores[:, self.columns[0]]
            best = top_k_matrix(scores, k)
            out_scores[start : start + block.shape[0]] = np.take_along_axis(scores, best, axis=1)
            out_idx[start : start + block.shape[0]] = best + self.start if self.columns is None else self.columns[1][best]
        return out_scores, out_idx


class ShardedIndex:
    """``S`` :class:`ShardSearcher` actors over one sorted document pool (close it when done)."""

    def __init__(self, cache_root: Path, key: KeyFields, texts: Sequence[str], *, shards: int, num_cpus: float = 1.0) -> None:
        ray = require_ray()
        self.n = len(texts)
        self.bounds = shard_bounds(self.n, shards)
        actor = ray.remote(ShardSearcher)
        self.actors = [
            actor.options(num_cpus=num_cpus, scheduling_strategy="SPREAD").remote(str(cache_root), dict(key), list(texts[lo:hi]), lo, self.n)
            for lo, hi in self.bounds
        ]
        try:
            digests = self._get([a.digests.remote() for a in self.actors])
            plan = copy_plan(digests, self.bounds)
            self._get([a.set_copies.remote(*p) for a, p in zip(self.actors, plan)])
            self.copies = int(sum(p[0].size for p in plan))
            self.infos: list[dict[str, Any]] = self._get([a.info.remote() for a in self.actors])
        except ExecIRError:
            self.close()
            raise

    def _get(self, refs: list[Any]) -> list[Any]:
        ray = require_ray()
        try:
            return list(ray.get(refs))
        except ray.exceptions.RayError as exc:
            cause = getattr(exc, "cause", None)
            raise ExecIRError(f"sharded search failed: {cause if isinstance(cause, ExecIRError) else exc}") from exc

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """``(scores, global indices)`` of the exact top ``k`` per query row, as the local search ranks them."""
        ray = require_ray()
        ref = ray.put(np.ascontiguousarray(queries, dtype=np.float32))
        parts = self._get([a.search.remote(ref, k) for a in self.actors])
        return merge_top_k(parts, min(k, self.n))

    def close(self) -> None:
        """Stop the shard actors (their rows leave memory)."""
        ray = require_ray()
        for a in self.actors:
            ray.kill(a)
        self.actors = []
