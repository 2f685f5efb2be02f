"""A code-aware tokenizer for lexical retrieval (BM25) over source code and prose.

Rules, applied to any text (code or natural language):

* identifiers are split on ``snake_case`` underscores and on ``camelCase`` / ``PascalCase``
  boundaries (``parseHTTPResponse`` -> ``parse http response``), then lowercased;
* digit runs are kept as their own tokens (``sha256`` -> ``sha 256``, ``10`` -> ``10``);
* punctuation and operators are **not** tokens by default: the queries are natural-language task
  descriptions, which rarely contain operators, and single-operator tokens would only add noise to
  the document length normalisation. Pass ``keep_operators=True`` to emit them (``<=``, ``**``, ...)
  for code-to-code settings;
* a small English stopword list is removed (prose words such as "the" are rare in code, so without
  the list BM25 would give them a high IDF). Python keywords are kept: IDF takes care of them.

The tokenizer is a pure, picklable, hashable value; ``config()`` describes it for provenance.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    """a an and are as at be been but by can could do does did for from had has have how i if in
    into is it its itself may might must of on or our shall should so such than that the their them
    then there these they this those to was we were what when where which while who whom why will
    with would you your""".split()
)

_WORD = re.compile(r"[A-Za-z0-9]+")
_OPERATOR = re.compile(r"\*\*=?|//=?|<<=?|>>=?|[<>=!]=|->|:=|[-+*/%&|^~<>=@]=?")
_PIECE = re.compile(r"[A-Z]{2,}s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def split_identifier(word: str) -> list[str]:
    """Split one alphanumeric run on case and digit boundaries, lowercased."""
    return [piece.lower() for piece in _PIECE.findall(word)]


@dataclass(frozen=True)
class CodeTokenizer:
    """Turns code or prose into lowercase BM25 terms (see the module docstring for the rules)."""

    keep_operators: bool = False
    stopwords: frozenset[str] = ENGLISH_STOPWORDS

    def __call__(self, text: str) -> list[str]:
        return self.tokenize(text)

    def tokenize(self, text: str) -> list[str]:
        """Tokens of ``text`` in reading order (duplicates kept: BM25 needs term frequencies)."""
        pattern = _WORD if not self.keep_operators else _COMBINED
        tokens: list[str] = []
        for match in pattern.finditer(text):
            chunk = match.group(0)
            if chunk[0].isalnum():
                tokens.extend(t for t in split_identifier(chunk) if t not in self.stopwords)
            else:
                tokens.append(chunk)
        return tokens

    def tokenize_many(self, texts: list[str]) -> list[list[str]]:
        """Tokenize a batch of texts."""
        return [self.tokenize(text) for text in texts]

    def config(self) -> dict[str, object]:
        """JSON-able description, for the resolved config saved next to every run."""
        cfg = asdict(self)
        cfg["stopwords"] = sorted(self.stopwords)
        return cfg


_COMBINED = re.compile(f"{_WORD.pattern}|{_OPERATOR.pattern}")
