"""Rust through the real oracle: native tests in-process and judged outside (PASS/FAIL/ERROR/early
exit), the selftest cases, and the HumanEval-X ground truth (canonicals pass three times,
HumanEvalPack buggy solutions do not pass)."""

from __future__ import annotations

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.attacks.adversarial_rust import ADD_TESTS, CASES
from execir.execute.runtimes import ToolchainMissing, rust, rust_source, rust_split
from execir.tasks.multilingual import humanevalx_rust
from execir.types import TestSuite, Verdict

try:
    rust.find_rustc()
    HAVE_RUSTC = True
except ToolchainMissing:
    HAVE_RUSTC = False

needs_rustc = pytest.mark.skipif(not HAVE_RUSTC, reason="rustc not installed")
LIMITS = Limits(3.0, 15.0)
ADD_OK = "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"
STAYS_IN_PROCESS = {"Rust/22", "Rust/137", "Rust/32", "Rust/38", "Rust/50", "Rust/53"}
"""HumanEval-X Rust tasks judged in-process (6 of 164): Rust/22 takes ``Vec<Box<dyn Any>>``, Rust/137
``&dyn Any`` and returns the task's own ``RtnType`` (the wire cannot carry them); the others' tests
draw random arguments with ``rand``."""
RAND_07 = {"Rust/32", "Rust/50"}
"""Tests written against rand 0.7 (``gen_range(lo, hi)``): they do not compile with Debian's rand 0.8."""


@pytest.fixture(scope="module")
def oracle():
    with Oracle(OracleConfig(workers=2, progress=False)) as running:
        yield running


def test_test_functions_are_listed_and_pinned():
    found = rust_source.test_functions('mod tests {\n use super::*;\n #[test]\n fn a() { assert_eq!(f("assert!("), vec![1]); }\n}\n')
    assert found.paths == ("tests::a",)
    assert "pub(crate) mod tests" in found.code and "pub(crate) fn a" in found.code
    assert '::std::assert_eq!(f("assert!("), ::std::vec![1])' in found.code


def test_signature_and_wire_types():
    found = rust_source.signature("fn main(){}\nfn f(mut a: i32, s: &str, xs: Vec<&str>) -> Option<(i32, String)> {\n a\n}\n", "f")
    assert found is not None and found.params == (("mut a", "i32"), ("s", "&str"), ("xs", "Vec<&str>"))
    assert found.returns == "Option<(i32, String)>" and rust_split.supported(found)
    assert not rust_split.supported(rust_source.signature("fn g(v: Vec<Box<dyn Any>>) -> Vec<i32> { vec![] }", "g"))
    assert rust_split.static("Vec<&'a str>") == "Vec<&'static str>"


@needs_rustc
@pytest.mark.parametrize("reference", ["", ADD_OK])
def test_native_verdicts(oracle, reference):
    jobs = {
        "pass": ADD_OK,
        "fail": "fn add(a: i32, b: i32) -> i32 { a - b }\n",
        "error": "fn add(a: i32, b: i32) -> i32 { a + }\n",
        "early_exit": "fn add(a: i32, b: i32) -> i32 { std::process::exit(0) }\n",
        "loop": "fn add(a: i32, b: i32) -> i32 { loop {} }\n",
    }
    runs = [Job(p, ADD_TESTS, "add", Limits(1.0, 10.0), language="rust", reference=reference) for p in jobs.values()]
    results = dict(zip(jobs, oracle.run(runs)))
    protocol = "judged-outside" if reference else "in-process"
    assert (results["pass"].verdict, results["pass"].protocol) == (Verdict.PASS, protocol), results["pass"]
    assert results["fail"].verdict is Verdict.FAIL
    assert results["error"].verdict is Verdict.ERROR
    assert results["early_exit"].verdict is Verdict.FAIL
    assert results["loop"].verdict is Verdict.TIMEOUT


@needs_rustc
def test_selftest_cases(oracle):
    jobs = [Job(c.program, c.tests, c.entry_point, LIMITS, language="rust", reference=c.reference) for c in CASES]
    wrong = [(c.name, r.verdict, r.detail[:200]) for c, r in zip(CASES, oracle.run(jobs)) if r.verdict not in c.expected]
    assert not wrong


@needs_rustc
@pytest.mark.skipif(not humanevalx_rust.load(), reason="../shared/data absent")
def test_humanevalx_ground_truth(oracle):
    tasks = humanevalx_rust.load()
    assert len(tasks) == 164
    jobs = []
    for task in tasks:
        suite = TestSuite("native", task.tests)
        jobs += [Job(task.program, suite, task.entry_point, Limits(5.0, 20.0), language="rust", reference=task.program)] * 3
        jobs.append(Job(task.buggy or "", suite, task.entry_point, Limits(5.0, 20.0), language="rust", reference=task.program))
    results = oracle.run(jobs)
    canonicals = [results[4 * i : 4 * i + 3] for i in range(len(tasks))]
    failing = {t.task_id for t, runs in zip(tasks, canonicals) if any(r.verdict is not Verdict.PASS for r in runs)}
    assert failing == RAND_07
    inside = {t.task_id for t, runs in zip(tasks, canonicals) if any(r.protocol != "judged-outside" for r in runs)}
    assert inside == STAYS_IN_PROCESS
    assert [t.task_id for i, t in enumerate(tasks) if results[4 * i + 3].verdict is Verdict.PASS] == []
