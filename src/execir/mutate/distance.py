"""Token-level edit distance between two Python programs."""

from __future__ import annotations

import io
import tokenize
from collections.abc import Sequence

_LAYOUT = frozenset(
    {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT,
     tokenize.ENDMARKER}
)


def python_tokens(text: str) -> tuple[str, ...]:
    """Token strings of a program without layout and comments.

    Text that does not tokenize falls back to whitespace-separated words, so the distance is
    always defined.
    """
    try:
        return tuple(
            tok.string
            for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type not in _LAYOUT
        )
    except (tokenize.TokenError, SyntaxError):
        return tuple(text.split())


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


def token_edit_distance(a: str, b: str) -> int:
    """Levenshtein distance between the token sequences of two programs."""
    return levenshtein(python_tokens(a), python_tokens(b))
