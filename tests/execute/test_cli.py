"""``execir exec --json`` and ``execir selftest`` through the installed entry point."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXECIR = Path(sys.executable).with_name("execir")


def _execir(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    exe = str(EXECIR) if EXECIR.exists() else shutil.which("execir")
    if exe is None:
        pytest.skip("execir entry point not installed (pip install -e .)")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout)


def test_exec_json_pass_and_fail(tmp_path):
    (tmp_path / "good.py").write_text("def add(a, b):\n    return a + b\n")
    (tmp_path / "bad.py").write_text("def add(a, b):\n    return a * b\n")
    (tmp_path / "t.py").write_text("def check(candidate):\n    assert candidate(2, 3) == 5\n")
    good = _execir("exec", "--program", str(tmp_path / "good.py"), "--tests", str(tmp_path / "t.py"), "--entry-point", "add", "--json")
    assert good.returncode == 0, good.stderr
    record = json.loads(good.stdout)
    assert record["verdict"] == "PASS" and record["per_test"] == [True]
    assert {"seconds", "isolation"} <= set(record)
    bad = _execir("exec", "--program", str(tmp_path / "bad.py"), "--tests", str(tmp_path / "t.py"), "--entry-point", "add", "--json")
    assert bad.returncode == 1 and json.loads(bad.stdout)["verdict"] == "FAIL"


def test_exec_stdio_cases(tmp_path):
    (tmp_path / "p.py").write_text("print(int(input()) * 2)\n")
    (tmp_path / "cases.json").write_text(json.dumps([{"input": "2\n", "output": "4\n"}, {"input": "5\n", "output": "10\n"}]))
    out = _execir(
        "exec", "--program", str(tmp_path / "p.py"), "--stdio-cases", str(tmp_path / "cases.json"), "--entry-point", "main", "--json", "--cpu-seconds", "2"
    )
    assert json.loads(out.stdout)["verdict"] == "PASS", out.stderr


def test_exec_user_errors(tmp_path):
    out = _execir("exec", "--program", str(tmp_path / "missing.py"), "--tests", str(tmp_path / "t.py"), "--entry-point", "f")
    assert out.returncode == 2 and "execir: error" in out.stderr


@pytest.mark.slow
def test_selftest_json():
    out = _execir("selftest", "--json", timeout=300)
    figures = json.loads(out.stdout)
    assert figures["false_pass"] == 0 and figures["mislabels"] == 0 and out.returncode == 0


def test_stdio_cases_need_no_entry_point(tmp_path):
    import json
    import subprocess
    import sys

    program = tmp_path / "p.py"
    program.write_text("import sys\nprint(int(sys.stdin.read()) * 2)\n")
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([{"input": "3\n", "output": "6\n"}, {"input": "5", "output": "10"}]))
    done = subprocess.run(
        [sys.executable, "-m", "execir.cli", "exec", "--program", str(program), "--stdio-cases", str(cases), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verdict"] == "PASS" and json.loads(done.stdout)["per_test"] == [True, True]
