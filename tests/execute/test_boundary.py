"""The judge/candidate boundary through the real oracle: one-process semantics, no false PASS."""

from __future__ import annotations

import pytest

from execir.execute import Job
from execir.execute.attacks.adversarial_boundary import BOUNDARY_CASES
from execir.execute.selftest import LIMITS
from execir.types import TestSuite, Verdict


@pytest.fixture(scope="module")
def outcomes(oracle):
    jobs = [Job(c.program, c.tests, c.entry_point, LIMITS) for c in BOUNDARY_CASES]
    return {c.name: r for c, r in zip(BOUNDARY_CASES, oracle.run(jobs))}


@pytest.mark.parametrize("case", BOUNDARY_CASES, ids=lambda c: c.name)
def test_boundary_case(outcomes, case):
    result = outcomes[case.name]
    assert result.verdict in case.expected, (case.name, result.verdict, result.detail)


def test_no_mislabel_on_boundary_cases(outcomes):
    false_pass = [c.name for c in BOUNDARY_CASES if outcomes[c.name].verdict is Verdict.PASS and Verdict.PASS not in c.expected]
    false_fail = [c.name for c in BOUNDARY_CASES if Verdict.PASS in c.expected and outcomes[c.name].verdict is not Verdict.PASS]
    assert (false_pass, false_fail) == ([], [])


def test_unsupported_type_is_named(outcomes):
    detail = outcomes["unsupported_result_type"].detail
    assert "unsupported type" in detail and "Box" in detail


def test_exit_is_reported_as_exit(outcomes):
    assert "SystemExit" in outcomes["sys_exit_zero_swallowed"].detail


def test_canonical_with_unsupported_result_fails_admission(oracle):
    admission = oracle.admit_canonical(
        "class Box:\n    pass\ndef f(x):\n    return Box()\n", TestSuite("check", "def check(candidate):\n    candidate(1)\n"), "f", repeats=1
    )
    assert not admission.ok and "Box" in admission.reason


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("always_equal_int_subclass", ("decides its own comparisons", "I defines its own __eq__")),
        ("eq_raises_system_exit", ("decides its own comparisons", "R defines its own __eq__")),
        ("exit_while_value_read", ("raised while it was read", "SystemExit")),
        ("garbage_hello_then_exit", ("malformed hello", "FrameError")),
        ("huge_int_in_assert_message", ("1/1 tests failed", "AssertionError")),
        ("len_lies_list_subclass", ("1/1 tests failed",)),
        ("dataclass_result", ("cannot cross", "unsupported type __candidate__.P")),
    ],
)
def test_why_each_class_is_decided(outcomes, name, words):
    detail = outcomes[name].detail
    assert all(word in detail for word in words), detail
