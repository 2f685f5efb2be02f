"""Token-level edit distance between two programs of one language."""

from __future__ import annotations

from collections.abc import Sequence


def levenshtein(a: Sequence[str], b: Sequence[str]) -> int:
    """Levenshtein distance between two sequences (common prefix/suffix trimmed first)."""
    prefix = 0
    while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(a), len(b)) - prefix and a[-1 - suffix] == b[-1 - suffix]:
        suffix += 1
    a, b = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    previous = list(range(len(b) + 1))
    for i, item in enumerate(a, start=1):
        current = [i]
        for j, other in enumerate(b, start=1):
            substitute = previous[j - 1] + (item != other)
            current.append(min(previous[j] + 1, current[j - 1] + 1, substitute))
        previous = current
    return previous[-1]


def token_edit_distance(a: str, b: str, language: str = "python") -> int:
    """Levenshtein distance between the token sequences of two programs in ``language``."""
    from execir.languages import get_language

    tokens = get_language(language).tokens
    return levenshtein(tokens(a), tokens(b))
