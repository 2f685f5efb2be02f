"""``execir export mteb-results``: MTEB reads back what is written (``ResultCache.load_results``,
``TaskResult.from_disk``), under the task name ``mteb_task`` gives the same folder; measures carry
MTEB's names only where the definitions agree; bad input fails with one clear error."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from execir.dataset import load_dataset
from execir.errors import ExecIRError, InputError
from execir.interop.commands import parse_names, register
from execir.interop.mteb_export import export_mteb_results, mteb_results, mteb_score_name, read_results
from execir.metrics import evaluate, gap_analyses, tie_rate
from execir.metrics.stats import bootstrap_ci
from execir.results import DatasetFacts, Estimate, FolderResult, GapAnalyses, SystemSummary

from .conftest import without_anchor
from .synthetic import Synthetic

MEASURES = ("exec@1", "exec@10", "ndcg@10", "mrr@10", "recall@10", "map@10", "p@5", "mrr")


def _system(name: str, folder: Path, run: dict[str, dict[str, float]], config: dict[str, Any]) -> SystemSummary:
    """ExecIR's summary of ``run`` on the folder's test split, from its own metric functions."""
    dataset = load_dataset(folder, "test")
    per_query = evaluate(dataset.qrels, run, MEASURES)
    metrics = {m: Estimate(*bootstrap_ci([v[q] for q in sorted(v)], n_resamples=200, seed=0)) for m, v in per_query.items()}
    analyses = gap_analyses(dataset.qrels, run, dataset.docs, dataset.query_task, k=10)
    return SystemSummary(
        name=name,
        spec=name,
        config=config,
        encoded_texts=0,
        queries=len(dataset.qrels),
        metrics=metrics,
        tie_rate=tie_rate(dataset.qrels, run, dataset.docs, dataset.query_task),
        density_ablation={},
        analyses=GapAnalyses.of(analyses),
        by_language={"python": {"n": float(len(dataset.qrels)), "exec@1": metrics["exec@1"].mean}},
    )


@pytest.fixture(scope="module")
def result(folder: Path, synthetic: Synthetic) -> FolderResult:
    """Two systems on the synthetic test split: the tied run, and the same run with ties broken by id."""
    dataset = load_dataset(folder, "test")
    run = without_anchor({qid: synthetic.run[qid] for qid in dataset.qrels})
    nudged = {qid: {d: s + (int(d[-4:], 16) % 7) * 1e-6 for d, s in docs.items()} for qid, docs in run.items()}
    facts = DatasetFacts(
        path=str(folder),
        name=dataset.name,
        task=dataset.task,
        language=dataset.language,
        split="test",
        manifest_sha256=dataset.manifest_sha256,
        source=None,
        queries=len(dataset.queries),
        documents=len(dataset.corpus),
    )
    systems = (
        _system("toy", folder, run, {"retriever": "toy"}),
        _system("dense>>exec", folder, nudged, {"encoder": {"model": "org/enc", "revision": "sha256:ab12"}}),
    )
    return FolderResult(toolkit_version="0.1.0", dataset=facts, config={}, tie_policy="pessimistic", systems=systems, comparisons=(), timing_seconds={})


@pytest.fixture
def results_json(tmp_path: Path, result: FolderResult) -> Path:
    path = tmp_path / "eval" / "results.json"
    path.parent.mkdir()
    path.write_text(json.dumps(result.to_json()))
    return path


@pytest.fixture(scope="module")
def mteb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTEB_CACHE", str(tmp_path_factory.mktemp("mteb-default-cache")))
        yield pytest.importorskip("mteb")


def test_score_names_map_only_matching_definitions() -> None:
    assert [mteb_score_name(m) for m in ("exec@5", "ndcg@10", "mrr@10", "recall@100", "map@10", "p@1")] == [
        "hit_rate_at_5",
        "ndcg_at_10",
        "mrr_at_10",
        "recall_at_100",
        "map_at_10",
        "precision_at_1",
    ]
    assert mteb_score_name("mrr") is None and mteb_score_name("ndcg") is None


def test_scores_are_execirs_under_mtebs_names(result: FolderResult) -> None:
    items = mteb_results(result, source="synthetic", mteb_version="2.26.24")
    assert [i.model_name for i in items] == ["execir/toy", "execir/dense__exec"]
    assert [i.revision for i in items] == ["execir-0.1.0", "sha256-ab12"]
    for item, system in zip(items, result.systems):
        task = item.task_result
        assert task["task_name"] == "ExecIR-synthetic-synthetic" and task["dataset_revision"] == result.dataset.manifest_sha256
        (scores,) = task["scores"]["test"]
        means = {m: e.mean for m, e in system.metrics.items()}
        assert scores["main_score"] == scores["ndcg_at_10"] == means["ndcg@10"]
        assert scores["hit_rate_at_1"] == scores["precision_at_1"] == means["exec@1"]
        assert (scores["mrr_at_10"], scores["recall_at_10"], scores["map_at_10"], scores["precision_at_5"]) == (
            means["mrr@10"],
            means["recall@10"],
            means["map@10"],
            means["p@5"],
        )
        assert scores["execir_mrr"] == means["mrr"] and "mrr" not in scores
        assert scores["execir_ndcg_at_10_ci_low"] == system.metrics["ndcg@10"].low
        assert scores["execir_intrusion_at_10"] == system.analyses.intrusion.share
        assert scores["execir_ties"] == "pessimistic" and "accuracy" not in scores
        assert scores["hf_subset"] == "default" and scores["languages"] == ["eng-Latn", "python-Code"]
    assert items[0].task_result["scores"]["test"][0]["ndcg_at_10"] != items[1].task_result["scores"]["test"][0]["ndcg_at_10"]


def test_mteb_reads_back_what_is_written(mteb: Any, results_json: Path, result: FolderResult, folder: Path, tmp_path: Path) -> None:
    from execir.interop import mteb_task

    out = tmp_path / "mteb"
    files = export_mteb_results(results_json.parent, out, names={"toy": "org/toy-model"})
    assert {f.model_name for f in files} == {"org/toy-model", "execir/dense__exec"}
    assert all(f.path.is_file() and f.path.parent.parent.parent == out / "results" for f in files)
    task = mteb_task(folder)
    loaded = mteb.ResultCache(out).load_results(tasks=[task], validate_and_filter=True, include_remote=False)
    by_model = {m.model_name: m for m in loaded.model_results}
    assert set(by_model) == {"org/toy-model", "execir/dense__exec"}
    for system, model in zip(result.systems, ("org/toy-model", "execir/dense__exec")):
        (task_result,) = by_model[model].task_results
        assert task_result.task_name == task.metadata.name and task_result.dataset_revision == task.metadata.dataset["revision"]
        assert task_result.get_score() == pytest.approx(system.metrics["ndcg@10"].mean)
        assert task_result.scores["test"][0]["mrr_at_10"] == pytest.approx(system.metrics["mrr@10"].mean)
    for written in files:
        assert mteb.TaskResult.from_disk(written.path).task_name == task.metadata.name


def test_a_collection_exports_every_folder(mteb: Any, results_json: Path, tmp_path: Path) -> None:
    collection = tmp_path / "collection.json"
    collection.write_text(json.dumps({"split": "test", "folders": [{"name": "synthetic", "report": "eval/report.md"}], "average": {}}))
    assert [path for path, _ in read_results(collection)] == [results_json]
    files = export_mteb_results(collection, tmp_path / "out")
    assert len(files) == 2 and len({f.path for f in files}) == 2


def test_cli_through_register(mteb: Any, results_json: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="execir")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["export", "mteb-results", str(results_json), "--out", str(tmp_path / "o"), "--name", "toy=org/toy"])
    assert args.handler(args) == 0
    out = capsys.readouterr().out
    assert "org/toy" in out and "ResultCache" in out
    assert (tmp_path / "o" / "results" / "org__toy" / "execir-0.1.0" / "ExecIR-synthetic-synthetic.json").is_file()
    assert (tmp_path / "o" / "results" / "org__toy" / "execir-0.1.0" / "model_meta.json").is_file()
    bad = parser.parse_args(["export", "mteb-results", str(tmp_path / "nowhere.json"), "--out", str(tmp_path / "o")])
    with pytest.raises(InputError, match="nowhere.json.*no such file"):
        bad.handler(bad)


def test_bad_input_raises_clear_errors(folder: Path, results_json: Path, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_results(tmp_path / "missing")
    with pytest.raises(InputError, match="not an ExecIR results.json"):
        read_results(folder / "manifest.json")
    (garbage := tmp_path / "garbage.json").write_text("{not json")
    with pytest.raises(InputError, match="invalid JSON"):
        read_results(garbage)
    (partial := tmp_path / "partial.json").write_text(json.dumps({"systems": {}, "dataset": {}}))
    with pytest.raises(InputError, match="partial.json.*missing"):
        read_results(partial)
    (lost := tmp_path / "lost.json").write_text(json.dumps({"folders": [{"name": "x", "report": "x/report.md"}]}))
    with pytest.raises(InputError, match="x/results.json.*no such file"):
        read_results(lost)
    with pytest.raises(ExecIRError, match="SYSTEM=ORG/MODEL"):
        parse_names(["toy"])


def test_a_system_without_ndcg_at_10_is_refused(result: FolderResult) -> None:
    system = result.systems[0]
    stripped = SystemSummary(**{**system.__dict__, "metrics": {m: e for m, e in system.metrics.items() if m != "ndcg@10"}})
    no_main = FolderResult(**{**result.__dict__, "systems": (stripped,)})
    with pytest.raises(ExecIRError, match="no ndcg@10"):
        mteb_results(no_main, source=None, mteb_version="2.26.24")
