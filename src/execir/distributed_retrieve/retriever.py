"""The dense retriever's contract on Ray: cache misses encoded on Ray Data, search over shard actors.

:class:`RayDenseRetriever` has :class:`~execir.retrieve.dense.DenseRetriever`'s name, ``config()``,
``use_task``, ``index`` and ``search`` and returns the same run. ``index`` only makes sure every
document is in the embedding cache (misses through Ray Data); ``search`` encodes the query misses,
starts the shard actors (each loads its rows from the cache), searches, merges and stops them, so
encoding and search never compete for the same CPUs and the driver never holds the document matrix.
:func:`distribute` swaps it into a retriever built by :func:`~execir.retrieve.registry.get_retriever`
(a dense retriever, or the dense parts of a hybrid); BM25 stays local.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from execir.distributed_retrieve.encode import EncodeOptions, EncodeStats, RayCachingEncoder
from execir.distributed_retrieve.search import ShardedIndex
from execir.errors import ExecIRError
from execir.retrieve.dense import DenseRetriever
from execir.retrieve.encoders import Encoder
from execir.retrieve.fusion import HybridRetriever
from execir.types import Run

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


@dataclass(frozen=True)
class RayRetrieveOptions:
    """Encoding and search on Ray: the encoder pool, the number of search shards and their CPUs."""

    encode: EncodeOptions = field(default_factory=EncodeOptions)
    shards: int | None = None
    """Search shards (None: one per alive node)."""
    search_cpus: float = 1.0

    def __post_init__(self) -> None:
        if self.shards is not None and self.shards < 1:
            raise ExecIRError(f"--search-shards must be at least 1, got {self.shards}")


def alive_nodes() -> int:
    """Alive nodes of the connected cluster."""
    from execir.distributed_retrieve.connect import require_ray

    return sum(1 for n in require_ray().nodes() if n.get("Alive"))


class RayDenseRetriever:
    """Bi-encoder retriever whose cache misses are encoded on Ray Data and whose search is sharded."""

    def __init__(self, encoder: Encoder, *, cache_dir: Path | None, batch_size: int = 64, options: RayRetrieveOptions | None = None) -> None:
        if cache_dir is None:
            raise ExecIRError("dense retrieval on Ray needs an embedding cache directory (--cache-dir): shard actors load their rows from it")
        self.options = options or RayRetrieveOptions()
        self.encoder = RayCachingEncoder(encoder, cache_dir, self.options.encode)
        self.cache_dir = cache_dir
        self.batch_size = batch_size
        self.name = f"dense-{encoder.name}"
        self._doc_ids: list[str] = []
        self._texts: list[str] = []
        self._task: TaskSpec | None = None
        self.last_search: dict[str, Any] = {}

    def use_task(self, task: TaskSpec | None) -> None:
        """Encode for ``task`` from now on; an index built under another task must be rebuilt."""
        if task != self._task:
            self._doc_ids, self._texts = [], []
        self._task = task
        self.encoder.use_task(task)

    @property
    def encoded_texts(self) -> int:
        """Texts encoded by the model (cache misses) since construction."""
        return self.encoder.encoded_texts

    @property
    def doc_ids(self) -> list[str]:
        """Indexed document ids in index (sorted) order."""
        return list(self._doc_ids)

    def index(self, corpus: dict[str, str]) -> None:
        """Encode the documents the cache lacks (on Ray Data) into it; no matrix is built here."""
        if not corpus:
            raise ExecIRError(f"{self.name}: cannot index an empty corpus")
        self.encoder.stats = EncodeStats()
        self._doc_ids = sorted(corpus)
        self._texts = [corpus[d] for d in self._doc_ids]
        self.encoder.ensure_cached(self._texts, role="document", batch_size=self.batch_size)

    def search(self, queries: dict[str, str], *, top_k: int) -> Run:
        """Exact top ``top_k`` documents per query by inner product, searched over the shard actors."""
        if not self._doc_ids:
            raise ExecIRError(f"{self.name}: call index(corpus) before search")
        qids = sorted(queries)
        if not qids:
            return {}
        vectors = np.ascontiguousarray(self.encoder.encode([queries[q] for q in qids], role="query", batch_size=self.batch_size), dtype=np.float32)
        shards = self.options.shards or alive_nodes()
        started = time.perf_counter()
        index = ShardedIndex(self.cache_dir, self.encoder.cache_key("document"), self._texts, shards=shards, num_cpus=self.options.search_cpus)
        try:
            loaded = time.perf_counter()
            scores, indices = index.search(vectors, top_k)
        finally:
            index.close()
        self.last_search = {
            "shards": len(index.bounds),
            "rows_per_shard": [hi - lo for lo, hi in index.bounds],
            "shard_hosts": [i["host"] for i in index.infos],
            "shard_nodes": [i["node_id"] for i in index.infos],
            "identical_rows_moved": index.copies,
            "load_seconds": round(loaded - started, 3),
            "search_seconds": round(time.perf_counter() - loaded, 3),
        }
        ids = self._doc_ids
        return {qid: {ids[i]: float(s) for i, s in zip(indices[row].tolist(), scores[row].tolist())} for row, qid in enumerate(qids)}

    def config(self) -> dict[str, Any]:
        """The local dense retriever's configuration (Ray placement goes to results.json's ``distributed``)."""
        inner = getattr(self.encoder.encoder, "config", None)
        encoder_cfg = inner() if callable(inner) else {"query": dict(self.encoder.cache_key("query")), "document": dict(self.encoder.cache_key("document"))}
        return {"retriever": "dense", "name": self.name, "scoring": "exact inner product (float32)", "encoder": encoder_cfg}

    def ray_record(self) -> dict[str, Any]:
        """This retriever's part of the ``distributed`` section (the last folder indexed and searched)."""
        options = self.options.encode
        encode = {"actors": options.actors, "num_cpus": options.num_cpus, "num_gpus": options.num_gpus, "batch_size": options.batch_size}
        return {"encode": {**encode, **self.encoder.stats.to_json()}, "search": dict(self.last_search)}


def distribute(retriever: Any, options: RayRetrieveOptions) -> Any:
    """``retriever`` with every local dense retriever (itself, or a hybrid's part) replaced by a
    :class:`RayDenseRetriever` of the same encoder, cache and batch size; others are unchanged."""
    if isinstance(retriever, DenseRetriever):
        return RayDenseRetriever(retriever.encoder.encoder, cache_dir=retriever.encoder.cache_dir, batch_size=retriever.batch_size, options=options)
    if isinstance(retriever, HybridRetriever):
        retriever.parts = [distribute(part, options) for part in retriever.parts]
    return retriever
