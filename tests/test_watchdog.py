"""The test-run watchdog (tests/watchdog.py) names a blocked test and ends the run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

BLOCKED = """
import subprocess, time

def test_quick():
    pass

def test_blocked():
    subprocess.Popen(["sleep", "300"])
    time.sleep(300)

def test_never_reached():
    pass
"""


def test_a_blocked_test_is_named_with_its_processes_and_the_run_ends(tmp_path: Path) -> None:
    (tmp_path / "test_blocked_run.py").write_text(BLOCKED)
    env = dict(os.environ, PYTHONPATH=str(REPO), EXECIR_TEST_WATCHDOG_S="2", EXECIR_TEST_WATCHDOG_END_S="2")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.watchdog", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert "test_blocked_run.py::test_blocked has run" in done.stdout and "in test_blocked" in done.stdout  # its stack
    assert "sleep 300" in done.stdout  # the process it started, named
    assert "test_blocked_run.py::test_blocked still ran after" in lines[-1]
    assert "test_never_reached" not in done.stdout
    survivors = subprocess.run(["pgrep", "-f", "^sleep 300$"], capture_output=True, text=True).stdout.split()
    assert not survivors, f"the blocked test's process outlived the run: {survivors}"
