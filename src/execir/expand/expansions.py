"""Query expansions run on top of an already indexed first-stage retriever.

:func:`expand_search` takes the retriever that just produced a first-stage run (its index is
reused, nothing is re-indexed) and returns the expanded run plus one record per query (the
weighted RM3 terms, or the prompt and generated texts) for ``expansions/<system>.jsonl``:

* ``rm3`` (BM25): :mod:`execir.expand.rm3` over the top ``fb_docs`` documents, re-ranked with
  the weighted query over the whole corpus;
* ``rocchio`` (dense): :func:`~execir.expand.rocchio.rocchio` over the top ``k`` documents'
  cached vectors, searched exactly over the whole corpus;
* ``hyde`` and ``query2doc`` (both): :mod:`execir.expand.prompts` with generated text from
  :mod:`execir.expand.generators` (cached).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from tqdm import tqdm

from execir.errors import ExecIRError
from execir.expand.cache import GenerationCache
from execir.expand.generators import Generator, cached_samples
from execir.expand.prompts import dense_query, lexical_query, prompt_for
from execir.expand.rm3 import feedback_term_filter, rm3_query
from execir.expand.rocchio import rocchio
from execir.expand.spec import ExpansionSpec
from execir.retrieve.bm25 import BM25Retriever
from execir.retrieve.dense import DenseRetriever, top_k_embeddings
from execir.retrieve.topk import top_k_row
from execir.types import Run


def family(retriever: object) -> str | None:
    """``bm25``, ``dense`` or None (a retriever no expansion applies to, such as a hybrid)."""
    if isinstance(retriever, BM25Retriever):
        return "bm25"
    if isinstance(retriever, DenseRetriever):
        return "dense"
    return None


@dataclass
class Expansion:
    """A parsed spec with its generator and generation cache (hyde, query2doc), counting its work."""

    spec: ExpansionSpec
    generator: Generator | None = None
    cache: GenerationCache = field(default_factory=lambda: GenerationCache(None))
    progress: bool = False
    cached_generations: int = 0
    """Prompts whose samples all came from the cache, over this object's lifetime."""

    @property
    def kind(self) -> str:
        return self.spec.kind

    @property
    def generator_calls(self) -> int:
        """Generation requests made by the generator so far (0 for rm3 and rocchio)."""
        return self.generator.calls if self.generator is not None else 0

    def config(self) -> dict[str, Any]:
        """The resolved spec and the generator's (secret-free) identity."""
        return {**self.spec.to_json(), "generator_identity": self.generator.identity() if self.generator is not None else None}

    def samples(self, query: str) -> tuple[str, list[str]]:
        """``(prompt, generated texts)`` for one query."""
        if self.generator is None:
            raise ExecIRError(f"--expand {self.spec.text}: no generator")
        p = self.spec.params
        prompt = prompt_for(self.kind, query)
        texts, hit = cached_samples(
            self.generator, self.cache, prompt, n=int(p["n"]), max_tokens=int(p["max_tokens"]), temperature=float(p["temperature"]), seed=int(p["seed"])
        )
        self.cached_generations += int(hit)
        return prompt, texts


Records = list[dict[str, Any]]


def expand_search(expansion: Expansion, retriever: object, corpus: dict[str, str], queries: dict[str, str], *, top_k: int) -> tuple[Run, Records]:
    """The expanded run of an indexed ``retriever`` and one record per query (query id order)."""
    kind, fam = expansion.kind, family(retriever)
    if fam is None or not expansion.spec.applies_to(fam):
        raise ExecIRError(f"--expand {expansion.spec.text} does not apply to retriever '{getattr(retriever, 'name', retriever)}'")
    if kind == "rm3":
        assert isinstance(retriever, BM25Retriever)
        return rm3_search(retriever, corpus, queries, expansion.spec.params, top_k=top_k)
    if kind == "rocchio":
        assert isinstance(retriever, DenseRetriever)
        return rocchio_search(retriever, queries, expansion.spec.params, top_k=top_k)
    assert isinstance(retriever, (BM25Retriever, DenseRetriever))
    return generative_search(expansion, retriever, queries, top_k=top_k)


