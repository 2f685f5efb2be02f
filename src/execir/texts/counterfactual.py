"""Counterfactual descriptions: one mechanical edit that flips what a description asks for.

Like a code mutant, each counterfactual is a single edit of the description, recorded as an
:class:`~execir.types.Edit` (1-based line, 0-based column in the original text, ``before`` and
``after``). Three rules propose edits:

* ``antonym``: a whole word of :data:`ANTONYMS` (45 pairs) becomes its partner, in both directions, with its
  case kept (``smallest`` -> ``largest``, ``Even`` -> ``Odd``, ``TRUE`` -> ``FALSE``); and the
  strictness of a comparison flips: ``greater than`` <-> ``greater than or equal to`` (also ``less``,
  ``larger``, ``smaller``, ``bigger``, ``more``, ``fewer``; ``or equal`` without ``to`` is removed too).
* ``number``: an integer written in digits becomes ``n + 1`` and ``n - 1`` (never below 0), and a
  number word ``zero`` ... ``ten`` its neighbours (``two`` -> ``one``, ``three``). ``one`` counts as a
  number only when a word other than ``another``/``by`` follows it and neither of the two words before
  it is a determiner (``the``, ``a``, ``each``, ``any`` ...), so the pronoun (``the first one``) is kept. Digits
  inside identifiers, decimals (``2.5``), signed numbers (``-1``) and list markers at the start of a
  line (``1.``, ``2)``) are not edited.
* ``negation``: ``not`` is inserted after an auxiliary (``is``, ``are``, ``was``, ``were``, ``do``,
  ``does``, ``did``, ``should``, ``must``, ``will``, ``would``, ``could``; ``can`` -> ``cannot``) that
  no ``not`` follows; a ``not`` is removed; ``cannot`` -> ``can``; a contraction loses its ``n't``
  (``doesn't`` -> ``does``, ``won't`` -> ``will``); and the prefix ``non-`` is removed
  (``non-negative`` -> ``negative``).

Words are whole words: not part of an identifier (``max_len``, ``x.max``), not touching a letter,
digit, ``_`` or apostrophe. **Code is never edited**: no edit overlaps a span in backticks or quotes,
a call ``name(...)``, a tuple like ``(0, 0)``, a ``[...]``/``{...}`` literal (:data:`execir.texts.search.CODE_SPANS`), a
sentence holding a code marker (``>>>``, ``==``, ``=>``, ``->``, ``➞``), or an example block (a
line starting with ``>>>`` or ``irb>`` and the lines after it up to a blank line: the expected
output).

:func:`counterfactuals` lists every candidate in text order (then rule order), dropping a text equal
to the input or to an earlier candidate. With ``limit``, a seeded subset spread over the rules is
kept (see :func:`select`); the order depends only on the description and the seed, never on
``PYTHONHASHSEED``.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

from execir.edits import SpanEdit, splice, to_edit
from execir.texts.search import CODE_MARKERS, CODE_SPANS
from execir.types import Edit

RULES = ("antonym", "number", "negation")
"""The rule names, in the order candidates at the same position are listed."""

ANTONYMS: tuple[tuple[str, str], ...] = (
    ("smallest", "largest"),
    ("smaller", "larger"),
    ("minimum", "maximum"),
    ("min", "max"),
    ("minimal", "maximal"),
    ("ascending", "descending"),
    ("increasing", "decreasing"),
    ("even", "odd"),
    ("first", "last"),
    ("before", "after"),
    ("include", "exclude"),
    ("includes", "excludes"),
    ("inclusive", "exclusive"),
    ("positive", "negative"),
    ("true", "false"),
    ("left", "right"),
    ("lower", "upper"),
    ("lowercase", "uppercase"),
    ("prefix", "suffix"),
    ("start", "end"),
    ("starts", "ends"),
    ("more", "fewer"),
    ("most", "least"),
    ("longest", "shortest"),
    ("longer", "shorter"),
    ("highest", "lowest"),
    ("all", "any"),
    ("sum", "product"),
    ("add", "subtract"),
    ("vowel", "consonant"),
    ("vowels", "consonants"),
    ("unique", "duplicate"),
    ("greater", "less"),
    ("above", "below"),
    ("inside", "outside"),
    ("always", "never"),
    ("opening", "closing"),
    ("prime", "composite"),
    ("multiply", "divide"),
    ("encode", "decode"),
    ("encoded", "decoded"),
    ("encrypt", "decrypt"),
    ("same", "different"),
    ("forward", "backward"),
    ("increment", "decrement"),
)
"""Antonym pairs, applied in both directions; every word is in one pair only."""

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven")
"""Number words; ``zero`` ... ``ten`` are edited (``eleven`` is only a result)."""

AUXILIARIES = ("is", "are", "was", "were", "do", "does", "did", "should", "must", "will", "would", "could", "can")
"""Words after which ``not`` is inserted (``can`` becomes ``cannot``)."""

CONTRACTIONS = {
    "isn't": "is",
    "aren't": "are",
    "wasn't": "was",
    "weren't": "were",
    "don't": "do",
    "doesn't": "does",
    "didn't": "did",
    "shouldn't": "should",
    "mustn't": "must",
    "won't": "will",
    "wouldn't": "would",
    "couldn't": "could",
    "can't": "can",
    "hasn't": "has",
    "haven't": "have",
    "cannot": "can",
}
"""Negated forms and what removing the negation leaves."""

_PRONOUN_BEFORE = frozenset({"the", "each", "every", "any", "this", "that", "which", "no", "another", "a", "an"})
_PRONOUN_AFTER = frozenset({"another", "by"})
_W = r"(?<![\w.'’])"
_E = r"(?![\w'’])"
_STRICT = re.compile(rf"{_W}(greater|less|larger|smaller|bigger|more|fewer)\s+than(\s+or\s+equal(?:\s+to)?)?{_E}", re.IGNORECASE)
_DIGITS = re.compile(r"(?<![\w.+\-])\d+(?![\w]|\.\d)")
_LIST_MARKER = re.compile(r"^[ \t]*\d+[.)]\s", re.MULTILINE)
_NOT = re.compile(rf"{_W}not{_E}( )?", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")
_NON = re.compile(r"(?<![\w-])non-(?=[A-Za-z])", re.IGNORECASE)


@dataclass(frozen=True)
class Counterfactual:
    """A description with one edit that flips its meaning."""

    rule: str
    """``antonym``, ``number`` or ``negation``."""
    edit: Edit
    text: str


def _words(*words: str) -> re.Pattern[str]:
    ordered = sorted(words, key=lambda word: (-len(word), word))
    return re.compile(rf"{_W}({'|'.join(re.escape(word) for word in ordered)}){_E}", re.IGNORECASE)


_PARTNER = {a: b for pair in ANTONYMS for a, b in (pair, pair[::-1])}
_ANTONYM_WORDS = _words(*_PARTNER)
_NUMBER_WORDS = _words(*NUMBER_WORDS[:-1])
_AUXILIARY = re.compile(rf"{_W}({'|'.join(AUXILIARIES)})(?= +(?!not{_E})[A-Za-z])", re.IGNORECASE)
_CONTRACTION = _words(*CONTRACTIONS)


def match_case(word: str, model: str) -> str:
    """``word`` in the case of ``model`` (all capitals, capitalised or lower case)."""
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def protected_spans(text: str) -> list[tuple[int, int]]:
    """Spans no edit may touch: inline code (:data:`CODE_SPANS`), sentences holding a code marker,
    and example lines (from a line starting with ``>>>`` or ``irb>`` to the next blank line)."""
    spans = [match.span() for match in CODE_SPANS.finditer(text)]
    start = 0
    in_example = False
    for line in text.split("\n"):
        in_example = bool(line.strip()) and (in_example or line.lstrip().startswith((">>>", "irb>")))
        if in_example:
            spans.append((start, start + len(line)))
        else:
            spans.extend((start + a, start + b) for a, b in _sentences(line) if any(marker in line[a:b] for marker in CODE_MARKERS))
        start += len(line) + 1
    return spans


def _sentences(line: str) -> list[tuple[int, int]]:
    """Spans of the sentences of one line (ended by ``.``, ``!`` or ``?`` and a space)."""
    cuts = [0] + [match.end() for match in _SENTENCE_BREAK.finditer(line)] + [len(line)]
    return list(zip(cuts, cuts[1:]))


def antonym_edits(text: str) -> Iterator[SpanEdit]:
    """Antonym swaps and comparison strictness flips."""
    for match in _ANTONYM_WORDS.finditer(text):
        word = match.group(1)
        yield SpanEdit(*match.span(), match_case(_PARTNER[word.lower()], word))
    for match in _STRICT.finditer(text):
        if match.group(2):
            yield SpanEdit(*match.span(), text[match.start() : match.start(2)])
        else:
            yield SpanEdit(*match.span(), match.group(0) + " or equal to")


def number_edits(text: str) -> Iterator[SpanEdit]:
    """Integers in digits and number words, one up and one down."""
    markers = {match.end() - 2 for match in _LIST_MARKER.finditer(text)}
    for match in _DIGITS.finditer(text):
        if match.end() in markers:
            continue
        value = int(match.group(0))
        yield from (SpanEdit(*match.span(), str(n)) for n in (value + 1, value - 1) if n >= 0)
    for match in _NUMBER_WORDS.finditer(text):
        word = match.group(1)
        if word.lower() == "one" and _is_pronoun(text, match.start(), match.end()):
            continue
        index = NUMBER_WORDS.index(word.lower())
        for other in (index + 1, index - 1):
            if other >= 0:
                yield SpanEdit(*match.span(), match_case(NUMBER_WORDS[other], word))


def _is_pronoun(text: str, start: int, end: int) -> bool:
    before = re.findall(r"[A-Za-z]+|[^A-Za-z\s]", text[max(0, start - 30) : start])[-2:]
    after = re.match(r" +([A-Za-z]+)", text[end:])
    if any(word.lower() in _PRONOUN_BEFORE for word in before):
        return True
    return after is None or after.group(1).lower() in _PRONOUN_AFTER


def negation_edits(text: str) -> Iterator[SpanEdit]:
    """``not`` inserted after an auxiliary or removed; contractions and ``non-`` undone."""
    for match in _AUXILIARY.finditer(text):
        word = match.group(1)
        yield SpanEdit(*match.span(), word + ("not" if word.lower() == "can" else " not"))
    for match in _NOT.finditer(text):
        if match.group(1):  # "not " followed by a word: drop the word and its space
            yield SpanEdit(*match.span(), "")
        elif match.start() > 0 and text[match.start() - 1] == " ":  # "... not." : drop the space before
            yield SpanEdit(match.start() - 1, match.end(), "")
    for match in _CONTRACTION.finditer(text):
        word = match.group(1)
        yield SpanEdit(*match.span(), match_case(CONTRACTIONS[word.lower()], word))
    for match in _NON.finditer(text):
        yield SpanEdit(*match.span(), "")


_RULE_EDITS = {"antonym": antonym_edits, "number": number_edits, "negation": negation_edits}


def _overlaps(edit: SpanEdit, spans: list[tuple[int, int]]) -> bool:
    return any(edit.start < end and start < max(edit.end, edit.start + 1) for start, end in spans)


def counterfactuals(description: str, *, limit: int | None = None, seed: int = 0) -> list[Counterfactual]:
    """Every single-edit counterfactual of ``description`` in text order (or, with ``limit``, a
    seeded subset of at most ``limit`` spread over the rules, kept in that order)."""
    spans = protected_spans(description)
    candidates = sorted(
        (edit.start, edit.end, RULES.index(rule), edit.after, rule)
        for rule, propose in _RULE_EDITS.items()
        for edit in propose(description)
        if not _overlaps(edit, spans)
    )
    seen = {description}
    found: list[Counterfactual] = []
    for start, end, _, after, rule in candidates:
        span = SpanEdit(start, end, after)
        text = splice(description, span)
        if text not in seen:
            seen.add(text)
            found.append(Counterfactual(rule, to_edit(description, span), text))
    return found if limit is None else select(found, limit, seed=seed, key=description)


def select(found: list[Counterfactual], limit: int, *, seed: int, key: str = "") -> list[Counterfactual]:
    """At most ``limit`` of ``found``, in ``found``'s order: rules are visited round-robin in a
    seeded order, each rule's counterfactuals in a seeded shuffle. The generator is seeded with
    ``sha256(seed, key)``, so the choice depends only on the inputs (not on ``PYTHONHASHSEED``), and
    a smaller ``limit`` keeps a subset of a larger one's choice."""
    if limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    digest = hashlib.sha256(f"{seed}\n{key}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    queues: list[list[int]] = []
    for rule in RULES:
        queue = [index for index, item in enumerate(found) if item.rule == rule]
        rng.shuffle(queue)
        queues.append(queue)
    rng.shuffle(queues)
    order = [queue[depth] for depth in range(max(map(len, queues), default=0)) for queue in queues if depth < len(queue)]
    return [found[index] for index in sorted(order[:limit])]


def edit_span(text: str, edit: Edit) -> SpanEdit:
    """The span edit an :class:`Edit` located in ``text`` stands for (the inverse of ``to_edit``)."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: edit.line - 1]) + edit.col
    return SpanEdit(start, start + len(edit.before), edit.after)
