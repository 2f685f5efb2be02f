"""Single-span edits: the unit every operator yields, and how one is applied."""

from __future__ import annotations

from typing import NamedTuple

from execir.types import Edit


class SpanEdit(NamedTuple):
    """Replace the character span ``[start, end)`` of the source with ``after``."""

    start: int
    end: int
    after: str


def splice(text: str, edit: SpanEdit) -> str:
    """The text with exactly one span replaced; everything else is kept byte for byte."""
    return text[: edit.start] + edit.after + text[edit.end :]


def to_edit(text: str, edit: SpanEdit) -> Edit:
    """The located, human-readable record of a span edit (line 1-based, column in characters)."""
    line_start = text.rfind("\n", 0, edit.start) + 1
    line = text.count("\n", 0, edit.start) + 1
    return Edit(line=line, col=edit.start - line_start, before=text[edit.start : edit.end], after=edit.after)


def whole_lines(text: str, start: int, end: int, comment: str | None = None) -> tuple[int, int]:
    """Widen a deleted span to its whole lines (indent and newline, and a trailing comment starting
    with ``comment`` when given) when it owns them, so deleting it leaves no blank line behind;
    otherwise the span itself."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end + 1
    rest = text[end:line_end].strip()
    if text[line_start:start].strip() or (rest and not (comment and rest.startswith(comment))):
        return start, end
    return line_start, line_end
