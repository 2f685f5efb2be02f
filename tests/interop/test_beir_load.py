"""``beir_load`` returns what BEIR's own ``GenericDataLoader`` returns from the folder (strict and
graded), with ``""`` for missing titles, and refuses a strict form a folder does not define."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from execir.errors import ExecIRError, InputError
from execir.interop import beir_load, strict_qrels

from .conftest import SPLITS_JUDGED
from .synthetic import Synthetic, split_qrels


def _beir(folder: Path, split: str, qrels_folder: str) -> tuple[dict[str, Any], dict[str, str], dict[str, dict[str, int]]]:
    data_loader = pytest.importorskip("beir.datasets.data_loader")
    corpus, queries, qrels = data_loader.GenericDataLoader(data_folder=str(folder), qrels_folder=qrels_folder).load(split=split)
    return corpus, queries, qrels


@pytest.mark.parametrize("split", SPLITS_JUDGED)
def test_equals_beirs_loader_on_strict_qrels(folder: Path, synthetic: Synthetic, split: str) -> None:
    corpus, queries, qrels = beir_load(folder, split=split)
    beir_corpus, beir_queries, beir_qrels = _beir(folder, split, "qrels-strict")
    assert qrels == beir_qrels == strict_qrels(split_qrels(synthetic, split))
    assert queries == beir_queries
    assert corpus == beir_corpus
    assert set(corpus) == {d.id for d in synthetic.records.documents}


def test_graded_equals_beirs_loader_on_graded_qrels(folder: Path, synthetic: Synthetic) -> None:
    _, queries, qrels = beir_load(folder, split="test", relevance="graded")
    _, beir_queries, beir_qrels = _beir(folder, "test", "qrels")
    assert qrels == beir_qrels == split_qrels(synthetic, "test")
    assert queries == beir_queries
    assert {grade for judged in qrels.values() for grade in judged.values()} == {1, 2}


def test_split_all_merges_every_split(folder: Path, synthetic: Synthetic) -> None:
    _, queries, qrels = beir_load(folder, split="all")
    expected: dict[str, dict[str, int]] = {}
    for split in SPLITS_JUDGED:
        expected.update(strict_qrels(split_qrels(synthetic, split)))
    assert qrels == expected and set(queries) == set(expected)


def test_returns_copies(folder: Path) -> None:
    corpus, queries, qrels = beir_load(folder)
    first = next(iter(qrels))
    qrels[first].clear()
    corpus.clear()
    again_corpus, _, again = beir_load(folder)
    assert again[first] and again_corpus


def _foreign_folder(root: Path) -> Path:
    """A BEIR folder made elsewhere: a title, a row without one, binary grades, no manifest, no ``qrels-strict``."""
    root.mkdir()
    docs = [{"_id": "d1", "title": "Sorting", "text": "def sort(x): return sorted(x)"}, {"_id": "d2", "text": "def rev(x): return x[::-1]"}]
    (root / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    (root / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "sort a list"}) + "\n" + json.dumps({"_id": "q2", "text": "unused"}) + "\n")
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    return root


def test_foreign_folder_graded_keeps_titles_and_grades(tmp_path: Path) -> None:
    root = _foreign_folder(tmp_path / "foreign")
    corpus, queries, qrels = beir_load(root, relevance="graded")
    beir_corpus, beir_queries, beir_qrels = _beir(root, "test", "qrels")
    assert corpus == {"d1": {"title": "Sorting", "text": "def sort(x): return sorted(x)"}, "d2": {"title": "", "text": "def rev(x): return x[::-1]"}}
    assert beir_corpus == corpus | {"d2": {"title": None, "text": "def rev(x): return x[::-1]"}}  # BEIR: None, which its encoders cannot join
    assert queries == beir_queries == {"q1": "sort a list"}
    assert qrels == beir_qrels == {"q1": {"d1": 1}}


def test_foreign_folder_has_no_strict_form(tmp_path: Path) -> None:
    root = _foreign_folder(tmp_path / "foreign")
    with pytest.raises(ExecIRError, match=r"qrels-strict/test.tsv missing.*relevance='graded'"):
        beir_load(root)


def test_bad_input_raises_clear_errors(folder: Path, tmp_path: Path) -> None:
    with pytest.raises(ExecIRError, match="no such dataset folder"):
        beir_load(tmp_path / "missing")
    with pytest.raises(InputError, match="corpus.jsonl missing"):
        beir_load(tmp_path)
    with pytest.raises(ExecIRError, match="relevance 'binary'"):
        beir_load(folder, relevance="binary")
    with pytest.raises(InputError, match="unknown split 'validation'"):
        beir_load(folder, split="validation")
