"""Java through the real oracle: native tests (PASS/FAIL/ERROR, early exits), stdio, the adversarial
case counts, and HumanEval-X/HumanEvalPack ground truth (canonicals pass, buggy solutions do not)."""

from __future__ import annotations

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.attacks.adversarial_java import ADD_TESTS, CASES, LIST_TESTS, RIGHT_ADD, WRONG_ADD, _solution
from execir.execute.jobs import JUDGED_OUTSIDE
from execir.execute.runtimes import runtime
from execir.execute.runtimes.base import ToolchainMissing
from execir.execute.runtimes.java import NON_HEAP_MB, JavaRuntime, heap_mb
from execir.execute.runtimes.java_source import ENTER, declared_classes, insert_enter, main_class, wrap_solution_calls
from execir.execute.selftest import LIMITS
from execir.tasks.multilingual import shared_data
from execir.types import StdioCase, TestSuite, Verdict

try:
    runtime("java").discover()
except ToolchainMissing as exc:  # pragma: no cover - the Makefile installs the JDK
    pytest.skip(str(exc), allow_module_level=True)

JAVA = Limits(cpu_seconds=2.0, wall_seconds=8.0, memory_mb=512)


def _verdicts(oracle: Oracle, programs: list[str], tests: TestSuite = ADD_TESTS, limits: Limits = JAVA) -> list[Verdict]:
    return [r.verdict for r in oracle.run([Job(p, tests, "", limits, language="java") for p in programs])]


# ---- plan construction (no sandbox) ------------------------------------------------------------
def test_solution_calls_are_wrapped_outside_literals_and_statements():
    tests = (
        "public class Main {\n"
        "    public static void main(String[] args) {\n"
        "        Solution s = new Solution();\n"
        '        String text = "s.f(1)"; // s.f(2)\n'
        "        s.reset();\n"
        "        boolean ok = s.f(s.g(1), ')') == 3 && new Solution().h().equals(List.of());\n"
        "    }\n"
        "}\n"
    )
    wrapped = wrap_solution_calls(tests)
    assert '"s.f(1)"; // s.f(2)' in wrapped
    assert "        s.reset();" in wrapped
    assert "execirValue(s.f(execirValue(s.g(1)), ')')) == 3" in wrapped
    assert "execirValue(new Solution().h()).equals" in wrapped


def test_class_names():
    assert main_class("import java.util.*;\npublic class Sum { public static void main(String[] a) {} }\n") == ("Sum.java", "Sum")
    assert main_class("class Main { }\n// public class Fake\n") == ("Main.java", "Main")
    assert declared_classes("public class Main { static class Inner {} }\nclass Helper { }\n") == ["Main", "Helper"]


MAIN = "public static void main(String[] args) { }"


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (f"import java.util.*;\nclass Solution {{\n    {MAIN}\n}}\n", ("Solution.java", "Solution")),
        (f"class Main {{\n    public class Total {{ long value; }}\n    {MAIN}\n}}\n", ("Main.java", "Main")),
        (f"class Summer {{\n    public class Total {{ long value; }}\n}}\npublic class Main {{\n    {MAIN}\n}}\n", ("Main.java", "Main")),
        (f"public class Helper {{ }}\nclass Run {{ {MAIN} }}\n", ("Helper.java", "Run")),
        (f"class A {{ static class B {{ {MAIN} }} }}\nclass C {{ {MAIN} }}\n", ("C.java", "C")),
        (f"class A {{ {MAIN} }}\npublic class B {{ {MAIN} }}\n", ("B.java", "B")),
        (f"/* public class X {{ {MAIN} }} */\nclass Y {{ String s = \"public class Z {{\"; char c = '{{'; {MAIN} }}\n", ("Y.java", "Y")),
        ("class A { void main(String[] args) { } }\nclass B { static { } void main(String[] a) { } }\n", ("Main.java", "Main")),
        (f'@SuppressWarnings("x") public final class P {{ {MAIN} }}\n', ("P.java", "P")),
        ("interface I { static void main(String[] args) { } }\nenum E { A; }\nrecord R(int a) { }\n", ("I.java", "I")),
    ],
)
def test_main_class_is_the_top_level_class_declaring_main(program, expected):
    assert main_class(program) == expected


