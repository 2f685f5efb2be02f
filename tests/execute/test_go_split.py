"""Go judged outside the candidate's process, through the real oracle: the record, the candidate's
calls and the trusted judge (values of every kind cross exactly, arguments changed by a call are
seen by the tests, rounds when the tests' arguments follow the candidate's results, time-seeded
tests, what stays in-process)."""

from __future__ import annotations

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.runtimes import ToolchainMissing, runtime
from execir.execute.runtimes.go_source import func_type, rename
from execir.types import TestSuite, Verdict

LIMITS = Limits(cpu_seconds=2.0, wall_seconds=8.0, memory_mb=512)
HEADER = 'package main\n\nimport (\n    "testing"\n    "github.com/stretchr/testify/assert"\n)\n\n'
P, F, E = Verdict.PASS, Verdict.FAIL, Verdict.ERROR


@pytest.fixture(scope="module")
def oracle():
    try:
        runtime("go").discover()
    except ToolchainMissing as exc:
        pytest.skip(str(exc))
    with Oracle(OracleConfig(workers=2, progress=False, cache_path=None)) as running:
        yield running


def check(oracle, reference: str, tests: str, entry: str, programs: dict[str, Verdict]) -> None:
    suite = TestSuite("native", HEADER + tests)
    jobs = [Job(program, suite, entry, LIMITS, reference=reference, language="go") for program in programs]
    results = oracle.run(jobs)
    got = [(r.verdict, r.protocol) for r in results]
    assert got == [(v, "judged-outside") for v in programs.values()], [(r.verdict, r.detail, r.stderr_tail[-400:]) for r in results]


def test_source_helpers():
    assert func_type("package main\nfunc F(a, b interface{}) [2]interface{} {\n}\n", "F") == "func(a, b interface{}) [2]interface{}"
    assert func_type("package main\nfunc F[T any](a T) T {\n}\n", "F") is None
    assert func_type("package main\nfunc F(d time.Duration) int {\n}\n", "F") is None
    renamed = rename('package main\n// F here\nfunc F(n int) int { s := "F"; return F(n-1) + x.F }\n', "F", "G")
    assert renamed == 'package main\n// F here\nfunc G(n int) int { s := "F"; return G(n-1) + x.F }\n'


FLOATS = 'package main\n\nimport "math"\n\nfunc Half(x float64) float64 {\n    return x / 2\n}\n\nvar _ = math.Pi\n'
FLOAT_TESTS = (
    "func TestHalf(t *testing.T) {\n    assert.Equal(t, 2.5, Half(5))\n    assert.Equal(t, 0.1/2, Half(0.1))\n"
    "    assert.Equal(t, 0.0, Half(0))\n    assert.Equal(t, true, Half(1e308) > 1e307)\n}\n"
)


def test_floats_exact(oracle):
    check(
        oracle,
        FLOATS,
        FLOAT_TESTS,
        "Half",
        {
            FLOATS: P,
            "package main\n\nfunc Half(x float64) float64 {\n    return x * 0.5\n}\n": P,
            "package main\n\nfunc Half(x float64) float64 {\n    if x == 0 {\n        return -0.0 * 1\n    }\n    return x / 2\n}\n": P,
            'package main\n\nimport "math"\n\nfunc Half(x float64) float64 {\n    return math.Nextafter(x/2, 10)\n}\n': F,
            'package main\n\nimport "math"\n\nfunc Half(x float64) float64 {\n    return math.NaN()\n}\n': F,
        },
    )


INTERFACES = (
    "package main\n\nfunc Pick(xs []interface{}) (interface{}, error) {\n    if len(xs) == 0 {\n        return nil, nil\n    }\n"
    "    return xs[len(xs)-1], nil\n}\n"
)
INTERFACE_TESTS = (
    'func TestPick(t *testing.T) {\n    v, err := Pick([]interface{}{1, \'a\', "s\\xff"})\n    assert.Nil(t, err)\n    assert.Equal(t, "s\\xff", v)\n'
    "    v, _ = Pick([]interface{}{2.5, []int{}})\n    assert.Equal(t, []int{}, v)\n"
    '    v, _ = Pick([]interface{}{map[string]int{"b": 1, "a": 2}})\n    assert.Equal(t, map[string]int{"a": 2, "b": 1}, v)\n'
    "    v, _ = Pick(nil)\n    assert.Equal(t, nil, v)\n}\n"
)


def test_interfaces_strings_nil_and_errors(oracle):
    last = "return xs[len(xs)-1], nil"
    replaced = INTERFACES.replace(last, "if s, ok := xs[len(xs)-1].(string); ok {\n        return []rune(s)[0:1][0:0], nil\n    }\n    " + last)
    lossy = INTERFACES.replace(last, 'if s, ok := xs[len(xs)-1].(string); ok {\n        return s[:1] + "\\ufffd", nil\n    }\n    ' + last)
    check(
        oracle,
        INTERFACES,
        INTERFACE_TESTS,
        "Pick",
        {
            INTERFACES: P,
            INTERFACES.replace("[len(xs)-1], nil", '[len(xs)-1], errors.New("last")').replace("package main\n", 'package main\n\nimport "errors"\n'): F,
            lossy: F,
            INTERFACES.replace("return nil, nil", "var p *int\n        return p, nil"): F,
            replaced: F,
        },
    )


