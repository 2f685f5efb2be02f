"""``execir export pairs``: a built dataset (one folder or a collection) as training files for other trainers.

``OUT/<split>.jsonl`` for every split of the dataset that gives rows (``train``, ``dev``, ``test``:
the build's problem-disjoint splits, so no problem's rows are in two files), which
``datasets.load_dataset("json", data_files={"train": "OUT/train.jsonl", ...})`` reads; for triplets
the metadata goes to ``OUT/<split>.meta.jsonl`` (row for row), since sentence-transformers feeds
every column of a row to its loss. ``OUT/README.md`` is the dataset card (columns, counts, source
fingerprints, the command; its ``configs:`` make ``load_dataset(OUT)`` work) and ``OUT/export.json``
the same facts for programs. A collection's folders go into the same files (column ``folder``); a
problem judged in two splits (folders of builds with different split seeds) is an error. Files are
written atomically, ``export.json`` last; split files a previous export left and this one does not
write are removed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from execir import __version__
from execir.dataset.files import atomic_write_bytes, json_bytes, sha256_hex
from execir.dataset.layout import CARD, CORPUS, MANIFEST, qrels_file
from execir.dataset.read import discover, load_dataset
from execir.dataset.records import SPLITS
from execir.errors import ExecIRError, InputError
from execir.interop.pair_pools import SplitPools, folder_spec, split_pools
from execir.interop.pair_rows import PairOptions, Row, RowCounts, split_rows
from execir.interop.pairs_card import card_text

EXPORT_FILE = "export.json"


@dataclass(frozen=True)
class FolderSource:
    """One exported folder: its name, task and manifest fingerprint."""

    name: str
    task: str
    manifest_sha256: str


@dataclass
class PairsExport:
    """What an export wrote: rows per split, counts per folder and split, the sources."""

    options: PairOptions
    command: str
    sources: list[FolderSource] = field(default_factory=list)
    rows: dict[str, list[Row]] = field(default_factory=dict)
    counts: dict[str, dict[str, RowCounts]] = field(default_factory=dict)
    """folder -> split -> counts."""
    collection_sha256: str | None = None

    @property
    def fingerprint(self) -> str:
        """sha256 over the folders' manifest sha256s (one value naming the exported dataset)."""
        return sha256_hex("".join(f"{s.name}:{s.manifest_sha256}\n" for s in self.sources).encode("utf-8"))

    def to_json(self) -> dict[str, Any]:
        """The export's facts (``export.json``)."""
        return {
            "toolkit": {"name": "execir", "version": __version__},
            "command": self.command,
            "format": self.options.format,
            "options": {
                "negatives": None if self.options.format == "reward" else self.options.negatives,
                "seed": self.options.seed,
                "instruction": self.options.instruction,
                "conversational": self.options.conversational,
            },
            "source": {
                "fingerprint": self.fingerprint,
                "collection_manifest_sha256": self.collection_sha256,
                "folders": [{"name": s.name, "task": s.task, "manifest_sha256": s.manifest_sha256} for s in self.sources],
            },
            "splits": {split: len(rows) for split, rows in self.rows.items()},
            "counts": {folder: {split: c.to_json() for split, c in by_split.items()} for folder, by_split in self.counts.items()},
        }


def export_pairs(dataset: Path, out: Path, options: PairOptions, *, command: str) -> PairsExport:
    """Read every folder of ``dataset``, build its rows and write them under ``out``."""
    result = collect(dataset, options, command=command)
    if not any(result.rows.values()):
        raise ExecIRError(f"{dataset}: no rows to export (no query has the documents --format {options.format} needs)")
    write_export(result, out)
    return result


def collect(dataset: Path, options: PairOptions, *, command: str) -> PairsExport:
    """The rows and counts of every folder and split (nothing written)."""
    result = PairsExport(options, command)
    collection = dataset / MANIFEST
    if not (dataset / CORPUS).is_file() and collection.is_file():
        result.collection_sha256 = sha256_hex(collection.read_bytes())
    owner: dict[str, tuple[str, str]] = {}
    for folder in discover(dataset):
        for pools in _folder_splits(folder, result):
            _check_disjoint(pools, owner)
            rows, counts = split_rows(pools, options)
            result.rows.setdefault(pools.split, []).extend(rows)
            result.counts.setdefault(pools.folder, {})[pools.split] = counts
    result.rows = {split: result.rows[split] for split in SPLITS if result.rows.get(split)}
    return result


def _folder_splits(folder: Path, result: PairsExport) -> list[SplitPools]:
    splits = [s for s in SPLITS if (folder / qrels_file(s)).is_file()]
    if not splits:
        raise InputError(str(folder / "qrels"), 0, None, f"no split qrels ({', '.join(qrels_file(s) for s in SPLITS)}): not a built dataset folder")
    loaded = [load_dataset(folder, split) for split in splits]
    first = loaded[0]
    if first.manifest_sha256 is None:
        raise InputError(str(folder / MANIFEST), 0, None, "missing: export pairs reads folders `execir build` wrote (their manifest names the task)")
    result.sources.append(FolderSource(first.name, folder_spec(first).name, first.manifest_sha256))
    return [split_pools(d) for d in loaded]


def _check_disjoint(pools: SplitPools, owner: dict[str, tuple[str, str]]) -> None:
    """Fail when a problem of this split was already seen in another split (of any folder)."""
    for pool in pools.pools:
        seen = owner.setdefault(pool.problem, (pools.split, pools.folder))
        if seen[0] != pools.split:
            raise ExecIRError(
                f"problem '{pool.problem}' is in split '{seen[0]}' of folder '{seen[1]}' and in split '{pools.split}' of folder "
                f"'{pools.folder}': the folders come from builds with different splits (export them separately)"
            )


def _jsonl(rows: list[dict[str, Any]]) -> bytes:
    """JSONL keeping each row's column order (sentence-transformers reads triplet columns in order)."""
    return "".join(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n" for row in rows).encode("utf-8")


def split_files(split: str, options: PairOptions) -> tuple[str, ...]:
    """The files of one split: the rows, and for triplets the metadata beside them."""
    return (f"{split}.jsonl", f"{split}.meta.jsonl") if options.format == "triplets" else (f"{split}.jsonl",)


def write_export(result: PairsExport, out: Path) -> None:
    """Write the split files, the card and ``export.json`` (last); remove stale split files."""
    if out.exists() and not out.is_dir():
        raise ExecIRError(f"--out {out}: exists and is not a directory")
    written: set[str] = set()
    for split, rows in result.rows.items():
        names = split_files(split, result.options)
        if result.options.format == "triplets":
            atomic_write_bytes(out / names[0], _jsonl([columns for columns, _ in rows]))
            atomic_write_bytes(out / names[1], _jsonl([meta for _, meta in rows]))
        else:
            atomic_write_bytes(out / names[0], _jsonl([{**columns, **meta} for columns, meta in rows]))
        written.update(names)
    for split in SPLITS:
        for name in (f"{split}.jsonl", f"{split}.meta.jsonl"):
            if name not in written:
                (out / name).unlink(missing_ok=True)
    atomic_write_bytes(out / CARD, card_text(result.to_json(), columns(result)).encode("utf-8"))
    atomic_write_bytes(out / EXPORT_FILE, json_bytes(result.to_json()))


def columns(result: PairsExport) -> tuple[list[str], list[str]]:
    """(trainer columns, metadata columns) in file order, from the first row."""
    first = next(rows[0] for rows in result.rows.values())
    return list(first[0]), list(first[1])
