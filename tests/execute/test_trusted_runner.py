"""The warm trusted runner (Ruby's record, judge and syntax-check runs outside the sandbox): the
same evidence as a sandbox run, its budgets and cap, a lost runner, plans it does not take, and
nothing left behind."""

from __future__ import annotations

import os
import shutil

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig, decide, split
from execir.execute.attacks.adversarial_ruby import OK, TESTS, WRONG
from execir.execute.runtimes import runtime
from execir.execute.runtimes.base import Plan
from execir.execute.sandbox.trusted_runner import TrustedRunner, TrustedSpec
from execir.types import Verdict

pytestmark = pytest.mark.skipif(shutil.which("ruby") is None, reason="ruby not installed")

LIMITS = split.trusted_limits(Limits(1.0, 4.0))
REFERENCE = OK
NONCE = "cd" * 16


@pytest.fixture(scope="module")
def ruby():
    found = runtime("ruby")
    return found, found.discover()


@pytest.fixture
def runner(ruby):
    rt, toolchain = ruby
    running = TrustedRunner(rt.trusted_specs(toolchain)[0], None)
    yield running
    running.stop()


def driver(ruby, body: str) -> Plan:
    rt, toolchain = ruby
    return Plan({"main.rb": body}, (toolchain.paths["ruby"], "--disable-gems", "main.rb"), (), {"LANG": "C.UTF-8"})


def test_a_record_is_the_same_evidence_as_in_the_sandbox(ruby, runner):
    rt, toolchain = ruby
    plan = rt.record_plan(toolchain, REFERENCE, TESTS.code, "add")
    warm = runner.run(plan, LIMITS, NONCE, split.RECORD_CAP)
    with Oracle(OracleConfig(workers=1, progress=False)) as oracle:
        oracle.start()
        cold = oracle.slots[0].run_exec(LIMITS, plan, "", NONCE, judged_stdout=False, channel_cap=split.RECORD_CAP)
    assert warm is not None and warm.completion == cold.completion and warm.exit_code == cold.exit_code == 0
    assert decide.parse_recording(warm) == decide.parse_recording(cold) != None  # noqa: E711


def test_budgets_the_cap_and_the_exit_status(ruby, runner):
    busy = runner.run(driver(ruby, "loop {}\n"), Limits(0.3, 10.0), NONCE, 100)
    assert busy is not None and busy.timeout == "cpu" and busy.exit_code is not None and busy.exit_code < 0
    asleep = runner.run(driver(ruby, "sleep 30\n"), Limits(0.3, 0.6), NONCE, 100)
    assert asleep is not None and asleep.timeout == "wall"
    flood = runner.run(driver(ruby, "o = IO.for_fd(3)\nloop { o.syswrite('x' * 4096) }\n"), Limits(2.0, 5.0), NONCE, 10_000)
    assert flood is not None and flood.capped and len(flood.completion) <= 10_001
    status = runner.run(driver(ruby, "IO.for_fd(3).syswrite(ENV['EXECIR_NONCE'])\nexit!(7)\n"), LIMITS, NONCE, 100)
    assert status is not None and status.exit_code == 7 and status.completion == NONCE.encode()
    hog = runner.run(driver(ruby, "x = 'y' * (2 << 30)\nIO.for_fd(3).syswrite('done')\n"), Limits(2.0, 5.0, memory_mb=256), NONCE, 100)
    assert hog is not None and hog.exit_code != 0 and hog.completion == b""


def test_every_run_gets_a_fresh_directory_and_nothing_is_left(ruby, runner):
    first = runner.run(driver(ruby, "File.write('left.txt', 'x')\nIO.for_fd(3).syswrite(Dir.children('.').sort.join(','))\n"), LIMITS, NONCE, 100)
    second = runner.run(driver(ruby, "IO.for_fd(3).syswrite(Dir.children('.').sort.join(','))\n"), LIMITS, NONCE, 100)
    assert first is not None and second is not None
    assert first.completion == b"left.txt,main.rb" and second.completion == b"main.rb"
    root = runner.root
    assert os.listdir(root) == []
    runner.stop()
    assert not os.path.exists(root)


def test_a_lost_runner_is_undecided_and_restarted(ruby, runner):
    lost = runner.run(driver(ruby, "Process.kill(:KILL, Process.ppid)\nsleep 5\n"), LIMITS, NONCE, 100)
    assert lost is not None and lost.server_lost and runner.restarts == 1
    again = runner.run(driver(ruby, "IO.for_fd(3).syswrite('ok')\n"), LIMITS, NONCE, 100)
    assert again is not None and again.completion == b"ok" and not again.server_lost


def test_plans_of_another_shape_stay_in_the_sandbox(ruby, runner):
    rt, toolchain = ruby
    compiled = Plan({"p.rb": ""}, (toolchain.paths["ruby"], "--disable-gems", "p.rb"), ("/bin/true",), {})
    other = Plan({"p.rb": ""}, (toolchain.paths["ruby"], "p.rb"), (), {})
    assert runner.run(compiled, LIMITS, NONCE, 100) is None and runner.run(other, LIMITS, NONCE, 100) is None


def test_syntax_errors_are_error_before_any_calls_run():
    jobs = [
        Job(text, TESTS, "add", Limits(1.0, 4.0), reference=REFERENCE, language="ruby")
        for text in (OK, WRONG, "def add(a, b)\n  a +\nend end\n", "BEGIN { exit! 0 }\ndef add(a, b) = a + b +\n")
    ]
    with Oracle(OracleConfig(workers=1, progress=False)) as oracle:
        verdicts = [r.verdict for r in oracle.run(jobs)]
    assert verdicts == [Verdict.PASS, Verdict.FAIL, Verdict.ERROR, Verdict.ERROR]


def test_a_runner_that_cannot_start_leaves_the_plan_to_the_sandbox(ruby):
    rt, toolchain = ruby
    spec = rt.trusted_specs(toolchain)[0]
    broken = TrustedRunner(TrustedSpec(("/bin/false",), spec.prefix), None)
    try:
        assert broken.run(driver(ruby, "IO.for_fd(3).syswrite('ok')\n"), LIMITS, NONCE, 100) is None
        assert broken.process is None and broken.root == ""
    finally:
        broken.stop()