def test_enter_guard_is_the_first_statement_of_main():
    tests = (
        "// public static void main(String[] a) {\n"
        "class Helper { public static void main(String[] args) { } }\n"
        "public class Main {\n"
        '    static String s = "static void main(";\n'
        "    static class Inner { public static void main(String[] args) { } }\n"
        "    void main(int x) { }\n"
        "    public static void main(String[] args) throws Exception {\n"
        "        int x = 1;\n"
        "    }\n"
        "}\n"
    )
    inserted = insert_enter(tests)
    assert inserted.count(ENTER) == 1
    assert "public static void main(String[] args) throws Exception {" + ENTER + "\n        int x = 1;" in inserted
    assert insert_enter("class Other { public static void main(String[] a) { } }\n") == "class Other { public static void main(String[] a) { } }\n"


# ---- behaviour through the oracle --------------------------------------------------------------
def test_pass_fail_error_and_early_exit(oracle):
    programs = [
        _solution(RIGHT_ADD),
        _solution(WRONG_ADD),
        _solution("    public int add(int a, int b) { return a + }\n"),
        _solution("    static { System.exit(0); }\n" + RIGHT_ADD),
        _solution("    public int add(int a, int b) { if (a == 10) System.exit(0); return a + b; }\n"),
        _solution("    public int add(int a, int b) { throw new IllegalStateException(); }\n"),
    ]
    assert _verdicts(oracle, programs) == [Verdict.PASS, Verdict.FAIL, Verdict.ERROR, Verdict.FAIL, Verdict.FAIL, Verdict.FAIL]


def test_collections_pass_through_the_boundary(oracle):
    bodies = [
        "return xs.stream().filter(x -> x % 2 == 0).collect(Collectors.toList());",
        "return xs.stream().filter(x -> x % 2 == 0).toList();",
        "List<Integer> o = new ArrayList<>(); for (int x : xs) if (x % 2 == 0) o.add(x); return Collections.unmodifiableList(o);",
        "return new LinkedList<>(xs.stream().filter(x -> x % 2 == 0).collect(Collectors.toList()));",
    ]
    header = "import java.util.*;\nimport java.util.stream.*;\n"
    programs = [_solution(f"    public List<Integer> evens(List<Integer> xs) {{ {b} }}\n", header=header) for b in bodies]
    assert _verdicts(oracle, programs, LIST_TESTS) == [Verdict.PASS] * len(bodies)


LAZY_TESTS = TestSuite(
    "native",
    "import java.util.*;\nimport java.util.function.*;\n"
    "public class Main {\n"
    "    enum Kind { SUM, DIFF }\n"
    "    static class Case { final int a, b, want; Case(int a, int b, int want) { this.a = a; this.b = b; this.want = want; } }\n"
    "    interface Check { boolean ok(Solution s, Case c); }\n"
    "    static int add(Solution s, int a, int b) { return s.add(a, b); }\n"
    "    public static void main(String[] args) {\n"
    "        Solution s = new Solution();\n"
    "        record Pair(int a, int b) { }\n"
    "        List<Case> cases = new ArrayList<>(List.of(new Case(2, 3, 5), new Case(-1, 1, 0), new Case(10, 5, 15)));\n"
    "        cases.sort(new Comparator<Case>() { public int compare(Case x, Case y) { return Integer.compare(x.a, y.a); } });\n"
    "        Check check = (solution, c) -> solution.add(c.a, c.b) == c.want;\n"
    "        BiFunction<Integer, Integer, Integer> f = (a, b) -> s.add(a, b);\n"
    "        for (Case c : cases) if (!check.ok(s, c) || add(s, c.a, c.b) != c.want) throw new AssertionError(Kind.SUM);\n"
    "        if (f.apply(1, 2) != 3 || new Pair(1, s.add(1, 1)).b() != 2) throw new AssertionError(Kind.DIFF);\n"
    "        Runnable late = new Runnable() { public void run() { if (s.add(0, 0) != 0) throw new AssertionError(); } };\n"
    "        late.run();\n"
    "    }\n"
    "}\n",
)


def test_tests_classes_loaded_late_still_work(oracle):
    """The runner deletes the tests' source and class files before the candidate runs: nested,
    anonymous and local classes, enums, records, lambdas and helper methods of the tests still work."""
    assert _verdicts(oracle, [_solution(RIGHT_ADD), _solution(WRONG_ADD)], LAZY_TESTS) == [Verdict.PASS, Verdict.FAIL]


