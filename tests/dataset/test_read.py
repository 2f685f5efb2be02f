"""Reading folders back: splits and their union, the manifest check, errors naming file:line:field,
and finding the folders of a build."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execir.dataset.layout import CORPUS, MANIFEST, QUERIES, qrels_file
from execir.dataset.read import discover, load_dataset
from execir.dataset.records import SPLITS, Document, FolderRecords, Query
from execir.dataset.splits import SplitPlan
from execir.dataset.write import write_collection, write_folder
from execir.errors import InputError

BUILD = {"source": {"name": "synthetic"}}
PLAN = SplitPlan(0, (0.5, 0.1, 0.4), {"P0": "train", "P1": "train", "P2": "dev", "P3": "test", "P4": "test"})


def _records(name: str = "t2c-full", task: str = "t2c-full") -> FolderRecords:
    docs = tuple(
        Document(f"d-{p}{k}", f"code {p}{k}", f"T/{p}", f"P{p}", kind, "python", g, operator="op" if g == 1 else "")
        for p in range(5)
        for k, kind, g in (("a", "canonical", 2), ("b", "mutant", 1), ("c", "rewrite", 2))
    )
    queries = tuple(Query(f"q{p}", f"text {p}", f"T/{p}", f"P{p}", task, "full", "python") for p in range(5))
    qrels = tuple((f"q{p}", d.id, d.grade) for p in range(5) for d in docs if d.problem == f"P{p}")
    return FolderRecords(name, task, "python", docs, queries, qrels)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    out = tmp_path / "t2c-full"
    write_folder(out, _records(), PLAN, BUILD)
    return out


@pytest.mark.parametrize(("split", "queries"), [("train", ["q0", "q1"]), ("dev", ["q2"]), ("test", ["q3", "q4"]), ("all", ["q0", "q1", "q2", "q3", "q4"])])
def test_load_split(folder: Path, split: str, queries: list[str]) -> None:
    dataset = load_dataset(folder, split)
    assert dataset.split == split
    assert sorted(dataset.qrels) == queries == sorted(dataset.queries) == sorted(dataset.query_info) == sorted(dataset.query_task)
    assert len(dataset.corpus) == 15  # the corpus is the whole folder's, whatever the split
    for q in queries:
        p = q[1]
        assert dataset.qrels[q] == {f"d-{p}a": 2, f"d-{p}b": 1, f"d-{p}c": 2}
        assert dataset.query_task[q] == f"P{p}" and dataset.queries[q] == f"text {p}"
    assert dataset.name == "t2c-full" and dataset.task == "t2c-full" and dataset.language == "python"
    assert dataset.manifest_sha256 is not None


def test_all_is_the_union_of_the_splits(folder: Path) -> None:
    union: dict[str, dict[str, int]] = {}
    for split in SPLITS:
        for q, judged in load_dataset(folder, split).qrels.items():
            assert q not in union  # problem-disjoint: a query is judged in one split only
            union[q] = judged
    assert load_dataset(folder, "all").qrels == union


def test_document_facts(folder: Path) -> None:
    docs = load_dataset(folder, "dev").docs
    assert docs["d-0a"].grade == 2 and docs["d-0b"].grade == 1  # grades from every split, not only the loaded one
    assert docs["d-0b"].kind == "mutant" and docs["d-0b"].operator == "op" and docs["d-0a"].operator is None
    assert docs["d-3c"].task_id == "P3"


@pytest.mark.parametrize("name", [CORPUS, QUERIES, qrels_file("test"), "README.md", "qrels-strict/test.tsv", "trec/dev.qrels"])
def test_a_modified_file_is_rejected(folder: Path, name: str) -> None:
    path = folder / name
    path.write_bytes(path.read_bytes() + b"\n")
    with pytest.raises(InputError, match="does not match the sha256") as error:
        load_dataset(folder, "test")
    assert error.value.path == str(path)


def test_a_missing_listed_file_is_rejected(folder: Path) -> None:
    (folder / qrels_file("dev")).unlink()
    with pytest.raises(InputError, match="incomplete or modified"):
        load_dataset(folder, "train")


def test_a_folder_without_manifest_loads_as_plain_beir(folder: Path) -> None:
    (folder / MANIFEST).unlink()
    dataset = load_dataset(folder, "test")
    assert dataset.manifest_sha256 is None and dataset.manifest == {} and dataset.task == "" and dataset.name == "t2c-full"
    assert sorted(dataset.qrels) == ["q3", "q4"]


def _unsigned(folder: Path) -> Path:
    (folder / MANIFEST).unlink()
    return folder


@pytest.mark.parametrize(
    ("file", "content", "line", "field", "message"),
    [
        (qrels_file("test"), "query-id\tcorpus-id\tscore\nq3\td-3a\t2\nq9\td-3a\t2\n", 3, "query-id", "unknown query 'q9'"),
        (qrels_file("test"), "query-id\tcorpus-id\tscore\nq3\td-zz\t2\n", 2, "corpus-id", "unknown document 'd-zz'"),
        (qrels_file("test"), "query-id\tcorpus-id\tscore\nq3\td-3a\ttwo\n", 2, "score", "expected an integer grade"),
        (qrels_file("test"), "query-id\tcorpus-id\tscore\nq3\td-3a\n", 2, None, "expected 3 tab-separated columns"),
        (QUERIES, '{"_id": "q3", "text": "a"}\n{"_id": "q3", "text": "b"}\n', 2, "_id", "duplicate query id"),
        (QUERIES, '{"_id": "q3", "text": "a", "metadata": [1]}\n', 1, "metadata", "expected an object"),
        (CORPUS, '{"_id": "d-3a", "text": 5}\n', 1, "text", None),
        (CORPUS, '{"_id": "d-3a", "text": "x"}\n{"_id": "d-3a", "text": "y"}\n', 2, "_id", "duplicate document id"),
    ],
)
def test_bad_records_name_file_line_and_field(folder: Path, file: str, content: str, line: int, field: str | None, message: str | None) -> None:
    _unsigned(folder)
    (folder / file).write_text(content)
    with pytest.raises(InputError, match=message) as error:
        load_dataset(folder, "test")
    assert (error.value.path, error.value.line, error.value.field) == (str(folder / file), line, field)
    assert f"{folder / file}:{line}" in str(error.value)


def test_unknown_split_and_missing_split_file(folder: Path) -> None:
    with pytest.raises(InputError, match="unknown split 'validation'"):
        load_dataset(folder, "validation")
    _unsigned(folder)
    (folder / qrels_file("dev")).unlink()
    with pytest.raises(InputError, match="split 'dev' has no qrels file") as error:
        load_dataset(folder, "dev")
    assert "train, test" in str(error.value)
    assert sorted(load_dataset(folder, "all").qrels) == ["q0", "q1", "q3", "q4"]


def test_not_a_dataset_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a dataset folder"):
        load_dataset(tmp_path)


def test_invalid_manifest_json(folder: Path) -> None:
    (folder / MANIFEST).write_text("{not json")
    with pytest.raises(InputError, match="invalid JSON") as error:
        load_dataset(folder)
    assert error.value.path == str(folder / MANIFEST)


def test_manifest_without_files(folder: Path) -> None:
    (folder / MANIFEST).write_text('{"files": []}')
    with pytest.raises(InputError, match="file name -> sha256") as error:
        load_dataset(folder)
    assert error.value.field == "files"


# discover


def test_discover_a_single_folder(folder: Path) -> None:
    assert discover(folder) == [folder]


def test_discover_lists_the_folders_of_the_collection_manifest(tmp_path: Path) -> None:
    folders = [_records("t2c-search", "t2c-search"), _records("c2c-java", "c2c"), _records("c2t", "c2t")]
    write_collection(tmp_path, folders, PLAN, BUILD)
    (tmp_path / "stray").mkdir()
    (tmp_path / "stray" / CORPUS).write_text("")  # not listed: not part of the build
    # the manifest records the build's folder order (its keys are sorted, its "order" list is not)
    assert discover(tmp_path) == [tmp_path / "t2c-search", tmp_path / "c2c-java", tmp_path / "c2t"]


def test_discover_reports_a_listed_folder_that_is_missing(tmp_path: Path) -> None:
    write_collection(tmp_path, [_records("a", "c2t"), _records("b", "c2t")], PLAN, BUILD)
    (tmp_path / "b" / CORPUS).unlink()
    with pytest.raises(InputError, match="listed folder\\(s\\) missing: b") as error:
        discover(tmp_path)
    assert error.value.field == "folders"


def test_discover_sub_folders_without_a_collection_manifest(tmp_path: Path) -> None:
    for name in ("zeta", "alpha"):
        write_folder(tmp_path / name, _records(name, "c2t"), PLAN, BUILD)
    (tmp_path / MANIFEST).write_text(json.dumps({"format": "something-else"}))
    (tmp_path / "empty").mkdir()
    assert discover(tmp_path) == [tmp_path / "alpha", tmp_path / "zeta"]


def test_discover_nothing(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no dataset here"):
        discover(tmp_path)
    (tmp_path / MANIFEST).write_text("[")
    with pytest.raises(InputError, match="invalid JSON"):
        discover(tmp_path)
