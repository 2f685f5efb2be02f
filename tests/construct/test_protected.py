"""Helpers the tests call are never mutated (their labels would depend on the harness)."""

from __future__ import annotations

from execir.construct.protected import protected_lines
from execir.types import Task, TestSuite

SOLUTION = """import math


def poly(xs, x):
    return sum(c * x ** i for i, c in enumerate(xs))


def helper(x):
    return x + 1


def find_zero(xs):
    return helper(poly(xs, 0.0))
"""


def _task(test: str, language: str = "python") -> Task:
    return Task("t", "d", SOLUTION, "find_zero", TestSuite("check", test), "s", language=language)


def test_helpers_named_by_the_tests_are_protected_and_nothing_else() -> None:
    lines = protected_lines(_task("def check(candidate):\n    assert abs(poly([1, 2], candidate([1, 2]))) < 1e-4\n"))
    assert lines == frozenset({4, 5})


def test_entry_point_and_unnamed_helpers_stay_mutable() -> None:
    assert protected_lines(_task("def check(candidate):\n    assert candidate([0]) == 1\n")) == frozenset()


def test_other_languages_have_no_protected_lines() -> None:
    assert protected_lines(_task("poly helper", language="cpp")) == frozenset()
