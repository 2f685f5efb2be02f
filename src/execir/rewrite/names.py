"""Fresh, plausible variable names for renames and for accumulators a rewrite introduces."""

from __future__ import annotations

import hashlib
from collections.abc import Collection

LEXICON: tuple[str, ...] = (
    "result",
    "value",
    "item",
    "acc",
    "count",
    "total",
    "tmp",
    "current",
    "res",
    "out",
    "val",
    "elem",
    "entry",
    "temp",
    "answer",
    "data",
    "num",
    "cur",
    "ans",
    "buf",
)
"""Names a programmer would plausibly choose for a local variable."""


def fresh_name(old: str, taken: Collection[str]) -> str:
    """A name not in ``taken``: a lexicon word picked by a stable hash of ``old`` (so different
    variables get different words), else ``old`` followed by underscores."""
    start = int.from_bytes(hashlib.sha256(old.encode("utf-8")).digest()[:4], "big") % len(LEXICON)
    for step in range(len(LEXICON)):
        candidate = LEXICON[(start + step) % len(LEXICON)]
        if candidate != old and candidate not in taken:
            return candidate
    candidate = old + "_"
    while candidate in taken:
        candidate += "_"
    return candidate


def accumulator_name(preferred: tuple[str, ...], taken: Collection[str]) -> str:
    """The first of ``preferred`` not in ``taken`` (a fresh lexicon name otherwise)."""
    for name in preferred:
        if name not in taken:
            return name
    return fresh_name(preferred[0], taken)
