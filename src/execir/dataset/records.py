"""Typed rows of a dataset folder, and their JSON form on disk.

Metadata is **null-free** with one schema per file (every row has every key, with the same type),
so Arrow-based readers (``datasets``, MTEB) load it: a missing edit is an empty edit, a missing
operator an empty string.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from execir.types import Edit

NO_EDIT = Edit(line=0, col=0, before="", after="")

SPLITS: tuple[str, ...] = ("train", "dev", "test")


def doc_id(text: str, prefix: str = "d") -> str:
    """Stable opaque id of a document text (``d-`` code, ``t-`` text): the id tells nothing of the
    document's kind or relevance, so no retriever or tie breaker can use it."""
    return f"{prefix}-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Document:
    """One corpus document with its provenance."""

    id: str
    text: str
    task_id: str
    problem: str
    """The problem the document belongs to, shared by a task's versions in every language (the unit
    of splits and of relevance pools)."""
    kind: str
    """``canonical``, ``rewrite``, ``candidate``, ``mutant`` or ``human`` for code; ``description``,
    ``counterfactual`` or ``distractor`` for text."""
    language: str
    """Programming language of code; ``en`` for text."""
    grade: int
    """The grade this document has for the queries of its own problem (2 or 1)."""
    operator: str = ""
    """The mutation operator, rewrite rule, counterfactual rule or candidate source."""
    edit: Edit = NO_EDIT
    edit_distance: int = 0
    verdict: str = ""
    """The oracle's verdict for code (``PASS``, ``FAIL``, ``TIMEOUT``, ``ERROR``); empty for text."""
    source: str = ""
    entry_point: str = ""

    def to_json(self) -> dict[str, Any]:
        """The BEIR corpus row."""
        return {
            "_id": self.id,
            "title": "",
            "text": self.text,
            "metadata": {
                "task_id": self.task_id,
                "problem": self.problem,
                "kind": self.kind,
                "language": self.language,
                "grade": self.grade,
                "operator": self.operator,
                "edit": {"line": self.edit.line, "col": self.edit.col, "before": self.edit.before, "after": self.edit.after},
                "edit_distance": self.edit_distance,
                "verdict": self.verdict,
                "source": self.source,
                "entry_point": self.entry_point,
            },
        }


@dataclass(frozen=True)
class Query:
    """One query with what it asks for."""

    id: str
    text: str
    task_id: str
    problem: str
    task: str
    """The folder's task name (``t2c-search``, ``c2c``)."""
    subtype: str = ""
    language: str = ""
    """The language of the code side: the anchor's (c2t, c2c) or the documents' (t2c)."""
    constraint: str = "any"
    """Which documents may answer: ``any`` language, or one language (c2c per-language folders)."""

    def to_json(self) -> dict[str, Any]:
        """The BEIR queries row."""
        return {
            "_id": self.id,
            "text": self.text,
            "metadata": {
                "task_id": self.task_id,
                "problem": self.problem,
                "task": self.task,
                "subtype": self.subtype,
                "language": self.language,
                "constraint": self.constraint,
            },
        }


@dataclass(frozen=True)
class FolderRecords:
    """Everything one dataset folder holds, before it is written."""

    name: str
    task: str
    """The :class:`~execir.dataset.spec.TaskSpec` name."""
    language: str
    """The folder's language, or ``multi``."""
    documents: tuple[Document, ...]
    queries: tuple[Query, ...]
    qrels: tuple[tuple[str, str, int], ...]
    """Graded judgements (query id, document id, grade) with grade 1 or 2; grade 0 is implicit."""
    facts: dict[str, Any] = field(default_factory=dict)
    """Task-specific facts for the manifest (how texts were derived, counts by kind)."""
