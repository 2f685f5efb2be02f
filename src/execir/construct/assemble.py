"""Pure assembly of a text-to-code dataset from verified tasks (no I/O).

Document ids are opaque content hashes (``d-<sha256[:16]>``) so neither a retriever nor a tie
breaker can tell a canonical from a mutant by its id; the kind lives in the metadata.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from execir.construct.verify import KeptMutant, VerifiedTask
from execir.types import Relevance


@dataclass(frozen=True)
class DatasetRecords:
    """The rows of every dataset file, in their final order."""

    corpus: list[dict[str, Any]]
    queries: list[dict[str, Any]]
    qrels: list[tuple[str, str, int]]
    counts: dict[str, Any]


def doc_id(text: str) -> str:
    """Stable opaque id of a document text."""
    return "d-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def assemble_text_to_code(verified: Sequence[VerifiedTask]) -> DatasetRecords:
    """Corpus, queries and graded qrels for the text-to-code task."""
    corpus: list[dict[str, Any]] = []
    queries: list[dict[str, Any]] = []
    qrels: list[tuple[str, str, int]] = []
    seen: set[str] = set()
    per_operator: Counter[str] = Counter()
    human = 0
    for item in verified:
        task = item.task
        canonical_id = doc_id(task.solution)
        seen.add(task.solution)
        corpus.append(_canonical_record(item, canonical_id))
        queries.append({"_id": task.task_id, "text": task.description, "metadata": {"task_id": task.task_id}})
        qrels.append((task.task_id, canonical_id, int(Relevance.CORRECT)))
        for kept in [*item.human, *item.mutants]:
            if kept.mutant.text in seen:
                continue
            seen.add(kept.mutant.text)
            mutant_id = doc_id(kept.mutant.text)
            corpus.append(_mutant_record(kept, mutant_id, task.entry_point, task.language))
            qrels.append((task.task_id, mutant_id, int(Relevance.HARD_NEGATIVE)))
            if kept.mutant.kind == "human":
                human += 1
            else:
                per_operator[kept.mutant.operator] += 1
    per_task = Counter(len(v.mutants) for v in verified)
    counts: dict[str, Any] = {
        "queries": len(queries),
        "documents": len(corpus),
        "canonical": len(queries),
        "mutant": len(corpus) - len(queries) - human,
        "human": human,
        "tasks_with_mutants": sum(1 for v in verified if v.mutants),
        "per_operator": dict(sorted(per_operator.items())),
        "mutants_per_task": {str(k): n for k, n in sorted(per_task.items())},
    }
    return DatasetRecords(corpus, queries, qrels, counts)


def _canonical_record(item: VerifiedTask, identifier: str) -> dict[str, Any]:
    return {
        "_id": identifier,
        "title": "",
        "text": item.task.solution,
        "metadata": {
            "task_id": item.task.task_id,
            "kind": "canonical",
            "operator": None,
            "edit": None,
            "edit_distance": 0,
            "verdict": "PASS",
            "entry_point": item.task.entry_point,
            "language": item.task.language,
        },
    }


def _mutant_record(kept: KeptMutant, identifier: str, entry_point: str, language: str) -> dict[str, Any]:
    mutant = kept.mutant
    return {
        "_id": identifier,
        "title": "",
        "text": mutant.text,
        "metadata": {
            "task_id": mutant.task_id,
            "kind": mutant.kind,
            "operator": mutant.operator,
            "edit": {"line": mutant.edit.line, "col": mutant.edit.col, "before": mutant.edit.before, "after": mutant.edit.after},
            "edit_distance": mutant.edit_distance,
            "verdict": kept.result.verdict.value,
            "entry_point": entry_point,
            "language": language,
        },
    }
