"""The oracle end to end, through the real sandbox."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from execir.execute import ExecResult, Job, Limits, Oracle, OracleConfig
from execir.execute.sandbox import hostcheck, isolation
from execir.types import StdioCase, TestSuite, Verdict

from .conftest import FAST

CHECK = TestSuite("check", "def check(candidate):\n    assert candidate([3, 1, 2]) == [1, 2, 3]\n    assert candidate([]) == []\n")
GOOD = "def sort_list(xs):\n    return sorted(xs)\n"
BAD = "def sort_list(xs):\n    return xs\n"


def job(program: str, tests: TestSuite = CHECK, entry: str = "sort_list", limits: Limits = FAST, reference: str = "") -> Job:
    return Job(program, tests, entry, limits, reference=reference)


def test_pass_fail_error_and_order(oracle):
    results = oracle.run([job(GOOD), job(BAD), job("def sort_list(xs)\n"), job("x = 1\n")])
    # a syntax error is found outside the sandbox (ERROR); a missing entry point is the candidate's
    # own report from inside it, which it could forge, so it is an ordinary FAIL
    assert [r.verdict for r in results] == [Verdict.PASS, Verdict.FAIL, Verdict.ERROR, Verdict.FAIL]
    assert all(isinstance(r, ExecResult) and not r.cached for r in results)
    assert results[0].per_test == (True,)
    assert {r.isolation for r in results} == {oracle.isolation}
    assert oracle.level == isolation.available_levels()[0]  # the strongest level this machine offers


def test_forged_load_error_is_not_an_error_verdict(oracle):
    forger = (
        "import os, sys, socket\nsys.modules['frames'].send(socket.socket(fileno=3), {'op': 'load_error', 'reason': 'compile: SyntaxError'})\nos._exit(0)\n"
    )
    (result,) = oracle.run([job(forger)])
    assert result.verdict is Verdict.FAIL, result


def test_broken_test_code_is_undecided_never_a_label(oracle, tmp_path):
    broken = TestSuite("check", "def check(candidate):\n    assert candidate([1]) == [1]\nundefined_helper()\n")
    results = oracle.run([job(GOOD, broken), job(BAD, broken)])
    assert [r.verdict for r in results] == [Verdict.UNDECIDED, Verdict.UNDECIDED]
    assert not results[0].verdict.is_label and oracle.reliability()["undecided"] >= 2


def test_unencodable_failure_text_cannot_break_a_batch(tmp_path):
    """A lone surrogate or terminal escapes in a failure message: the batch completes, the cache
    stores the verdict, and the detail prints safely."""
    hostile = "def sort_list(xs):\n    raise ValueError('\\udcff \\x1b[2K\\rPASS')\n"
    with Oracle(OracleConfig(workers=1, cache_path=tmp_path / "v.sqlite", progress=False)) as first:
        results = first.run([job(hostile), job(GOOD)])
    assert [r.verdict for r in results] == [Verdict.FAIL, Verdict.PASS]
    assert "\x1b" not in results[0].detail and "\r" not in results[0].detail
    with Oracle(OracleConfig(workers=1, cache_path=tmp_path / "v.sqlite", progress=False)) as second:
        again = second.run([job(hostile), job(GOOD)])
    assert [r.cached for r in again] == [True, True] and again[0].verdict is Verdict.FAIL


@pytest.mark.parametrize(
    "program",
    [
        "class Y(list):\n    def __eq__(self, o):\n        return True\ndef sort_list(xs):\n    return Y()\n",
        "import sys\ndef sort_list(xs):\n    sys.exit(0)\n",
        "import os\nos._exit(0)\n",
        "import builtins\nbuiltins.AssertionError = KeyError\ndef sort_list(xs):\n    return xs\n",
        "print('PASS')\ndef sort_list(xs):\n    print('ALL TESTS PASSED')\n    return xs\n",
    ],
)
def test_fake_pass_tricks_fail(oracle, program):
    (result,) = oracle.run([job(program)])
    # an always-equal object of the candidate's own class cannot cross the proxy: no label at all
    assert result.verdict in (Verdict.FAIL, Verdict.ERROR, Verdict.UNDECIDED), result
    assert result.verdict is not Verdict.UNDECIDED or "cannot cross" in result.detail


def test_infinite_loop_times_out_on_cpu(oracle):
    limits = Limits(cpu_seconds=0.3, wall_seconds=3.0)
    (result,) = oracle.run([job("def sort_list(xs):\n    while True:\n        pass\n", limits=limits)])
    assert result.verdict is Verdict.TIMEOUT
    assert 0.3 <= result.seconds < 1.0


def test_no_child_process_survives(oracle):
    daemon = textwrap.dedent(
        """
        import os, time
        def sort_list(xs):
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    signal_ignored = __import__('signal').signal(15, 1)
                    while True:
                        time.sleep(0.01)
                os._exit(0)
            return sorted(xs)
        """
    )
    results = oracle.run([job(daemon), job(daemon + "#2\n")])
    assert {r.verdict for r in results} == {Verdict.PASS}  # correct answers; the daemon is swept
    uids = set(oracle.uids)
    baseline = {pid for slot in oracle.slots for pid in slot.baseline}
    assert [p for p in hostcheck.processes(uids) if p not in baseline] == []
    assert oracle.reliability()["surviving_processes"] == 0


def test_no_file_outlives_its_run():
    """A file left in any writable directory (work dir, /tmp, /dev/shm) is gone for the next run."""
    writer = textwrap.dedent(
        """
        import os
        def sort_list(xs):
            for path in ("left", "/tmp/left", "/dev/shm/left", os.path.expanduser("~/left")):
                try:
                    open(path, "w").write("x")
                except OSError:
                    pass
            return sorted(xs)
        """
    )
    reader = textwrap.dedent(
        """
        import os
        def sort_list(xs):
            seen = [p for p in ("left", "/tmp/left", "/dev/shm/left", os.path.expanduser("~/left")) if os.path.exists(p)]
            return sorted(xs) if not seen else seen
        """
    )
    with Oracle(OracleConfig(workers=1, progress=False)) as one:
        results = one.run([job(writer), job(reader), job(writer + "# 2\n"), job(reader + "# 2\n")])
    assert [r.verdict for r in results] == [Verdict.PASS] * 4, results


def test_oracle_survives_candidate_killing_its_parent(oracle):
    killer = "import os, signal\ndef sort_list(xs):\n    os.kill(os.getppid(), signal.SIGKILL)\n    os.kill(1, signal.SIGKILL)\n    return sorted(xs)\n"
    results = oracle.run([job(killer), job(GOOD + "# after killer\n"), job(BAD + "# after killer\n")])
    assert [r.verdict for r in results][1:] == [Verdict.PASS, Verdict.FAIL]


def test_helpers_come_from_the_reference(oracle):
    reference = "def encode(s):\n    return s[::-1]\ndef decode(s):\n    return s[::-1]\n"
    tests = TestSuite("check", "def check(candidate):\n    assert candidate(encode('abc')) == 'abc'\n")
    results = oracle.run([job(reference, tests, "decode", reference=reference), job("def decode(s):\n    return s\n", tests, "decode", reference=reference)])
    assert [r.verdict for r in results] == [Verdict.PASS, Verdict.FAIL]


def test_mbpp_asserts_suite_gives_per_test_outcomes(oracle):
    tests = TestSuite("asserts", code="import math\n", asserts=("assert f(2) == 4", "assert f(3) == 9", "assert math.isclose(f(0.5), 0.25)"))
    right, half = oracle.run([job("def f(x):\n    return x * x\n", tests, "f"), job("def f(x):\n    return 4 if x == 2 else x\n", tests, "f")])
    assert right.verdict is Verdict.PASS and right.per_test == (True, True, True)
    assert half.verdict is Verdict.FAIL and half.per_test == (True, False, False)


def test_stdio_suite(oracle):
    tests = TestSuite("stdio", stdio_cases=(StdioCase("1 2\n", "3\n"), StdioCase("5 5\n", "10\n")))
    good = "a, b = map(int, input().split())\nprint(a + b)\n"
    results = oracle.run([job(good, tests, ""), job("print(3)\n", tests, ""), job("print(\n", tests, "")])
    assert [r.verdict for r in results] == [Verdict.PASS, Verdict.FAIL, Verdict.ERROR]
    assert results[2].seconds == 0.0  # a program that does not compile is never run
    assert results[0].per_test == (True, True)
    assert results[1].per_test == (True, False)


def test_admit_canonical_derives_limits(oracle):
    adm = oracle.admit_canonical(GOOD, CHECK, "sort_list", repeats=3)
    assert adm.ok and len(adm.results) == 3 and adm.reason == ""
    assert adm.limits == Limits.from_canonical(adm.cpu_seconds)
    bad = oracle.admit_canonical(BAD, CHECK, "sort_list", repeats=2)
    assert not bad.ok and bad.reason.startswith("FAIL")


def test_cache_hit_on_second_run(tmp_path):
    config = OracleConfig(workers=1, cache_path=tmp_path / "v.sqlite", progress=False)
    jobs = [job(GOOD), job(BAD)]
    with Oracle(config) as first:
        assert [r.cached for r in first.run(jobs)] == [False, False]
    with Oracle(config) as second:
        results = second.run(jobs)
        assert [r.cached for r in results] == [True, True]
        assert [r.verdict for r in results] == [Verdict.PASS, Verdict.FAIL]
        assert second.reliability()["runs_executed"] == 0


KILL_SCRIPT = """
import sys
from pathlib import Path
from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.types import TestSuite
tests = TestSuite("check", "def check(candidate):\\n    assert candidate(1) == 2\\n")
jobs = [Job(f"def f(x):\\n    return x + 1  # {i}\\n", tests, "f", Limits(1.0, 3.0)) for i in range(int(sys.argv[2]))]
jobs.append(Job("import time\\ndef f(x):\\n    time.sleep(60)\\n", tests, "f", Limits(50.0, 60.0)))
with Oracle(OracleConfig(workers=1, cache_path=Path(sys.argv[1]), progress=False)) as oracle:
    results = oracle.run(jobs)
    print(oracle.reliability()["runs_executed"], oracle.reliability()["runs_cached"])
