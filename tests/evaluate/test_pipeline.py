"""The evaluation pipeline on a small hand-built dataset: outputs, encodes, tie policy, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execir.dataset import load_dataset
from execir.dataset.files import json_bytes
from execir.dataset.records import Document, FolderRecords, Query
from execir.dataset.splits import SplitPlan
from execir.dataset.write import write_folder
from execir.errors import InputError
from execir.evaluate.config import EvalConfig
from execir.evaluate.outputs import write_outputs
from execir.evaluate.pipeline import Timer, compare_systems, evaluate_systems, folder_result
from execir.results import FolderResult
from execir.types import Run

DOCS = {
    "c1": ("t1", "canonical", None, "def add(a, b):\n    return a + b\n"),
    "m1": ("t1", "mutant", "arith_swap", "def add(a, b):\n    return a - b\n"),
    "c2": ("t2", "canonical", None, "def largest(xs):\n    return max(xs)\n"),
    "m2": ("t2", "mutant", "min_max_swap", "def largest(xs):\n    return min(xs)\n"),
}
QUERIES = {"t1": "add two numbers", "t2": "largest element of a list"}


def make_dataset(root: Path) -> Path:
    """A t2c-description folder written by the real writer (both problems in the test split)."""
    documents = tuple(
        Document(d, text, t, t, kind, "python", 2 if kind == "canonical" else 1, operator=op or "", verdict="PASS" if kind == "canonical" else "FAIL")
        for d, (t, kind, op, text) in DOCS.items()
    )
    queries = tuple(Query(q, text, q, q, "t2c-description", "description", "python") for q, text in QUERIES.items())
    qrels = (("t1", "c1", 2), ("t1", "m1", 1), ("t2", "c2", 2), ("t2", "m2", 1))
    records = FolderRecords("toy", "t2c-description", "python", documents, queries, qrels)
    write_folder(root, records, SplitPlan(0, (0.0, 0.0, 1.0), {"t1": "test", "t2": "test"}), {"source": {"name": "toy"}})
    return root


class FixedRetriever:
    """Returns a fixed run: the mutant of t1 ties its canonical, t2 is ranked correctly."""

    def __init__(self, name: str, run: Run) -> None:
        self.name = name
        self._run = run

    def index(self, corpus: dict[str, str]) -> None:
        self.corpus = corpus

    def search(self, queries: dict[str, str], *, top_k: int) -> Run:
        return {q: dict(self._run.get(q, {})) for q in queries}

    @property
    def encoded_texts(self) -> int:
        return 0

    def config(self) -> dict[str, str]:
        return {"name": self.name}


RUNS = {
    "tied": {"t1": {"c1": 0.9, "m1": 0.9, "c2": 0.1}, "t2": {"c2": 0.8, "m2": 0.7}},
    "good": {"t1": {"c1": 0.9, "m1": 0.5}, "t2": {"c2": 0.8, "m2": 0.7}},
}


def _evaluate(tmp_path: Path, ties: str = "pessimistic") -> tuple[FolderResult, Path]:
    dataset = load_dataset(make_dataset(tmp_path / "ds"))
    config = EvalConfig(dataset=tmp_path / "ds", out=tmp_path / "out", retrievers=("tied", "good"), ties=ties, bootstrap_resamples=200, progress=False)
    timer = Timer()
    systems = evaluate_systems(dataset, config, timer, factory=lambda spec: FixedRetriever(spec, RUNS[spec]))
    result = folder_result(dataset, config, systems, compare_systems(systems, config), timer)
    return result, write_outputs(config.out, dataset, systems, result, config.run_depth)


def test_pessimistic_ties_never_credit_the_canonical(tmp_path: Path) -> None:
    results, _ = _evaluate(tmp_path)
    tied = results.system("tied")
    assert tied.metrics["exec@1"].mean == 0.5
    assert tied.tie_rate == 0.5
    assert results.system("good").metrics["exec@1"].mean == 1.0


def test_outputs_written(tmp_path: Path) -> None:
    results, report = _evaluate(tmp_path)
    out = tmp_path / "out"
    run_lines = (out / "runs" / "tied.trec").read_text().splitlines()
    assert run_lines[0].split()[:4] == ["t1", "Q0", "m1", "1"]  # pessimistic: the mutant first
    rows = [json.loads(line) for line in (out / "per_query.jsonl").read_text().splitlines()]
    assert {(r["system"], r["query_id"]) for r in rows} == {(s, q) for s in RUNS for q in QUERIES}
    first = next(r for r in rows if r["system"] == "tied" and r["query_id"] == "t1")
    assert first["canonical_rank"] == 2 and first["top10"][0]["kind"] == "mutant"
    text = report.read_text()
    assert "## Leaderboard" in text and "```diff" in text and "-    return a + b" in text
    assert (out / "figures" / "density.png").read_bytes()[:4] == b"\x89PNG" and "figures/density.png" in text
    saved = json.loads((out / "results.json").read_text())
    assert saved["comparisons"][0]["a"] in RUNS and saved["tie_policy"] == "pessimistic"


def test_trec_ties_reproduce_trec_eval_order(tmp_path: Path) -> None:
    results, _ = _evaluate(tmp_path, ties="trec")
    # trec_eval breaks score ties by descending doc id: "m1" > "c1", so the mutant still comes first
    assert results.system("tied").metrics["exec@1"].mean == 0.5


def test_bad_qrels_row_names_file_line_field(tmp_path: Path) -> None:
    root = make_dataset(tmp_path / "ds")
    (root / "manifest.json").unlink()  # a plain BEIR dataset made elsewhere
    (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nt1\tc1\t2\nt1\tnope\t1\n")
    with pytest.raises(InputError) as info:
        load_dataset(root)
    assert info.value.line == 3 and info.value.field == "corpus-id"


def test_modified_dataset_file_fails_the_manifest_check(tmp_path: Path) -> None:
    root = make_dataset(tmp_path / "ds")
    with (root / "corpus.jsonl").open("a") as handle:
        handle.write('{"_id": "extra", "text": "x"}\n')
    with pytest.raises(InputError, match="does not match the sha256"):
        load_dataset(root)
    (root / "manifest.json").write_text("{not json")
    with pytest.raises(InputError, match="invalid JSON"):
        load_dataset(root)


def test_duplicate_system_names_are_refused(tmp_path: Path) -> None:
    from execir.errors import ExecIRError

    dataset = load_dataset(make_dataset(tmp_path / "ds"))
    config = EvalConfig(dataset=tmp_path / "ds", out=tmp_path / "out", retrievers=("good", "good"), progress=False)
    with pytest.raises(ExecIRError, match="both resolve to the system name"):
        evaluate_systems(dataset, config, Timer(), factory=lambda spec: FixedRetriever(spec, RUNS[spec]))


def test_not_a_dataset(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a dataset folder"):
        load_dataset(tmp_path)


def test_manifest_bytes_roundtrip() -> None:
    assert json.loads(json_bytes({"b": 1, "a": [1, 2]})) == {"a": [1, 2], "b": 1}


def test_second_evaluation_encodes_nothing(tmp_path: Path) -> None:
    from execir.retrieve.dense import DenseRetriever
    from execir.retrieve.encoders import HashingEncoder

    dataset = load_dataset(make_dataset(tmp_path / "ds"))
    config = EvalConfig(dataset=tmp_path / "ds", out=tmp_path / "out", retrievers=("toy",), bootstrap_resamples=50, progress=False)

    def factory(spec: str) -> DenseRetriever:
        return DenseRetriever(HashingEncoder(), cache_dir=tmp_path / "emb")

    first = evaluate_systems(dataset, config, Timer(), factory=factory)
    second = evaluate_systems(dataset, config, Timer(), factory=factory)
    assert first[0].summary.encoded_texts == len(DOCS) + len(QUERIES)
    assert second[0].summary.encoded_texts == 0
    assert first[0].run == second[0].run


def test_report_wording_follows_the_tie_policy(tmp_path: Path) -> None:
    from execir.report.terminal import format_leaderboard

    results, report = _evaluate(tmp_path / "p")
    text = report.read_text()
    assert "a mutant above or tied with the canonical" in text and "ranks above or tied with the canonical" in text
    assert "a mutant above or tied with the canonical" in format_leaderboard(results)
    trec, trec_report = _evaluate(tmp_path / "t", ties="trec")
    assert "or tied with" not in trec_report.read_text().split("## Where the time went")[0]
    assert "or tied with" not in format_leaderboard(trec) and "ranks above the canonical" in trec_report.read_text()


def test_one_system_order_in_every_table(tmp_path: Path) -> None:
    from execir.report.terminal import format_leaderboard

    results, report = _evaluate(tmp_path)  # "tied" is configured first, but "good" has the better exec@1
    sections = report.read_text().split("\n## ")
    for title in ("Leaderboard", "Where retrievers fall", "Pool-density ablation", "Mutation operators"):
        body = next(s for s in sections if s.startswith(title))
        assert body.index("| good |") < body.index("| tied |"), title
    lines = format_leaderboard(results).splitlines()
    rows = [line.split()[0] for line in lines if line.split()[:1] in (["good"], ["tied"]) and " vs " not in line]
    assert rows == ["good", "tied", "good", "tied"]  # leaderboard, then gap table
    ablation = next(line for line in lines if line.startswith("exec@1 with 0..4 mutants"))
    assert ablation.index("good") < ablation.index("tied")


def test_leaderboard_figure_with_cis_and_operator_n(tmp_path: Path) -> None:
    from execir.report.plots import operator_labels

    results, report = _evaluate(tmp_path)
    out = tmp_path / "out"
    assert (out / "figures" / "leaderboard.png").read_bytes()[:4] == b"\x89PNG"
    assert "![leaderboard with 95% CIs](figures/leaderboard.png)" in report.read_text()
    assert operator_labels(results) == [f"{op} (n={row.n})" for op, row in sorted(results.system("good").analyses.per_operator.items())]
    import re

    section = report.read_text().split("## Mutation operators")[1].split("\n## ")[0]
    operator_rows = [line for line in section.splitlines() if line.startswith("| ") and "operator" not in line]
    assert operator_rows and all(re.fullmatch(r"\| \w+ \| \d+\.\d% of \d+ \| \d+\.\d% of \d+ \|", row) for row in operator_rows)
