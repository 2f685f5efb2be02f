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
