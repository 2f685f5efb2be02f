"""Embedding-cache misses, and only those, encoded through Ray Data.

The driver looks every text up in the embedding cache (:mod:`execir.retrieve.cache`); the unique
misses become a Ray dataset of ``(row, text)`` blocks that ``map_batches`` sends to a pool of
:class:`EncoderActor` (``compute=ray.data.ActorPoolStrategy(size=actors)``, ``num_cpus``/``num_gpus``
per actor). Each actor holds its own copy of the encoder, so a lazily loaded model loads once per
actor (per Ray Data execution: one for a pool's documents, one for each query set), and returns
``{"row", "vector"}``. The driver streams the results back (``iter_batches``), never relying on their
order: rows are placed by id, and every :data:`~execir.retrieve.encoders.ENCODE_CHUNK` rows are
sorted by id and written as one cache shard, the layout local runs write (the driver is the cache's
one writer, as for the verdict cache). So the driver holds at most a chunk of new vectors when it
only fills the cache (:meth:`RayCachingEncoder.ensure_cached`, the sharded pool's path), and the
result matrix when it asks for one (:meth:`RayCachingEncoder.encode`, queries).

Vectors equal the local encoder's bit for bit when the encoder encodes a text the same whatever its
batch (the toy :class:`~execir.retrieve.encoders.HashingEncoder`); a neural model may differ in the
last bits with batch composition, as it already does between local batch sizes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from execir.distributed_retrieve.connect import require_ray
from execir.errors import ExecIRError
from execir.retrieve.cache import EmbeddingCache, text_hash
from execir.retrieve.encoders import ENCODE_CHUNK, CachingEncoder, Encoder
from execir.retrieve.prompts import Role


@dataclass(frozen=True)
class EncodeOptions:
    """How Ray Data encodes: actors in the pool, resources per actor, texts per batch."""

    actors: int = 1
    num_cpus: float = 1.0
    num_gpus: float = 0.0
    batch_size: int = 256
    """Texts per ``map_batches`` batch (the model's own batch size is the retriever's)."""

    def __post_init__(self) -> None:
        if self.actors < 1 or self.batch_size < 1 or self.num_cpus < 0 or self.num_gpus < 0:
            raise ExecIRError(f"encode options need actors >= 1, batch_size >= 1 and non-negative resources, got {self}")


class EncoderActor:
    """A Ray Data callable class: one copy of the encoder per actor, batches of ``{"row", "text"}`` in."""

    def __init__(self, encoder: Encoder, role: Role, batch_size: int) -> None:
        self.encoder = encoder
        self.role = role
        self.batch_size = batch_size

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        texts = [str(t) for t in batch["text"]]
        vectors = np.asarray(self.encoder.encode(texts, role=self.role, batch_size=self.batch_size), dtype=np.float32)
        return {"row": np.asarray(batch["row"], dtype=np.int64), "vector": vectors}


def _blocks(n: int, options: EncodeOptions) -> list[tuple[int, int]]:
    """Row ranges of the input blocks: about four per actor, whole batches each."""
    per_block = max(1, math.ceil(n / (options.actors * 4) / options.batch_size)) * options.batch_size
    return [(start, min(n, start + per_block)) for start in range(0, n, per_block)]


def encode_rows(encoder: Encoder, texts: Sequence[str], *, role: Role, batch_size: int, options: EncodeOptions) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(rows, vectors)`` for ``texts`` (row = position), as Ray Data finishes them, rows sorted."""
    if not texts:
        return
    ray = require_ray()
    import pyarrow as pa  # type: ignore[import-untyped]

    tables = [
        pa.table({"row": pa.array(np.arange(lo, hi, dtype=np.int64)), "text": pa.array(list(texts[lo:hi]), pa.large_string())})
        for lo, hi in _blocks(len(texts), options)
    ]
    dataset = ray.data.from_arrow(tables).map_batches(
        EncoderActor,
        fn_constructor_args=(encoder, role, batch_size),
        compute=ray.data.ActorPoolStrategy(size=options.actors),
        batch_size=options.batch_size,
        batch_format="numpy",
        num_cpus=options.num_cpus,
        num_gpus=options.num_gpus,
    )
    for batch in dataset.iter_batches(batch_size=None, batch_format="numpy"):
        rows = np.asarray(batch["row"], dtype=np.int64)
        order = np.argsort(rows, kind="stable")
        yield rows[order], np.asarray(batch["vector"], dtype=np.float32)[order]


