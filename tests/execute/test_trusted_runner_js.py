"""The warm trusted Node runner (JavaScript's and TypeScript's record and judge runs outside the
sandbox, each in a fresh V8 context): the same evidence as a sandbox run, its budgets and cap,
async endings, a lost runner, plans it does not take, requests it declines, and nothing left behind."""

from __future__ import annotations

import os
import shutil

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig, decide, split
from execir.execute.attacks import adversarial_ts
from execir.execute.attacks.adversarial_js import ASSERT_TESTS, OK, TESTS, WRONG
from execir.execute.runtimes import js_split, runtime
from execir.execute.runtimes.base import Plan
from execir.execute.sandbox.trusted_runner import TrustedRunner, TrustedSpec
from execir.types import Verdict

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")

LIMITS = split.trusted_limits(Limits(1.0, 4.0))
NONCE = "cd" * 16


@pytest.fixture(scope="module")
def js():
    found = runtime("js")
    return found, found.discover()


@pytest.fixture
def runner(js):
    rt, toolchain = js
    running = TrustedRunner(rt.trusted_specs(toolchain)[0], None)
    yield running
    running.stop()


def driver(js, body: str, script: str = js_split.RECORDER_NAME) -> Plan:
    """A plan of the runner's shape whose driver is ``body`` (a CommonJS script)."""
    rt, toolchain = js
    return Plan({script: body}, (toolchain.paths["node"], script, "x"))


def write3(text: str) -> str:
    return f"require('fs').writeSync(3, {text});\n"


@pytest.fixture(scope="module")
def sandbox():
    """A sandbox run of a plan (the evidence the warm runner must equal)."""
    with Oracle(OracleConfig(workers=1, progress=False)) as oracle:
        oracle.start()
        yield lambda plan, cap, limits=LIMITS: oracle.slots[0].run_exec(limits, plan, "", NONCE, judged_stdout=False, channel_cap=cap)


def same(warm, cold) -> bool:
    return warm is not None and (warm.completion, warm.exit_code, warm.timeout, warm.capped) == (cold.completion, cold.exit_code, cold.timeout, cold.capped)


@pytest.mark.parametrize("tests", [TESTS, ASSERT_TESTS], ids=["console.assert", "require-assert"])
def test_a_record_and_a_judge_are_the_same_evidence_as_in_the_sandbox(js, runner, sandbox, tests):
    rt, toolchain = js
    record = rt.record_plan(toolchain, OK, tests.code, "add")
    warm, cold = runner.run(record, LIMITS, NONCE, split.RECORD_CAP), sandbox(record, split.RECORD_CAP)
    assert same(warm, cold) and warm.exit_code == 0
    calls = decide.parse_recording(warm)
    assert calls == decide.parse_recording(cold) and calls is not None and len(calls) >= 2
    text = "".join(line + "\n" for line in calls)
    answers = [decide.results_text(cold)]
    for results in ('{"ok":5}\n{"ok":0}\n{"ok":15}\n', '{"ok":5}\n{"ok":2}\n{"ok":15}\n', '{"ok":5}\n', '{"ok":[5]}\n{"raised":"TypeError"}\n', "no json\n"):
        judge = rt.judge_plan(toolchain, OK, tests.code, "add", text, results)
        warm, cold = runner.run(judge, LIMITS, NONCE, split.RECORD_CAP), sandbox(judge, split.RECORD_CAP)
        assert same(warm, cold), (results, warm, cold)
        answers.append(warm.completion.decode())
    need = rt.judge_plan(toolchain, OK, tests.code, "add", "[9,9]\n", '{"ok":18}\n')
    warm, cold = runner.run(need, LIMITS, NONCE, split.RECORD_CAP), sandbox(need, split.RECORD_CAP)
    assert same(warm, cold) and warm.exit_code == split.NEED_STATUS
    assert runner.restarts == 0


def test_typescript_records_and_judges_as_in_the_sandbox(sandbox):
    rt = runtime("typescript")
    try:
        toolchain = rt.discover()
    except Exception as exc:  # noqa: BLE001 - no tsc here: the JavaScript tests cover the runner
        pytest.skip(str(exc))
    running = TrustedRunner(rt.trusted_specs(toolchain)[0], None)
    try:
        for entry, reference in adversarial_ts.REFERENCES.values():
            tests = next(code for code, (name, _ref) in adversarial_ts.REFERENCES.items() if name == entry)
            record = rt.record_plan(toolchain, reference, tests, entry)
            assert record is not None
            warm, cold = running.run(record, LIMITS, NONCE, split.RECORD_CAP), sandbox(record, split.RECORD_CAP)
            assert same(warm, cold) and warm.exit_code == 0, entry
            text = "".join(line + "\n" for line in decide.parse_recording(warm) or ())
            judge = rt.judge_plan(toolchain, reference, tests, entry, text, '{"ok":1}\n')
            warm, cold = running.run(judge, LIMITS, NONCE, split.RECORD_CAP), sandbox(judge, split.RECORD_CAP)
            assert same(warm, cold), entry
    finally:
        running.stop()


