"""The two stages' run handling: a first stage searched to a depth, and a reranker's scores turned
into a reranked run.

A reranker sees each query's candidates (the first stage's documents) in a label-free order: score
descending, ties by document id descending (``trec_eval``'s order). The reranked run sorts the
candidates by the reranker's score, descending, and breaks its ties by the first stage's ranking
under the evaluation's tie policy (the order the first stage was scored with), so a reranker that
scores every candidate alike reproduces the first stage exactly. Its scores are ``n - rank + 1``
(strictly decreasing), so no tie policy can reorder it; the candidate set never changes. With a
rerank depth ``k`` the reranker sees only each query's first ``k`` candidates (in that label-free
order); they are reordered and the others follow them in the first stage's order (reranking the
head of a deeper run).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from execir.dataset import Dataset
from execir.metrics.ranking import rank_run
from execir.metrics.ties import TiePolicy, order_docs
from execir.rerank.base import RerankRequest
from execir.types import Run


def search_depth(dataset: Dataset, depth: int) -> int:
    """``top_k`` for the first stage: ``depth``, plus one when a query id is also a corpus id (its
    anchor is dropped afterwards), never more than the corpus."""
    identical = any(q in dataset.corpus for q in dataset.queries)
    return max(1, min(len(dataset.corpus), depth + int(identical)))


def without_identical(run: Run) -> Run:
    """The run without any document whose id is its query's id: a code-to-code anchor is never in
    its own pool (BEIR's and MTEB's ``ignore_identical_ids``). Always applied."""
    return {q: {d: s for d, s in docs.items() if d != q} for q, docs in run.items()}


def truncate(run: Run, depth: int) -> Run:
    """Each query's ``depth`` best-scored documents (a retriever may return more; equal scores at the
    cut keep the retriever's own order)."""
    out: Run = {}
    for query, docs in run.items():
        if len(docs) <= depth:
            out[query] = dict(docs)
        else:
            out[query] = dict(sorted(docs.items(), key=lambda item: -item[1])[:depth])
    return out


def candidates(run: Run, queries: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Every query's candidates in a label-free order: score descending, then document id descending."""
    return {q: tuple(doc for doc, _ in order_docs(dict(run.get(q, {})), {}, "trec")) for q in queries}


def rerank_request(dataset: Dataset, run: Run, depth: int | None = None) -> RerankRequest:
    """One folder's reranking work for a first-stage run: each query's candidates (its first ``depth``
    when given) with their first-stage scores and texts, the languages the dataset records and its
    source name."""
    listed = {q: ids[:depth] for q, ids in candidates(run, dataset.queries).items()}
    docs = sorted({d for ids in listed.values() for d in ids})
    doc_language = {d: str(dataset.doc_meta.get(d, {}).get("language")) for d in docs if dataset.doc_meta.get(d, {}).get("language")}
    return RerankRequest(
        queries=dict(dataset.queries),
        candidates=listed,
        documents={d: dataset.corpus[d] for d in docs},
        doc_language=doc_language,
        query_language={q: info.language for q, info in dataset.query_info.items() if info.language},
        source=source_name(dataset),
        first_scores={q: {d: float(run[q][d]) for d in ids} for q, ids in listed.items()},
    )


def source_record(dataset: Dataset) -> dict[str, Any] | None:
    """The manifest's source record: top-level, or the build's (folders written by ``execir build``)."""
    build = dataset.manifest.get("build")
    for record in (dataset.manifest.get("source"), build.get("source") if isinstance(build, dict) else None):
        if isinstance(record, dict):
            return dict(record)
    return None


def source_name(dataset: Dataset) -> str:
    """The dataset's task source (``humaneval``, ``mbpp``...); empty when unknown."""
    return str((source_record(dataset) or {}).get("name") or "")


def reranked_run(first: Run, scores: Mapping[str, Mapping[str, float]], qrels: Mapping[str, Mapping[str, int]], ties: TiePolicy) -> Run:
    """The reranked run: the scored candidates by the reranker's score, descending, ties in the first
    stage's order under ``ties``, then the candidates it did not see (beyond a rerank depth) in the
    first stage's order; scores ``n - rank + 1``."""
    ordered = rank_run(first, dict(qrels), ties=ties)  # type: ignore[arg-type]
    out: Run = {}
    for query, ranking in ordered.items():
        given = scores.get(query, {})
        head = [doc for doc, _ in ranking if doc in given]
        head.sort(key=lambda doc: -given[doc])  # stable: the first stage's order breaks ties
        docs = head + [doc for doc, _ in ranking if doc not in given]
        out[query] = {doc: float(len(docs) - index) for index, doc in enumerate(docs)}
    return out
