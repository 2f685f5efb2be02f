"""``execir eval --expand`` end to end on a small hand-built folder: expanded systems beside their
first stages with deltas and tests, expansions/ written, and folders expansion does not apply to."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execir.dataset.spec import get_spec
from execir.errors import ExecIRError
from execir.evaluate.config import EvalConfig
from execir.evaluate.expansion import expansion_notes, task_applies
from execir.evaluate.runner import check_config, run_collection
from execir.expand import prepare_expansions
from execir.results import FolderResult
from execir.retrieve import BM25Retriever, DenseRetriever, HashingEncoder
from tests.evaluate.test_pipeline import make_dataset


def _config(tmp_path: Path, expansions: tuple[str, ...]) -> EvalConfig:
    return EvalConfig(
        dataset=tmp_path / "ds",
        out=tmp_path / "out",
        retrievers=("bm25", "toy-dense"),
        expansions=expansions,
        generation_cache_dir=tmp_path / "generations",
        bootstrap_resamples=100,
        progress=False,
    )


def test_expanded_systems_are_reported_beside_their_first_stage(tmp_path: Path, tiny_gpt2: Path) -> None:
    make_dataset(tmp_path / "ds")
    config = _config(tmp_path, ("rm3,max_df=1", "rocchio,k=2", f"query2doc:hf:{tiny_gpt2},max_tokens=4"))
    retrievers = {"bm25": BM25Retriever(progress=False), "toy-dense": DenseRetriever(HashingEncoder(dim=16))}
    run_collection(config, retrievers, {})  # type: ignore[arg-type]
    result = FolderResult.from_json(json.loads((tmp_path / "out" / "results.json").read_text()))
    names = sorted(s.name for s in result.systems)  # results.json keeps its keys sorted
    assert names == sorted(["bm25", "dense-hashing-16", "bm25+rm3", "bm25+query2doc", "dense-hashing-16+rocchio", "dense-hashing-16+query2doc"])
    rm3 = result.system("bm25+rm3").expansion
    assert rm3 is not None and rm3.first_stage == "bm25" and set(rm3.deltas) == {"exec@1", "exec@10", "ndcg@10"}
    assert rm3.generator_calls == 0 and 0.0 <= rm3.mcnemar.p_value <= 1.0
    q2d = result.system("bm25+query2doc").expansion
    assert q2d is not None and q2d.generator_calls == 2 and q2d.config["generator_identity"]["backend"] == "hf"
    assert result.system("dense-hashing-16+query2doc").expansion.generator_calls == 0  # type: ignore[union-attr]  # cached by bm25's pass
    written = sorted(p.name for p in (tmp_path / "out" / "expansions").glob("*.jsonl"))
    assert written == ["bm25+query2doc.jsonl", "bm25+rm3.jsonl", "dense-hashing-16+query2doc.jsonl", "dense-hashing-16+rocchio.jsonl"]
    record = json.loads((tmp_path / "out" / "expansions" / "bm25+query2doc.jsonl").read_text().splitlines()[0])
    assert set(record) == {"query_id", "query", "prompt", "samples", "search_text"}
    report = (tmp_path / "out" / "report.md").read_text()
    assert "## Query expansion" in report and "| bm25+rm3 | bm25 |" in report
    html = (tmp_path / "out" / "report.html").read_text()
    assert 'id="expansion"' in html and html.count("bm25+rm3") >= 2
    again = run_collection(config, {"bm25": BM25Retriever(progress=False), "toy-dense": DenseRetriever(HashingEncoder(dim=16))}, {})  # type: ignore[arg-type]
    assert again is not None
    rerun = FolderResult.from_json(json.loads((tmp_path / "out" / "results.json").read_text()))
    assert rerun.system("bm25+query2doc").expansion.generator_calls == 0  # type: ignore[union-attr]


def test_folders_and_retrievers_expansion_does_not_apply_to(tmp_path: Path) -> None:
    expansions = prepare_expansions(("rm3", "rocchio"), cache_dir=None)
    assert task_applies(get_spec("t2c-search")) and task_applies(get_spec("t2c-description"))
    assert not any(task_applies(get_spec(t)) for t in ("t2c-full", "c2t", "c2c")) and not task_applies(None)
    notes = expansion_notes(expansions, get_spec("c2t"), [BM25Retriever()])
    assert notes == (
        "rm3: not applied; this folder's task is c2t, and query expansion is for t2c-search and t2c-description queries",
        "rocchio: not applied; this folder's task is c2t, and query expansion is for t2c-search and t2c-description queries",
    )
    assert expansion_notes(expansions, get_spec("t2c-search"), [BM25Retriever()]) == (
        "rocchio: not applied; no dense retriever was evaluated (hybrids are not expanded)",
    )


def test_bad_expand_spec_fails_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(ExecIRError, match="--expand 'rm3,fb_docs=0'"):
        check_config(_config(tmp_path, ("rm3,fb_docs=0",)))


@pytest.mark.parametrize(
    ("spec", "message"),
    [("rm3,fb_terms=-1", "fb_terms=-1 is out of range"), ("hyde:hf:/no/such/model", "does not exist"), ("bo1", "'bo1' is not an expansion kind")],
)
def test_cli_checks_expand_specs_before_the_dataset_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, message: str) -> None:
    from execir.cli import main

    assert main(["eval", str(tmp_path / "no-dataset"), "--retriever", "bm25", "--expand", spec, "--out", str(tmp_path / "o"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and not (tmp_path / "o").exists()


def test_expanded_systems_stay_out_of_the_collection_averages() -> None:
    from execir.evaluate.collection import averages
    from execir.results import Estimate, FolderScore, FolderSummary

    def folder(name: str, scores: tuple[FolderScore, ...]) -> FolderSummary:
        return FolderSummary(name, name, "t2c", name.split("-")[1], "python", "all", None, scores, "r.md")  # type: ignore[arg-type]

    plain = FolderScore("bm25", {"ndcg@10": Estimate(0.4, 0.3, 0.5)}, 0.0, 0.0, {})
    expanded = FolderScore("bm25+rm3", {"ndcg@10": Estimate(0.9, 0.8, 1.0)}, 0.0, 0.0, {}, expanded_from="bm25")
    assert averages((folder("t2c-search", (plain, expanded)), folder("t2c-full", (plain,)))) == {"bm25": {"t2c": 0.4, "overall": 0.4}}
