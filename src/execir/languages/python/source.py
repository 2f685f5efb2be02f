"""Positions in Python source text: AST node spans and tokens as character offsets.

``ast`` reports columns as UTF-8 *byte* offsets within a line, while Python strings index
characters; :class:`SourceText` converts between the two so that edits can be spliced into the
original text exactly, on non-ASCII lines too. Lines are split on ``\\n`` only, as the parser does.
"""

from __future__ import annotations

import ast
import bisect
import io
import tokenize
from functools import cached_property
from typing import NamedTuple

_SKIPPED_TOKENS = frozenset({tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT, tokenize.ENDMARKER})


class Token(NamedTuple):
    """A significant token with its half-open character span in the source."""

    type: int
    string: str
    start: int
    end: int


class SourceText:
    """Immutable view of a module's text with offset conversions (built once per source)."""

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        position = text.find("\n")
        while position != -1:
            starts.append(position + 1)
            position = text.find("\n", position + 1)
        self._line_starts = starts

    def offset(self, lineno: int, byte_col: int) -> int:
        """Character offset of an AST position (1-based line, UTF-8 byte column)."""
        start = self._line_starts[lineno - 1]
        end = self._line_starts[lineno] if lineno < len(self._line_starts) else len(self.text)
        line = self.text[start:end]
        if line.isascii():
            return start + byte_col
        return start + len(line.encode("utf-8")[:byte_col].decode("utf-8"))

    def char_offset(self, row: int, char_col: int) -> int:
        """Character offset of a tokenize position (1-based row, character column)."""
        return self._line_starts[row - 1] + char_col

    def position(self, offset: int) -> tuple[int, int]:
        """(1-based line, 0-based character column) of a character offset."""
        index = bisect.bisect_right(self._line_starts, offset) - 1
        return index + 1, offset - self._line_starts[index]

    def node_span(self, node: ast.AST) -> tuple[int, int]:
        """Half-open character span of an expression or statement node."""
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        return start, end

    def segment(self, node: ast.AST) -> str:
        """Exact source text of a node."""
        start, end = self.node_span(node)
        return self.text[start:end]

    @cached_property
    def tokens(self) -> tuple[Token, ...]:
        """Significant tokens (no layout or comments); empty when the text does not tokenize."""
        readline = io.StringIO(self.text).readline
        try:
            return tuple(
                Token(tok.type, tok.string, self.char_offset(*tok.start), self.char_offset(*tok.end))
                for tok in tokenize.generate_tokens(readline)
                if tok.type not in _SKIPPED_TOKENS
            )
        except (tokenize.TokenError, SyntaxError):
            return ()

    @cached_property
    def _token_starts(self) -> list[int]:
        return [tok.start for tok in self.tokens]

    def tokens_in(self, start: int, end: int) -> list[Token]:
        """Significant tokens lying entirely inside the character span ``[start, end)``."""
        first = bisect.bisect_left(self._token_starts, start)
        result = []
        for tok in self.tokens[first:]:
            if tok.end > end:
                break
            result.append(tok)
        return result