SORTS = 'package main\n\nimport "sort"\n\nfunc SortInPlace(xs []int) {\n    sort.Ints(xs)\n}\n'
SORT_TESTS = (
    "func TestSortInPlace(t *testing.T) {\n    xs := []int{3, 1, 2}\n    SortInPlace(xs)\n    assert.Equal(t, []int{1, 2, 3}, xs)\n"
    "    ys := []int{5, 4}\n    SortInPlace(ys)\n    SortInPlace(ys)\n    assert.Equal(t, []int{4, 5}, ys)\n}\n"
)


def test_changed_arguments_reach_the_tests(oracle):
    check(
        oracle,
        SORTS,
        SORT_TESTS,
        "SortInPlace",
        {
            SORTS: P,
            "package main\n\nfunc SortInPlace(xs []int) {\n    for i := range xs {\n        for j := i + 1; j < len(xs); j++ {\n"
            "            if xs[j] < xs[i] {\n                xs[i], xs[j] = xs[j], xs[i]\n            }\n        }\n    }\n}\n": P,
            "package main\n\nfunc SortInPlace(xs []int) {\n    ys := append([]int{}, xs...)\n    _ = ys\n}\n": F,
        },
    )


NEXT = "package main\n\nfunc Next(n int) int {\n    if n%2 == 0 {\n        return n / 2\n    }\n    return 3*n + 1\n}\n"
NEXT_TESTS = "func TestNext(t *testing.T) {\n    n := 6\n    for i := 0; i < 6; i++ {\n        n = Next(n)\n    }\n    assert.Equal(t, 4, n)\n}\n"


def test_rounds_when_arguments_follow_results(oracle):
    """Each call's argument is the previous result: a wrong candidate is asked the calls its own
    results lead to (rounds), and the tests decide on its final value."""
    wrong = NEXT.replace("return n / 2", "return n/2 + 1")
    check(oracle, NEXT, NEXT_TESTS, "Next", {NEXT: P, NEXT.replace("n%2 == 0", "n&1 == 0"): P, wrong: F})


SHIFT = (
    "package main\n\nfunc Shift(s string) string {\n    out := []rune{}\n    for _, r := range s {\n        out = append(out, (r-'a'+5)%26+'a')\n"
    "    }\n    return string(out)\n}\n"
)
SHIFT_TESTS = (
    "func TestShift(t *testing.T) {\n    rng := rand.New(rand.NewSource(time.Now().UnixNano()))\n    for i := 0; i < 30; i++ {\n"
    "        runes := []rune{}\n        for j := 0; j < 5+rng.Intn(10); j++ {\n            runes = append(runes, rune('a'+rng.Intn(26)))\n        }\n"
    "        s := string(runes)\n        assert.Equal(t, len(s), len(Shift(s)))\n"
    "        assert.Equal(t, rune((s[0]-'a'+5)%26+'a'), []rune(Shift(s))[0])\n    }\n}\n"
)


def test_time_seeded_tests_are_judged_outside(oracle):
    tests = SHIFT_TESTS
    suite_header = HEADER.replace('"testing"\n', '"testing"\n    "math/rand"\n    "time"\n')
    suite = TestSuite("native", suite_header + tests)
    wrong = SHIFT.replace("+5)%26", "+4)%26")
    results = oracle.run([Job(p, suite, "Shift", LIMITS, reference=SHIFT, language="go") for p in (SHIFT, wrong)])
    assert [(r.verdict, r.protocol) for r in results] == [(P, "judged-outside"), (F, "judged-outside")], [r.detail for r in results]


def test_what_stays_in_process(oracle):
    generic = "package main\n\nfunc Add[T int | float64](a, b T) T {\n    return a + b\n}\n"
    tests = TestSuite("native", HEADER + "func TestAdd(t *testing.T) {\n    assert.Equal(t, 5, Add(2, 3))\n}\n")
    never = TestSuite("native", HEADER + "func TestNothing(t *testing.T) {\n    assert.Equal(t, 5, 2+3)\n}\n")
    plain = "package main\n\nfunc Add(a, b int) int {\n    return a + b\n}\n"
    results = oracle.run(
        [
            Job(generic, tests, "Add", LIMITS, reference=generic, language="go"),
            Job(plain, never, "Add", LIMITS, reference=plain, language="go"),
            Job(plain, tests, "", LIMITS, language="go"),
        ]
    )
    assert [(r.verdict, r.protocol) for r in results] == [(P, "in-process")] * 3
