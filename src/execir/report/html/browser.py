"""The per-query browser's data: each system's record per query (outcome tags, the top 10 as
``[doc id, score, grade]``), the query texts, every shown document's kind, operator, task and text
once, and a unified diff (difflib) between the query's canonical program and the document that beat
it, once per pair."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from execir.dataset import Dataset
from execir.results import QueryRecord, RankedDoc

OUTCOMES = {
    "hit1": ("hit@1", "correct at rank 1"),
    "miss1": ("miss@1", "wrong at rank 1"),
    "below-mutant": ("below a mutant", "canonical below a failing mutant"),
    "beyond10": ("beyond top 10", "canonical beyond the top 10"),
}
"""Outcome tag -> (short label, what it means); a record may carry several."""
DIFF_CONTEXT = 3
SCORE_DIGITS = 6
"""Decimals of a retrieval score kept for display."""


def outcome_tags(record: QueryRecord) -> list[str]:
    """The outcome tags of one record, in :data:`OUTCOMES` order."""
    tags = ["hit1" if record.exec_at_1 >= 1.0 else "miss1"]
    if record.beaten_by:
        tags.append("below-mutant")
    if record.canonical_rank is None or record.canonical_rank > 10:
        tags.append("beyond10")
    return tags


def canonical_id(dataset: Dataset, query_id: str) -> str | None:
    """The query's canonical document: a correct document of kind ``canonical``, else the first correct one by id."""
    correct = sorted(d for d, grade in dataset.qrels.get(query_id, {}).items() if grade >= 2)
    kinds = {d: dataset.docs[d].kind if d in dataset.docs else "" for d in correct}
    return next((d for d in correct if kinds[d] == "canonical"), correct[0] if correct else None)


def beater_id(record: QueryRecord) -> str | None:
    """The document that beat the canonical: the highest-ranked mutant above it, else a wrong document at rank 1."""
    above = set(record.beaten_by)
    ranked = next((doc.doc_id for doc in record.top10 if doc.doc_id in above), None)
    if ranked is not None:
        return ranked
    if record.beaten_by:
        return record.beaten_by[0]
    if record.top10 and record.top10[0].rel < 2:
        return record.top10[0].doc_id
    return None


def lines(text: str) -> list[str]:
    """``text`` split at line feeds only (a form feed or U+2028 inside a program stays in its line)."""
    parts = text.replace("\r\n", "\n").split("\n")
    return parts[:-1] if parts and parts[-1] == "" else parts


def unified_diff(before: str, after: str, before_name: str, after_name: str) -> str:
    """A unified diff of two texts, line by line."""
    return "\n".join(difflib.unified_diff(lines(before), lines(after), before_name, after_name, lineterm="", n=DIFF_CONTEXT))


def _operators(record: QueryRecord, dataset: Dataset) -> list[str]:
    """Operators of the mutants that outranked the canonical."""
    found = {dataset.docs[d].operator for d in record.beaten_by if d in dataset.docs}
    return sorted(op for op in found if op)


def _doc_label(dataset: Dataset, doc_id: str) -> str:
    info = dataset.docs.get(doc_id)
    if info is None:
        return doc_id
    return f"{doc_id} ({info.kind}{', ' + info.operator if info.operator else ''})"


class _Collector:
    """Gathers texts and diffs so that each is embedded once."""

    def __init__(self, dataset: Dataset) -> None:
        self.dataset = dataset
        self.texts: dict[str, str] = {}
        self.diffs: dict[str, str] = {}
        self.docs: dict[str, list[str]] = {}

    def ranked(self, doc: RankedDoc) -> list[Any]:
        """``[doc id, score, grade]``; the document's kind, operator and task go to :attr:`docs` once."""
        self.text(doc.doc_id)
        self.docs.setdefault(doc.doc_id, [doc.kind, doc.operator or "", doc.task_id])
        return [doc.doc_id, None if doc.score is None else round(doc.score, SCORE_DIGITS), doc.rel]

    def text(self, doc_id: str | None) -> str | None:
        if doc_id is None or doc_id not in self.dataset.corpus:
            return None
        self.texts.setdefault(doc_id, self.dataset.corpus[doc_id])
        return doc_id

    def diff(self, canonical: str | None, beater: str | None) -> str | None:
        if canonical is None or beater is None or canonical not in self.dataset.corpus or beater not in self.dataset.corpus:
            return None
        key = f"{canonical} {beater}"
        if key not in self.diffs:
            self.diffs[key] = unified_diff(
                self.dataset.corpus[canonical],
                self.dataset.corpus[beater],
                f"canonical {_doc_label(self.dataset, canonical)}",
                _doc_label(self.dataset, beater),
            )
        return key


def _record(record: QueryRecord, system_index: int, dataset: Dataset, collect: _Collector) -> dict[str, Any]:
    canonical = collect.text(canonical_id(dataset, record.query_id))
    beater = collect.text(beater_id(record))
    top = [collect.ranked(doc) for doc in record.top10]
    return {
        "s": system_index,
        "q": record.query_id,
        "e": record.exec_at_1,
        "r": record.canonical_rank,
        "cs": record.canonical_score,
        "o": outcome_tags(record),
        "ops": _operators(record, dataset),
        "b": beater,
        "c": canonical,
        "d": collect.diff(canonical, beater),
        "top": top,
    }


def browser_data(records: Sequence[QueryRecord], dataset: Dataset, systems: Sequence[str]) -> dict[str, Any]:
    """Everything the query browser shows, as JSON-able data (systems in ``systems`` order, then any others)."""
    names = list(systems) + sorted({r.system for r in records} - set(systems))
    index = {name: i for i, name in enumerate(names)}
    collect = _Collector(dataset)
    ordered = sorted(records, key=lambda r: (r.query_id, index[r.system]))
    rows = [_record(r, index[r.system], dataset, collect) for r in ordered]
    query_ids = sorted({r.query_id for r in records})
    queries = {q: {"text": dataset.queries.get(q, ""), "task": dataset.query_task.get(q) or ""} for q in query_ids}
    operators = sorted({op for row in rows for op in row["ops"]})
    return {
        "systems": names,
        "operators": operators,
        "outcomes": {tag: short for tag, (short, _) in OUTCOMES.items()},
        "queries": queries,
        "records": rows,
        "docs": collect.docs,
        "texts": collect.texts,
        "diffs": collect.diffs,
    }