@dataclass
class EncodeStats:
    """What went through Ray Data: executions, texts, seconds, and the most rows the driver held."""

    runs: int = 0
    texts: int = 0
    seconds: float = 0.0
    max_rows_held: int = 0
    shards_written: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"executions": self.runs, "texts": self.texts, "seconds": round(self.seconds, 3), "cache_shards_written": self.shards_written}


class _ShardWriter:
    """Buffers ``(rows, vectors)`` and writes every ``chunk`` rows, sorted by row, as one cache shard."""

    def __init__(self, cache: EmbeddingCache | None, texts: Sequence[str], stats: EncodeStats, chunk: int | None = None) -> None:
        self.cache, self.texts, self.stats, self.chunk = cache, texts, stats, chunk or ENCODE_CHUNK
        self.rows: list[np.ndarray] = []
        self.vectors: list[np.ndarray] = []
        self.held = 0

    def add(self, rows: np.ndarray, vectors: np.ndarray) -> None:
        if self.cache is None:
            return
        self.rows.append(rows)
        self.vectors.append(vectors)
        self.held += rows.shape[0]
        self.stats.max_rows_held = max(self.stats.max_rows_held, self.held)
        if self.held >= self.chunk:
            self.flush()

    def flush(self) -> None:
        if self.cache is None or not self.rows:
            return
        rows, vectors = np.concatenate(self.rows), np.concatenate(self.vectors)
        order = np.argsort(rows, kind="stable")
        self.cache.put([self.texts[i] for i in rows[order].tolist()], vectors[order])
        self.stats.shards_written += 1
        self.rows, self.vectors, self.held = [], [], 0


class RayCachingEncoder(CachingEncoder):
    """:class:`~execir.retrieve.encoders.CachingEncoder` whose misses are encoded on Ray Data."""

    def __init__(self, encoder: Encoder, cache_dir: Path | None, options: EncodeOptions) -> None:
        super().__init__(encoder, cache_dir)
        self.options = options
        self.stats = EncodeStats()

    def _run(self, unique: list[str], role: Role, batch_size: int, cache: EmbeddingCache | None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Encode ``unique`` on Ray, writing cache shards as results arrive; yields each batch."""
        if not unique:
            return
        started = time.perf_counter()
        writer = _ShardWriter(cache, unique, self.stats)
        for rows, vectors in encode_rows(self.encoder, unique, role=role, batch_size=batch_size, options=self.options):
            writer.add(rows, vectors)
            yield rows, vectors
        writer.flush()
        self.encoded_texts += len(unique)
        self.stats.runs += 1
        self.stats.texts += len(unique)
        self.stats.seconds += time.perf_counter() - started

    def missing(self, texts: Sequence[str], role: Role) -> list[str]:
        """The unique texts the cache lacks, in first-seen order (reads the cache's index, no vectors)."""
        cache = self._cache(role)
        index = cache._index() if cache is not None else {}  # the hash index only: no vector is read
        return list(dict.fromkeys(t for t in texts if text_hash(t) not in index))

    def ensure_cached(self, texts: Sequence[str], *, role: Role, batch_size: int = 64) -> int:
        """Encode the texts the cache lacks into it, without building any result matrix; returns how many."""
        cache = self._cache(role)
        if cache is None:
            raise ExecIRError("encoding on Ray for sharded search needs an embedding cache directory (--cache-dir)")
        unique = self.missing(texts, role)
        for _ in self._run(unique, role, batch_size, cache):
            pass
        return len(unique)

    def encode(self, texts: Sequence[str], *, role: Role, batch_size: int = 64) -> np.ndarray:
        """``(len(texts), dim)`` float32: cached rows from disk, unique misses from Ray Data, placed by row id."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        cache = self._cache(role)
        out, missing = cache.lookup(texts) if cache is not None else (None, list(range(len(texts))))
        unique = list(dict.fromkeys(texts[i] for i in missing))
        slot_of = {text: slot for slot, text in enumerate(unique)}
        slots = np.array([slot_of[texts[i]] for i in missing], dtype=np.int64)
        first = np.full(len(unique), len(texts), dtype=np.int64)
        np.minimum.at(first, slots, np.asarray(missing, dtype=np.int64))  # each unique miss's first position
        for rows, vectors in self._run(unique, role, batch_size, cache):
            if out is None:
                out = np.zeros((len(texts), vectors.shape[1]), dtype=np.float32)
            out[first[rows]] = vectors
        if out is None:
            raise ExecIRError("no vectors: every text missed the cache and nothing was encoded")
        if missing:
            out[missing] = out[first[slots]]  # repeated texts share their first copy's vector
        return out