def test_the_candidate_cannot_see_or_rerun_the_tests(oracle):
    probes = {
        "source": 'java.nio.file.Files.exists(java.nio.file.Paths.get("Main.java"))',
        "class": 'java.nio.file.Files.exists(java.nio.file.Paths.get("Main.class")) || Main.class.getResource("Main.class") != null',
        "listing": 'java.util.Arrays.stream(new java.io.File(".").list()).anyMatch(n -> n.startsWith("Main"))',
    }
    programs = [
        _solution(
            f"    public int add(int a, int b) {{ boolean seen = false; try {{ seen = {probe}; }} catch (Throwable t) {{ }} return seen ? 0 : a + b; }}\n"
        )
        for probe in probes.values()
    ]
    rerun = _solution(
        "    static int depth = 0;\n"
        "    public int add(int a, int b) { if (depth++ == 0) { try { Main.main(new String[0]); } catch (Throwable t) { } } return a + b; }\n"
    )
    assert _verdicts(oracle, [*programs, rerun]) == [Verdict.PASS] * len(programs) + [Verdict.FAIL]


def test_timeout(oracle):
    program = _solution("    public int add(int a, int b) { long x = 0; while (a < b + 1000) x++; return (int) x; }\n")
    assert _verdicts(oracle, [program], limits=Limits(cpu_seconds=1.0, wall_seconds=4.0, memory_mb=512)) == [Verdict.TIMEOUT]


def test_stdio(oracle):
    right = (
        "import java.io.*;\npublic class Main {\n    public static void main(String[] args) throws IOException {\n"
        "        BufferedReader r = new BufferedReader(new InputStreamReader(System.in));\n"
        '        String[] p = r.readLine().trim().split(" ");\n'
        '        System.out.print((Long.parseLong(p[0]) + Long.parseLong(p[1])) + " é\\n");\n'
        "    }\n}\n"
    )
    wrong = right.replace("+ Long.parseLong(p[1])", "- Long.parseLong(p[1])")
    crash = right.replace("System.out.print(", "System.exit(3); System.out.print(")
    tests = TestSuite("stdio", stdio_cases=(StdioCase("3 4\n", "7 é\n"), StdioCase("10 20\n", "30 é\n")))
    assert _verdicts(oracle, [right, wrong, crash, "public class Main {"], tests) == [Verdict.PASS, Verdict.FAIL, Verdict.FAIL, Verdict.ERROR]


# ---- the heap follows the job's memory budget ---------------------------------------------------
HOLD = _solution(
    "    public int hold(int mb) {\n"
    "        byte[][] blocks = new byte[mb][];\n"
    "        for (int i = 0; i < mb; i++) blocks[i] = new byte[1 << 20];\n"
    "        return blocks.length;\n"
    "    }\n"
)


def _hold_tests(mb: int) -> TestSuite:
    """Tests that keep ``mb`` MiB live in the candidate's heap at once."""
    check = f"        if (new Solution().hold({mb}) != {mb}) throw new AssertionError();\n"
    return TestSuite("native", "public class Main {\n    public static void main(String[] args) {\n" + check + "    }\n}\n")


def _budget(memory_mb: int) -> Limits:
    return Limits(cpu_seconds=5.0, wall_seconds=20.0, memory_mb=memory_mb)


def test_heap_is_a_fraction_of_the_budget_with_room_for_the_rest():
    for memory_mb in (192, 256, 384, 512, 1024, 4096):
        assert heap_mb(memory_mb) <= 0.75 * memory_mb and heap_mb(memory_mb) + NON_HEAP_MB <= memory_mb
    assert heap_mb(512) == 384 and heap_mb(1024) == 768
    assert heap_mb(64) == 32  # a floor: a smaller budget ends at the cgroup's memory kill instead


def test_plans_take_the_heap_from_the_limits():
    java = runtime("java")
    toolchain = java.discover()
    stdio = "public class Main { public static void main(String[] args) { } }\n"
    for memory_mb in (256, 512, 2048):
        plans = [java.plan(toolchain, _solution(RIGHT_ADD), ADD_TESTS.code, _budget(memory_mb)), java.plan(toolchain, stdio, None, _budget(memory_mb))]
        for plan in plans:
            assert [flag for flag in plan.run if flag.startswith("-Xmx")] == [f"-Xmx{heap_mb(memory_mb)}m"]


