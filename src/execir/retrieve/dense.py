"""Dense retrieval: cached embeddings and exact brute-force inner-product search.

Documents are encoded at ``index`` time and queries at ``search`` time through a
:class:`~execir.retrieve.encoders.CachingEncoder`. Scoring is an exact float32 matrix product
over query blocks, then a deterministic top-k (:mod:`execir.retrieve.topk`). With normalised
embeddings the score is the cosine similarity.

Memory: ``search`` never holds a score for every (query, document) pair. Queries are scored in
blocks of :func:`block_rows` rows, sized so that a block's scores (float32), the top-k selection's
index array (int64) and its mask (bool) fit in :data:`SCORE_BUDGET_BYTES` (at most
:data:`QUERY_CHUNK` rows, at least one), and only each block's top ``k`` survives it. Peak memory
beyond the document matrix is therefore about the budget plus the run, for any number of
queries (for 1M documents a block is 20 queries). Up to about 80k documents a block is
:data:`QUERY_CHUNK` queries, so runs are bit-identical to scoring 256-query blocks against the whole
corpus; with smaller blocks BLAS may round a float32 score differently in the last bit (its
summation order depends on the block shape), the same variation a query already had between a
full block and the last, partial one.

``use_task`` forwards the task to the encoder (prompts per task) and drops an index built under a
different task.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from execir.errors import ExecIRError
from execir.retrieve.encoders import CachingEncoder, Encoder
from execir.retrieve.topk import to_run, top_k_matrix
from execir.types import Run

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec

QUERY_CHUNK = 256
"""Most queries scored per matrix product."""

SCORE_BUDGET_BYTES = 256 << 20
"""Memory a query block may use for its scores and top-k selection (see the module docstring)."""

_BYTES_PER_PAIR = 4 + 8 + 1
"""float32 score + int64 partition index + bool mask, per (query, document) pair of a block."""


def block_rows(n_docs: int) -> int:
    """Queries per block for a corpus of ``n_docs`` documents (1 to :data:`QUERY_CHUNK`)."""
    return max(1, min(QUERY_CHUNK, SCORE_BUDGET_BYTES // (_BYTES_PER_PAIR * max(n_docs, 1))))


def identical_rows(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(copies, originals)``: the rows equal (bit for bit) to an earlier row, and that earlier row.

    A matrix product may round the same dot product differently in different columns (BLAS kernels
    treat edge columns apart), so two documents with one vector could score a last-bit apart and a
    correct program would silently win its tie with an identical-input mutant. Scores of copies are
    overwritten with their original's, so identical vectors always tie exactly."""
    seen: dict[bytes, list[int]] = {}  # a 16-byte digest per row, not the row: a million rows stay ~100 MB
    copies: list[int] = []
    originals: list[int] = []
    for index, row in enumerate(matrix):
        same_digest = seen.setdefault(hashlib.blake2b(row.tobytes(), digest_size=16).digest(), [])
        first = next((i for i in same_digest if np.array_equal(matrix[i], row)), None)
        if first is None:
            same_digest.append(index)
        else:
            copies.append(index)
            originals.append(first)
    return np.asarray(copies, dtype=np.int64), np.asarray(originals, dtype=np.int64)


