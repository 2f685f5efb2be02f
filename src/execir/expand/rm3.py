"""RM3 (relevance model 3) query expansion over ExecIR's BM25, as Anserini's ``Rm3Reranker`` does it.

For a query ``q`` first ranked by BM25:

1. the original query model: ``q``'s tokens (ExecIR's code-aware tokenizer) as term counts,
   scaled to unit L1 norm;
2. the relevance model: for each of the top ``fb_docs`` documents, its term counts restricted to
   feedback terms and scaled to unit L1 norm, weighted by the document's BM25 score, summed over
   the documents; pruned to the ``fb_terms`` heaviest terms (ties by term) and scaled to unit L1;
   feedback terms are Anserini's: 2 to 20 characters, in at most ``max_df`` of the documents;
3. the expanded query: ``orig_weight * query + (1 - orig_weight) * relevance`` per term;
4. the second ranking: BM25 with each term's score multiplied by its weight
   (:meth:`~execir.retrieve.bm25.BM25Retriever.weighted_scores`).

Every function here is pure; :mod:`execir.expand.retrievers` wires them to a retriever.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

TermWeights = dict[str, float]


def unit_l1(weights: Mapping[str, float]) -> TermWeights:
    """``weights`` scaled to sum to one (empty when they sum to zero)."""
    total = sum(weights.values())
    return {t: w / total for t, w in weights.items()} if total > 0 else {}


def query_model(tokens: Sequence[str]) -> TermWeights:
    """The original query as L1-normalised term counts."""
    return unit_l1(Counter(tokens))


def relevance_model(
    doc_terms: Sequence[Mapping[str, int]],
    doc_scores: Sequence[float],
    *,
    fb_terms: int,
    keep: Callable[[str], bool] = lambda term: True,
) -> TermWeights:
    """Score-weighted sum of the feedback documents' L1-normalised term distributions, pruned to the
    ``fb_terms`` heaviest terms (ties by term) and scaled to unit L1 norm."""
    if len(doc_terms) != len(doc_scores):
        raise ValueError(f"{len(doc_terms)} feedback documents but {len(doc_scores)} scores")
    summed: dict[str, float] = {}
    for counts, score in zip(doc_terms, doc_scores):
        kept = unit_l1({t: float(c) for t, c in counts.items() if keep(t)})
        for term, share in kept.items():
            summed[term] = summed.get(term, 0.0) + share * float(score)
    heaviest = sorted(summed.items(), key=lambda item: (-item[1], item[0]))[:fb_terms]
    return unit_l1(dict(heaviest))


def interpolate(query: Mapping[str, float], relevance: Mapping[str, float], orig_weight: float) -> TermWeights:
    """``orig_weight * query + (1 - orig_weight) * relevance`` over the union of their terms (sorted)."""
    terms = sorted(set(query) | set(relevance))
    return {t: orig_weight * query.get(t, 0.0) + (1.0 - orig_weight) * relevance.get(t, 0.0) for t in terms}


def feedback_term_filter(document_frequency: Callable[[str], int], n_docs: int, max_df: float) -> Callable[[str], bool]:
    """Anserini's feedback-term rule: 2 to 20 characters and in at most ``max_df`` of ``n_docs`` documents."""

    def keep(term: str) -> bool:
        return 2 <= len(term) <= 20 and document_frequency(term) <= max_df * n_docs

    return keep


def rm3_query(
    query_tokens: Sequence[str],
    feedback: Sequence[tuple[Sequence[str], float]],
    *,
    fb_terms: int,
    orig_weight: float,
    keep: Callable[[str], bool] = lambda term: True,
) -> TermWeights:
    """The expanded, weighted query from the query's tokens and ``(document tokens, BM25 score)`` of
    each feedback document, best first."""
    relevance = relevance_model([Counter(tokens) for tokens, _ in feedback], [score for _, score in feedback], fb_terms=fb_terms, keep=keep)
    return interpolate(query_model(query_tokens), relevance, orig_weight)
