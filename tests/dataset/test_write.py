"""Writing folders: graded, strict and TREC qrels with the same rows; the card's files; the
manifest with the sha256 of every file, written last; a stale manifest removed first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import execir.dataset.write as write_module
from execir.dataset.files import sha256_hex
from execir.dataset.layout import CARD, COLLECTION_FORMAT, CORPUS, FOLDER_FORMAT, MANIFEST, QUERIES, qrels_file, strict_qrels_file, trec_qrels_file
from execir.dataset.records import SPLITS, Document, FolderRecords, Query
from execir.dataset.splits import SplitPlan
from execir.dataset.write import folder_counts, qrels_bytes, split_rows, strict, trec_qrels_bytes, write_collection, write_folder
from tests.dataset.builders import build_items, collection_folders, plan_for, read_tsv

BUILD = {"source": {"name": "synthetic"}, "seed": 11}

ROWS = [("q1", "d-a", 2), ("q1", "d-b", 1), ("q2", "d-c", 2), ("q2", "d-a", 1), ("q2", "d-d", 1)]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([], []),
        ([("q", "d", 2)], [("q", "d", 1)]),
        ([("q", "d", 1)], [("q", "d", 0)]),
        (ROWS, [("q1", "d-a", 1), ("q1", "d-b", 0), ("q2", "d-c", 1), ("q2", "d-a", 0), ("q2", "d-d", 0)]),
    ],
)
def test_strict_maps_two_to_one_and_one_to_zero_keeping_every_row(rows: list[tuple[str, str, int]], expected: list[tuple[str, str, int]]) -> None:
    assert strict(rows) == expected


def test_qrels_bytes_has_the_beir_header() -> None:
    assert qrels_bytes(ROWS[:2]) == b"query-id\tcorpus-id\tscore\nq1\td-a\t2\nq1\td-b\t1\n"
    assert qrels_bytes([]) == b"query-id\tcorpus-id\tscore\n"


def test_trec_qrels_bytes() -> None:
    assert trec_qrels_bytes(strict(ROWS[:2])) == b"q1 0 d-a 1\nq1 0 d-b 0\n"
    assert trec_qrels_bytes([]) == b""


def _records() -> FolderRecords:
    docs = tuple(
        Document(f"d-{p}{k}", f"code {p}{k}", f"T/{p}", f"P{p}", "canonical" if g == 2 else "mutant", "python", g)
        for p in range(6)
        for k, g in (("a", 2), ("b", 1), ("c", 1))
    )
    queries = tuple(Query(f"q{p}", f"text {p} " * (p + 1), f"T/{p}", f"P{p}", "t2c-full", "full", "python") for p in range(6))
    qrels = tuple((f"q{p}", d.id, d.grade) for p in range(6) for d in docs if d.problem == f"P{p}")
    return FolderRecords("t2c-full", "t2c-full", "python", docs, queries, qrels, {"query": "x"})


PLAN = SplitPlan(0, (0.5, 0.1, 0.4), {"P0": "train", "P1": "train", "P2": "train", "P3": "dev", "P4": "test", "P5": "test"})


def test_split_rows_follow_the_query_problem() -> None:
    records = _records()
    rows = split_rows(records, PLAN)
    assert list(rows) == list(SPLITS)
    assert sorted(r for split in rows.values() for r in split) == sorted(records.qrels)
    for split, split_rows_ in rows.items():
        assert {q for q, _, _ in split_rows_} == {f"q{p[1]}" for p, s in PLAN.assignment.items() if s == split}


def test_folder_counts() -> None:
    counts = folder_counts(_records(), PLAN)
    assert counts == {
        "queries": 6,
        "documents": 18,
        "documents_by_kind": {"canonical": 6, "mutant": 12},
        "queries_by_split": {"train": 3, "dev": 1, "test": 2},
        "queries_by_language": {"python": 6},
        "positives_per_query": 1.0,
        "hard_negatives_per_query": 2.0,
        "median_query_tokens": 7.0,
    }


def _card_configs(card: str) -> dict[str, dict[str, str]]:
    """config name -> split -> path, from the card's YAML header (no YAML library needed)."""
    lines = card.split("\n")
    assert lines[0] == "---"
    header = lines[1 : lines.index("---", 1)]
    configs: dict[str, dict[str, str]] = {}
    name = split = ""
    for line in header:
        stripped = line.strip()
        if stripped.startswith("- config_name:"):
            name = stripped.split(":", 1)[1].strip()
            configs[name] = {}
        elif stripped.startswith("- split:"):
            split = stripped.split(":", 1)[1].strip()
        elif stripped.startswith("path:"):
            configs[name][split] = stripped.split(":", 1)[1].strip()
    return configs


@pytest.fixture
def written(tmp_path: Path) -> tuple[Path, FolderRecords, dict[str, Any]]:
    records = _records()
    out = tmp_path / records.name
    return out, records, write_folder(out, records, PLAN, BUILD)


