"""User-supplied distractor descriptions, read from a JSONL file.

Each non-blank line is one object: ``{"task_id": str, "text": str, "source": str}``; ``source``
(who or what wrote the text) is optional and defaults to :data:`DEFAULT_SOURCE`. Unknown fields are
ignored. Every problem is an :class:`~execir.errors.InputError` naming the file, the line and the
field (line 0 for a file that cannot be read).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir.errors import InputError
from execir.jsonl import iter_jsonl, require

DEFAULT_SOURCE = "user"
"""The ``source`` of a line that names none."""


@dataclass(frozen=True)
class Distractor:
    """A description written to look like ``task_id``'s but ask for something else."""

    task_id: str
    text: str
    source: str
    line: int
    """The 1-based line of the file it came from."""


def load_distractors(path: Path) -> list[Distractor]:
    """Every distractor of the JSONL file ``path``, in file order."""
    return [_distractor(record, path, line) for line, record in iter_jsonl(path)]


def _distractor(record: dict[str, Any], path: Path, line: int) -> Distractor:
    task_id = _non_empty(record, "task_id", path, line)
    text = _non_empty(record, "text", path, line)
    source = _non_empty(record, "source", path, line) if "source" in record else DEFAULT_SOURCE
    return Distractor(task_id=task_id, text=text, source=source, line=line)


def _non_empty(record: dict[str, Any], field: str, path: Path, line: int) -> str:
    value: str = require(record, field, str, path, line)
    if not value.strip():
        raise InputError(str(path), line, field, "must not be empty")
    return value
