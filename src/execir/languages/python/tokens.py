"""Significant token strings of a Python program (for edit distance and program comparison)."""

from __future__ import annotations

import io
import tokenize

_LAYOUT = frozenset({tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT, tokenize.ENDMARKER})


def python_tokens(text: str) -> tuple[str, ...]:
    """Token strings of a program without layout and comments.

    Text that does not tokenize falls back to whitespace-separated words, so the distance is
    always defined.
    """
    try:
        return tuple(tok.string for tok in tokenize.generate_tokens(io.StringIO(text).readline) if tok.type not in _LAYOUT)
    except (tokenize.TokenError, SyntaxError):
        return tuple(text.split())
