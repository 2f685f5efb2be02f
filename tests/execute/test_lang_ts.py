"""TypeScript through the real oracle: tsc transpiles the candidate in the sandbox (type errors run,
syntax errors are ERROR), the JavaScript protocols decide (in-process without a reference, judged
outside with one), the adversarial cases, and the MBXP TypeScript ground truth."""

from __future__ import annotations

import shutil

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.attacks import adversarial_wire_ahead
from execir.execute.attacks.adversarial_ts import ADD, ADD_TESTS, ATTACKS, CASES, CONTROLS, WRONG
from execir.execute.jobs import IN_PROCESS, JUDGED_OUTSIDE
from execir.execute.runtimes import js, js_split, ts
from execir.tasks.multilingual import mbxp_typescript, shared_data
from execir.types import StdioCase, TestSuite, Verdict

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or (ts.native_tsc() is None and shutil.which("tsc") is None), reason="node or tsc (npm install -g typescript) not installed"
)

LIMITS = Limits(2.0, 8.0)
JOBS = {
    "pass": (ADD, Verdict.PASS),
    "fail": (WRONG, Verdict.FAIL),
    "type_error_runs": ("const add = function (a: number, b: number): string {\n  return a + b;\n}\n", Verdict.PASS),
    "syntax_error": ("const add = function (a: number, b: number {\n  return a + b;\n}\n", Verdict.ERROR),
    "throws": ("const add = function (a: number, b: number): number {\n  throw new Error('no');\n}\n", Verdict.FAIL),
    "early_exit": ("declare const process: any;\nprocess.exit(0);\n" + ADD, Verdict.FAIL),
    "export_function": ("export function add(a: number, b: number): number {\n  return a + b;\n}\n", Verdict.PASS),
}


@pytest.fixture(scope="module")
def oracle():
    with Oracle(OracleConfig(workers=2, progress=False)) as running:
        yield running


@pytest.mark.parametrize("reference", ["", ADD], ids=["in-process", "judged-outside"])
def test_verdicts(oracle, reference):
    results = oracle.run([Job(program, ADD_TESTS, "add", LIMITS, reference=reference, language="typescript") for program, _ in JOBS.values()])
    protocol = JUDGED_OUTSIDE if reference else IN_PROCESS
    for (name, (_, expected)), result in zip(JOBS.items(), results):
        assert (result.verdict, result.protocol) == (expected, protocol), (name, result.detail, result.stderr_tail)
    assert "TS1005" in results[3].detail  # tsc's own diagnostic is the compile log
    assert ("no result for call 0" if reference else "no completion record") in results[5].detail


def test_stdio(oracle):
    program = (
        "declare const require: any;\nconst text: string = require('fs').readFileSync(0, 'utf8');\n"
        "console.log(text.split(' ').map(Number).reduce((a, b) => a + b, 0));\n"
    )
    suite = TestSuite("stdio", stdio_cases=(StdioCase("3 4\n", "7\n"), StdioCase("10 20\n", "30\n")))
    (result,) = oracle.run([Job(program, suite, "", LIMITS, language="typescript")])
    assert result.verdict is Verdict.PASS, result.detail


def test_plans_transpile_the_candidate_in_the_sandbox_and_the_trusted_texts_on_the_host():
    toolchain = ts.RUNTIME.discover()
    assert toolchain.version.startswith("Version ") and "node v" in toolchain.version
    calls = ts.RUNTIME.call_plan(toolchain, ADD, "add", ADD)
    assert calls.compile[:3] == (toolchain.paths["sh"], "-c", ts.COMPILE_SCRIPT) and calls.compile[-1] == ts.SOURCE
    assert calls.files[ts.SOURCE] == ADD and ts.OUTPUT not in calls.files and js_split.CALLER_NAME in calls.files
    record = ts.RUNTIME.record_plan(toolchain, ADD, ADD_TESTS.code, "add")
    assert record is not None and record.compile == ()
    assert 'require("assert")' in record.files[js_split.TESTS] and "import " not in record.files[js_split.TESTS]
    assert record.files[js_split.REFERENCE].startswith('"use strict";') and ": number" not in record.files[js_split.REFERENCE]
    native = ts.RUNTIME.native_plan(toolchain, ADD, ADD_TESTS.code)
    assert js.TESTS in native.files and ts.OUTPUT not in native.files and native.compile


