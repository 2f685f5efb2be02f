"""Read an ExecIR dataset in the BEIR layout (corpus, queries, qrels, manifest)."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir.build.writer import CORPUS, MANIFEST, QRELS, QUERIES, sha256_hex
from execir.errors import InputError
from execir.metrics.analyses import DocInfo
from execir.tasks.reader import iter_jsonl, read_text, require
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
    manifest_sha256: str


def load_dataset(root: Path) -> Dataset:
    """Load and cross-check a dataset directory; bad records name file, line and field."""
    if not (root / CORPUS).is_file():
        raise InputError(str(root / CORPUS), 0, None, "not a dataset directory (corpus.jsonl missing)")
    corpus, docs, meta = _corpus(root / CORPUS)
    queries, query_task = _queries(root / QUERIES)
    qrels = _qrels(root / QRELS, set(queries), set(corpus))
    manifest_text = read_text(root / MANIFEST) if (root / MANIFEST).is_file() else "{}"
    import json

    manifest = json.loads(manifest_text)
    return Dataset(root, corpus, docs, meta, queries, query_task, qrels, manifest, sha256_hex(manifest_text.encode("utf-8")))


def _corpus(path: Path) -> tuple[dict[str, str], dict[str, DocInfo], dict[str, dict[str, Any]]]:
    texts: dict[str, str] = {}
    docs: dict[str, DocInfo] = {}
    meta: dict[str, dict[str, Any]] = {}
    for line, record in iter_jsonl(path):
        doc_id = str(require(record, "_id", (str, int), path, line))
        if doc_id in texts:
            raise InputError(str(path), line, "_id", f"duplicate document id '{doc_id}'")
        texts[doc_id] = require(record, "text", str, path, line)
        metadata = record.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise InputError(str(path), line, "metadata", "expected an object")
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
    for line, record in iter_jsonl(path):
        query_id = str(require(record, "_id", (str, int), path, line))
        if query_id in texts:
            raise InputError(str(path), line, "_id", f"duplicate query id '{query_id}'")
        texts[query_id] = require(record, "text", str, path, line)
        metadata = record.get("metadata") or {}
        tasks[query_id] = str(metadata.get("task_id", query_id)) if isinstance(metadata, dict) else query_id
    return texts, tasks


def _qrels(path: Path, query_ids: set[str], doc_ids: set[str]) -> Qrels:
    qrels: Qrels = {}
    rows = read_text(path).splitlines()
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
