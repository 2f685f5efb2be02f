"""Short keyword queries, like what a developer types into a code-search box.

:func:`search_query` derives the query mechanically from a task's description and its entry point:

1. **Code is removed first**: spans in backticks or quotes (``'...'``, ``"..."``), calls
   (``name(...)``), tuples of single tokens (``(m, n)``), ``[...]`` and ``{...}`` literals (all
   :data:`CODE_SPANS`), signed or decimal numbers (``-1``, ``2.5``) and the abbreviations
   ``e.g.``/``i.e.``/``etc.``; a sentence that holds a code marker (``>>>``, ``==``, ``=>``, ``->``,
   ``➞``) is dropped whole.
2. **Sentences**: the rest is split into sentences at ``.``, ``!``, ``?`` followed by a space, and
   at line breaks.
3. **Words**: each sentence's tokens are split on ``snake_case`` and ``camelCase`` boundaries and
   lowercased; standalone integers written in digits stay (``digit 7``, ``base 2``).
4. **Filter**: English stopwords, task boilerplate (``write``, ``function``, ``given``,
   ``return`` ...; see :data:`BOILERPLATE`) and one-character words are dropped.
5. **Entry point**: the entry point's name is split the same way (``has_close_elements``,
   ``HasCloseElements`` -> ``has close elements``) and filtered the same way.
6. **Assemble**: the words of the first sentence, then those of the next sentences one sentence at a
   time while the query (description words plus entry-point words, duplicates removed, first
   occurrence kept) has fewer than ``min_tokens`` words; the entry-point words not already present
   follow. Over ``max_tokens``, description words are dropped from the end, never the entry-point
   words (unless those alone exceed ``max_tokens``).
7. **Relax when short**: when even every sentence gives fewer than ``min_tokens`` words, steps 4-6
   are repeated admitting the boilerplate words, then every word (stopwords and one-character
   words too); the first filter that reaches ``min_tokens`` (or, failing all, the last) wins.
8. **Never empty**: if nothing remains, the entry point's words, unfiltered.

The function is pure: the same inputs always give the same query.
"""

from __future__ import annotations

import re

STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are aren as at be because been before being
    below between both but by can cannot could couldn did didn do does doesn doing don down during each
    few for from further had hadn has hasn have haven having he her here hers herself him himself his
    how i if in into is isn it its itself just let me more most my myself no nor not now of off on once
    only or other our ours ourselves out over own same shall she should shouldn so some such than that
    the their theirs them themselves then there these they this those through to too under until up
    upon us very was wasn we were weren what when where which while who whom why will with won would
    wouldn you your yours yourself yourselves s t ll re ve d m o y
    """.split()
)
"""English stopwords (after NLTK's English list, with contraction stems such as ``doesn``)."""

BOILERPLATE = frozenset(
    """
    write function functions given return returns returned task implement create program method
    takes take receive receives input output example examples note notes also please need needs
    want wants like assume assumed python
    """.split()
)
"""Words every task statement uses that say nothing about what the code does."""

CODE_MARKERS = (">>>", "==", "=>", "->", "➞")
"""A sentence or line holding one of these is a code example, not prose."""

CODE_SPANS = re.compile(
    r"`[^`]*`"  # backticks
    r"|(?<!\w)'[^'\n]*'(?!\w)"  # single quotes (not apostrophes: the quote may not touch a letter outside)
    r"|(?<!\w)\"[^\"\n]*\"(?!\w)"  # double quotes
    r"|\w+\([^()\n]*\)"  # calls
    r"|\((?:\s*[\w.+-]+\s*,)+\s*[\w.+-]+\s*\)"  # tuples of single tokens: (m, n), (0, 0)
    r"|\[[^\[\]\n]*\]|\{[^{}\n]*\}"  # list / set / dict literals
)
"""Inline code in prose: backtick or quoted spans, calls, tuples of single tokens, list/set/dict literals (one line each)."""

_NOISE = re.compile(r"[-+]\d+(?:\.\d+)?|\d+\.\d+|\b(?:e\.g|i\.e|etc)\.", re.IGNORECASE)
"""Signed or decimal numbers and abbreviations whose dots would end a sentence."""
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_TOKEN = re.compile(r"[A-Za-z0-9_]+")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

_TIERS: tuple[frozenset[str], ...] = (STOPWORDS | BOILERPLATE, STOPWORDS, frozenset())
"""The filters tried in turn: content words only, then boilerplate admitted, then every word."""


def token_count(text: str) -> int:
    """The number of whitespace-separated tokens of ``text``."""
    return len(text.split())


def split_identifier(name: str) -> list[str]:
    """The lowercased words of an identifier, split on ``_``, ``camelCase`` and digit runs."""
    return [part.lower() for piece in name.split("_") for part in _PART.findall(piece)]


def sentences(description: str) -> list[list[str]]:
    """The lowercased words of each prose sentence of ``description`` (code removed, step 1-3)."""
    prose = _NOISE.sub(" ", CODE_SPANS.sub(" ", description))
    result = []
    for sentence in _SENTENCE_END.split(prose):
        if any(marker in sentence for marker in CODE_MARKERS):
            continue
        words = [word for token in _TOKEN.findall(sentence) for word in split_identifier(token)]
        if words:
            result.append(words)
    return result


def _keep(words: list[str], dropped: frozenset[str], short_ok: bool) -> list[str]:
    return [w for w in words if w not in dropped and (short_ok or len(w) > 1)]


def _unique(words: list[str]) -> list[str]:
    return list(dict.fromkeys(words))


def _assemble(parts: list[list[str]], entry: list[str], min_tokens: int, max_tokens: int) -> list[str]:
    """Sentence words until ``min_tokens`` (with the entry words), then the cap (step 6)."""
    entry = _unique(entry)[:max_tokens]
    described: list[str] = []
    for words in parts:
        described = _unique(described + words)
        if len(_unique(described + entry)) >= min_tokens:
            break
    budget = max_tokens - len(entry)
    kept: list[str] = []
    for word in described:
        if word in entry:
            kept.append(word)
        elif budget > 0:
            kept.append(word)
            budget -= 1
    return kept + [word for word in entry if word not in kept]


def search_query(description: str, entry_point: str, *, min_tokens: int = 5, max_tokens: int = 20) -> str:
    """A keyword query of at most ``max_tokens`` words from ``description`` and ``entry_point``
    (the method is in the module docstring); padded towards ``min_tokens``, never empty."""
    if max_tokens < 1 or min_tokens > max_tokens:
        raise ValueError(f"need 1 <= max_tokens and min_tokens <= max_tokens, got {min_tokens}..{max_tokens}")
    parts = sentences(description)
    name = split_identifier(entry_point)
    query: list[str] = []
    for tier, dropped in enumerate(_TIERS):
        short_ok = tier == len(_TIERS) - 1
        filtered = [kept for words in parts if (kept := _keep(words, dropped, short_ok))]
        query = _assemble(filtered, _keep(name, dropped, short_ok), min_tokens, max_tokens)
        if len(query) >= min_tokens:
            break
    if not query:
        query = _unique(name)[:max_tokens] or [entry_point.lower() or "code"]
    return " ".join(query)
