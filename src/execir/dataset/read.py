"""Read dataset folders (ExecIR's, or any BEIR-layout folder) and find the folders of a build."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir.dataset.files import sha256_hex
from execir.dataset.layout import COLLECTION_FORMAT, CORPUS, MANIFEST, QUERIES, qrels_file
from execir.dataset.records import SPLITS
from execir.errors import InputError
from execir.jsonl import iter_jsonl, read_text, require, split_lines
from execir.metrics.corpus import DocInfo
from execir.types import Qrels

SPLIT_CHOICES: tuple[str, ...] = (*SPLITS, "all")


@dataclass(frozen=True)
class QueryInfo:
    """What a query asks for (from its metadata; defaults for BEIR folders made elsewhere)."""

    task_id: str
    problem: str
    task: str = ""
    subtype: str = ""
    language: str = ""
    constraint: str = "any"


@dataclass(frozen=True)
class Dataset:
    """One dataset folder in memory: texts, per-document facts, the split's qrels, provenance.

    ``queries`` holds only the queries judged in the loaded split. ``query_task`` maps each query to
    its problem (the pool its relevance rules refer to)."""

    root: Path
    name: str
    task: str
    split: str
    corpus: dict[str, str]
    docs: dict[str, DocInfo]
    doc_meta: dict[str, dict[str, Any]]
    queries: dict[str, str]
    query_info: dict[str, QueryInfo]
    query_task: dict[str, str]
    qrels: Qrels
    manifest: dict[str, Any]
    manifest_sha256: str | None
    """sha256 of manifest.json; None for a BEIR dataset made elsewhere (no manifest)."""

    @property
    def language(self) -> str:
        """The folder's language (``multi`` across languages, empty when unknown)."""
        return str(self.manifest.get("language", ""))


def load_dataset(root: Path, split: str = "test") -> Dataset:
    """Load and cross-check one folder; bad records name file, line and field. ``split`` is a split
    name or ``all`` (every split's judgements together)."""
    if not (root / CORPUS).is_file():
        raise InputError(str(root / CORPUS), 0, None, "not a dataset folder (corpus.jsonl missing)")
    if split not in SPLIT_CHOICES:
        raise InputError(str(root), 0, None, f"unknown split '{split}' (expected one of {', '.join(SPLIT_CHOICES)})")
    manifest, manifest_sha256 = _manifest(root)
    corpus, meta = _corpus(root / CORPUS)
    texts, infos = _queries(root / QUERIES)
    every = _all_qrels(root, set(texts), set(corpus))
    if split == "all":
        qrels = _merge(every.values())
    else:
        path = root / qrels_file(split)
        if not path.is_file():
            raise InputError(str(path), 0, None, f"split '{split}' has no qrels file (available: {', '.join(every) or 'none'})")
        qrels = every[split]
    grades = _doc_grades(_merge(every.values()))
    docs = {
        d: DocInfo(
            task_id=str(m.get("problem") or m.get("task_id", "")),
            kind=str(m.get("kind") or "unknown"),
            operator=m.get("operator") or None,
            grade=grades.get(d, 0),
        )
        for d, m in meta.items()
    }
    return Dataset(
        root=root,
        name=str(manifest.get("name", root.name)),
        task=manifest_task(manifest),
        split=split,
        corpus=corpus,
        docs=docs,
        doc_meta=meta,
        queries={q: texts[q] for q in sorted(qrels)},
        query_info={q: infos[q] for q in sorted(qrels)},
        query_task={q: infos[q].problem for q in sorted(qrels)},
        qrels=qrels,
        manifest=manifest,
        manifest_sha256=manifest_sha256,
    )


def discover(root: Path) -> list[Path]:
    """The dataset folders under ``root``: ``root`` itself when it is one, else the folders its
    collection manifest lists, else every sub-folder holding a corpus (sorted)."""
    if (root / CORPUS).is_file():
        return [root]
    manifest = root / MANIFEST
    if manifest.is_file():
        try:
            data = json.loads(manifest.read_bytes())
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise InputError(str(manifest), getattr(exc, "lineno", 0), None, f"invalid JSON ({exc})") from None
        if isinstance(data, dict) and data.get("format") == COLLECTION_FORMAT:
            folders = data.get("folders")
            if not isinstance(folders, dict):
                raise InputError(str(manifest), 0, "folders", "expected an object of folder name -> facts")
            missing = [name for name in folders if not (root / name / CORPUS).is_file()]
            if missing:
                raise InputError(str(manifest), 0, "folders", f"listed folder(s) missing: {', '.join(missing)}")
            order = data.get("order")
            names = [n for n in order if n in folders] if isinstance(order, list) else sorted(folders)
            return [root / name for name in names]
    found = sorted(p.parent for p in root.glob(f"*/{CORPUS}"))
    if not found:
        raise InputError(str(root), 0, None, "no dataset here (no corpus.jsonl in it or in any sub-folder)")
    return found


def _merge(parts: Iterable[Qrels]) -> Qrels:
    merged: Qrels = {}
    for part in parts:
        for query_id, judged in part.items():
            merged.setdefault(query_id, {}).update(judged)
    return merged


def _doc_grades(qrels: Qrels) -> dict[str, int]:
    """Each judged document's highest grade (its grade for its own problem's queries)."""
    grades: dict[str, int] = {}
    for judged in qrels.values():
        for doc_id, grade in judged.items():
            grades[doc_id] = max(grades.get(doc_id, 0), grade)
    return grades


def _all_qrels(root: Path, query_ids: set[str], doc_ids: set[str]) -> dict[str, Qrels]:
    """Every split's graded qrels present in the folder."""
    return {name: _qrels(root / qrels_file(name), query_ids, doc_ids) for name in SPLITS if (root / qrels_file(name)).is_file()}


def manifest_task(manifest: Mapping[str, Any]) -> str:
    """The task name a folder manifest records: its task spec's ``name``, or (older folders) the
    ``task`` string itself; ``""`` when absent."""
    task = manifest.get("task", "")
    return str(task.get("name", "")) if isinstance(task, dict) else str(task)


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


def _corpus(path: Path) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    texts: dict[str, str] = {}
    meta: dict[str, dict[str, Any]] = {}
    for doc_id, text, metadata in _records(path, "document"):
        texts[doc_id] = text
        meta[doc_id] = metadata
    return texts, meta


def _queries(path: Path) -> tuple[dict[str, str], dict[str, QueryInfo]]:
    texts: dict[str, str] = {}
    infos: dict[str, QueryInfo] = {}
    for query_id, text, m in _records(path, "query"):
        texts[query_id] = text
        task_id = str(m.get("task_id") or query_id)
        infos[query_id] = QueryInfo(
            task_id=task_id,
            problem=str(m.get("problem") or task_id),
            task=str(m.get("task") or ""),
            subtype=str(m.get("subtype") or ""),
            language=str(m.get("language") or ""),
            constraint=str(m.get("constraint") or "any"),
        )
    return texts, infos


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
