"""Candidate-controlled text made safe to store and to print (pure functions).

Failure messages, exception names and stderr tails come from untrusted programs. Before they enter
a verdict's detail, the SQLite cache or a terminal they are made *printable*: lone surrogates,
control characters (terminal escape sequences, carriage returns that overwrite a line) and
bidirectional overrides are written as visible escapes, so no candidate text can make a FAIL print
as a PASS or make a cache write raise.
"""

from __future__ import annotations

import re

_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_UNSAFE = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\ud800-\\udfff{_BIDI}]")
_UNSAFE_LINE = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff{_BIDI}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, limit: int = 500, *, one_line: bool = True) -> str:
    """``text`` with every unsafe character escaped, cut to ``limit`` characters (newlines and
    tabs escaped too when ``one_line``)."""
    pattern = _UNSAFE_LINE if one_line else _UNSAFE
    cleaned = pattern.sub(_escape, text[: limit * 2])
    return cleaned[:limit]
