"""A build killed midway resumes from the verdict cache and re-executes nothing verified."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _rows(cache: Path) -> int:
    if not cache.exists():
        return 0
    try:
        with sqlite3.connect(cache, timeout=5) as db:
            return int(db.execute("SELECT COUNT(*) FROM verdicts4").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _build_cmd(out: Path, cache: Path) -> list[str]:
    return [sys.executable, "-m", "execir.cli", "build", "humaneval", "--limit", "25", "--out", str(out), "--cache", str(cache), "--no-progress"]


@pytest.mark.slow
def test_killed_build_resumes_without_reexecuting(tmp_path: Path) -> None:
    cache = tmp_path / "verdicts.sqlite"
    proc = subprocess.Popen(_build_cmd(tmp_path / "killed", cache), start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while _rows(cache) < 60 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = _rows(cache)
    assert before >= 60, "the build should have verified some candidates before being killed"
    assert not (tmp_path / "killed" / "manifest.json").exists()
    done = subprocess.run(_build_cmd(tmp_path / "resumed", cache), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "resumed" / "build_report.json").read_text())
    assert report["oracle"]["runs_cached"] >= before  # every verdict stored before the kill was reused
    after = _rows(cache)
    assert report["oracle"]["runs_executed"] == after - before  # only the missing work was executed
    again = subprocess.run(_build_cmd(tmp_path / "warm", cache), capture_output=True, text=True, timeout=300)
    assert again.returncode == 0
    warm = json.loads((tmp_path / "warm" / "build_report.json").read_text())
    assert warm["oracle"]["runs_executed"] == 0
    resumed, warm_files = _files(tmp_path / "resumed"), _files(tmp_path / "warm")
    assert "t2c-description/corpus.jsonl" in resumed and set(resumed) == set(warm_files)
    for name, data in resumed.items():  # every folder of the resumed build equals the warm rebuild
        assert warm_files[name] == data, name


def _files(root: Path) -> dict[str, bytes]:
    """Every file of a build's output by relative path, except the build report (timing, not content)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != "build_report.json"}
