"""C++ through the real oracle: native tests (PASS/FAIL/ERROR/early exit), stdio and the
HumanEval-X ground truth (canonicals pass three times, HumanEvalPack buggy fail)."""

from __future__ import annotations

import shutil

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.attacks.adversarial_cpp import ADD_TESTS
from execir.execute.attacks.adversarial_cpp_split import NDEBUG_TESTS
from execir.execute.runtimes import cpp
from execir.tasks.multilingual import humanevalx_cpp, shared_data
from execir.types import StdioCase, TestSuite, Verdict

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")

LIMITS = Limits(2.0, 8.0)
ADD_OK = "int add(int a, int b){\n    return a + b;\n}\n"
UPSTREAM_BUGGY_PASSES = {"CPP/23"}
"""HumanEvalPack buggy solutions that pass HumanEval-X's tests under the reference harness too:
CPP/23's tests call ``strlen("")``, which resolves to C's ``strlen(const char*)`` (exact match) rather
than the candidate's ``strlen(string)``, so no test reaches the candidate."""


STAYS_IN_PROCESS = {"CPP/22", "CPP/23", "CPP/137"}
"""HumanEval-X tasks judged in-process (3 of 164, so over 95% are judged outside): CPP/22 and
CPP/137 take and return ``boost::any`` (the wire cannot carry it); CPP/23's tests never call the
entry point (see :data:`UPSTREAM_BUGGY_PASSES`), so there is nothing to record."""


@pytest.fixture(scope="module")
def oracle():
    with Oracle(OracleConfig(workers=2, progress=False)) as running:
        yield running


def _run(oracle, program, tests=ADD_TESTS, limits=LIMITS):
    return oracle.run([Job(program, tests, "", limits, language="cpp")])[0]


def test_native_verdicts(oracle):
    jobs = {
        "pass": ADD_OK,
        "fail": "int add(int a, int b){ return a - b; }\n",
        "error": "int add(int a, int b){ return a + ; }\n",
        "early_exit": "#include<cstdlib>\nint add(int a, int b){ std::exit(0); }\n",
        "loop": "int add(int a, int b){ for (volatile int i = 0;; i = i + 1) {} }\n",
    }
    results = dict(zip(jobs, oracle.run([Job(p, ADD_TESTS, "", Limits(0.5, 3.0), language="cpp") for p in jobs.values()])))
    assert results["pass"].verdict is Verdict.PASS, results["pass"]
    assert results["fail"].verdict is Verdict.FAIL
    assert "Assertion failed: add(2, 3) == 5" in results["fail"].stderr_tail
    assert results["error"].verdict is Verdict.ERROR
    assert results["early_exit"].verdict is Verdict.FAIL
    assert "completion record" in results["early_exit"].detail
    assert results["loop"].verdict is Verdict.TIMEOUT


def test_tests_main_without_return_passes(oracle):
    """HumanEval-X tests' ``main`` ends without ``return``: its implicit 0 must survive the rename."""
    tests = TestSuite("native", "int add(int a, int b);\n#include<assert.h>\nint main(){\n    assert (add(1, 1) == 2);\n}\n")
    assert _run(oracle, ADD_OK, tests).verdict is Verdict.PASS


def test_tests_that_do_not_compile_are_an_error(oracle):
    tests = TestSuite("native", "int add(int a, int b);\nint main(){ return add(1, 1) == 2 ? 0 : 1 }\n")
    result = _run(oracle, ADD_OK, tests)
    assert result.verdict is Verdict.ERROR
    assert "expected" in result.detail


def test_tests_returning_nonzero_fail(oracle):
    tests = TestSuite("native", "int add(int a, int b);\nint main(){ return add(1, 1) == 3 ? 0 : 7; }\n")
    result = _run(oracle, ADD_OK, tests)
    assert result.verdict is Verdict.FAIL
    assert "exit status 7" in result.detail


def test_tests_defining_ndebug_still_check_in_process(oracle):
    """Tests that switch their own asserts off are switched on again (no reference: in-process)."""
    assert _run(oracle, "int add(int a, int b){ return a - b; }\n", NDEBUG_TESTS).verdict is Verdict.FAIL
    assert _run(oracle, ADD_OK, NDEBUG_TESTS).verdict is Verdict.PASS


def test_judged_outside_with_a_reference(oracle):
    jobs = [Job(p, ADD_TESTS, "add", LIMITS, language="cpp", reference=ADD_OK) for p in (ADD_OK, "int add(int a, int b){ return a - b; }\n")]
    good, bad = oracle.run(jobs)
    assert (good.verdict, good.protocol) == (Verdict.PASS, "judged-outside"), good
    assert (bad.verdict, bad.protocol) == (Verdict.FAIL, "judged-outside"), bad


