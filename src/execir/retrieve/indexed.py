"""A dense retriever that searches a faiss index instead of scanning exactly, beside its exact twin.

It reuses the exact retriever's (cached) embeddings, so nothing is re-encoded, and it keeps the exact
search available (:meth:`IndexedRetriever.exact_search`) so an evaluation can say what the index
cost against exact search on the same vectors.

Ties follow the exact search's policy (:mod:`execir.retrieve.topk`): documents with bit-identical
vectors are indexed once and expanded back after the search with one shared score, so they tie
exactly; a query's results are ordered by (score descending, document id ascending).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from execir.errors import ExecIRError
from execir.retrieve.dense import DenseRetriever, search_embeddings
from execir.retrieve.faiss_index import FaissIndex, IndexSpec
from execir.types import Run

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


@dataclass(frozen=True)
class IndexStats:
    """What a built index cost: build time, memory, and search time so far."""

    kind: str
    params: dict[str, int]
    documents: int
    indexed_vectors: int
    """Distinct vectors in the index (bit-identical document vectors share one entry)."""
    build_seconds: float
    memory_bytes: int
    search_seconds: float
    """faiss search time summed over searches (query encoding excluded)."""
    queries: int

    @property
    def ms_per_query(self) -> float:
        """Mean search milliseconds per query."""
        return 1000.0 * self.search_seconds / max(self.queries, 1)


def expand_copies(ids: np.ndarray, scores: np.ndarray, unique_rows: np.ndarray, copies_of: dict[int, list[int]], k: int) -> tuple[list[int], list[float]]:
    """One query's faiss hits as document rows: each hit's copies get its score, ordered by (score
    descending, row ascending), cut at ``k``; missing hits (id ``-1``) are dropped."""
    rows: list[int] = []
    values: list[float] = []
    for hit, score in zip(ids.tolist(), scores.tolist()):
        if hit < 0:
            continue
        row = int(unique_rows[hit])
        for member in (row, *copies_of.get(row, ())):
            rows.append(member)
            values.append(score)
    order = np.lexsort((np.asarray(rows, dtype=np.int64), -np.asarray(values, dtype=np.float64)))[:k]
    return [rows[i] for i in order.tolist()], [values[i] for i in order.tolist()]


class IndexedRetriever:
    """``exact``'s embeddings searched through a faiss index of kind ``spec``."""

    def __init__(self, exact: DenseRetriever, spec: IndexSpec, *, seed: int = 0, name: str | None = None) -> None:
        self.exact = exact
        self.spec = spec
        self.seed = seed
        self.name = name or f"{exact.name}@faiss:{spec.label}"
        self._index: FaissIndex | None = None
        self._unique_rows = np.zeros(0, dtype=np.int64)
        self._copies_of: dict[int, list[int]] = {}
        self._build_seconds = 0.0
        self._search_seconds = 0.0
        self._queries = 0
        self._doc_ids: list[str] = []
        self._encoded: tuple[tuple[tuple[str, str], ...], list[str], np.ndarray] | None = None

    @property
    def encoded_texts(self) -> int:
        """Texts encoded by the model (the exact retriever's encoder)."""
        return self.exact.encoded_texts

    def use_task(self, task: TaskSpec | None) -> None:
        """Encode for ``task``; an index built under another task is dropped."""
        if task != self.exact.task:
            self._index, self._encoded = None, None
        self.exact.use_task(task)

    def index(self, corpus: dict[str, str]) -> None:
        """Embed (or read from the cache) every document, then build the faiss index over the distinct vectors."""
        self.exact.index(corpus)
        self.build()

    def build(self) -> None:
        """Build the faiss index over the exact retriever's indexed documents (their distinct vectors)."""
        matrix = self.exact.doc_embeddings
        copies, originals = self.exact.identical
        keep = np.ones(matrix.shape[0], dtype=bool)
        keep[copies] = False
        self._unique_rows = np.flatnonzero(keep)
        self._copies_of = {}
        for copy, original in zip(copies.tolist(), originals.tolist()):
            self._copies_of.setdefault(original, []).append(copy)
        started = time.perf_counter()
        self._index = FaissIndex(self.spec, matrix[self._unique_rows], seed=self.seed, where=f"retriever '{self.name}'")
        self._build_seconds = time.perf_counter() - started
        self._doc_ids = self.exact.doc_ids
        self._encoded = None

    def _query_vectors(self, queries: dict[str, str]) -> tuple[list[str], np.ndarray]:
        """Query ids and vectors, encoded once per query set (the exact search reuses them)."""
        key = tuple(sorted(queries.items()))
        if self._encoded is None or self._encoded[0] != key:
            qids, vectors = self.exact.encode_queries(queries)
            self._encoded = (key, qids, vectors)
        return self._encoded[1], self._encoded[2]

    def search(self, queries: dict[str, str], *, top_k: int) -> Run:
        """The index's top ``top_k`` documents per query, with the index's scores."""
        if self._index is None:
            raise ExecIRError(f"{self.name}: call index(corpus) before search")
        qids, vectors = self._query_vectors(queries)
        if not qids:
            return {}
        started = time.perf_counter()
        scores, ids = self._index.search(vectors, min(top_k, self._unique_rows.shape[0]))
        self._search_seconds += time.perf_counter() - started
        self._queries += len(qids)
        doc_ids = self._doc_ids
        run: Run = {}
        for row, qid in enumerate(qids):
            rows, values = expand_copies(ids[row], scores[row], self._unique_rows, self._copies_of, top_k)
            run[qid] = {doc_ids[r]: float(v) for r, v in zip(rows, values)}
        return run

    def exact_search(self, queries: dict[str, str], *, top_k: int) -> Run:
        """Exact search on the same embeddings (the reference the index is measured against)."""
        qids, vectors = self._query_vectors(queries)
        return search_embeddings(qids, vectors, self.exact.doc_ids, self.exact.doc_embeddings, top_k=top_k, same=self.exact.identical)

    def stats(self) -> IndexStats:
        """The built index's cost so far."""
        if self._index is None:
            raise ExecIRError(f"{self.name}: call index(corpus) before stats")
        return IndexStats(
            kind=self.spec.kind,
            params=dict(self._index.resolved.params),
            documents=len(self._doc_ids),
            indexed_vectors=int(self._unique_rows.shape[0]),
            build_seconds=self._build_seconds,
            memory_bytes=self._index.memory_bytes,
            search_seconds=self._search_seconds,
            queries=self._queries,
        )

    def config(self) -> dict[str, Any]:
        """JSON-able resolved configuration: the exact retriever's, plus the index."""
        params = dict(self._index.resolved.params) if self._index is not None else dict(self.spec.params)
        index = {"kind": self.spec.kind, "params": params, "seed": self.seed}
        return {**self.exact.config(), "retriever": "dense+faiss", "name": self.name, "scoring": f"faiss {self.spec.kind} (inner product)", "index": index}
