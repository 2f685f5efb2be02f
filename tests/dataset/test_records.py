"""Typed rows: opaque stable ids, null-free metadata with one schema per file."""

from __future__ import annotations

import re

import pytest

from execir.dataset.records import NO_EDIT, SPLITS, Document, Query, doc_id
from execir.types import Edit
from tests.dataset.builders import nulls, schema


def test_splits_are_train_dev_test() -> None:
    assert SPLITS == ("train", "dev", "test")


@pytest.mark.parametrize(("text", "prefix"), [("def f(): pass", "d"), ("Return the sum.", "t"), ("", "d"), ("ünïcode ✓", "t")])
def test_doc_id_is_an_opaque_hash_with_its_prefix(text: str, prefix: str) -> None:
    value = doc_id(text, prefix)
    assert re.fullmatch(rf"{prefix}-[0-9a-f]{{16}}", value)
    assert value == doc_id(text, prefix)
    assert doc_id(text + " ", prefix) != value
    assert text not in value or not text


def test_doc_id_default_prefix_is_code() -> None:
    assert doc_id("x").startswith("d-")


DOCUMENTS = [
    Document("d-1", "def f(): return 1", "HumanEval/1", "HumanEval/1", "canonical", "python", 2, verdict="PASS", source="humaneval", entry_point="f"),
    Document(
        "d-2",
        "def f(): return 2",
        "HumanEval/1",
        "HumanEval/1",
        "mutant",
        "python",
        1,
        operator="constant",
        edit=Edit(1, 17, "1", "2"),
        edit_distance=1,
        verdict="FAIL",
        source="humaneval",
        entry_point="f",
    ),
    Document("t-3", "Return one.", "HumanEval/1", "HumanEval/1", "description", "en", 2),
    Document("t-4", "Return two.", "HumanEval/1", "HumanEval/1", "counterfactual", "en", 1, operator="number", edit=Edit(1, 7, "one", "two")),
]

QUERIES = [
    Query("HumanEval/1", "Return one.", "HumanEval/1", "HumanEval/1", "t2c-description", "description", "python"),
    Query("d-1", "def f(): return 1", "HumanEval/1", "HumanEval/1", "c2c", "", "python", "java"),
    Query("q", "x", "t", "p", "c2t"),
]


@pytest.mark.parametrize("rows", [DOCUMENTS, QUERIES], ids=["corpus", "queries"])
def test_rows_are_null_free_with_one_schema(rows: list[Document] | list[Query]) -> None:
    encoded = [row.to_json() for row in rows]
    assert [list(nulls(row)) for row in encoded] == [[] for _ in encoded]
    assert len({schema(row) for row in encoded}) == 1


def test_document_row_carries_every_field() -> None:
    row = DOCUMENTS[1].to_json()
    assert row["_id"] == "d-2" and row["title"] == "" and row["text"] == "def f(): return 2"
    assert row["metadata"] == {
        "task_id": "HumanEval/1",
        "problem": "HumanEval/1",
        "kind": "mutant",
        "language": "python",
        "grade": 1,
        "operator": "constant",
        "edit": {"line": 1, "col": 17, "before": "1", "after": "2"},
        "edit_distance": 1,
        "verdict": "FAIL",
        "source": "humaneval",
        "entry_point": "f",
    }


def test_a_missing_edit_is_the_empty_edit() -> None:
    assert DOCUMENTS[0].edit == NO_EDIT
    assert DOCUMENTS[0].to_json()["metadata"]["edit"] == {"line": 0, "col": 0, "before": "", "after": ""}


def test_query_row_defaults() -> None:
    assert QUERIES[2].to_json() == {
        "_id": "q",
        "text": "x",
        "metadata": {"task_id": "t", "problem": "p", "task": "c2t", "subtype": "", "language": "", "constraint": "any"},
    }
    assert QUERIES[1].to_json()["metadata"]["constraint"] == "java"