def _chunks(queries: np.ndarray, docs: np.ndarray, same: tuple[np.ndarray, np.ndarray] | None = None) -> Iterator[tuple[int, np.ndarray]]:
    """Yield ``(start, scores)`` per query block, reusing one score buffer (no page faults); the
    columns of identical document rows (``same``, from :func:`identical_rows`) get one score."""
    rows = block_rows(docs.shape[0])
    buffer = np.empty((min(rows, queries.shape[0]), docs.shape[0]), dtype=np.float32)
    docs_t = docs.T
    copies, originals = same if same is not None else (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    for start in range(0, queries.shape[0], rows):
        block = queries[start : start + rows]
        scores = buffer[: block.shape[0]]
        np.matmul(block, docs_t, out=scores)
        if copies.size:
            scores[:, copies] = scores[:, originals]
        yield start, scores


class DenseRetriever:
    """Bi-encoder retriever with an on-disk embedding cache."""

    def __init__(self, encoder: Encoder, *, cache_dir: Path | None = None, batch_size: int = 64) -> None:
        self.encoder = CachingEncoder(encoder, cache_dir)
        self.batch_size = batch_size
        self.name = f"dense-{encoder.name}"
        self._doc_ids: list[str] = []
        self._doc_matrix: np.ndarray | None = None
        self._same: tuple[np.ndarray, np.ndarray] | None = None
        self._task: TaskSpec | None = None

    def use_task(self, task: TaskSpec | None) -> None:
        """Encode for ``task`` from now on; an index built under another task must be rebuilt."""
        if task != self._task:
            self._doc_ids, self._doc_matrix, self._same = [], None, None
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

    @property
    def task(self) -> TaskSpec | None:
        """The task the index was built (and queries are encoded) for."""
        return self._task

    @property
    def identical(self) -> tuple[np.ndarray, np.ndarray]:
        """``(copies, originals)`` of the indexed document matrix (:func:`identical_rows`)."""
        if self._same is None:
            raise ExecIRError(f"{self.name}: call index(corpus) before search")
        return self._same

    @property
    def doc_embeddings(self) -> np.ndarray:
        """The ``(docs, dim)`` float32 document matrix, rows in :attr:`doc_ids` order."""
        if self._doc_matrix is None:
            raise ExecIRError(f"{self.name}: call index(corpus) before search")
        return self._doc_matrix

    def index(self, corpus: dict[str, str]) -> None:
        """Encode (or load from the cache) every document, sorted by id."""
        if not corpus:
            raise ExecIRError(f"{self.name}: cannot index an empty corpus")
        self._doc_ids = sorted(corpus)
        texts = [corpus[d] for d in self._doc_ids]
        matrix = self.encoder.encode(texts, role="document", batch_size=self.batch_size)
        self._doc_matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self._same = identical_rows(self._doc_matrix)

    def encode_queries(self, queries: dict[str, str]) -> tuple[list[str], np.ndarray]:
        """Sorted query ids and their ``(queries, dim)`` embeddings (cached like documents)."""
        qids = sorted(queries)
        if not qids:
            return qids, np.zeros((0, self.doc_embeddings.shape[1]), dtype=np.float32)
        vectors = self.encoder.encode([queries[q] for q in qids], role="query", batch_size=self.batch_size)
        return qids, np.ascontiguousarray(vectors, dtype=np.float32)

    def score_matrix(self, queries: dict[str, str]) -> tuple[list[str], list[str], np.ndarray]:
        """``(qids, doc_ids, scores)`` with the full ``(queries, docs)`` float32 score matrix.

        Lets callers rescore any candidate subset without re-encoding anything. It holds a score
        per (query, document) pair, so it is for small corpora; :meth:`search` is bounded.
        """
        qids, q = self.encode_queries(queries)
        scores = q @ self.doc_embeddings.T
        if self._same is not None and self._same[0].size:
            scores[:, self._same[0]] = scores[:, self._same[1]]
        return qids, self.doc_ids, scores

    def search(self, queries: dict[str, str], *, top_k: int) -> Run:
        """Exact top ``top_k`` documents per query by inner product."""
        qids, q = self.encode_queries(queries)
        return self.search_vectors(qids, q, top_k=top_k)

    def search_vectors(self, qids: list[str], vectors: np.ndarray, *, top_k: int) -> Run:
        """Exact top ``top_k`` for query vectors made elsewhere (query expansion), one row per id;
        identical documents tie as in :meth:`search`."""
        docs = self.doc_embeddings
        return search_embeddings(qids, np.ascontiguousarray(vectors, dtype=np.float32), self._doc_ids, docs, top_k=top_k, same=self._same)

    def usage(self) -> dict[str, Any] | None:
        """What an embedding API encoder spent (requests, inputs, tokens, estimated cost, retries) and
        ``cached_texts``, the texts served from the cache; None for a local model."""
        spent = getattr(self.encoder.encoder, "usage", None)
        to_json = getattr(spent, "to_json", None)
        return {**to_json(), "cached_texts": self.encoder.cached_texts} if callable(to_json) else None

    def config(self) -> dict[str, Any]:
        """JSON-able resolved configuration."""
        inner = getattr(self.encoder.encoder, "config", None)
        encoder_cfg = inner() if callable(inner) else {"query": dict(self.encoder.cache_key("query")), "document": dict(self.encoder.cache_key("document"))}
        return {"retriever": "dense", "name": self.name, "scoring": "exact inner product (float32)", "encoder": encoder_cfg}


def search_embeddings(
    qids: list[str],
    queries: np.ndarray,
    doc_ids: list[str],
    docs: np.ndarray,
    *,
    top_k: int,
    same: tuple[np.ndarray, np.ndarray] | None = None,
) -> Run:
    """Exact inner-product top-k of query rows against document rows, as a run (identical document
    rows, ``same`` from :func:`identical_rows`, score exactly alike)."""
    run: Run = {}
    for start, scores in _chunks(queries, docs, same):
        best = top_k_matrix(scores, top_k)
        run.update(to_run(qids[start : start + scores.shape[0]], doc_ids, best, scores))
    return run


def top_k_embeddings(queries: np.ndarray, docs: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, indices)`` of the exact top ``k`` docs per query (the benchmark's kernel)."""
    out_idx = np.empty((queries.shape[0], min(k, docs.shape[0])), dtype=np.int64)
    out_scores = np.empty(out_idx.shape, dtype=np.float32)
    for start, scores in _chunks(queries, docs):
        best = top_k_matrix(scores, k)
        out_idx[start : start + len(best)] = best
        out_scores[start : start + len(best)] = np.take_along_axis(scores, best, axis=1)
    return out_scores, out_idx
