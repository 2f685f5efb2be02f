"""Java judged outside the candidate's process, through the real oracle: the reference's entry method
wrapped (record, judge), the candidate's calls, the wire codec's exact values, ``-ea`` for the
tests' asserts in every protocol, helpers taken from the reference, arguments changed in place,
exceptions the tests expect, and the tests' calls that follow the candidate's results."""

from __future__ import annotations

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.attacks.adversarial_java import ADD_TESTS, RIGHT_ADD, WRONG_ADD, _solution
from execir.execute.jobs import IN_PROCESS, JUDGED_OUTSIDE
from execir.execute.runtimes import runtime
from execir.execute.runtimes.base import ToolchainMissing
from execir.execute.runtimes.java_split import PREFIX, entry_name, wrap
from execir.types import TestSuite, Verdict

try:
    runtime("java").discover()
except ToolchainMissing as exc:  # pragma: no cover - the Makefile installs the JDK
    pytest.skip(str(exc), allow_module_level=True)

JAVA = Limits(cpu_seconds=4.0, wall_seconds=16.0, memory_mb=1024)
P, F, E = Verdict.PASS, Verdict.FAIL, Verdict.ERROR


@pytest.fixture(scope="module")
def oracle():
    with Oracle(OracleConfig(progress=False, workers=2)) as o:
        yield o


def _main(body: str, imports: str = "import java.util.*;\n") -> TestSuite:
    return TestSuite(
        "native", f"{imports}public class Main {{\n    public static void main(String[] args) {{\n        Solution s = new Solution();\n{body}    }}\n}}\n"
    )


def _run(oracle: Oracle, cases: list[tuple[str, TestSuite, str, str]]) -> list[tuple[Verdict, str]]:
    """(program, tests, entry point, reference) each -> (verdict, protocol)."""
    jobs = [Job(program, tests, entry, JAVA, reference=reference, language="java") for program, tests, entry, reference in cases]
    return [(r.verdict, r.protocol) for r in oracle.run(jobs)]


# ---- the reference's source, rewritten (no sandbox) ----------------------------------------------
def test_wrapper_keeps_signature_and_renames_the_reference():
    source = (
        "import java.util.*;\nclass Solution {\n"
        "    /** doc (with a call: f(1)) */\n"
        "    public static <T extends Comparable<T>> List<T> f(final List<T> xs, int k, String... rest) throws Exception {\n"
        "        return k == 0 ? xs : f(xs, k - 1);\n"
        "    }\n"
        "    void g(int a[]) { }\n"
        "}\n"
    )
    wrapped = wrap(source, "f")
    assert wrapped is not None and wrapped.owner == "Solution"
    assert f"List<T> {PREFIX}f(final List<T> xs, int k, String... rest) throws Exception {{" in wrapped.source
    assert "List<T> f(final List<T> xs, int k, String... rest) throws Exception { return execir.Split.call(null, new Object[]{xs, k, rest}" in wrapped.source
    void = wrap(source, "g")
    assert void is not None and "execir.Split.call(this, new Object[]{a}, () -> { execir$entry$g(a); return null; });" in void.source
    overloaded = "class Solution {\n    int h(int a) { return a; }\n    int h(long a) { return 1; }\n}\n"
    assert wrap(overloaded, "h") is None


def test_entry_name_follows_the_reference():
    one = "class Solution {\n    public List<Object> filterIntergers(List<Object> v) { return v; }\n}\n"
    assert entry_name(one, "filterIntegers") == "filterIntergers"
    two = "class Solution {\n    int closestInteger(String v) { return 0; }\n    int helper() { return 1; }\n}\n"
    assert entry_name(two, "closest_integer") == "closestInteger"
    assert entry_name(two, "other") is None


# ---- verdicts through the oracle -----------------------------------------------------------------
ASSERT_TESTS = _main('        assert s.add(2, 3) == 5 : "add";\n        assert s.add(-1, 1) == 0;\n')
"""Tests written with Java's ``assert``: they check only when the JVM enables assertions for them."""


def test_asserts_are_enabled_in_every_protocol(oracle):
    ref = _solution(RIGHT_ADD)
    got = _run(
        oracle,
        [
            (_solution(WRONG_ADD), ASSERT_TESTS, "add", ref),
            (_solution(RIGHT_ADD), ASSERT_TESTS, "add", ref),
            (_solution(WRONG_ADD), ASSERT_TESTS, "add", ""),
            (_solution(RIGHT_ADD), ASSERT_TESTS, "add", ""),
            # the program's own asserts stay off, as in the reference build (java Main)
            (_solution("    public int add(int a, int b) { assert false; return a + b; }\n"), ASSERT_TESTS, "add", ref),
            (_solution("    public int add(int a, int b) { assert false; return a + b; }\n"), ASSERT_TESTS, "add", ""),
        ],
    )
    assert got == [(F, JUDGED_OUTSIDE), (P, JUDGED_OUTSIDE), (F, IN_PROCESS), (P, IN_PROCESS), (P, JUDGED_OUTSIDE), (P, IN_PROCESS)]


