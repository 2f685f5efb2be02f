"""Tie policies: how documents with equal scores are ordered.

``pessimistic`` (the default) sorts by score, descending; among equal scores, documents with
**lower** relevance come first, then by document id (ascending) for determinism. A correct
document tied with a wrong one (typically a canonical solution and its own mutant, which
lexical retrievers often score identically) is therefore never credited silently: the tie
counts against the system.

``trec`` reproduces ``trec_eval`` / ``pytrec_eval`` exactly: score descending, then document
id **descending** (``trec_eval`` compares ``strcmp(b, a)``). Use it to match published numbers.
"""

from __future__ import annotations

from typing import Literal, get_args

TiePolicy = Literal["pessimistic", "trec"]
"""The tie policies :func:`execir.metrics.rank_run` and :func:`execir.metrics.evaluate` accept."""

TIE_POLICIES: tuple[str, ...] = get_args(TiePolicy)


def check_ties(ties: str) -> TiePolicy:
    """Return ``ties`` if it names a known policy, else raise ValueError listing them."""
    if ties not in TIE_POLICIES:
        raise ValueError(f"unknown tie policy {ties!r}; known: {', '.join(TIE_POLICIES)}")
    return ties  # type: ignore[return-value]


def order_docs(scores: dict[str, float], rels: dict[str, int], ties: TiePolicy) -> list[tuple[str, float]]:
    """Rank one query's ``scores`` under the tie policy; ``rels`` holds the judged grades."""
    if ties == "pessimistic":
        return sorted(scores.items(), key=lambda item: (-item[1], rels.get(item[0], 0), item[0]))
    by_doc_desc = sorted(scores.items(), key=lambda item: item[0], reverse=True)
    return sorted(by_doc_desc, key=lambda item: -item[1])