"""


def test_killed_build_resumes_without_re_executing(tmp_path):
    cache = tmp_path / "v.sqlite"
    script = tmp_path / "build.py"
    script.write_text(KILL_SCRIPT)
    proc = subprocess.Popen([sys.executable, str(script), str(cache), "6"], stdout=subprocess.PIPE, text=True)
    import sqlite3
    import time

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if cache.exists():
            with sqlite3.connect(cache) as db:
                try:
                    if db.execute("SELECT COUNT(*) FROM verdicts4").fetchone()[0] >= 6:
                        break
                except sqlite3.OperationalError:
                    pass
    proc.kill()
    proc.wait()
    with sqlite3.connect(cache) as db:
        done = db.execute("SELECT COUNT(*) FROM verdicts4").fetchone()[0]
    assert done == 6  # the six quick jobs were committed as they finished; the sleeper was not
    rerun = subprocess.run([sys.executable, "-c", KILL_SCRIPT.replace("jobs.append", "pass  #"), str(cache), "6"], capture_output=True, text=True, timeout=60)
    assert rerun.stdout.split() == ["0", "6"], rerun.stderr


def test_unknown_isolation_is_a_user_error():
    from execir.errors import ExecIRError

    with pytest.raises(ExecIRError):
        Oracle(OracleConfig(isolation="docker"))


def test_stdio_input_over_the_frame_limit_is_streamed(oracle):
    """stdin travels as a sealed memfd, never in a frame: an input over the frame limit is judged."""
    from execir.execute.harness.frames import MAX_FRAME

    big = "7\n" + "x" * (MAX_FRAME + (1 << 20)) + "\n"
    tests = TestSuite("stdio", stdio_cases=(StdioCase(big, "14\n"),))
    good = "import sys\nprint(int(sys.stdin.buffer.read().split()[0]) * 2)\n"
    writes = "import os, sys\ntry:\n    os.write(0, b'9')\nexcept OSError:\n    pass\nsys.stdin.seek(0)\nprint(int(sys.stdin.read().split()[0]) * 2)\n"
    results = oracle.run([job(good, tests, ""), job(writes, tests, "")])
    assert [r.verdict for r in results] == [Verdict.PASS, Verdict.PASS], results


def test_request_over_the_frame_limit_fails_only_that_job(oracle):
    from execir.execute.harness.frames import MAX_FRAME

    tests = TestSuite("stdio", stdio_cases=(StdioCase("1 2\n", "3\n"),))
    good = "a, b = map(int, input().split())\nprint(a + b)\n"
    huge = good + "#" + "x" * MAX_FRAME + "\n"
    results = oracle.run([job(good, tests, ""), job(huge, tests, ""), job(good, tests, "")])
    assert [r.verdict for r in results] == [Verdict.PASS, Verdict.UNDECIDED, Verdict.PASS]
    assert "too large for the sandbox" in results[1].detail