POLY_REF = _solution(
    "    public double poly(List<Double> xs, double x) { double r = 0; for (int i = 0; i < xs.size(); i++) r += xs.get(i) * Math.pow(x, i); return r; }\n"
    "    public double findZero(List<Double> xs) {\n"
    "        double lo = -1, hi = 1;\n"
    "        while (poly(xs, lo) * poly(xs, hi) > 0) { lo *= 2; hi *= 2; }\n"
    "        while (hi - lo > 1e-10) { double c = (lo + hi) / 2; if (poly(xs, lo) * poly(xs, c) > 0) lo = c; else hi = c; }\n"
    "        return lo;\n"
    "    }\n"
)
POLY_TESTS = _main(
    "        Random rand = new Random(42);\n"
    "        for (int i = 0; i < 20; i++) {\n"
    "            List<Double> c = new ArrayList<>();\n"
    "            for (int j = 0; j < 4; j++) c.add((double) (rand.nextInt(19) - 9 == 0 ? 1 : rand.nextInt(19) - 9));\n"
    "            double x = s.findZero(c);\n"
    "            if (Math.abs(s.poly(c, x)) > 1e-4) throw new AssertionError();\n"
    "        }\n"
)


def test_helpers_come_from_the_reference(oracle):
    """A program whose own ``poly`` always says 0 passes its wrong ``findZero`` in-process; judged
    outside the tests' ``s.poly`` is the reference's."""
    mutant = _solution("    public double poly(List<Double> xs, double x) { return 0; }\n    public double findZero(List<Double> xs) { return 0.5; }\n")
    got = _run(oracle, [(mutant, POLY_TESTS, "findZero", POLY_REF), (mutant, POLY_TESTS, "findZero", ""), (POLY_REF, POLY_TESTS, "findZero", POLY_REF)])
    assert got == [(F, JUDGED_OUTSIDE), (P, IN_PROCESS), (P, JUDGED_OUTSIDE)]


SORT_REF = _solution(
    "    public void sortDesc(int[] a, List<Integer> b) { Arrays.sort(a); for (int i = 0; i < a.length / 2; i++) { int t = a[i]; "
    "a[i] = a[a.length - 1 - i]; a[a.length - 1 - i] = t; } Collections.sort(b); }\n"
)
SORT_TESTS = _main(
    "        int[] a = {3, 1, 2};\n        List<Integer> b = new ArrayList<>(List.of(3, 1, 2));\n        s.sortDesc(a, b);\n"
    "        if (!Arrays.equals(a, new int[] {3, 2, 1}) || !b.equals(List.of(1, 2, 3))) throw new AssertionError();\n"
    "        List<Integer> fixed = Arrays.asList(2, 1);\n        s.sortDesc(new int[0], fixed);\n"
    "        if (!fixed.equals(List.of(1, 2))) throw new AssertionError();\n"
)


def test_arguments_changed_in_place_reach_the_tests(oracle):
    lazy = _solution("    public void sortDesc(int[] a, List<Integer> b) { Arrays.sort(a); Collections.sort(b); }\n")
    resize = _solution(
        "    public void sortDesc(int[] a, List<Integer> b) { Arrays.sort(a); for (int i = 0; i < a.length / 2; i++) { int t = a[i]; "
        "a[i] = a[a.length - 1 - i]; a[a.length - 1 - i] = t; } Collections.sort(b); b.add(9); }\n"
    )
    got = _run(oracle, [(SORT_REF, SORT_TESTS, "sortDesc", SORT_REF), (lazy, SORT_TESTS, "sortDesc", SORT_REF), (resize, SORT_TESTS, "sortDesc", SORT_REF)])
    assert got == [(P, JUDGED_OUTSIDE), (F, JUDGED_OUTSIDE), (F, JUDGED_OUTSIDE)]


RAISE_REF = _solution('    public int root(int x) { if (x < 0) throw new IllegalArgumentException("negative"); return (int) Math.sqrt(x); }\n')
RAISE_TESTS = _main(
    "        if (s.root(16) != 4) throw new AssertionError();\n"
    '        try { s.root(-1); throw new AssertionError("no exception"); } catch (IllegalArgumentException e) { }\n'
)


def test_exceptions_the_tests_expect(oracle):
    own = _solution(
        "    static class Negative extends IllegalArgumentException { }\n"
        "    public int root(int x) { if (x < 0) throw new Negative(); return (int) Math.sqrt(x); }\n"
    )
    silent = _solution("    public int root(int x) { return x < 0 ? 0 : (int) Math.sqrt(x); }\n")
    other = _solution("    public int root(int x) { if (x < 0) throw new ArithmeticException(); return (int) Math.sqrt(x); }\n")
    got = _run(oracle, [(own, RAISE_TESTS, "root", RAISE_REF), (silent, RAISE_TESTS, "root", RAISE_REF), (other, RAISE_TESTS, "root", RAISE_REF)])
    assert got == [(P, JUDGED_OUTSIDE), (F, JUDGED_OUTSIDE), (F, JUDGED_OUTSIDE)]


