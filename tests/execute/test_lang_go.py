"""Go through the real oracle: verdicts, stdio, the early-exit and forged-record rules, and
HumanEval-X Go ground truth (canonicals pass, HumanEvalPack buggy fail)."""

from __future__ import annotations

import dataclasses

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.attacks.adversarial_go import ADD_TESTS
from execir.execute.runtimes import ToolchainMissing, runtime
from execir.tasks.multilingual import shared_data
from execir.tasks.multilingual.humanevalx_go import load
from execir.types import StdioCase, TestSuite, Verdict

LIMITS = Limits(cpu_seconds=2.0, wall_seconds=8.0, memory_mb=512)
GOOD = "package main\n\nfunc Add(a, b int) int {\n    return a + b\n}\n"
BAD = "package main\n\nfunc Add(a, b int) int {\n    return a - b\n}\n"


@pytest.fixture(scope="module")
def oracle():
    try:
        runtime("go").discover()
    except ToolchainMissing as exc:
        pytest.skip(str(exc))
    with Oracle(OracleConfig(workers=2, progress=False)) as running:
        yield running


def go(program: str, tests: TestSuite = ADD_TESTS, limits: Limits = LIMITS) -> Job:
    return Job(program, tests, "", limits, language="go")


def test_pass_fail_error_early_exit(oracle):
    early = 'package main\n\nimport "os"\n\nfunc init() { os.Exit(0) }\n\nfunc Add(a, b int) int { return a + b }\n'
    panics = 'package main\n\nfunc Add(a, b int) int { panic("no") }\n'
    results = oracle.run([go(GOOD), go(BAD), go("package main\nfunc Add(a, b int) int {\n"), go(early), go(panics)])
    assert [r.verdict for r in results] == [Verdict.PASS, Verdict.FAIL, Verdict.ERROR, Verdict.FAIL, Verdict.FAIL]
    assert "no completion record" in results[3].detail


def test_only_later_assertion_fails(oracle):
    """testify's assert.Equal does not stop the test; one failing check among passing ones fails it."""
    almost = "package main\n\nfunc Add(a, b int) int {\n    if a == 10 {\n        return 0\n    }\n    return a + b\n}\n"
    (result,) = oracle.run([go(almost)])
    assert result.verdict is Verdict.FAIL


def test_stdio(oracle):
    program = 'package main\n\nimport "fmt"\n\nfunc main() {\n    var a, b int\n    fmt.Scan(&a, &b)\n    fmt.Println(a + b)\n}\n'
    cases = TestSuite("stdio", stdio_cases=(StdioCase("3 4\n", "7\n"), StdioCase("10 20\n", "30\n")))
    wrong = TestSuite("stdio", stdio_cases=(StdioCase("3 4\n", "8\n"),))
    results = oracle.run([go(program, cases), go(program, wrong), go("package main\nfunc main() {", cases)])
    assert [r.verdict for r in results] == [Verdict.PASS, Verdict.FAIL, Verdict.ERROR]


def test_unprepared_toolchain_builds_testify_in_the_work_dir(oracle):
    """Without the prepared read-only testify build (an oracle that is not root), each check builds
    it from source in its own work dir."""
    toolchain = oracle.toolchain("go")
    if not toolchain.sources and toolchain.prepared:
        rt = runtime("go")
        from execir.execute.runtimes import go as gort

        env = {"PATH": "/usr/bin:/bin", "GO111MODULE": "off", "GOPATH": gort.GOPATH, "HOME": "/tmp", "GOFLAGS": "", "GOCACHE": "/tmp/execir-go-test-cache"}
        sources = gort._library_sources(toolchain.paths["go"], env)
        assert sources and isinstance(rt, gort.GoRuntime)
        oracle._toolchains["go"] = dataclasses.replace(toolchain, prepared="", sources=sources)
        try:
            limits = dataclasses.replace(LIMITS, compile_cpu_seconds=30.0)
            results = oracle.run([go(GOOD, limits=limits), go(BAD, limits=limits)])
        finally:
            oracle._toolchains["go"] = toolchain
        assert [r.verdict for r in results] == [Verdict.PASS, Verdict.FAIL]


UPSTREAM_FLAKY = {"Go/95"}
"""Canonicals whose result depends on map iteration order (Go/95 fails about a third of its runs
the reference way too)."""


def _ground_truth(tasks) -> None:
    """Canonicals 3x PASS, buggy never PASS, judged outside the candidate's process (the task's
    canonical as the reference) for at least 95% of the jobs."""
    jobs = []
    for task in tasks:
        suite = TestSuite("native", task.tests)
        jobs += [Job(task.program + f"\n// repeat {i}\n", suite, task.entry_point, Limits(5.0, 30.0), reference=task.program, language="go") for i in range(3)]
        if task.buggy is not None:
            jobs.append(Job(task.buggy, suite, task.entry_point, Limits(5.0, 30.0), reference=task.program, language="go"))
    with Oracle(OracleConfig(workers=2, progress=False)) as oracle:
        done = oracle.run(jobs)
    assert sum(r.protocol == "judged-outside" for r in done) >= 0.95 * len(done)
    results = iter(done)
    for task in tasks:
        canonical = [next(results) for _ in range(3)]
        assert task.task_id in UPSTREAM_FLAKY or all(r.verdict is Verdict.PASS for r in canonical), (task.task_id, canonical)
        if task.buggy is not None:
            buggy = next(results)
            assert buggy.verdict in (Verdict.FAIL, Verdict.ERROR, Verdict.TIMEOUT), (task.task_id, buggy)


@pytest.mark.shared
def test_ground_truth_sample():
    if shared_data() is None:
        pytest.skip("../shared/data is absent")
    tasks = load()
    assert len(tasks) == 164 and all(t.buggy for t in tasks)
    _ground_truth(tasks[::17])


@pytest.mark.shared
@pytest.mark.slow
def test_ground_truth_full():
    if shared_data() is None:
        pytest.skip("../shared/data is absent")
    _ground_truth(load())
