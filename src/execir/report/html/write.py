"""Write ``report.html`` beside ``report.md`` (atomically)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from execir.dataset import Dataset
from execir.dataset.files import atomic_write_bytes
from execir.report.html.collection import render_collection_html
from execir.report.html.folder import render_folder_html
from execir.results import CollectionResult, FolderResult, QueryRecord

REPORT = "report.html"


def write_folder_html(out: Path, result: FolderResult, records: Sequence[QueryRecord], dataset: Dataset) -> Path:
    """Write the folder's ``out/report.html``; returns its path."""
    path = out / REPORT
    atomic_write_bytes(path, render_folder_html(result, records, dataset).encode("utf-8"))
    return path


def write_collection_html(out: Path, result: CollectionResult, folders: Mapping[str, FolderResult]) -> Path:
    """Write the collection's ``out/report.html`` (linking each folder's own); returns its path."""
    path = out / REPORT
    atomic_write_bytes(path, render_collection_html(result, folders).encode("utf-8"))
    return path
