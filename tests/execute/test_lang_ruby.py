"""Ruby through the real oracle: native tests (PASS/FAIL/ERROR/early exit), stdio, the adversarial
case counts and the MBXP Ruby ground truth (canonicals pass three times)."""

from __future__ import annotations

import shutil

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.attacks.adversarial_ruby import CASES, OK, SPLIT_ATTACKS, SPLIT_CONTROLS, TESTS, WRONG
from execir.tasks.multilingual import mbxp_ruby, shared_data
from execir.types import StdioCase, TestSuite, Verdict

pytestmark = pytest.mark.skipif(shutil.which("ruby") is None, reason="ruby not installed")

LIMITS = Limits(2.0, 8.0)
UPSTREAM_WRONG = {"MBRBP/453", "MBRBP/546"}
"""MBXP Ruby canonicals that call ``exit`` in the middle of the tests (status 0 before any check ran:
mxeval's exit-status harness counts them as passing)."""


@pytest.fixture(scope="module")
def oracle():
    with Oracle(OracleConfig(workers=2, progress=False)) as running:
        yield running


def test_native_verdicts(oracle):
    jobs = {
        "pass": (OK, Verdict.PASS),
        "fail": (WRONG, Verdict.FAIL),
        "raises": ("def add(a, b)\n  raise ArgumentError, 'no'\nend\n", Verdict.FAIL),
        "early_exit": ("exit!(0)\n" + OK, Verdict.FAIL),
        "exit_in_tests": ("def add(a, b)\n  exit(0)\nend\n", Verdict.FAIL),
        "syntax_error": ("def add(a, b\nend\n", Verdict.ERROR),
        "set_without_require": ("def add(a, b)\n  Set.new([a, b]).sum + (a == b ? a : 0)\nend\n", Verdict.PASS),
    }
    results = oracle.run([Job(program, TESTS, "", LIMITS, language="ruby") for program, _ in jobs.values()])
    for (name, (_, expected)), result in zip(jobs.items(), results):
        assert result.verdict is expected, (name, result.detail, result.stderr_tail)
    assert "no completion record" in results[3].detail


def test_stdio(oracle):
    program = "a, b = gets.split.map(&:to_i)\nputs a + b\n"
    suite = TestSuite("stdio", stdio_cases=(StdioCase("3 4\n", "7\n"), StdioCase("1 1\n", "2\n")))
    good, bad = oracle.run([Job(program, suite, "", LIMITS, language="ruby"), Job(program.replace("a + b", "a - b"), suite, "", LIMITS, language="ruby")])
    assert good.verdict is Verdict.PASS, good.detail
    assert bad.verdict is Verdict.FAIL


def test_case_count():
    attacks = [c for c in CASES if c.category != "control"]
    assert len(attacks) >= 8 and len(CASES) - len(attacks) >= 3
    assert all(Verdict.PASS not in c.expected for c in attacks)
    assert len(SPLIT_ATTACKS) >= 20 and len(SPLIT_CONTROLS) >= 15
    assert all(c.reference and c.entry_point for c in CASES if c.tests.kind == "native")


def test_split_cases_judged_outside(oracle):
    """The judged-outside attacks and controls through the real oracle: attacks never PASS, controls
    PASS, every one decided outside the candidate's process."""
    cases = SPLIT_ATTACKS + SPLIT_CONTROLS
    results = oracle.run([Job(c.program, c.tests, c.entry_point, LIMITS, reference=c.reference, language="ruby") for c in cases])
    for case, result in zip(cases, results):
        assert result.verdict in case.expected, (case.name, result.verdict, result.detail, result.stderr_tail)
        assert result.protocol == "judged-outside", (case.name, result.detail)


def test_judged_outside_verdicts(oracle):
    """With the task's reference the tests are judged outside: a wrong value, an exception, an exit
    or a syntax error fail as before, and patches of core classes the program relies on pass."""
    jobs = {
        "pass": (OK, Verdict.PASS),
        "fail": (WRONG, Verdict.FAIL),
        "raises": ("def add(a, b)\n  raise ArgumentError, 'no'\nend\n", Verdict.FAIL),
        "exit_in_call": ("def add(a, b)\n  exit(0)\nend\n", Verdict.FAIL),
        "exit_bang_at_load": ("exit!(0)\n" + OK, Verdict.FAIL),
        "syntax_error": ("def add(a, b\nend\n", Verdict.ERROR),
        "float_equal": ("def add(a, b)\n  (a + b).to_f\nend\n", Verdict.PASS),
        "redefines_array_sum": ("class Array\n  def sum\n    inject(0) { |s, x| s + x }\n  end\nend\ndef add(a, b)\n  [a, b].sum\nend\n", Verdict.PASS),
        "integer_plus_patched": ("class Integer\n  def +(o) = 99\nend\n" + OK, Verdict.FAIL),
    }
    results = oracle.run([Job(program, TESTS, "add", LIMITS, reference=OK, language="ruby") for program, _ in jobs.values()])
    for (name, (_, expected)), result in zip(jobs.items(), results):
        assert result.verdict is expected, (name, result.detail, result.stderr_tail)
        assert result.protocol == "judged-outside", (name, result.detail)


def test_unsplittable_tests_stay_in_process(oracle):
    """Tests that call the entry point with a block, pass an argument with no exact wire form, or
    never call it, run in-process (and still decide)."""
    block = TestSuite("native", "x = add(1, 2) { 0 }\nraise 'bad' if x != 3\n")
    lam = TestSuite("native", "x = add(1, ->(y) { y })\nraise 'bad' if x != 1\n")
    never = TestSuite("native", "raise 'bad' if 1 + 2 != 3\n")
    reference = "def add(a, b)\n  b.respond_to?(:call) ? a : a + b\nend\n"
    results = oracle.run([Job(reference, suite, "add", LIMITS, reference=reference, language="ruby") for suite in (block, lam, never)])
    for result in results:
        assert result.verdict is Verdict.PASS and result.protocol == "in-process", result.detail


def _failed_canonicals(tasks):
    with Oracle(OracleConfig(workers=2, progress=False)) as oracle:
        admitted = oracle.admit_canonicals([(t.program, TestSuite("native", t.tests), t.entry_point) for t in tasks], language="ruby")
    inside = {t.task_id for t, a in zip(tasks, admitted) if a.results[0].protocol != "judged-outside"}
    assert inside <= UPSTREAM_WRONG, f"in-process: {sorted(inside)}"  # their tests exit: not recordable
    return {t.task_id: a.reason for t, a in zip(tasks, admitted) if not a.ok}


@pytest.mark.shared
def test_ground_truth_sample():
    if shared_data() is None:
        pytest.skip("../shared/data not present")
    tasks = {t.task_id: t for t in mbxp_ruby.load()}
    ids = ["MBRBP/2", "MBRBP/3", "MBRBP/4", "MBRBP/453", "MBRBP/735", "MBRBP/100", "MBRBP/200", "MBRBP/300", "MBRBP/400", "MBRBP/500"]
    sample = [tasks[i] for i in ids if i in tasks]
    assert len(sample) >= 8
    assert set(_failed_canonicals(sample)) == {"MBRBP/453"}


@pytest.mark.shared
@pytest.mark.slow
def test_ground_truth_full():
    if shared_data() is None:
        pytest.skip("../shared/data not present")
    tasks = mbxp_ruby.load()
    assert len(tasks) == 784
    assert set(_failed_canonicals(tasks)) == UPSTREAM_WRONG
