"""``execir export pairs``: every format loads with ``datasets`` under TRL's / sentence-transformers'
column names, labels agree with the qrels and the oracle verdicts, split files are problem-disjoint,
output is seeded and deterministic, bad input gets clear errors."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from execir.dataset.files import atomic_write_bytes, json_bytes, sha256_hex
from execir.dataset.layout import CARD, CORPUS, MANIFEST
from execir.dataset.read import discover, load_dataset
from execir.dataset.write import write_collection
from execir.errors import ExecIRError, InputError
from execir.interop.commands import register
from execir.interop.pair_rows import PairOptions
from execir.interop.pairs_export import EXPORT_FILE, export_pairs
from tests.dataset.builders import build_items, collection_folders, plan_for, read_jsonl

T2C = "t2c-description-python"
TRAINER_COLUMNS = {"dpo": ["prompt", "chosen", "rejected"], "kto": ["prompt", "completion", "label"], "reward": ["prompt", "completion", "label"]}
"""TRL's names: preference (explicit prompt) and unpaired preference (huggingface.co/docs/trl dataset_formats)."""


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-language build (mutants, a human bug, rewrites, passing and failing candidates, counterfactual descriptions)."""
    items = build_items()
    out = tmp_path_factory.mktemp("pairs-build")
    write_collection(out, collection_folders(items), plan_for(items), {"source": {"name": "synthetic"}})
    return out


def _export(dataset: Path, out: Path, fmt: str, **options: Any) -> Path:
    export_pairs(dataset, out, PairOptions(fmt, **options), command=f"execir export pairs {dataset} --format {fmt}")
    return out


def _rows(out: Path, *, meta: bool = False) -> dict[str, list[dict[str, Any]]]:
    facts = json.loads((out / EXPORT_FILE).read_text())
    suffix = ".meta.jsonl" if meta else ".jsonl"
    return {split: read_jsonl(out / f"{split}{suffix}") for split in facts["splits"]}


class Judgements:
    """Every folder's graded qrels (all splits), document verdicts and problems, and each split's problems."""

    def __init__(self, build: Path) -> None:
        self.grades: dict[tuple[str, str], dict[str, dict[str, int]]] = {}
        self.meta: dict[str, dict[str, dict[str, Any]]] = {}
        self.texts: dict[str, dict[str, str]] = {}
        self.split_problems: dict[str, set[str]] = {}
        for folder in discover(build):
            every = load_dataset(folder, "all")
            self.meta[every.name] = every.doc_meta
            self.texts[every.name] = every.corpus
            for split in ("train", "dev", "test"):
                loaded = load_dataset(folder, split)
                self.grades[(every.name, split)] = loaded.qrels
                self.split_problems.setdefault(split, set()).update(loaded.query_task.values())

    def grade(self, folder: str, split: str, query: str, doc: str) -> int:
        return self.grades[(folder, split)][query].get(doc, 0)

    def verdict(self, folder: str, doc: str) -> str:
        return str(self.meta[folder][doc]["verdict"])

    def problem(self, folder: str, doc: str) -> str:
        return str(self.meta[folder][doc]["problem"])


@pytest.fixture(scope="module")
def judged(build: Path) -> Judgements:
    return Judgements(build)


@pytest.mark.parametrize("fmt", ["dpo", "kto", "reward", "triplets"])
def test_each_format_loads_with_the_trainers_column_names(build: Path, tmp_path: Path, fmt: str) -> None:
    datasets = pytest.importorskip("datasets")
    out = _export(build / T2C, tmp_path / fmt, fmt, negatives=2)
    files = {split: str(out / f"{split}.jsonl") for split in ("train", "dev", "test")}
    loaded = datasets.load_dataset("json", data_files=files, cache_dir=str(tmp_path / "cache"))
    assert set(loaded) == {"train", "dev", "test"}
    columns = loaded["train"].column_names
    if fmt == "triplets":
        assert columns == ["anchor", "positive", "negative_1", "negative_2"]  # exactly: sentence-transformers reads every column in order
        meta = datasets.load_dataset("json", data_files={"train": str(out / "train.meta.jsonl")}, cache_dir=str(tmp_path / "cache"))
        assert meta["train"].num_rows == loaded["train"].num_rows and "negative_ids" in meta["train"].column_names
    else:
        assert columns[:3] == TRAINER_COLUMNS[fmt]
        assert {"problem", "task_id", "operator", "verdict", "query_id"} <= set(columns)
    if fmt in ("kto", "reward"):
        assert loaded["train"].features["label"].dtype == ("bool" if fmt == "kto" else "int64")
    by_card = datasets.load_dataset(str(out), cache_dir=str(tmp_path / "cache-card"))
    assert {s: by_card[s].num_rows for s in by_card} == {s: loaded[s].num_rows for s in loaded}


def test_trl_reads_the_rows_as_its_dataset_types(build: Path, tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    data_utils = pytest.importorskip("trl.data_utils")
    dpo = _export(build / T2C, tmp_path / "dpo", "dpo", negatives=2)
    kto = _export(build / T2C, tmp_path / "kto", "kto", negatives=2)
    conversational = _export(build / T2C, tmp_path / "conv", "dpo", negatives=2, conversational=True)
    cache = str(tmp_path / "cache")
    preference = datasets.load_dataset("json", data_files=str(dpo / "train.jsonl"), split="train", cache_dir=cache)
    chat = datasets.load_dataset("json", data_files=str(conversational / "train.jsonl"), split="train", cache_dir=cache)
    assert not data_utils.is_conversational(preference[0]) and data_utils.is_conversational(chat[0])
    assert chat[0]["prompt"][0]["role"] == "user" and chat[0]["chosen"][0]["role"] == "assistant"
    # KTO rows are exactly TRL's own unpairing of the DPO rows, each document once
    unpaired = data_utils.unpair_preference_dataset(preference.select_columns(["prompt", "chosen", "rejected"]))
    ours = datasets.load_dataset("json", data_files=str(kto / "train.jsonl"), split="train", cache_dir=cache)
    assert unpaired.column_names == ["prompt", "completion", "label"]
    assert set(zip(unpaired["prompt"], unpaired["completion"], unpaired["label"])) == set(zip(ours["prompt"], ours["completion"], ours["label"]))
    assert ours.num_rows == len(set(zip(ours["query_id"], ours["doc_id"])))


@pytest.mark.parametrize("fmt", ["dpo", "kto", "reward", "triplets"])
def test_labels_agree_with_qrels_and_verdicts(build: Path, judged: Judgements, tmp_path: Path, fmt: str) -> None:
    out = _export(build, tmp_path / fmt, fmt, negatives=3)
    rows = _rows(out, meta=fmt == "triplets")
    texts = _rows(out)
    assert sum(len(r) for r in rows.values()) > 0
    folders_seen: set[str] = set()
    for split, split_rows in rows.items():
        for row, columns in zip(split_rows, texts[split], strict=True):
            folder, query = row["folder"], row["query_id"]
            _assert_texts_match_ids(judged.texts[folder], fmt, row, columns)
            folders_seen.add(folder)
            code = not folder.startswith("c2t")
            if fmt == "dpo":
                assert judged.grade(folder, split, query, row["chosen_id"]) == 2 and judged.grade(folder, split, query, row["rejected_id"]) == 1
                if code:
                    assert judged.verdict(folder, row["chosen_id"]) == "PASS" == row["chosen_verdict"]
                    rejected = judged.verdict(folder, row["rejected_id"])
                    assert rejected in {"FAIL", "TIMEOUT", "ERROR"} and row["verdict"] == rejected
                else:
                    assert (row["chosen_kind"], row["rejected_kind"]) == ("description", "counterfactual") and row["operator"]
            elif fmt in ("kto", "reward"):
                grade = judged.grade(folder, split, query, row["doc_id"])
                assert grade in (1, 2) and row["label"] == (grade == 2) and type(row["label"]) is (bool if fmt == "kto" else int)
                assert not code or (judged.verdict(folder, row["doc_id"]) == "PASS") == (grade == 2)
            else:
                assert judged.grade(folder, split, query, row["positive_id"]) == 2
                for doc, kind in zip(row["negative_ids"], row["negative_kinds"]):
                    grade = judged.grade(folder, split, query, doc)
                    assert grade == 1 if kind != "other-problem" else (grade == 0 and judged.problem(folder, doc) != row["problem"])
    assert folders_seen == {p.name for p in discover(build)}


def _assert_texts_match_ids(corpus: dict[str, str], fmt: str, meta: dict[str, Any], columns: dict[str, Any]) -> None:
    if fmt == "dpo":
        assert (columns["chosen"], columns["rejected"]) == (corpus[meta["chosen_id"]], corpus[meta["rejected_id"]])
    elif fmt == "triplets":
        negatives = [columns[f"negative_{i}"] for i in range(1, len(meta["negative_ids"]) + 1)]
        assert [columns["positive"], *negatives] == [corpus[d] for d in (meta["positive_id"], *meta["negative_ids"])]
    else:
        assert columns["completion"] == corpus[meta["doc_id"]]


def test_reward_writes_every_judged_document(build: Path, judged: Judgements, tmp_path: Path) -> None:
    rows = _rows(_export(build / T2C, tmp_path / "reward", "reward"))
    for split, split_rows in rows.items():
        qrels = judged.grades[(T2C, split)]
        assert sorted((r["query_id"], r["doc_id"]) for r in split_rows) == sorted((q, d) for q, docs in qrels.items() for d in docs)


def test_split_files_are_problem_disjoint_and_follow_the_dataset(build: Path, judged: Judgements, tmp_path: Path) -> None:
    rows = _rows(_export(build, tmp_path / "dpo", "dpo"))
    problems = {split: {r["problem"] for r in split_rows} for split, split_rows in rows.items()}
    assert set(problems) == {"train", "dev", "test"}
    for split, found in problems.items():
        assert found <= judged.split_problems[split]
        assert not found & set().union(*(p for s, p in problems.items() if s != split))


def test_output_is_deterministic_and_seeded(build: Path, tmp_path: Path) -> None:
    first = _export(build, tmp_path / "a", "dpo", negatives=1, seed=3)
    second = _export(build, tmp_path / "b", "dpo", negatives=1, seed=3)
    other = _export(build, tmp_path / "c", "dpo", negatives=1, seed=4)
    for name in ("train.jsonl", "dev.jsonl", "test.jsonl"):
        assert (first / name).read_bytes() == (second / name).read_bytes()
    assert any((first / n).read_bytes() != (other / n).read_bytes() for n in ("train.jsonl", "dev.jsonl", "test.jsonl"))
    assert json.loads((first / EXPORT_FILE).read_text())["source"] == json.loads((second / EXPORT_FILE).read_text())["source"]


def test_negatives_cap_dpo_and_fill_triplets_from_other_problems(build: Path, tmp_path: Path) -> None:
    dpo = _rows(_export(build / T2C, tmp_path / "dpo", "dpo", negatives=1))
    pairs = [(r["query_id"], r["chosen_id"]) for rows in dpo.values() for r in rows]
    assert len(pairs) == len(set(pairs))  # one rejected per chosen
    out = _export(build / T2C, tmp_path / "tri", "triplets", negatives=4)
    meta = _rows(out, meta=True)
    kinds = [k for rows in meta.values() for r in rows for k in r["negative_kinds"]]
    facts = json.loads((out / EXPORT_FILE).read_text())
    filled = sum(c["filled"] for c in facts["counts"][T2C].values())
    assert kinds.count("other-problem") == filled > 0 and all(len(r["negative_ids"]) == 4 for rows in meta.values() for r in rows)


def test_prompt_carries_the_instruction(build: Path, tmp_path: Path) -> None:
    default = _rows(_export(build / T2C, tmp_path / "a", "dpo"))["train"][0]
    bare = _rows(_export(build / T2C, tmp_path / "b", "dpo", instruction=""))["train"][0]
    c2t = _rows(_export(build / "c2t", tmp_path / "c", "dpo"))["train"][0]
    assert default["prompt"] == "Write a python function that does what the following task asks.\n\n" + bare["prompt"]
    assert c2t["prompt"].startswith("Describe in plain English what the following python code does.\n\n")
    anchors = _rows(_export(build / T2C, tmp_path / "d", "triplets", instruction="query: "))["train"][0]
    assert anchors["anchor"] == "query: " + bare["prompt"]


def _tamper(build: Path, tmp_path: Path, kind: str, verdict: str) -> Path:
    """A copy of the t2c folder whose first document of ``kind`` records ``verdict`` (manifest re-hashed)."""
    folder = tmp_path / "tampered"
    shutil.copytree(build / T2C, folder)
    rows = read_jsonl(folder / CORPUS)
    target = next(r for r in rows if r["metadata"]["kind"] == kind)
    target["metadata"]["verdict"] = verdict
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    atomic_write_bytes(folder / CORPUS, data)
    manifest = json.loads((folder / MANIFEST).read_text())
    manifest["files"][CORPUS] = sha256_hex(data)
    atomic_write_bytes(folder / MANIFEST, json_bytes(manifest))
    return folder


@pytest.mark.parametrize(("kind", "verdict"), [("canonical", "FAIL"), ("mutant", "PASS"), ("mutant", "")])
def test_a_verdict_contradicting_the_qrels_is_an_error(build: Path, tmp_path: Path, kind: str, verdict: str) -> None:
    folder = _tamper(build, tmp_path, kind, verdict)
    with pytest.raises(InputError, match=r"corpus\.jsonl:\d+: field 'metadata\.verdict'.*grade [12]") as caught:
        export_pairs(folder, tmp_path / "out", PairOptions("dpo"), command="x")
    assert caught.value.line > 0 and not (tmp_path / "out").exists()


def test_bad_input_and_options_raise_clear_errors(build: Path, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no corpus.jsonl"):
        export_pairs(tmp_path / "empty", tmp_path / "out", PairOptions("dpo"), command="x")
    beir = tmp_path / "beir"
    shutil.copytree(build / T2C, beir)
    (beir / MANIFEST).unlink()
    with pytest.raises(InputError, match=r"manifest\.json.*task"):
        export_pairs(beir, tmp_path / "out", PairOptions("dpo"), command="x")
    with pytest.raises(ExecIRError, match="--format"):
        PairOptions("sft")
    with pytest.raises(ExecIRError, match="--negatives 0"):
        PairOptions("dpo", negatives=0)
    with pytest.raises(ExecIRError, match="--conversational"):
        PairOptions("triplets", conversational=True)


def test_a_collection_mixing_split_plans_is_refused(build: Path, tmp_path: Path) -> None:
    items = build_items()
    other = tmp_path / "other"
    write_collection(other, collection_folders(items), plan_for(items, seed=99), {"source": {"name": "synthetic"}})
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    shutil.copytree(build / T2C, mixed / "a")
    shutil.copytree(other / T2C, mixed / "b")
    with pytest.raises(ExecIRError, match="problem '.*' is in split"):
        export_pairs(mixed, tmp_path / "out", PairOptions("dpo"), command="x")


def _cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="execir")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.handler(args))


def test_cli_writes_card_with_command_counts_and_fingerprint(build: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert _cli(["export", "pairs", str(build), "--format", "kto", "--out", str(out), "--negatives", "2", "--seed", "5"]) == 0
    assert "train" in capsys.readouterr().out
    card, facts = (out / CARD).read_text(), json.loads((out / EXPORT_FILE).read_text())
    assert facts["command"] == f"execir export pairs {build} --format kto --out {out} --negatives 2 --seed 5"
    assert facts["command"] in card
    assert facts["source"]["fingerprint"] in card and facts["source"]["collection_manifest_sha256"]
    assert all(f["manifest_sha256"] in card for f in facts["source"]["folders"])
    assert sum(facts["splits"].values()) == sum(c["rows"] for by in facts["counts"].values() for c in by.values())
    with pytest.raises(ExecIRError, match="--negatives does not apply"):
        _cli(["export", "pairs", str(build), "--format", "reward", "--out", str(out), "--negatives", "2"])


def test_stale_split_files_of_an_earlier_export_are_removed(build: Path, tmp_path: Path) -> None:
    out = _export(build / T2C, tmp_path / "out", "triplets")
    assert (out / "train.meta.jsonl").is_file()
    _export(build / T2C, out, "dpo")
    assert not (out / "train.meta.jsonl").exists() and (out / "train.jsonl").is_file()