def test_the_oracle_gives_the_java_plan_the_job_limits(oracle, monkeypatch):
    seen: list[int] = []
    original = JavaRuntime.plan

    def spy(self, toolchain, program, tests, limits):
        seen.append(limits.memory_mb)
        return original(self, toolchain, program, tests, limits)

    monkeypatch.setattr(JavaRuntime, "plan", spy)
    assert _verdicts(oracle, [_solution(RIGHT_ADD) + "// 1\n"], limits=_budget(448)) == [Verdict.PASS]
    assert seen == [448]


def test_memory_budget_bounds_the_heap(oracle):
    """300 MiB live passes under a 512 MiB budget (the former fixed 256 MiB heap failed it), 200 MiB
    fails under a 192 MiB budget (which the fixed heap let pass: the slot's cgroup has the server's
    share on top), and 600 MiB fails under 512 MiB: each an OutOfMemoryError, not a memory kill."""
    jobs = [(300, 512), (200, 192), (600, 512)]
    results = oracle.run([Job(HOLD, _hold_tests(mb), "", _budget(memory_mb), language="java") for mb, memory_mb in jobs])
    assert [r.verdict for r in results] == [Verdict.PASS, Verdict.FAIL, Verdict.FAIL], [(r.detail, r.stderr_tail[-300:]) for r in results]
    assert all("OutOfMemoryError" in r.stderr_tail for r in results[1:]), [r.stderr_tail[-300:] for r in results[1:]]


# ---- adversarial cases ---------------------------------------------------------------------------
def test_case_counts():
    attacks = [c for c in CASES if c.category != "control"]
    controls = [c for c in CASES if c.category == "control"]
    assert len(attacks) >= 15 and len(controls) >= 3
    assert all(Verdict.PASS not in c.expected for c in attacks)
    assert all(c.expected == frozenset({Verdict.PASS}) for c in controls)
    assert LIMITS.memory_mb >= 384  # -Xmx256m plus the JVM's own memory fits the selftest's budget


# ---- ground truth over the shared data -----------------------------------------------------------
def _tasks():
    from execir.tasks.multilingual.humanevalx_java import load

    data = shared_data()
    if data is None:
        pytest.skip("../shared/data is absent")
    tasks = load(data)
    assert len(tasks) == 164 and all(t.buggy for t in tasks)
    return tasks


def _ground_truth(tasks, repeats: int) -> tuple[list[str], list[str], float]:
    """Canonicals ``repeats`` times and buggy solutions once, with the canonical as the reference
    (judged outside where the tests split): failures, passing buggy ones, share judged outside."""
    limits = Limits(cpu_seconds=10.0, wall_seconds=30.0)
    jobs = [
        Job(t.program + f"\n// repeat {i}\n", TestSuite("native", t.tests), t.entry_point, limits, reference=t.program, language="java")
        for i in range(repeats)
        for t in tasks
    ]
    jobs += [Job(t.buggy or "", TestSuite("native", t.tests), t.entry_point, limits, reference=t.program, language="java") for t in tasks]
    with Oracle(OracleConfig(workers=2, progress=False)) as oracle:
        results = oracle.run(jobs)
    n = len(tasks)
    failed = [f"{tasks[i % n].task_id}: {r.verdict.value} {r.detail}" for i, r in enumerate(results[: repeats * n]) if r.verdict is not Verdict.PASS]
    passed_buggy = [tasks[i].task_id for i, r in enumerate(results[repeats * n :]) if r.verdict is Verdict.PASS]
    return failed, passed_buggy, sum(r.protocol == JUDGED_OUTSIDE for r in results) / len(results)


@pytest.mark.shared
def test_ground_truth_sample():
    tasks = _tasks()
    failed, passed_buggy, outside = _ground_truth(tasks[::17], repeats=1)
    assert failed == [] and passed_buggy == [] and outside == 1.0


@pytest.mark.shared
@pytest.mark.slow
def test_ground_truth_full():
    failed, passed_buggy, outside = _ground_truth(_tasks(), repeats=3)
    assert failed == [] and passed_buggy == [] and outside >= 0.95
