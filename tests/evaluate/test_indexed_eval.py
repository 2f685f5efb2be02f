"""An indexed first stage in an evaluation: paired deltas against exact search, recall of exact,
cost, results.json and the report."""

from __future__ import annotations

from pathlib import Path

import pytest

from execir.dataset import load_dataset
from execir.evaluate.config import EvalConfig
from execir.evaluate.indexed import recall_of_exact
from execir.evaluate.outputs import write_outputs
from execir.evaluate.paired import paired_deltas
from execir.evaluate.pipeline import Timer, compare_systems, evaluate_systems, folder_result
from execir.results import FolderResult
from execir.retrieve.dense import DenseRetriever
from execir.retrieve.encoders import HashingEncoder
from execir.retrieve.indexed import IndexedRetriever
from execir.types import Run
from tests.evaluate.test_pipeline import RUNS, make_dataset

pytest.importorskip("faiss")

from execir.retrieve.faiss_index import IndexSpec  # noqa: E402


def test_paired_deltas_and_mcnemar() -> None:
    before = {"exec@1": {"a": 1.0, "b": 1.0, "c": 0.0, "d": 1.0, "e": 0.0}, "ndcg@10": {"a": 1.0, "b": 0.5, "c": 0.2, "d": 1.0, "e": 0.0}}
    after = {"exec@1": {"a": 0.0, "b": 1.0, "c": 1.0, "d": 0.0, "e": 0.0}, "ndcg@10": {"a": 0.5, "b": 0.5, "c": 0.7, "d": 0.5, "e": 0.0}}
    deltas, test = paired_deltas(before, after, ("exec@1", "ndcg@10"), n_resamples=500, seed=0)
    assert deltas["exec@1"].mean == pytest.approx(-0.2)
    assert deltas["ndcg@10"].mean == pytest.approx(-0.1)
    assert deltas["exec@1"].low <= -0.2 <= deltas["exec@1"].high and deltas["exec@1"].low < deltas["exec@1"].high
    assert (test.wins, test.losses) == (1, 2)
    assert test.p_value == pytest.approx(1.0)
    assert paired_deltas(before, after, ("exec@1",), n_resamples=500, seed=0) == paired_deltas(before, after, ("exec@1",), n_resamples=500, seed=0)


def test_recall_of_exact_is_the_mean_share_per_query() -> None:
    exact: Run = {"q1": {"a": 3.0, "b": 2.0}, "q2": {"c": 1.0, "d": 0.5}, "q3": {}}
    approx: Run = {"q1": {"a": 3.0, "x": 2.5}, "q2": {"d": 0.5, "c": 1.0}}
    assert recall_of_exact(approx, exact) == pytest.approx(0.75)


class ScriptedIndex(IndexedRetriever):
    """A real index whose run and exact reference are scripted: the index ties t1's canonical with
    its mutant (exec@1 0 under pessimistic ties) where exact search ranks it first."""

    def search(self, queries: dict[str, str], *, top_k: int) -> Run:
        super().search(queries, top_k=top_k)  # times the real index search
        return {q: dict(RUNS["tied"][q]) for q in queries}

    def exact_search(self, queries: dict[str, str], *, top_k: int) -> Run:
        return {q: dict(RUNS["good"][q]) for q in queries}


def _evaluate(tmp_path: Path) -> tuple[FolderResult, Path]:
    dataset = load_dataset(make_dataset(tmp_path / "ds"))
    config = EvalConfig(dataset=tmp_path / "ds", out=tmp_path / "out", retrievers=("scripted", "hnsw"), bootstrap_resamples=200, progress=False)

    def factory(spec: str) -> IndexedRetriever:
        kind = ScriptedIndex if spec == "scripted" else IndexedRetriever
        return kind(DenseRetriever(HashingEncoder()), IndexSpec("hnsw"), name=f"dense@faiss:{spec}")

    timer = Timer()
    systems = evaluate_systems(dataset, config, timer, factory=factory)
    result = folder_result(dataset, config, systems, compare_systems(systems, config), timer)
    return result, write_outputs(config.out, dataset, systems, result, config.run_depth)


def test_indexed_system_reports_deltas_recall_and_cost(tmp_path: Path) -> None:
    result, out = _evaluate(tmp_path)
    scripted = result.system("dense@faiss:scripted").index
    assert scripted is not None
    assert scripted.deltas["exec@1"].mean == pytest.approx(-0.5)
    assert (scripted.mcnemar.wins, scripted.mcnemar.losses) == (0, 1)
    assert scripted.recall_of_exact == 1.0 and scripted.recall_k == 100
    assert scripted.exact == "dense-hashing-64"
    hnsw = result.system("dense@faiss:hnsw").index
    assert hnsw is not None
    assert hnsw.deltas["exec@1"].mean == 0.0 and hnsw.deltas["ndcg@10"].mean == 0.0 and hnsw.recall_of_exact == 1.0
    assert (hnsw.documents, hnsw.kind, hnsw.params["M"]) == (4, "hnsw", 32)
    assert hnsw.memory_bytes > 0 and hnsw.ms_per_query >= 0.0
    assert FolderResult.from_json(result.to_json()) == result
    report = out.read_text(encoding="utf-8")
    assert "## Vector indexes against exact search" in report
    assert "| dense@faiss:scripted | hnsw(M=32,efConstruction=40,efSearch=16) | -0.500 [" in report
    html = out.with_name("report.html")
    if html.is_file():  # written when plotly (the report extra) is installed
        assert 'id="indexes"' in html.read_text(encoding="utf-8")