def test_graded_strict_and_trec_qrels_have_the_same_rows(written: tuple[Path, FolderRecords, dict[str, Any]]) -> None:
    out, records, _ = written
    expected = split_rows(records, PLAN)
    for split in SPLITS:
        graded = read_tsv(out / qrels_file(split))
        assert graded == expected[split]
        assert read_tsv(out / strict_qrels_file(split)) == strict(graded)
        trec = [line.split(" ") for line in (out / trec_qrels_file(split)).read_text().splitlines()]
        assert [(q, d, int(r)) for q, zero, d, r in trec if zero == "0"] == strict(graded)
        assert len(trec) == len(graded)


def test_manifest_hashes_every_file_it_wrote(written: tuple[Path, FolderRecords, dict[str, Any]]) -> None:
    out, records, manifest = written
    assert json.loads((out / MANIFEST).read_text()) == manifest
    on_disk = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and p.name != MANIFEST)
    assert sorted(manifest["files"]) == on_disk
    for name, digest in manifest["files"].items():
        assert sha256_hex((out / name).read_bytes()) == digest
    assert manifest["format"] == FOLDER_FORMAT and manifest["name"] == records.name and manifest["task"]["name"] == "t2c-full"
    assert manifest["counts"] == folder_counts(records, PLAN)
    assert manifest["splits"] == PLAN.to_json() and manifest["build"] == BUILD and manifest["facts"] == {"query": "x"}
    assert set(manifest["relevance"]) == {"2", "1", "0"}


def test_card_configs_name_files_that_exist_for_every_judged_split(written: tuple[Path, FolderRecords, dict[str, Any]]) -> None:
    out, records, manifest = written
    configs = _card_configs((out / CARD).read_text())
    assert configs["corpus"] == {"corpus": CORPUS} and configs["queries"] == {"queries": QUERIES}
    judged = [s for s, rows in split_rows(records, PLAN).items() if rows]
    assert list(configs["default"]) == judged and list(configs["graded"]) == judged
    for config in configs.values():
        for path in config.values():
            assert (out / path).is_file(), f"the card names {path}, which was not written"
            assert path in manifest["files"]


def test_card_jsonl_qrels_match_the_tsv(written: tuple[Path, FolderRecords, dict[str, Any]]) -> None:
    out, _, _ = written
    configs = _card_configs((out / CARD).read_text())
    for split in configs["default"]:
        for config, tsv in (("default", strict_qrels_file(split)), ("graded", qrels_file(split))):
            rows = [json.loads(line) for line in (out / configs[config][split]).read_text().splitlines()]
            assert [(r["query-id"], r["corpus-id"], r["score"]) for r in rows] == read_tsv(out / tsv)


def test_a_split_without_judgements_is_left_out_of_the_card(tmp_path: Path) -> None:
    plan = SplitPlan(0, (0.5, 0.1, 0.4), {f"P{p}": "train" if p < 3 else "test" for p in range(6)})
    write_folder(tmp_path, _records(), plan, BUILD)
    configs = _card_configs((tmp_path / CARD).read_text())
    assert list(configs["default"]) == ["train", "test"] and list(configs["graded"]) == ["train", "test"]
    assert read_tsv(tmp_path / qrels_file("dev")) == []  # the TSV still exists, empty


def test_manifest_is_written_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[str] = []
    real = write_module.atomic_write_bytes

    def recording(path: Path, data: bytes) -> None:
        order.append(str(path.relative_to(tmp_path)))
        real(path, data)

    monkeypatch.setattr(write_module, "atomic_write_bytes", recording)
    write_collection(tmp_path, [_records()], PLAN, BUILD)
    assert order[-1] == MANIFEST
    assert order[-2] == f"t2c-full/{MANIFEST}"
    assert order.index(f"t2c-full/{MANIFEST}") == len(order) - 2


@pytest.mark.parametrize("target", [MANIFEST, f"t2c-full/{MANIFEST}"])
def test_an_interrupted_rewrite_leaves_no_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    write_collection(tmp_path, [_records()], PLAN, BUILD)
    assert (tmp_path / target).is_file()

    def crash(path: Path, data: bytes) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(write_module, "atomic_write_bytes", crash)
    with pytest.raises(OSError, match="disk full"):
        write_collection(tmp_path, [_records()], PLAN, BUILD)
    assert not (tmp_path / target).exists()


def test_rewriting_a_folder_is_byte_identical(tmp_path: Path) -> None:
    first = write_folder(tmp_path / "a", _records(), PLAN, BUILD)
    second = write_folder(tmp_path / "a", _records(), PLAN, BUILD)
    assert first == second
    assert write_folder(tmp_path / "b", _records(), PLAN, BUILD)["files"] == first["files"]


def test_collection_manifest_lists_every_folder_with_its_manifest_hash(tmp_path: Path) -> None:
    items = build_items()
    folders = collection_folders(items)
    collection = write_collection(tmp_path, folders, plan_for(items), BUILD)
    assert json.loads((tmp_path / MANIFEST).read_text()) == collection
    assert collection["format"] == COLLECTION_FORMAT
    assert list(collection["folders"]) == [f.name for f in folders]
    for records in folders:
        listed = collection["folders"][records.name]
        assert listed["task"] == records.task and listed["language"] == records.language
        assert listed["manifest_sha256"] == sha256_hex((tmp_path / records.name / MANIFEST).read_bytes())
        assert listed["counts"]["queries"] == len(records.queries)
