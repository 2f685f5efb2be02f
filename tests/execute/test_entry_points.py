"""The entry point to judge outside, taken from the reference and the tests when the caller names
none or a wrong one; and what a result says when the weaker in-process protocol decided."""

from __future__ import annotations

import shutil

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.jobs import IN_PROCESS, JUDGED_OUTSIDE
from execir.execute.runtimes import runtime
from execir.execute.runtimes.base import pick_entry
from execir.types import TestSuite, Verdict

GO_REF = "package main\n\nfunc helper(x int) int { return x }\n\nfunc (p point) Norm() int { return 0 }\n\nfunc Add(a int, b int) int {\n    return a + b\n}\n"
GO_TESTS = (
    'package main\n\nimport (\n    "testing"\n    "github.com/stretchr/testify/assert"\n)\n\n'
    "func TestAdd(t *testing.T) {\n    assert := assert.New(t)\n    // helper(1) is named in a comment only\n"
    "    assert.Equal(5, Add(2, 3))\n    assert.Equal(0, Add(0, 0))\n}\n"
)
RUBY_REF = "def helper(x)\n  x\nend\n\ndef add(a, b)\n  a + b\nend\n"
RUBY_TESTS = 'raise "bad" unless (add 2, 3) == 5\nraise "bad" unless add(0, 0) == 0\n'
PHP_REF = "<?php\nfunction helper($x) { return $x; }\nfunction add($a, $b) {\n    return $a + $b;\n}\n"
PHP_TESTS = '<?php\nif (add(2, 3) !== 5) { throw new Exception("helper(1)"); }\nif (add(0, 0) !== 0) { throw new Exception("bad"); }\n'
RUST_REF = "fn helper(x: i32) -> i32 { x }\n\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"
RUST_TESTS = "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() {\n        assert_eq!(add(2, 3), 5);\n        // helper(1)\n    }\n}\n"

CASES = {
    "go": (GO_REF, GO_TESTS, "Add"),
    "ruby": (RUBY_REF, RUBY_TESTS, "add"),
    "php": (PHP_REF, PHP_TESTS, "add"),
    "rust": (RUST_REF, RUST_TESTS, "add"),
}


@pytest.mark.parametrize("language", sorted(CASES))
@pytest.mark.parametrize("hint", ["", "nosuchname"])
def test_entry_name_from_reference_and_tests(language, hint):
    reference, tests, entry = CASES[language]
    assert runtime(language).entry_name(reference, tests, hint) == entry


@pytest.mark.parametrize("language", sorted(CASES))
def test_a_named_entry_point_the_reference_defines_wins(language):
    reference, tests, _entry = CASES[language]
    assert runtime(language).entry_name(reference, tests, "helper") == "helper"


def test_pick_entry_rules():
    assert pick_entry(["a", "b", "main"], "a(1); b (2); main()", "") == "b"  # the last one the tests call
    assert pick_entry(["a", "b"], "x.b(2); a(1)", "") == "a"  # a method call of another object is not it
    assert pick_entry(["a"], "nothing here", "given") == "given"  # nothing called: the name as given
    assert pick_entry(["odd?"], "odd? 3", "", parens=False) == "odd?"


@pytest.fixture(scope="module")
def oracle():
    with Oracle(OracleConfig(workers=2, progress=False)) as running:
        yield running


@pytest.mark.skipif(shutil.which("ruby") is None or shutil.which("php") is None, reason="ruby and php needed")
def test_a_missing_or_wrong_entry_point_is_still_judged_outside(oracle, capsys):
    jobs = []
    for language in ("ruby", "php"):
        reference, tests, _entry = CASES[language]
        suite = TestSuite("native", tests)
        jobs += [Job(reference, suite, hint, Limits(5.0, 20.0), reference=reference, language=language) for hint in ("", "nosuchname")]
        jobs.append(Job(reference, suite, "", Limits(5.0, 20.0), language=language))  # no reference
    results = oracle.run(jobs)
    assert [r.verdict for r in results] == [Verdict.PASS] * 6
    assert [r.protocol for r in results] == [JUDGED_OUTSIDE, JUDGED_OUTSIDE, IN_PROCESS] * 2
    for weaker in (results[2], results[5]):
        assert "a weaker protocol: no reference program was given" in weaker.detail
    err = capsys.readouterr().err
    assert err.count("ruby: judged in-process, a weaker protocol") == 1 and err.count("php: judged in-process") == 1
    reasons = oracle.reliability()["in_process_reasons"]
    assert any(key.startswith("ruby: no reference program") for key in reasons)
