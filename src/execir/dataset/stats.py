"""Judgement and query-length statistics of a folder, one definition for the manifest (at write
time) and the report (at read time, per split)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence


def judgement_means(grades_per_query: Sequence[Sequence[int]]) -> tuple[float, float]:
    """Mean correct (grade 2) and hard-negative (grade 1) judgements per query, to four places."""
    if not grades_per_query:
        return 0.0, 0.0
    positives = statistics.mean(sum(g >= 2 for g in grades) for grades in grades_per_query)
    negatives = statistics.mean(sum(g == 1 for g in grades) for grades in grades_per_query)
    return round(positives, 4), round(negatives, 4)


def median_tokens(texts: Iterable[str]) -> float:
    """Median whitespace-token count of the query texts (0.0 for none)."""
    lengths = [len(text.split()) for text in texts]
    return float(statistics.median(lengths)) if lengths else 0.0
