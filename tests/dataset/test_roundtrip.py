"""End to end: a two-language build assembled from hand-built verified tasks, written as a
collection, found again and read back, with every invariant of the format checked on disk."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from execir.dataset import discover, load_dataset
from execir.dataset.card import hf_qrels_file
from execir.dataset.layout import CARD, CORPUS, MANIFEST, QUERIES, qrels_file, strict_qrels_file, trec_qrels_file
from execir.dataset.records import SPLITS, FolderRecords
from execir.dataset.splits import SplitPlan
from execir.dataset.write import strict, write_collection
from execir.errors import InputError
from execir.texts.distractors import Distractor
from tests.dataset.builders import build_items, collection_folders, nulls, plan_for, read_jsonl, read_tsv, schema


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[FolderRecords], SplitPlan]:
    items = build_items()
    folders = collection_folders(items, distractors=[Distractor("HumanEval/3", "Return the sum of all even numbers after the index.", "llm", 1)])
    plan = plan_for(items)
    out = tmp_path_factory.mktemp("collection")
    write_collection(out, folders, plan, {"source": {"name": "synthetic"}, "seed": 11})
    return out, folders, plan


def test_discover_finds_every_folder(build: tuple[Path, list[FolderRecords], SplitPlan]) -> None:
    out, folders, _ = build
    assert sorted(discover(out)) == sorted(out / f.name for f in folders)
    assert discover(out / "c2t") == [out / "c2t"]


def test_round_trip_of_texts_and_judgements(build: tuple[Path, list[FolderRecords], SplitPlan]) -> None:
    out, folders, _ = build
    for records in folders:
        dataset = load_dataset(out / records.name, "all")
        assert dataset.corpus == {d.id: d.text for d in records.documents}
        assert dataset.queries == {q.id: q.text for q in records.queries}
        expected: dict[str, dict[str, int]] = defaultdict(dict)
        for q, d, g in records.qrels:
            expected[q][d] = g
        assert dataset.qrels == expected
        assert dataset.task == records.task and dataset.name == records.name and dataset.language == records.language
        assert {q: i.problem for q, i in dataset.query_info.items()} == {q.id: q.problem for q in records.queries}


def test_all_is_the_union_of_the_splits(build: tuple[Path, list[FolderRecords], SplitPlan]) -> None:
    out, folders, _ = build
    for records in folders:
        union: dict[str, dict[str, int]] = {}
        for split in SPLITS:
            part = load_dataset(out / records.name, split).qrels
            assert not set(part) & set(union)
            union.update(part)
        assert load_dataset(out / records.name, "all").qrels == union


def test_splits_are_problem_disjoint_across_every_folder_and_language(build: tuple[Path, list[FolderRecords], SplitPlan]) -> None:
    out, folders, plan = build
    split_of: dict[str, set[str]] = defaultdict(set)
    languages_of: dict[str, set[str]] = defaultdict(set)
    for records in folders:
        for split in SPLITS:
            dataset = load_dataset(out / records.name, split)
            for info in dataset.query_info.values():
                split_of[info.problem].add(split)
                languages_of[info.problem].add(info.language)
    assert dict(split_of) == {p: {s} for p, s in plan.assignment.items()}
    assert languages_of["HumanEval/0"] == {"python", "java"}  # both languages of a problem in one split
    assert set(plan.assignment.values()) == set(SPLITS)


def test_every_query_has_a_correct_document_and_no_document_serves_two_problems(build: tuple[Path, list[FolderRecords], SplitPlan]) -> None:
    out, folders, _ = build
    for records in folders:
        dataset = load_dataset(out / records.name, "all")
        assert set(dataset.qrels) == {q.id for q in records.queries}, "every written query is judged"
        problems_of: dict[str, set[str]] = defaultdict(set)
        for q, judged in dataset.qrels.items():
            assert 2 in judged.values(), f"{records.name}: {q} has no correct document"
            for d in judged:
                problems_of[d].add(dataset.query_task[q])
                assert dataset.doc_meta[d]["problem"] == dataset.query_task[q]
        assert all(len(p) == 1 for p in problems_of.values())


@pytest.mark.parametrize("name", ["c2c", "c2c-python", "c2c-java"])
def test_c2c_anchor_is_a_document_id_never_judged_for_itself(build: tuple[Path, list[FolderRecords], SplitPlan], name: str) -> None:
    out, _, _ = build
    dataset = load_dataset(out / name, "all")
    queries = read_jsonl(out / name / QUERIES)
    corpus = {row["_id"]: row for row in read_jsonl(out / name / CORPUS)}
    in_corpus = 0
    for row in queries:
        assert row["_id"] not in dataset.qrels[row["_id"]]
        if row["_id"] in corpus:
            in_corpus += 1
            assert corpus[row["_id"]]["text"] == row["text"] and corpus[row["_id"]]["metadata"]["kind"] == "canonical"
        assert row["metadata"]["constraint"] == ("any" if name == "c2c" else name.split("-")[1])
    assert in_corpus >= 1


def test_counterfactuals_and_distractors_carry_their_provenance(build: tuple[Path, list[FolderRecords], SplitPlan]) -> None:
    out, _, _ = build
    rows = read_jsonl(out / "c2t" / CORPUS)
    counterfactuals = [r["metadata"] for r in rows if r["metadata"]["kind"] == "counterfactual"]
    assert counterfactuals
    for meta in counterfactuals:
        assert meta["operator"] in ("antonym", "number", "negation") and meta["grade"] == 1
        assert meta["edit"]["line"] >= 1 and meta["edit"]["before"] != meta["edit"]["after"]
    (distractor,) = [r["metadata"] for r in rows if r["metadata"]["kind"] == "distractor"]
    assert (distractor["source"], distractor["problem"], distractor["grade"]) == ("llm", "HumanEval/3", 1)


@pytest.mark.parametrize("file", [CORPUS, QUERIES])
def test_metadata_null_free_with_one_key_set_per_file(build: tuple[Path, list[FolderRecords], SplitPlan], file: str) -> None:
    out, folders, _ = build
    for records in folders:
        rows = read_jsonl(out / records.name / file)
        assert rows
        assert [p for row in rows for p in nulls(row)] == []
        assert len({schema(row) for row in rows}) == 1, f"{records.name}/{file} has more than one schema"


def test_strict_and_trec_qrels_mirror_the_graded_ones(build: tuple[Path, list[FolderRecords], SplitPlan]) -> None:
    out, folders, _ = build
    for records in folders:
        folder = out / records.name
        for split in SPLITS:
            graded = read_tsv(folder / qrels_file(split))
            assert read_tsv(folder / strict_qrels_file(split)) == strict(graded)
            trec = [tuple(line.split(" ")) for line in (folder / trec_qrels_file(split)).read_text().splitlines()]
            assert trec == [(q, "0", d, str(r)) for q, d, r in strict(graded)]


def test_card_lists_every_judged_split_file(build: tuple[Path, list[FolderRecords], SplitPlan]) -> None:
    out, folders, _ = build
    for records in folders:
        folder = out / records.name
        card = (folder / CARD).read_text()
        header = card.split("---\n")[1]
        for split in SPLITS:
            judged = bool(read_tsv(folder / qrels_file(split)))
            for path in (hf_qrels_file(split), hf_qrels_file(split, graded=True)):
                assert (f"path: {path}" in header) == judged
                assert (folder / path).is_file() == judged
        assert f"# {records.name}:" in card and "synthetic" in card


def test_a_modified_file_anywhere_in_the_collection_is_rejected(build: tuple[Path, list[FolderRecords], SplitPlan], tmp_path: Path) -> None:
    out, folders, plan = build
    copy = tmp_path / "copy"
    write_collection(copy, folders, plan, {"source": {"name": "synthetic"}, "seed": 11})
    target = copy / "t2c-full-java" / CORPUS
    target.write_bytes(target.read_bytes().replace(b"class", b"klass", 1))
    with pytest.raises(InputError, match="sha256"):
        load_dataset(copy / "t2c-full-java", "test")
    load_dataset(copy / "t2c-full-python", "test")  # the other folders still load
    assert (copy / MANIFEST).is_file()
