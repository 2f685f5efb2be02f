"""The warm trusted runner for PHP (record and judge runs outside the sandbox, fd 3 on one shared
channel pipe): the same evidence as a sandbox run, its budgets and cap, a lost runner, plans it does
not take, requests it declines, and nothing left behind."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig, decide, split
from execir.execute.attacks.adversarial_php import OK, TESTS, WRONG
from execir.execute.runtimes import runtime
from execir.execute.runtimes.base import Plan
from execir.execute.sandbox.trusted_runner import TrustedRunner, TrustedSpec
from execir.types import Verdict

pytestmark = pytest.mark.skipif(shutil.which("php") is None, reason="php not installed")

LIMITS = split.trusted_limits(Limits(1.0, 4.0))
NONCE = "cd" * 16


@pytest.fixture(scope="module")
def php():
    found = runtime("php")
    toolchain = found.discover()
    if not found.trusted_specs(toolchain):
        pytest.skip("php has no posix extension here")
    return found, toolchain


@pytest.fixture
def runner(php):
    rt, toolchain = php
    running = TrustedRunner(rt.trusted_specs(toolchain)[0], None)
    yield running
    running.stop()


def driver(php, body: str) -> Plan:
    rt, toolchain = php
    return Plan({"main.php": "<?php\n" + body}, (*rt.command(toolchain), "main.php"))


def write3(text: str) -> str:
    return f"fwrite(fopen('php://fd/3', 'w'), {text});\n"


@pytest.fixture(scope="module")
def sandbox():
    """A sandbox run of a plan (the evidence the warm runner must equal)."""
    with Oracle(OracleConfig(workers=1, progress=False)) as oracle:
        oracle.start()
        yield lambda plan, cap, limits=LIMITS: oracle.slots[0].run_exec(limits, plan, "", NONCE, judged_stdout=False, channel_cap=cap)


def test_a_record_and_a_judge_are_the_same_evidence_as_in_the_sandbox(php, runner, sandbox):
    rt, toolchain = php
    record = rt.record_plan(toolchain, OK, TESTS.code, "add")
    warm, cold = runner.run(record, LIMITS, NONCE, split.RECORD_CAP), sandbox(record, split.RECORD_CAP)
    assert warm is not None and warm.completion == cold.completion and warm.exit_code == cold.exit_code == 0
    calls = decide.parse_recording(warm)
    assert calls == decide.parse_recording(cold) and calls is not None and len(calls) == 3
    text = "".join(line + "\n" for line in calls)
    for results in ('{"ok":5}\n{"ok":0}\n{"ok":15}\n', '{"ok":5}\n{"ok":1}\n{"ok":15}\n', '{"ok":5}\n'):
        judge = rt.judge_plan(toolchain, OK, TESTS.code, "add", text, results)
        warm, cold = runner.run(judge, LIMITS, NONCE, split.RECORD_CAP), sandbox(judge, split.RECORD_CAP)
        assert warm is not None and (warm.completion, warm.exit_code, warm.timeout) == (cold.completion, cold.exit_code, cold.timeout)


def test_globals_argv_and_the_environment_are_those_of_a_script(php, runner):
    seen = "f() . '|' . implode(',', $argv) . '|' . $argc . '|' . getenv('EXECIR_NONCE') . '|' . (getenv('HOME') === false ? 'no' : 'yes')"
    seen += " . '|' . ini_get('open_basedir') . '|' . var_export(stream_get_contents(fopen('php://stdin', 'r')), true)"
    body = "$g = 1;\nfunction f() { global $g; return $g; }\n" + write3(seen)
    plan = driver(php, body)
    ran = runner.run(Plan(plan.files, (*plan.run, "x", "y")), LIMITS, NONCE, 1000)
    assert ran is not None and ran.completion.decode().split("|") == ["1", "main.php,x,y", "3", NONCE, "no", ".", "''"]


ENDINGS = (
    write3("'ran to the end'"),
    write3("'x'") + "exit(7);\n",
    "define('EXECIR_EXIT_STATUS', 3);\n" + write3("'need'") + "exit(3);\n",
    "register_shutdown_function(function () { " + write3("'shutdown'") + " });\ndefine('EXECIR_EXIT_STATUS', 0);\nexit(0);\n",
    "throw new RuntimeException('no');\n",
    write3("'before'") + "undefined_function();\n",
    "file_put_contents('bad.php', '<?php function (');\nrequire 'bad.php';\n",
    "function f() { return f(); }\nf();\n",
    "trigger_error('user', E_USER_ERROR);\n",
    "echo 'out';\nfwrite(STDERR, 'err');\n" + write3("'quiet'"),
)
"""How a script ends: at its end, by exit (with and without the harness's EXECIR_EXIT_STATUS), from a
shutdown function, by an uncaught exception, a fatal error, a parse error, a stack overflow."""


def test_every_ending_has_the_status_and_channel_of_a_sandbox_run(php, runner, sandbox):
    for body in ENDINGS:
        plan = driver(php, body)
        warm, cold = runner.run(plan, LIMITS, NONCE, 1000), sandbox(plan, 1000)
        assert warm is not None and (warm.exit_code, warm.completion) == (cold.exit_code, cold.completion), body
    assert runner.restarts == 0


def test_budgets_the_cap_and_the_exit_status(php, runner):
    busy = runner.run(driver(php, "while (true) {}\n"), Limits(0.3, 10.0), NONCE, 100)
    assert busy is not None and busy.timeout == "cpu" and busy.exit_code is not None and busy.exit_code < 0
    assert runner.cpu_seconds() >= busy.cpu - 0.05  # the runner's figure holds the runs it reaped
    asleep = runner.run(driver(php, "sleep(30);\n"), Limits(0.3, 0.6), NONCE, 100)
    assert asleep is not None and asleep.timeout == "wall" and asleep.wall < 3.0
    flood = runner.run(driver(php, "$o = fopen('php://fd/3', 'w');\nwhile (true) { fwrite($o, str_repeat('x', 4096)); }\n"), Limits(2.0, 5.0), NONCE, 10_000)
    assert flood is not None and flood.capped and len(flood.completion) <= 10_001
    status = runner.run(driver(php, write3("getenv('EXECIR_NONCE')") + "exit(7);\n"), LIMITS, NONCE, 100)
    assert status is not None and status.exit_code == 7 and status.completion == NONCE.encode()
    thrown = runner.run(driver(php, "throw new Exception('no');\n"), LIMITS, NONCE, 100)
    assert thrown is not None and thrown.exit_code == 255 and thrown.completion == b""
    hog = runner.run(driver(php, "$x = str_repeat('y', 2 << 30);\n" + write3("'done'")), Limits(2.0, 5.0, memory_mb=256), NONCE, 100)
    assert hog is not None and hog.exit_code != 0 and hog.completion == b""
    opens = "$k = [];\nfor ($i = 0; $i < 100; $i++) { $k[] = @fopen('main.php', 'r'); }\n$n = count(array_filter($k));\n$k = [];\n"
    files = runner.run(driver(php, opens + write3("(string) $n")), Limits(1.0, 4.0, nofile=30), NONCE, 100)
    assert files is not None and files.completion.isdigit() and int(files.completion) < 30


def test_every_run_gets_a_fresh_directory_and_nothing_is_left(php, runner):
    listing = "implode(',', array_values(array_diff(scandir('.'), ['.', '..'])))"
    first = runner.run(driver(php, "file_put_contents('left.txt', 'x');\n" + write3(listing)), LIMITS, NONCE, 100)
    second = runner.run(driver(php, write3(listing) + "@file_get_contents('../' . basename(getcwd()) . '/main.php');\n"), LIMITS, NONCE, 100)
    outside = runner.run(driver(php, write3("var_export(@file_get_contents('/etc/hostname'), true)")), LIMITS, NONCE, 100)
    assert first is not None and second is not None and outside is not None
    assert first.completion == b"left.txt,main.php" and second.completion == b"main.php" and outside.completion == b"false"
    root = runner.root
    assert os.listdir(root) == []
    runner.stop()
    assert not os.path.exists(root)


def test_a_lost_runner_is_undecided_and_restarted(php, runner):
    lost = runner.run(driver(php, "posix_kill(posix_getppid(), 9);\nsleep(5);\n"), LIMITS, NONCE, 100)
    assert lost is not None and lost.server_lost and runner.restarts == 1
    again = runner.run(driver(php, write3("'ok'")), LIMITS, NONCE, 100)
    assert again is not None and again.completion == b"ok" and not again.server_lost


def test_plans_of_another_shape_and_unreadable_requests_stay_in_the_sandbox(php, runner):
    rt, toolchain = php
    compiled = Plan({"p.php": ""}, (*rt.command(toolchain), "p.php"), ("/bin/true",))
    other = Plan({"p.php": ""}, (toolchain.paths["php"], "p.php"))
    assert runner.run(compiled, LIMITS, NONCE, 100) is None and runner.run(other, LIMITS, NONCE, 100) is None
    surrogate = driver(php, "// \udcff\n" + write3("'ok'"))
    assert runner.run(surrogate, LIMITS, NONCE, 100) is None and runner.restarts == 0
    again = runner.run(driver(php, write3("'ok'")), LIMITS, NONCE, 100)
    assert again is not None and again.completion == b"ok"


SYNTAX_CASES = (
    OK,
    "<?php\nfunction add($a, $b) {\n    return $a +;\n}\n",
    "<?php\nfunction add($a, $b) { break; }\n",
    "<?php\nfunction add($a, $b) { return 1; }\nfunction add($a, $b) { return 2; }\n",
    "<?php\nfunction strlen($s) { return 0; }\n",
    "<?php\nfunction mb_strlen($s) { return 0; }\nclass ExecIRTrusted {}\n",
    "<?php\nfwrite(fopen('php://fd/3', 'w'), 'ran');\nexit(0);\nfunction add($a, $b) { return $a + $b; }\n",
    "<?php\n__halt_compiler(); anything { here",
    "<?php\nclass A { public function f() { $this = 1; } }\n",
)
"""Programs ``php -l`` accepts or refuses: parse errors, compile-time fatal errors, names of internal
functions (``php -l`` loads no extension), and top-level code that must never run."""


def test_the_syntax_check_decides_as_php_l_in_the_runner_and_in_the_sandbox(php, tmp_path, sandbox):
    rt, toolchain = php
    specs = rt.trusted_specs(toolchain)
    if len(specs) < 2:
        pytest.skip("php has no OPcache here")
    syntax = TrustedRunner(specs[1], None)
    budget = Limits(1.0, 4.0)
    try:
        for program in SYNTAX_CASES:
            plan = rt.syntax_plan(toolchain, program)
            assert plan is not None and not specs[0].takes(plan) and specs[1].takes(plan)
            warm, cold = syntax.run(plan, budget, NONCE, 1 << 16), sandbox(plan, 1 << 16, budget)
            (tmp_path / "program.php").write_text(program)
            lint = subprocess.run([toolchain.paths["php"], "-n", "-l", "program.php"], cwd=tmp_path, capture_output=True, text=True)
            assert warm is not None and (warm.exit_code, warm.completion) == (cold.exit_code, cold.completion), program
            assert (decide.decide_syntax(warm) is None) == (lint.returncode == 0), program
            if lint.returncode:
                assert decide.decide_syntax(warm).verdict is Verdict.ERROR and lint.stdout.strip().splitlines()[0] in warm.completion.decode(), program
        assert syntax.restarts == 0
    finally:
        syntax.stop()


def test_verdicts_through_the_oracle():
    jobs = [
        Job(text, TESTS, "add", Limits(1.0, 4.0), reference=OK, language="php")
        for text in (OK, WRONG, "<?php\nfunction add($a, $b) {\n    return $a +;\n}\n", "<?php\nfunction add($a, $b) { while (true) {} }\n")
    ]
    with Oracle(OracleConfig(workers=1, progress=False)) as oracle:
        verdicts = [r.verdict for r in oracle.run(jobs)]
        lost = sum(runner.restarts for slot in oracle.slots for runner in slot.trusted.values())
        warm = sum(runner.process is not None for slot in oracle.slots for runner in slot.trusted.values())
    assert verdicts == [Verdict.PASS, Verdict.FAIL, Verdict.ERROR, Verdict.TIMEOUT] and lost == 0 and warm == 2


def test_a_runner_that_cannot_start_leaves_the_plan_to_the_sandbox(php):
    rt, toolchain = php
    spec = rt.trusted_specs(toolchain)[0]
    broken = TrustedRunner(TrustedSpec(("/bin/false",), spec.prefix, channel="pipe"), None)
    try:
        assert broken.run(driver(php, write3("'ok'")), LIMITS, NONCE, 100) is None
        assert broken.process is None and broken.root == ""
    finally:
        broken.stop()
