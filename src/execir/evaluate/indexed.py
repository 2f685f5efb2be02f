"""An indexed first stage (``dense@faiss:<kind>``) measured against exact search on its own embeddings."""

from __future__ import annotations

import numpy as np

from execir.dataset import Dataset
from execir.evaluate.config import EvalConfig
from execir.evaluate.paired import paired_deltas
from execir.evaluate.second_stage import search_depth, truncate, without_identical
from execir.metrics import evaluate
from execir.results import IndexSummary
from execir.retrieve.indexed import IndexedRetriever
from execir.types import Run

INDEX_DELTA_MEASURES: tuple[str, ...] = ("exec@1", "ndcg@10")
"""The measures an indexed system's deltas against exact search are reported for."""


def recall_of_exact(approximate: Run, exact: Run) -> float:
    """Mean over queries (with an exact result) of the share of exact search's documents the index also returned."""
    shares = [len(exact[q].keys() & approximate.get(q, {}).keys()) / len(exact[q]) for q in sorted(exact) if exact[q]]
    return float(np.mean(shares)) if shares else 0.0


def index_summary(dataset: Dataset, config: EvalConfig, retriever: IndexedRetriever, run: Run, per_query: dict[str, dict[str, float]]) -> IndexSummary:
    """The index's cost (build, memory, ms/query), its recall of exact search's top ``depth`` and the
    deltas (indexed minus exact) on the same queries, prepared exactly like the indexed run."""
    exact_run = truncate(without_identical(retriever.exact_search(dataset.queries, top_k=search_depth(dataset, config.depth))), config.depth)
    exact = evaluate(dataset.qrels, exact_run, INDEX_DELTA_MEASURES, ties=config.ties)
    deltas, mcnemar = paired_deltas(exact, per_query, INDEX_DELTA_MEASURES, n_resamples=config.bootstrap_resamples, seed=config.seed)
    stats = retriever.stats()
    return IndexSummary(
        exact=retriever.exact.name,
        kind=stats.kind,
        params=stats.params,
        documents=stats.documents,
        indexed_vectors=stats.indexed_vectors,
        build_seconds=round(stats.build_seconds, 3),
        memory_bytes=stats.memory_bytes,
        ms_per_query=stats.ms_per_query,
        recall_k=config.depth,
        recall_of_exact=recall_of_exact(run, exact_run),
        deltas=deltas,
        mcnemar=mcnemar,
    )
