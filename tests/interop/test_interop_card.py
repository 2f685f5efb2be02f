"""The dataset card: ``datasets.load_dataset(folder, config)`` returns the right rows per split, with
null-free metadata; the card's configs name only files that exist; the docs table matches the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from execir.dataset.card import card_files, card_text, hf_qrels_file
from execir.dataset.layout import CARD, CORPUS, QUERIES
from execir.dataset.spec import get_spec
from execir.dataset.write import folder_files, split_rows, strict
from execir.interop import TOOL_NAMES, TOOLS, strict_qrels

from .synthetic import Synthetic, split_qrels

DOC = Path(__file__).resolve().parents[2] / "docs" / "interop.md"


def _config_paths(card: str) -> list[str]:
    header = card.split("---")[1]
    return re.findall(r"^\s+path: (\S+)$", header, flags=re.MULTILINE)


def test_card_names_only_existing_nonempty_files(synthetic: Synthetic, folder: Path) -> None:
    card = (folder / CARD).read_text()
    paths = _config_paths(card)
    assert CORPUS in paths and QUERIES in paths and hf_qrels_file("test") in paths and hf_qrels_file("test", graded=True) in paths
    for path in paths:
        assert (folder / path).stat().st_size > 0, path


def test_card_leaves_out_splits_without_judgements(synthetic: Synthetic) -> None:
    rows = split_rows(synthetic.records, synthetic.plan)
    rows["dev"] = []
    files = card_files("x", get_spec("c2c"), rows, source="s", language="python", counts={})
    assert hf_qrels_file("dev") not in files and hf_qrels_file("train") in files
    card = files[CARD].decode()
    assert "split: dev" not in card and "split: train" in card
    empty = card_text("x", get_spec("c2c"), source="s", language="python", counts={}, splits=())
    assert "config_name: default" not in empty and "config_name: corpus" in empty


def test_write_folder_writes_card_data_files(synthetic: Synthetic, folder: Path) -> None:
    files = folder_files(synthetic.records, synthetic.plan, source="synthetic")
    assert hf_qrels_file("test") in files and hf_qrels_file("test", graded=True) in files
    assert (folder / CARD).read_bytes() == files[CARD]


def test_hf_datasets_loads_every_config(synthetic: Synthetic, folder: Path, tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    cache = str(tmp_path)
    corpus = datasets.load_dataset(str(folder), "corpus", split="corpus", cache_dir=cache)
    queries = datasets.load_dataset(str(folder), "queries", split="queries", cache_dir=cache)
    assert sorted(corpus["_id"]) == sorted(d.id for d in synthetic.records.documents)
    assert sorted(queries["_id"]) == sorted(q.id for q in synthetic.records.queries)
    first = synthetic.records.documents[0]
    row = corpus[corpus["_id"].index(first.id)]
    assert row["text"] == first.text and row["metadata"] == first.to_json()["metadata"]  # null-free: every key, its own type
    assert all(value is not None for value in row["metadata"].values())
    judged = [s for s in ("train", "dev", "test") if split_qrels(synthetic, s)]
    default = datasets.load_dataset(str(folder), "default", cache_dir=cache)
    graded = datasets.load_dataset(str(folder), "graded", cache_dir=cache)
    assert sorted(default) == sorted(judged) == sorted(graded)
    for split in judged:
        expected = split_qrels(synthetic, split)
        got: dict[str, dict[str, int]] = {}
        for r in default[split]:
            got.setdefault(r["query-id"], {})[r["corpus-id"]] = r["score"]
        assert got == strict_qrels(expected)
        got_graded: dict[str, dict[str, int]] = {}
        for r in graded[split]:
            got_graded.setdefault(r["query-id"], {})[r["corpus-id"]] = r["score"]
        assert got_graded == expected


def test_jsonl_twins_match_the_tsv_files(synthetic: Synthetic, folder: Path) -> None:
    rows = split_rows(synthetic.records, synthetic.plan)
    for split, split_rows_ in rows.items():
        if not split_rows_:
            continue
        tsv = (folder / f"qrels-strict/{split}.tsv").read_text().splitlines()[1:]
        jsonl = (folder / hf_qrels_file(split)).read_text().splitlines()
        assert len(tsv) == len(jsonl) == len(strict(split_rows_))


def test_docs_table_matches_tool_names() -> None:
    if not DOC.is_file():
        pytest.skip("docs/interop.md is not in this checkout")
    text = DOC.read_text()
    for family, names in TOOL_NAMES.items():
        row = next((line for line in text.splitlines() if line.startswith(f"| `{family}@k`")), None)
        assert row is not None, f"docs/interop.md has no table row for {family}@k"
        cells = [c.strip() for c in row.strip("|").split("|")]
        for tool, cell in zip(TOOLS, cells[1:]):
            assert f"`{names[tool].format(k='k')}`" in cell, (family, tool, cell)


def test_execir_reader_agrees_with_the_records(synthetic: Synthetic, folder: Path) -> None:
    from execir.dataset import load_dataset

    for split in ("train", "dev", "test"):
        expected = split_qrels(synthetic, split)
        if expected:
            assert load_dataset(folder, split).qrels == expected