def test_stdio(oracle):
    program = "#include <bits/stdc++.h>\nusing namespace std;\nint main(){ long a, b; cin >> a >> b; cout << a + b << endl; }\n"
    cases = (StdioCase("3 4\n", "7\n"), StdioCase("10 20\n", "30\n"))
    good = oracle.run([Job(program, TestSuite("stdio", stdio_cases=cases), "", LIMITS, language="cpp")])[0]
    bad = oracle.run([Job(program.replace("a + b", "a * b"), TestSuite("stdio", stdio_cases=cases), "", LIMITS, language="cpp")])[0]
    assert good.verdict is Verdict.PASS, good
    assert bad.verdict is Verdict.FAIL


def test_plan_keeps_the_tests_source_out_of_the_sandbox():
    runtime = cpp.RUNTIME
    toolchain = runtime.discover()
    plan = runtime.native_plan(toolchain, ADD_OK, ADD_TESTS.code)
    assert "tests.cpp" not in plan.files
    assert plan.files[cpp.TESTS_OBJECT].startswith("\x7fELF")
    script = plan.compile[-1]
    assert plan.compile[:2] == (toolchain.paths["sh"], "-c") and toolchain.paths["g++"] in script
    # the program is a shared library linked after the system libraries into the tests' executable
    # (which holds the runner), and the build refuses ifunc resolvers and a program's own main
    library, executable = script.splitlines()[1:3]
    assert "main.cpp" in library and "-shared" in library and "-Wl,-Bsymbolic" in library and cpp.TESTS_OBJECT not in library
    assert executable.index(cpp.TESTS_OBJECT) < executable.index(cpp.SYSTEM_LIBRARIES) < executable.index(cpp.PROGRAM_LIBRARY)
    assert "IRELATIV" in script and "multiple definition of 'main'" in script
    # before the program runs, the tests' object and every other file but the executable are gone
    # and the nonce moves from the environment into the file the runner takes
    run = plan.run[2]
    assert cpp.TESTS_OBJECT in run and "main.cpp" in run and "inc" in run and "unset EXECIR_NONCE" in run
    assert cpp.PROGRAM_LIBRARY not in run
    assert plan.run[-1] == "./prog"


def test_header_from_prompt():
    prompt = (
        "/*\nDoc with { braces }\n*/\n#include<stdio.h>\n#include<string>\nusing namespace std;\n"
        'string encode(string s){\n    // {\n    return s + "}";\n}\nstring decode(string s){\n'
    )
    header = humanevalx_cpp.tests_header(prompt)
    assert header == "#include<stdio.h>\n#include<string>\nusing namespace std;\nstring encode(string s);\nstring decode(string s);\n"


def _ground_truth(tasks):
    """Canonicals PASS three times and buggy solutions FAIL, judged outside (the canonical is the
    reference) except :data:`STAYS_IN_PROCESS`."""
    native = {t.task_id: TestSuite("native", t.tests) for t in tasks}
    jobs = [Job(t.program, native[t.task_id], t.entry_point, Limits(5.0, 20.0), language="cpp", reference=t.program) for t in tasks for _ in range(3)]
    buggy = [t for t in tasks if t.buggy is not None]
    jobs += [Job(t.buggy, native[t.task_id], t.entry_point, Limits(2.0, 8.0), language="cpp", reference=t.program) for t in buggy]
    with Oracle(OracleConfig(workers=2, progress=False)) as running:
        results = running.run(jobs)
    canon, bug = results[: 3 * len(tasks)], results[3 * len(tasks) :]
    failed = [(tasks[i // 3].task_id, r.verdict, r.detail) for i, r in enumerate(canon) if r.verdict is not Verdict.PASS]
    passed_buggy = [t.task_id for t, r in zip(buggy, bug) if r.verdict is Verdict.PASS]
    assert failed == []
    assert set(passed_buggy) <= UPSTREAM_BUGGY_PASSES
    in_process = {t.task_id for t, r in zip(tasks, canon[::3]) if r.protocol != "judged-outside"}
    assert in_process <= STAYS_IN_PROCESS


def _tasks():
    if shared_data() is None:
        pytest.skip("../shared/data is not present")
    tasks = humanevalx_cpp.load()
    assert len(tasks) == 164
    return tasks


@pytest.mark.shared
def test_ground_truth_sample():
    tasks = _tasks()
    picked = [tasks[i] for i in (0, 10, 22, 23, 27, 38, 44, 77, 137, 162)]
    _ground_truth(picked)


@pytest.mark.shared
@pytest.mark.slow
def test_ground_truth_full():
    _ground_truth(_tasks())


THREADS = """#include <atomic>
#include <thread>
#include <vector>
int sum_threads(int n) {
    std::atomic<int> total(0);
    std::vector<std::thread> ts;
    for (int i = 1; i <= n; i++) ts.emplace_back([&total, i] { total += i; });
    for (auto &t : ts) t.join();
    return total;
}
"""


def test_a_hundred_threads_are_not_flaky(oracle):
    tests = TestSuite("native", "#include <cassert>\nint main() { assert(sum_threads(100) == 5050); assert(sum_threads(10) == 55); return 0; }\n")
    jobs = [Job(THREADS + f"// run {i}\n", tests, "sum_threads", LIMITS, reference=THREADS, language="cpp") for i in range(8)]
    assert [r.verdict for r in oracle.run(jobs)] == [Verdict.PASS] * 8
