"""Captured output (not a terminal) carries no progress bars, ours or the libraries'; the leaderboard
starts on its own line and every stage is one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BAR_MARKS = ("\r", "it/s", "s/it", "%|")


def _execir(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "execir.cli", *args], capture_output=True, text=True, timeout=300)


def _assert_no_bars(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stderr
    for stream in (done.stdout, done.stderr):
        assert not any(mark in stream for mark in BAR_MARKS), stream[-2000:]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("console")
    done = _execir("build", "humaneval", "--limit", "6", "--out", str(tmp / "he"), "--cache", str(tmp / "c.sqlite"))
    _assert_no_bars(done)
    assert done.stdout.splitlines()[0] == f"output: {tmp / 'he'}"
    return tmp / "he"


def test_eval_with_bm25_dense_and_hybrid_prints_no_bars(dataset: Path, tmp_path: Path) -> None:
    done = _execir("eval", str(dataset), "--out", str(tmp_path / "res"), "--cache-dir", str(tmp_path / "emb"))
    _assert_no_bars(done)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("system ") and set(lines[1]) <= {"-", " "}  # the averages over tasks, then a leaderboard per task
    assert {"bm25", "dense-all-MiniLM-L6-v2", "hybrid-bm25+dense-all-MiniLM-L6-v2"} <= {line.split()[0] for line in lines[2:5]}
