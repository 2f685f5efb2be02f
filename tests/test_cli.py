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