def test_a_reference_that_does_not_transpile_is_not_recorded():
    toolchain = ts.RUNTIME.discover()
    assert ts.RUNTIME.record_plan(toolchain, "const add = function (a: number {\n", ADD_TESTS.code, "add") is None
    js_text, errors = ts.transpile(toolchain, "let x: number = 'no';\n")
    assert errors == "" and "let x = 'no';" in js_text  # type errors are not reported (--noCheck)


def test_case_counts():
    ahead = adversarial_wire_ahead.of_language("typescript")
    assert len(ATTACKS) >= 10 and len(CONTROLS) >= 10 and len(ahead) >= 5 and len(CASES) == len(ATTACKS) + len(CONTROLS) + len(ahead)
    assert all(Verdict.PASS not in c.expected for c in ATTACKS) and all(c.expected == {Verdict.PASS} for c in CONTROLS)


def test_adversarial_cases_are_judged_outside(oracle):
    cases = [c for c in CASES if c.category != "time"]
    results = oracle.run([Job(c.program, c.tests, c.entry_point, LIMITS, reference=c.reference, language="typescript") for c in cases])
    wrong = [(c.name, r.verdict, r.protocol, r.detail) for c, r in zip(cases, results) if r.verdict not in c.expected or r.protocol != JUDGED_OUTSIDE]
    assert wrong == []


def test_adversarial_cases_in_process(oracle):
    """The same programs without a reference (the in-process runner, the tests transpiled on the
    host and run after the program in one process): still never a false PASS; controls pass."""
    cases = [c for c in CASES if c.category != "time"]
    results = oracle.run([Job(c.program, c.tests, c.entry_point, LIMITS, language="typescript") for c in cases])
    wrong = [(c.name, r.verdict, r.detail) for c, r in zip(cases, results) if r.verdict not in c.expected or r.protocol != IN_PROCESS]
    assert wrong == []


def _failed_canonicals(tasks):
    with Oracle(OracleConfig(workers=2, progress=False)) as oracle:
        admitted = oracle.admit_canonicals([(t.program, TestSuite("native", t.tests), t.entry_point) for t in tasks], language="typescript")
    passed = [a for a in admitted if a.ok]
    assert all(r.protocol == JUDGED_OUTSIDE for a in passed for r in a.results)
    return {t.task_id: a.results[0].verdict for t, a in zip(tasks, admitted) if not a.ok}


@pytest.mark.shared
def test_ground_truth_sample():
    if shared_data() is None:
        pytest.skip("../shared/data not present")
    tasks = {t.task_id: t for t in mbxp_typescript.load()}
    ids = ["MBTSP/1", "MBTSP/3", "MBTSP/4", "MBTSP/2", "MBTSP/23", "MBTSP/74", "MBTSP/54", "MBTSP/100", "MBTSP/200", "MBTSP/300"]
    failed = _failed_canonicals([tasks[i] for i in ids])
    assert failed == {
        "MBTSP/2": Verdict.ERROR,  # a generation cut off mid-expression
        "MBTSP/100": Verdict.ERROR,
        "MBTSP/200": Verdict.ERROR,
        "MBTSP/23": Verdict.FAIL,  # assigns to a const: passes mxeval only through es5's var
        "MBTSP/74": Verdict.FAIL,  # for...of over a Set: es5 never enters the loop
        "MBTSP/300": Verdict.FAIL,
        "MBTSP/54": Verdict.FAIL,  # fails mxeval too
    }


@pytest.mark.shared
@pytest.mark.slow
def test_ground_truth_full():
    if shared_data() is None:
        pytest.skip("../shared/data not present")
    tasks = mbxp_typescript.load()
    assert len(tasks) == 967
    failed = _failed_canonicals(tasks)
    assert len(tasks) - len(failed) == 372
    assert sum(v is Verdict.ERROR for v in failed.values()) == 546 and sum(v is Verdict.FAIL for v in failed.values()) == 49