CHAIN_REF = _solution('    public String step(String x) { return x.length() > 3 ? x : x + "a"; }\n')
CHAIN_TESTS = _main('        if (!s.step(s.step(s.step(""))).equals("aaa")) throw new AssertionError();\n')


def test_calls_that_follow_the_candidates_results(oracle):
    """``f(f(x))``: the judge asks for the calls the reference never made (rounds)."""
    other = _solution('    public String step(String x) { return x.isEmpty() ? "aa" : x.length() == 2 ? "a" : "aaa"; }\n')
    wrong = _solution('    public String step(String x) { return x + "b"; }\n')
    got = _run(oracle, [(other, CHAIN_TESTS, "step", CHAIN_REF), (wrong, CHAIN_TESTS, "step", CHAIN_REF), (CHAIN_REF, CHAIN_TESTS, "step", CHAIN_REF)])
    assert got == [(P, JUDGED_OUTSIDE), (F, JUDGED_OUTSIDE), (P, JUDGED_OUTSIDE)]


VALUES_REF = _solution(
    "    public Map<String, Object> values(int k) {\n"
    "        Map<String, Object> m = new LinkedHashMap<>();\n"
    '        m.put("nan", Double.NaN); m.put("negzero", -0.0); m.put("inf", Double.NEGATIVE_INFINITY); m.put("float", 0.1f);\n'
    '        m.put("long", 1L << 62); m.put("char", \'x\'); m.put("short", (short) -3); m.put("big", new '
    'java.math.BigInteger("123456789012345678901234567890"));\n'
    '        m.put("text", "\\ud800a\\u00e9\\n\\"\\u0000"); m.put("nested", List.of(List.of(1), Set.of(), Map.of(2, Optional.empty())));\n'
    '        m.put("array", new int[][] {{1, 2}, {}}); m.put("k", k);\n'
    "        return m;\n"
    "    }\n"
)
VALUES_TESTS = _main(
    "        Map<String, Object> m = s.values(7);\n"
    '        if (!Double.isNaN((Double) m.get("nan")) || Double.doubleToRawLongBits((Double) m.get("negzero")) != '
    "Double.doubleToRawLongBits(-0.0)) throw new AssertionError(1);\n"
    '        if (!m.get("inf").equals(Double.NEGATIVE_INFINITY) || !m.get("float").equals(0.1f) || !m.get("long").equals(1L << 62)) throw new '
    "AssertionError(2);\n"
    '        if (!m.get("char").equals(\'x\') || !m.get("short").equals((short) -3) || '
    '!m.get("big").toString().equals("123456789012345678901234567890")) throw new AssertionError(3);\n'
    '        if (!m.get("text").equals("\\ud800a\\u00e9\\n\\"\\u0000") || !m.get("nested").equals(List.of(List.of(1), Set.of(), Map.of(2, '
    "Optional.empty())))) throw new AssertionError(4);\n"
    '        if (!Arrays.deepEquals((int[][]) m.get("array"), new int[][] {{1, 2}, {}}) || !m.get("k").equals(7)) throw new AssertionError(5);\n'
    '        if (!new ArrayList<>(m.keySet()).equals(List.of("nan", "negzero", "inf", "float", "long", "char", "short", "big", '
    '"text", "nested", "array", "k"))) throw new AssertionError(6);\n'
)


def test_wire_values_are_exact(oracle):
    widened = VALUES_REF.replace('m.put("long", 1L << 62)', 'm.put("long", (double) (1L << 62))')
    positive = VALUES_REF.replace('m.put("negzero", -0.0)', 'm.put("negzero", 0.0)')
    surrogate = VALUES_REF.replace("\\ud800a", "\\udc00a")
    got = _run(
        oracle,
        [
            (VALUES_REF, VALUES_TESTS, "values", VALUES_REF),
            (widened, VALUES_TESTS, "values", VALUES_REF),
            (positive, VALUES_TESTS, "values", VALUES_REF),
            (surrogate, VALUES_TESTS, "values", VALUES_REF),
        ],
    )
    assert got == [(P, JUDGED_OUTSIDE), (F, JUDGED_OUTSIDE), (F, JUDGED_OUTSIDE), (F, JUDGED_OUTSIDE)]


def test_no_reference_or_no_call_stays_in_process(oracle):
    none = _main("        if (1 + 1 != 2) throw new AssertionError();\n")
    got = _run(oracle, [(_solution(RIGHT_ADD), none, "add", _solution(RIGHT_ADD)), (_solution(RIGHT_ADD), ADD_TESTS, "add", "")])
    assert got == [(P, IN_PROCESS), (P, IN_PROCESS)]