ENDINGS = (
    write3("'ran to the end'"),
    write3("'x'") + "process.reallyExit(7);\n" + write3("'never'"),
    write3("'x'") + "process.exit(4);\n",
    "process.exitCode = 5;\n" + write3("'code'"),
    "throw new RangeError('no');\n",
    "process.on('uncaughtException', (e) => { " + write3("'caught ' + e.message") + " process.reallyExit(2); });\nnull.x;\n",
    "process.on('beforeExit', () => { " + write3("process.env.EXECIR_NONCE") + " process.reallyExit(0); });\n",
    "let n = 0;\nprocess.on('beforeExit', () => { if (n++ < 2) setTimeout(() => { " + write3("'t' + n") + " }, 1); });\n",
    "setTimeout(() => { " + write3("'timer'") + " }, 5);\nPromise.resolve().then(() => { " + write3("'micro'") + " });\n" + write3("'sync'"),
    write3("'before'") + "const x = ;\n",
    "setTimeout(() => { throw new Error('late'); }, 1);\n",
    "Promise.reject(new Error('rejected'));\n",
    "process.on('unhandledRejection', () => { " + write3("'seen'") + " process.reallyExit(6); });\nPromise.reject(1);\n",
    "let k = 0;\nconst i = setInterval(() => { " + write3("'i'") + " if (++k === 3) clearInterval(i); }, 1);\n",
    "try { process.reallyExit(3); } catch (e) { " + write3("'after exit'") + " }\n",
    "function f() { return f() + 1; }\nf();\n",
    "const vm = require('vm');\nglobalThis.seen = 1;\n" + write3("String(vm.runInThisContext('seen')) + typeof new vm.Script('seen').runInThisContext()"),
    write3("process.argv.slice(2).join(',') + '|' + (process.cwd() === __dirname) + '|' + require('path').basename(__filename)"),
    write3("String(this === module.exports && exports === module.exports && typeof require.resolve)"),
    "console.log('out');\nconsole.error('err');\n" + write3("typeof console.assert"),
)
"""How a script ends: at its end, with a syntax error, by exit (with and without a status, from a catch), with
``exitCode``, an uncaught exception (with and without a listener), ``beforeExit`` (ending the run,
and scheduling more work), timers and microtasks, a late throw, unhandled rejections, a stack
overflow, vm's context, CommonJS's names."""


def test_every_ending_has_the_status_and_channel_of_a_sandbox_run(js, runner, sandbox):
    for body in ENDINGS:
        plan = driver(js, body)
        warm, cold = runner.run(plan, LIMITS, NONCE, 1000), sandbox(plan, 1000)
        assert same(warm, cold), (body, warm, cold)
    assert runner.restarts == 0


def test_runs_share_no_global_state(js, runner):
    first = runner.run(driver(js, "Array.prototype.sum = 1;\nglobalThis.left = 1;\nMath.random = () => 0;\n" + write3("'a'")), LIMITS, NONCE, 100)
    second = runner.run(driver(js, write3("typeof [].sum + typeof left + (Math.random() === 0)")), LIMITS, NONCE, 100)
    assert first is not None and second is not None and second.completion == b"undefinedundefinedfalse"
    rejecting = runner.run(driver(js, "Promise.reject(new Error('left'));\nsetTimeout(() => {}, 50);\nprocess.reallyExit(0);\n"), LIMITS, NONCE, 100)
    after = runner.run(driver(js, "setTimeout(() => { " + write3("'ok'") + " }, 5);\n"), LIMITS, NONCE, 100)
    assert rejecting is not None and rejecting.exit_code == 0 and after is not None and (after.exit_code, after.completion) == (0, b"ok")


