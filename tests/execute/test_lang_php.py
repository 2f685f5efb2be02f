"""PHP through the real oracle: judged outside (attacks, controls), the in-process runner (its own
attacks), stdio, and the MBXP PHP ground truth."""

from __future__ import annotations

import shutil

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.attacks.adversarial_php import ATTACKS, CASES, CONTROLS, OK, OWN_TESTS_ATTACKS, TESTS, WRONG
from execir.tasks.multilingual import mbxp_php, shared_data
from execir.types import TestSuite, Verdict

pytestmark = pytest.mark.skipif(shutil.which("php") is None, reason="php not installed")

LIMITS = Limits(2.0, 8.0)
EXITS_OR_SWALLOWS = {"MBPHP/14", "MBPHP/175", "MBPHP/196"}
"""MBXP PHP canonicals that pass with ``php f.php`` only because their tests never check anything:
``exit`` in the function (MBPHP/14) or a ``?>``/trailing text that turns the tests into output."""
PLAIN_FAIL = {"MBPHP/26", "MBPHP/37", "MBPHP/400"}
"""Canonicals that fail their own tests with plain ``php`` too."""


@pytest.fixture(scope="module")
def oracle():
    with Oracle(OracleConfig(workers=2, progress=False)) as running:
        yield running


def test_case_count():
    assert len(ATTACKS) + len(OWN_TESTS_ATTACKS) >= 10 and len(CONTROLS) >= 10
    assert all(Verdict.PASS not in c.expected for c in ATTACKS + OWN_TESTS_ATTACKS)
    assert all(c.expected == frozenset({Verdict.PASS}) for c in CONTROLS)
    assert all(c.reference and c.entry_point for c in CASES if c.tests.kind == "native")


def test_cases_judged_outside(oracle):
    """Attacks never PASS, controls PASS, every native case decided outside the candidate's process."""
    results = oracle.run([Job(c.program, c.tests, c.entry_point, LIMITS, reference=c.reference, language="php") for c in CASES])
    for case, result in zip(CASES, results):
        assert result.verdict in case.expected, (case.name, result.verdict, result.detail, result.stderr_tail)
        if case.tests.kind == "native":
            assert result.protocol == "judged-outside", (case.name, result.detail)


def test_in_process_runner(oracle):
    """Without a reference the tests run in-process: verdicts, and the runner's own attacks."""
    jobs = {
        "pass": (OK, Verdict.PASS),
        "fail": (WRONG, Verdict.FAIL),
        "syntax_error": ("<?php\nfunction add($a, $b {\n}\n", Verdict.ERROR),
        "exit_at_load": ("<?php\nexit(0);\n", Verdict.FAIL),
        "exit_in_call": ("<?php\nfunction add($a, $b) {\n    exit(0);\n}\n", Verdict.FAIL),
        "redeclares_compare": ("<?php\nfunction compare($x, $y) {\n    return true;\n}\n" + WRONG[6:], Verdict.FAIL),
        "resumes_tests_early": (
            "<?php\n$g = (new ReflectionProperty('ExecIRRunner', 'session'))->getValue();\ntry { $g->next(); } catch (Throwable $e) {}\n" + WRONG[6:],
            Verdict.FAIL,
        ),
        "resumes_and_exits": (
            "<?php\nfunction add($a, $b) {\n    return $a + $b;\n}\n$g = (new ReflectionProperty('ExecIRRunner', 'session'))->getValue();\n"
            "$g->next();\nexit(0);\n",
            Verdict.PASS,
        ),
        "globals_hunt": ("<?php\nfunction add($a, $b) {\n    return $GLOBALS['v0'] ?? $a - $b;\n}\n", Verdict.FAIL),
        "shutdown_exit": ("<?php\nregister_shutdown_function(fn() => exit(0));\n" + WRONG[6:], Verdict.FAIL),
        "reads_tests_file": ("<?php\nfunction add($a, $b) {\n    return @file_get_contents('tests.php') ? 5 : $a - $b;\n}\n", Verdict.FAIL),
        "reads_proc_environ": ("<?php\nif (@file_get_contents('/proc/self/environ') !== false) { exit(0); }\n" + WRONG[6:], Verdict.FAIL),
        "fork_search": (
            "<?php\nfunction add($a, $b) {\n    return function_exists('pcntl_fork') && pcntl_fork() === 0 ? $a + $b : $a - $b;\n}\n",
            Verdict.FAIL,
        ),
        "global_memo": ('<?php\n$memo = [];\nfunction add($a, $b) {\n    global $memo;\n    return $memo["$a,$b"] ??= $a + $b;\n}\n', Verdict.PASS),
    }
    results = oracle.run([Job(program, TESTS, "add", LIMITS, language="php") for program, _ in jobs.values()])
    for (name, (_, expected)), result in zip(jobs.items(), results):
        assert result.verdict is expected, (name, result.detail, result.stderr_tail)
        assert result.protocol == "in-process", name


def test_unsplittable_tests_stay_in_process(oracle):
    """Tests that pass an object of their own class, or never call the entry point, run in-process."""
    own_class = TestSuite("native", "class Box { public $v = 2; }\nif (add(new Box(), 3) != 5) { throw new Exception('e'); }\n")
    never = TestSuite("native", "if (1 + 2 != 3) { throw new Exception('e'); }\n")
    reference = "<?php\nfunction add($a, $b) {\n    return (is_object($a) ? $a->v : $a) + $b;\n}\n"
    results = oracle.run([Job(reference, suite, "add", LIMITS, reference=reference, language="php") for suite in (own_class, never)])
    for result in results:
        assert result.verdict is Verdict.PASS and result.protocol == "in-process", result.detail


def _admitted(tasks):
    with Oracle(OracleConfig(workers=2, progress=False)) as oracle:
        admitted = oracle.admit_canonicals([(t.program, TestSuite("native", t.tests), t.entry_point) for t in tasks], language="php")
    return {t.task_id: (a.ok, a.results[0].protocol) for t, a in zip(tasks, admitted)}


@pytest.mark.shared
def test_ground_truth_sample():
    if shared_data() is None:
        pytest.skip("../shared/data not present")
    tasks = {t.task_id: t for t in mbxp_php.load()}
    assert len(tasks) == 950
    ids = ["MBPHP/1", "MBPHP/2", "MBPHP/3", "MBPHP/100", "MBPHP/200", "MBPHP/300", "MBPHP/500"] + sorted(EXITS_OR_SWALLOWS | PLAIN_FAIL)
    found = _admitted([tasks[i] for i in ids])
    assert {i for i, (ok, _) in found.items() if not ok} == EXITS_OR_SWALLOWS | PLAIN_FAIL
    assert all(protocol == "judged-outside" for ok, protocol in found.values() if ok)