def rm3_search(bm25: BM25Retriever, corpus: dict[str, str], queries: dict[str, str], params: dict[str, float | int], *, top_k: int) -> tuple[Run, Records]:
    """RM3 (see :mod:`execir.expand.rm3`): feedback from the first ranking, weighted second ranking."""
    doc_ids = bm25.doc_ids
    keep = feedback_term_filter(bm25.document_frequency, len(doc_ids), float(params["max_df"]))
    run: Run = {}
    records: Records = []
    for qid in sorted(queries):
        first = bm25.scores(queries[qid])
        top = top_k_row(first, int(params["fb_docs"])).tolist()
        feedback = [(bm25.tokenizer.tokenize(corpus[doc_ids[i]]), float(first[i])) for i in top]
        tokens = bm25.tokenizer.tokenize(queries[qid])
        weights = rm3_query(tokens, feedback, fb_terms=int(params["fb_terms"]), orig_weight=float(params["orig_weight"]), keep=keep)
        scores = bm25.weighted_scores(weights)
        run[qid] = {doc_ids[i]: float(scores[i]) for i in top_k_row(scores, top_k).tolist()}
        records.append({"query_id": qid, "query": queries[qid], "feedback_docs": [doc_ids[i] for i in top], "weights": weights})
    return run, records


def rocchio_search(dense: DenseRetriever, queries: dict[str, str], params: dict[str, float | int], *, top_k: int) -> tuple[Run, Records]:
    """Rocchio over the index's own document vectors (no model call beyond the cached query vectors)."""
    qids, vectors = dense.encode_queries(queries)
    docs, doc_ids = dense.doc_embeddings, dense.doc_ids
    _, best = top_k_embeddings(vectors, docs, int(params["k"]))
    alpha, beta = float(params["alpha"]), float(params["beta"])
    expanded = np.stack([rocchio(vectors[r], docs[best[r]], alpha=alpha, beta=beta) for r in range(len(qids))]) if qids else vectors
    records = [{"query_id": q, "query": queries[q], "feedback_docs": [doc_ids[i] for i in best[r].tolist()]} for r, q in enumerate(qids)]
    return dense.search_vectors(qids, expanded, top_k=top_k), records


def generative_search(expansion: Expansion, retriever: BM25Retriever | DenseRetriever, queries: dict[str, str], *, top_k: int) -> tuple[Run, Records]:
    """HyDE or Query2doc: generate (cached), then search with the expanded query text or vector."""
    kind = expansion.kind
    records: Records = []
    texts: dict[str, str] = {}
    vectors: list[np.ndarray] = []
    qids = sorted(queries)
    for qid in tqdm(qids, desc=f"expand {kind}", unit="query", disable=not expansion.progress, leave=False):
        query = queries[qid]
        prompt, samples = expansion.samples(query)
        record: dict[str, Any] = {"query_id": qid, "query": query, "prompt": prompt, "samples": samples}
        if isinstance(retriever, BM25Retriever):
            texts[qid] = record["search_text"] = lexical_query(kind, query, samples)
        elif kind == "query2doc":
            texts[qid] = record["search_text"] = dense_query(query, samples)
        else:
            vectors.append(hyde_vector(retriever, query, samples))
        records.append(record)
    if isinstance(retriever, DenseRetriever) and kind == "hyde":
        dim = retriever.doc_embeddings.shape[1]
        return retriever.search_vectors(qids, np.stack(vectors) if vectors else np.zeros((0, dim), dtype=np.float32), top_k=top_k), records
    return retriever.search(texts, top_k=top_k), records


def hyde_vector(dense: DenseRetriever, query: str, samples: list[str]) -> np.ndarray:
    """Mean of the query's embedding (query role) and the samples' (document role), as HyDE averages them."""
    q = dense.encoder.encode([query], role="query", batch_size=dense.batch_size)
    rows = [q] + ([dense.encoder.encode(samples, role="document", batch_size=dense.batch_size)] if samples else [])
    return np.concatenate(rows).astype(np.float64).mean(axis=0).astype(np.float32)