def test_budgets_the_cap_and_memory(js, runner):
    busy = runner.run(driver(js, "while (true) {}\n"), Limits(0.3, 10.0), NONCE, 100)
    assert busy is not None and busy.timeout == "cpu" and busy.exit_code is not None and busy.exit_code < 0 and busy.wall < 3.0
    spin = runner.run(driver(js, "const f = () => Promise.resolve().then(f);\nf();\n"), Limits(0.3, 10.0), NONCE, 100)
    assert spin is not None and spin.timeout == "cpu"
    ticking = runner.run(driver(js, "setInterval(() => {}, 5);\n"), Limits(1.0, 0.4), NONCE, 100)
    assert ticking is not None and ticking.timeout == "wall" and ticking.wall < 2.0
    assert runner.cpu_seconds() >= busy.cpu - 0.05
    flood = runner.run(driver(js, "while (true) { require('fs').writeSync(3, 'x'.repeat(4096)); }\n"), Limits(2.0, 5.0), NONCE, 10_000)
    assert flood is not None and flood.capped and len(flood.completion) == 10_001
    grow = "const a = [];\nfor (let i = 0; i < 40; i++) a.push(Buffer.alloc(8 << 20, 1));\n" + write3("'done'")
    hog = runner.run(driver(js, grow), Limits(2.0, 5.0, memory_mb=128), NONCE, 100)
    assert hog is not None and hog.memory_killed and decide.decide_judge(hog, LIMITS, 1, split.NEED_STATUS).verdict is Verdict.FAIL
    again = runner.run(driver(js, write3("'ok'")), LIMITS, NONCE, 100)
    assert again is not None and again.completion == b"ok" and not again.memory_killed and runner.restarts == 0


def test_every_run_gets_a_fresh_directory_and_nothing_is_left(js, runner):
    listing = "require('fs').readdirSync('.').sort().join(',')"
    first = runner.run(driver(js, "require('fs').writeFileSync('left.txt', 'x');\n" + write3(listing)), LIMITS, NONCE, 100)
    second = runner.run(driver(js, write3(listing)), LIMITS, NONCE, 100)
    assert first is not None and second is not None
    assert first.completion == f"{js_split.RECORDER_NAME},left.txt".encode() and second.completion == js_split.RECORDER_NAME.encode()
    root = runner.root
    assert os.listdir(root) == []
    runner.stop()
    assert not os.path.exists(root)


def test_a_lost_runner_is_undecided_and_restarted(js, runner):
    lost = runner.run(driver(js, "require('process').kill(require('process').pid, 9);\n"), LIMITS, NONCE, 100)
    assert lost is not None and lost.server_lost and runner.restarts == 1
    assert decide.decide_judge(lost, LIMITS, 1, split.NEED_STATUS).verdict is Verdict.UNDECIDED
    again = runner.run(driver(js, write3("'ok'")), LIMITS, NONCE, 100)
    assert again is not None and again.completion == b"ok" and not again.server_lost


def test_plans_of_another_shape_and_unreadable_requests_stay_in_the_sandbox(js, runner):
    rt, toolchain = js
    calls = rt.call_plan(toolchain, OK, "add", OK)
    compiled = Plan(driver(js, "").files, driver(js, "").run, ("/bin/true",))
    other = Plan({"x.js": ""}, (toolchain.paths["node"], "x.js"))
    assert runner.run(calls, LIMITS, NONCE, 100) is None and runner.run(compiled, LIMITS, NONCE, 100) is None
    assert runner.run(other, LIMITS, NONCE, 100) is None and runner.process is None
    assert runner.run(driver(js, "// \udcff\n" + write3("'ok'")), LIMITS, NONCE, 100) is None and runner.restarts == 0
    escape = Plan({"../up.js": "", js_split.RECORDER_NAME: ""}, driver(js, "").run)
    assert runner.run(escape, LIMITS, NONCE, 100) is None
    again = runner.run(driver(js, write3("'ok'")), LIMITS, NONCE, 100)
    assert again is not None and again.completion == b"ok"


def test_verdicts_through_the_oracle():
    jobs = [
        Job(text, TESTS, "add", Limits(1.0, 4.0), reference=OK, language="js")
        for text in (OK, WRONG, "const add = (a, b) => {\n  return a +;\n}\n", "const add = (a, b) => { while (true) {} }\n")
    ]
    with Oracle(OracleConfig(workers=1, progress=False)) as oracle:
        verdicts = [r.verdict for r in oracle.run(jobs)]
        lost = sum(runner.restarts for slot in oracle.slots for runner in slot.trusted.values())
        warm = sum(runner.process is not None for slot in oracle.slots for runner in slot.trusted.values())
    assert verdicts == [Verdict.PASS, Verdict.FAIL, Verdict.FAIL, Verdict.TIMEOUT] and lost == 0 and warm == 1


def test_a_runner_that_cannot_start_leaves_the_plan_to_the_sandbox(js):
    rt, toolchain = js
    spec = rt.trusted_specs(toolchain)[0]
    broken = TrustedRunner(TrustedSpec(("/bin/false",), spec.prefix, scripts=spec.scripts), None)
    try:
        assert broken.run(driver(js, write3("'ok'")), LIMITS, NONCE, 100) is None
        assert broken.process is None and broken.root == ""
    finally:
        broken.stop()
