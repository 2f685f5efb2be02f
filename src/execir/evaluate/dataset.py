"""Read an ExecIR dataset in the BEIR layout (corpus, queries, qrels, manifest)."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir.construct.writer import CORPUS, MANIFEST, QRELS, QUERIES, sha256_hex
from execir.errors import InputError
from execir.metrics.analyses import DocInfo
from execir.tasks.reader import iter_jsonl, read_text, require, split_lines
from execir.types import Qrels


@dataclass(frozen=True)
class Dataset:
    """An in-memory dataset: texts, per-document facts, graded qrels and provenance."""

    root: Path
    corpus: dict[str, str]
    docs: dict[str, DocInfo]
    doc_meta: dict[str, dict[str, Any]]
    queries: dict[str, str]
    query_task: dict[str, str]
    qrels: Qrels
    manifest: dict[str, Any]
    manifest_sha256: str | None
    """sha256 of manifest.json; None for a BEIR dataset made elsewhere (no manifest)."""


def load_dataset(root: Path) -> Dataset:
    """Load and cross-check a dataset directory; bad records name file, line and field."""
    if not (root / CORPUS).is_file():
        raise InputError(str(root / CORPUS), 0, None, "not a dataset directory (corpus.jsonl missing)")
    manifest, manifest_sha256 = _manifest(root)
    corpus, docs, meta = _corpus(root / CORPUS)
    queries, query_task = _queries(root / QUERIES)
    qrels = _qrels(root / QRELS, set(queries), set(corpus))
    return Dataset(root, corpus, docs, meta, queries, query_task, qrels, manifest, manifest_sha256)


def _manifest(root: Path) -> tuple[dict[str, Any], str | None]:
    """The manifest (if any), after checking that every file it lists has its recorded sha256."""
    path = root / MANIFEST
    if not path.is_file():
        return {}, None
    data = path.read_bytes()
    try:
        manifest = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(str(path), getattr(exc, "lineno", 0), None, f"invalid JSON ({exc})") from None
    files = manifest.get("files", {}) if isinstance(manifest, dict) else None
    if not isinstance(files, dict):
        raise InputError(str(path), 0, "files", "expected an object of file name -> sha256")
    for name, digest in sorted(files.items()):
        target = root / name
        if not target.is_file() or sha256_hex(target.read_bytes()) != digest:
            raise InputError(str(target), 0, None, f"does not match the sha256 recorded in {path} (incomplete or modified dataset)")
    return manifest, sha256_hex(data)


def _records(path: Path, kind: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(id, text, metadata) of every record of a BEIR JSONL file; ids unique, metadata an object."""
    seen: set[str] = set()
    for line, record in iter_jsonl(path):
        record_id = str(require(record, "_id", (str, int), path, line))
        if record_id in seen:
            raise InputError(str(path), line, "_id", f"duplicate {kind} id '{record_id}'")
        seen.add(record_id)
        metadata = record.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise InputError(str(path), line, "metadata", "expected an object")
        yield record_id, require(record, "text", str, path, line), metadata


def _corpus(path: Path) -> tuple[dict[str, str], dict[str, DocInfo], dict[str, dict[str, Any]]]:
    texts: dict[str, str] = {}
    docs: dict[str, DocInfo] = {}
    meta: dict[str, dict[str, Any]] = {}
    for doc_id, text, metadata in _records(path, "document"):
        texts[doc_id] = text
        meta[doc_id] = metadata
        docs[doc_id] = DocInfo(
            task_id=str(metadata.get("task_id", "")),
            kind=str(metadata.get("kind", "unknown")),
            operator=metadata.get("operator"),
        )
    return texts, docs, meta


def _queries(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    texts: dict[str, str] = {}
    tasks: dict[str, str] = {}
    for query_id, text, metadata in _records(path, "query"):
        texts[query_id] = text
        tasks[query_id] = str(metadata.get("task_id", query_id))
    return texts, tasks


def _qrels(path: Path, query_ids: set[str], doc_ids: set[str]) -> Qrels:
    qrels: Qrels = {}
    rows = split_lines(read_text(path))
    reader = csv.reader(rows, delimiter="\t")
    for number, row in enumerate(reader, start=1):
        if number == 1 and row[:1] == ["query-id"]:
            continue
        if not row:
            continue
        if len(row) != 3:
            raise InputError(str(path), number, None, f"expected 3 tab-separated columns, got {len(row)}")
        query_id, doc_id, score = row
        if query_id not in query_ids:
            raise InputError(str(path), number, "query-id", f"unknown query '{query_id}'")
        if doc_id not in doc_ids:
            raise InputError(str(path), number, "corpus-id", f"unknown document '{doc_id}'")
        try:
            grade = int(score)
        except ValueError:
            raise InputError(str(path), number, "score", f"expected an integer grade, got '{score}'") from None
        qrels.setdefault(query_id, {})[doc_id] = grade
    return qrels
