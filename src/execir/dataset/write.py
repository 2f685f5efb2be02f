"""Write dataset folders and the collection manifest (atomic files, manifest last)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from execir import __version__
from execir.dataset.card import card_files
from execir.dataset.files import atomic_write_bytes, json_bytes, jsonl_bytes, sha256_hex
from execir.dataset.layout import (
    COLLECTION_FORMAT,
    CORPUS,
    FOLDER_FORMAT,
    MANIFEST,
    QUERIES,
    qrels_file,
    strict_qrels_file,
    trec_qrels_file,
)
from execir.dataset.records import SPLITS, FolderRecords
from execir.dataset.spec import get_spec
from execir.dataset.splits import SplitPlan
from execir.dataset.stats import judgement_means, median_tokens


def qrels_bytes(rows: Sequence[tuple[str, str, int]]) -> bytes:
    """BEIR qrels TSV with its header."""
    body = "".join(f"{q}\t{d}\t{s}\n" for q, d, s in rows)
    return ("query-id\tcorpus-id\tscore\n" + body).encode("utf-8")


def trec_qrels_bytes(rows: Sequence[tuple[str, str, int]]) -> bytes:
    """TREC qrels: ``qid 0 docid rel`` per line."""
    return "".join(f"{q} 0 {d} {s}\n" for q, d, s in rows).encode("utf-8")


def strict(rows: Sequence[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
    """Binary judgements: grade 2 -> 1 (relevant), grade 1 -> 0 (judged, not relevant)."""
    return [(q, d, 1 if grade >= 2 else 0) for q, d, grade in rows]


def split_rows(records: FolderRecords, plan: SplitPlan) -> dict[str, list[tuple[str, str, int]]]:
    """Qrels rows per split (a query goes where its problem went)."""
    problem_of = {q.id: q.problem for q in records.queries}
    rows: dict[str, list[tuple[str, str, int]]] = {name: [] for name in SPLITS}
    for row in records.qrels:
        rows[plan.assignment[problem_of[row[0]]]].append(row)
    return rows


def folder_counts(records: FolderRecords, plan: SplitPlan) -> dict[str, Any]:
    """Queries, documents, judgements per query and query length, for the manifest and the notes."""
    grades: dict[str, list[int]] = {q.id: [] for q in records.queries}
    for query_id, _, grade in records.qrels:
        grades[query_id].append(grade)
    positives, negatives = judgement_means(list(grades.values()))
    per_split = Counter(plan.assignment[q.problem] for q in records.queries)
    by_language: dict[str, int] = defaultdict(int)
    for query in records.queries:
        by_language[query.language] += 1
    return {
        "queries": len(records.queries),
        "documents": len(records.documents),
        "documents_by_kind": dict(sorted(Counter(d.kind for d in records.documents).items())),
        "queries_by_split": {name: per_split.get(name, 0) for name in SPLITS},
        "queries_by_language": dict(sorted(by_language.items())),
        "positives_per_query": positives,
        "hard_negatives_per_query": negatives,
        "median_query_tokens": median_tokens(q.text for q in records.queries),
    }


def folder_files(records: FolderRecords, plan: SplitPlan, *, source: str) -> dict[str, bytes]:
    """Every file of a folder except its manifest."""
    rows = split_rows(records, plan)
    files = {
        CORPUS: jsonl_bytes(d.to_json() for d in records.documents),
        QUERIES: jsonl_bytes(q.to_json() for q in records.queries),
    }
    for name in SPLITS:
        files[qrels_file(name)] = qrels_bytes(rows[name])
        files[strict_qrels_file(name)] = qrels_bytes(strict(rows[name]))
        files[trec_qrels_file(name)] = trec_qrels_bytes(strict(rows[name]))
    counts = folder_counts(records, plan)
    card_counts = {k: v for k, v in counts.items() if not isinstance(v, dict)}
    # the card and the JSONL qrels its configs name (only splits with judgements), hashed like every file
    files.update(card_files(records.name, get_spec(records.task), rows, source=source, language=records.language, counts=card_counts))
    return files


def write_folder(out: Path, records: FolderRecords, plan: SplitPlan, build: dict[str, Any]) -> dict[str, Any]:
    """Write one folder (files first, manifest with their hashes last); returns its manifest."""
    stale = out / MANIFEST
    if stale.exists():
        stale.unlink()  # an interrupted rewrite must not leave a manifest that vouches for old files
    source = str(build.get("source", {}).get("name", "?"))
    files = folder_files(records, plan, source=source)
    for name, data in files.items():
        atomic_write_bytes(out / name, data)
    spec = get_spec(records.task)
    manifest = {
        "format": FOLDER_FORMAT,
        "toolkit": {"name": "execir", "version": __version__},
        "name": records.name,
        "task": {
            "name": spec.name,
            "direction": spec.direction,
            "subtype": spec.subtype,
            "query_kind": spec.query_kind,
            "document_kind": spec.document_kind,
            "instruction": spec.instruction,
        },
        "language": records.language,
        "relevance": spec.relevance_json(),
        "splits": plan.to_json(),
        "counts": folder_counts(records, plan),
        "facts": records.facts,
        "build": build,
        "files": {name: sha256_hex(data) for name, data in sorted(files.items())},
    }
    atomic_write_bytes(out / MANIFEST, json_bytes(manifest))
    return manifest


def write_collection(out: Path, folders: Sequence[FolderRecords], plan: SplitPlan, build: dict[str, Any]) -> dict[str, Any]:
    """Write every folder, then the collection manifest listing them (written last)."""
    stale = out / MANIFEST
    if stale.exists():
        stale.unlink()
    listed: dict[str, Any] = {}
    for records in folders:
        manifest = write_folder(out / records.name, records, plan, build)
        listed[records.name] = {
            "task": records.task,
            "language": records.language,
            "manifest_sha256": sha256_hex(json_bytes(manifest)),
            "counts": manifest["counts"],
        }
    collection = {
        "format": COLLECTION_FORMAT,
        "toolkit": {"name": "execir", "version": __version__},
        "folders": listed,
        "order": [records.name for records in folders],
        "splits": plan.to_json(),
        "build": build,
    }
    atomic_write_bytes(out / MANIFEST, json_bytes(collection))
    return collection
