"""Rewrites and user candidates judged by execution, with a scripted oracle: the decision rules
(kept as 2 only when every run passes; 1 only for the same failure on every run; everything else
rejected with its reason), duplicates of pool texts, and candidates of tasks outside the build."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import pytest

import execir.construct.extras as extras_module
from execir.construct.extras import POSITIVE_REPEATS, ExtrasOutcome, verify_candidates, verify_rewrites
from execir.execute import ExecResult, Job, Oracle
from execir.rewrite import Rewrite
from execir.tasks.candidates import Candidate
from execir.types import Verdict
from tests.dataset.builders import exec_result, kept_mutant, make_task, program, verified

P, F, T, E, FL, U = Verdict.PASS, Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.FLAKY, Verdict.UNDECIDED


class ScriptedOracle:
    """Answers ``run_repeated`` from a function of the program text; records every call."""

    def __init__(self, script: Callable[[str], Sequence[Verdict]]) -> None:
        self.script = script
        self.calls: list[tuple[list[Job], int, str]] = []

    def run_repeated(self, jobs: Sequence[Job], repeats: int, desc: str = "exec") -> list[tuple[ExecResult, ...]]:
        self.calls.append((list(jobs), repeats, desc))
        out = []
        for job in jobs:
            verdicts = tuple(self.script(job.program))
            assert len(verdicts) == repeats
            out.append(tuple(exec_result(v) for v in verdicts))
        return out


def oracle(script: Callable[[str], Sequence[Verdict]]) -> tuple[ScriptedOracle, Oracle]:
    fake = ScriptedOracle(script)
    return fake, cast(Oracle, fake)


def _outcome_of(text_verdicts: dict[str, Sequence[Verdict]]) -> Callable[[str], Sequence[Verdict]]:
    def script(text: str) -> Sequence[Verdict]:
        for marker, verdicts in text_verdicts.items():
            if marker in text:
                return verdicts
        raise AssertionError(f"unscripted program {text!r}")

    return script


# rewrites


@pytest.mark.parametrize(
    ("verdicts", "kept", "reason"),
    [
        ((P, P), True, ""),
        ((P, F), False, "flaky"),
        ((F, P), False, "flaky"),
        ((F, F), False, "fail"),
        ((T, T), False, "timeout"),
        ((E, E), False, "error"),
        ((P, FL), False, "flaky"),
        ((U, P), False, "undecided"),
        ((P, U), False, "undecided"),
        ((FL, FL), False, "flaky"),
    ],
)
def test_a_rewrite_is_kept_only_when_every_run_passes(monkeypatch: pytest.MonkeyPatch, verdicts: tuple[Verdict, ...], kept: bool, reason: str) -> None:
    item = verified(make_task(0), mutants=1)
    text = item.task.solution.replace("min(xs) + 0", "0 + min(xs)")
    monkeypatch.setattr(extras_module, "rewrites_of", lambda solution, language, entry_point: [Rewrite("swap_commutative", text)])
    fake, real = oracle(lambda _: verdicts)
    outcome = ExtrasOutcome()
    verify_rewrites([item], real, outcome, per_task=3, seed=0)
    assert [(len(jobs), repeats, desc) for jobs, repeats, desc in fake.calls] == [(1, POSITIVE_REPEATS, "rewrites")]
    assert fake.calls[0][0][0].program == text and fake.calls[0][0][0].reference == item.task.solution
    assert (outcome.rewrites_generated, outcome.rewrites_run) == (1, 1)
    if kept:
        (extra,) = item.extras
        assert (extra.kind, extra.text, extra.grade, extra.operator, extra.verdict) == ("rewrite", text, 2, "swap_commutative", "PASS")
        assert extra.edit.line == 2 and extra.edit_distance > 0
        assert outcome.rewrites_kept == {"swap_commutative": 1} and not +outcome.rewrites_rejected  # (+ drops zero counts)
    else:
        assert item.extras == []
        assert +outcome.rewrites_rejected == {reason: 1} and not outcome.rewrites_kept


def test_rewrites_of_real_rules_per_task_limit_and_duplicates() -> None:
    solution = "def f0(xs):\n    total = min(xs)\n    return total + 0\n"
    item = verified(make_task(0, solution=solution), mutants=0)
    other = verified(make_task(1, solution="def f1(xs):\n    total = max(xs)\n    return total + 1\n"), mutants=0)
    duplicate = "def f0(xs):\n    ans = min(xs)\n    return ans + 0\n"  # what rename_local makes: already in the pool
    item.mutants = [kept_mutant(item.task, duplicate)]
    fake, real = oracle(lambda _: (P, P))
    outcome = ExtrasOutcome()
    verify_rewrites([item, other], real, outcome, per_task=1, seed=0)
    assert outcome.rewrites_generated == 4
    assert outcome.rewrites_rejected == {"duplicate_text": 1}
    assert outcome.rewrites_run == 2 and sum(outcome.rewrites_kept.values()) == 2
    assert [e.text for e in item.extras] == ["def f0(xs):\n    total = min(xs)\n    return 0 + total\n"]
    assert len(other.extras) == 1 and other.extras[0].text != other.task.solution
    assert len(fake.calls) == 1  # one batch for every task


@pytest.mark.parametrize("per_task", [0, -1])
def test_no_rewrites_wanted_runs_nothing(per_task: int) -> None:
    fake, real = oracle(lambda _: (P, P))
    outcome = ExtrasOutcome()
    verify_rewrites([verified(make_task(0))], real, outcome, per_task=per_task, seed=0)
    assert fake.calls == [] and outcome.to_json()["rewrites"] == {"generated": 0, "run": 0, "kept": 0, "kept_by_rule": {}, "rejected": {}}


def test_rewrites_skip_tasks_without_a_reference() -> None:
    fake, real = oracle(lambda _: (P, P))
    item = verified(make_task(0, canonical=False), mutants=0)
    verify_rewrites([item], real, ExtrasOutcome(), per_task=2, seed=0)
    assert fake.calls == [] and item.extras == []


# candidates


def _candidate(n: int, body: str, *, language: str = "python", source: str = "model-x", task: str | None = None) -> Candidate:
    return Candidate(task or f"HumanEval/{n}", language, program(language, n, body), source, 1)


@pytest.mark.parametrize(
    ("verdicts", "grade", "verdict", "reason"),
    [
        ((P, P), 2, "PASS", ""),
        ((F, F), 1, "FAIL", ""),
        ((T, T), 1, "TIMEOUT", ""),
        ((E, E), 0, "", "does_not_compile"),  # no hard negative: the tests never ran it
        ((P, F), 0, "", "flaky"),
        ((F, P), 0, "", "flaky"),
        ((FL, FL), 0, "", "flaky"),
        ((F, FL), 0, "", "flaky"),
        ((U, U), 0, "", "undecided"),
        ((P, U), 0, "", "undecided"),
        ((F, T), 0, "", "inconsistent_failure"),  # failed both times, but not the same way: no label
        ((T, E), 0, "", "inconsistent_failure"),
    ],
)
def test_candidate_decision_rules(verdicts: tuple[Verdict, ...], grade: int, verdict: str, reason: str) -> None:
    item = verified(make_task(0), mutants=1)
    candidate = _candidate(0, "sorted(xs)[0] + 0")
    fake, real = oracle(lambda _: verdicts)
    outcome = ExtrasOutcome()
    verify_candidates([item], real, outcome, [candidate])
    assert [(len(jobs), repeats, desc) for jobs, repeats, desc in fake.calls] == [(1, POSITIVE_REPEATS, "candidates")]
    assert outcome.candidates_run == 1
    if grade:
        (extra,) = item.extras
        assert (extra.kind, extra.text, extra.grade, extra.operator, extra.verdict) == ("candidate", candidate.code, grade, "model-x", verdict)
        assert extra.edit.before == "min(xs)" and extra.edit.after == "sorted(xs)[0]"
        assert (outcome.candidates_passed, outcome.candidates_failed) == ((1, 0) if grade == 2 else (0, 1))
        assert not outcome.candidates_rejected
    else:
        assert item.extras == [] and outcome.candidates_passed == outcome.candidates_failed == 0
        assert outcome.candidates_rejected == {reason: 1}


def test_candidates_duplicates_and_tasks_outside_the_build() -> None:
    items = [verified(make_task(0), mutants=1), verified(make_task(1), mutants=0, rewrites=1), verified(make_task(2, "java"), mutants=0)]
    candidates = [
        _candidate(0, "min(xs) + 0"),  # the canonical itself
        _candidate(0, "max(xs) + 0"),  # the mutant's text
        _candidate(1, "1 + min(xs) + 0"),  # the rewrite's text
        _candidate(1, "xs[0] + 1", source="a"),  # fresh: run
        _candidate(1, "xs[0] + 1", source="b"),  # the same text twice: the second is a duplicate
        _candidate(9, "xs[0]"),  # a task not in the build: skipped, not counted here
        _candidate(2, "xs[0]", language="python", task="Java/2"),  # right task id, wrong language: skipped
        _candidate(2, "xs[1]", language="java", task="Java/2"),  # java: run
    ]
    fake, real = oracle(_outcome_of({"xs[0] + 1": (P, P), "xs[1]": (F, F)}))
    outcome = ExtrasOutcome(candidates_loaded=len(candidates))
    verify_candidates(items, real, outcome, candidates)
    assert outcome.candidates_rejected == {"duplicate_text": 4}
    assert outcome.candidates_run == 2 and outcome.candidates_passed == 1 and outcome.candidates_failed == 1
    assert [job.program for job in fake.calls[0][0]] == [candidates[3].code, candidates[7].code]
    assert [job.language for job in fake.calls[0][0]] == ["python", "java"]
    assert [(e.operator, e.grade) for e in items[1].extras if e.kind == "candidate"] == [("a", 2)]
    assert [(e.operator, e.grade, e.verdict) for e in items[2].extras] == [("model-x", 1, "FAIL")]
    assert items[0].extras == []


def test_candidate_comments_are_stripped_before_judging_duplicates() -> None:
    item = verified(make_task(0), mutants=0)
    commented = Candidate("HumanEval/0", "python", "def f0(xs):\n    # the smallest, shifted\n    return min(xs) + 0\n", "m", 1)
    fake, real = oracle(lambda _: (P, P))
    outcome = ExtrasOutcome()
    verify_candidates([item], real, outcome, [commented])
    assert outcome.candidates_rejected == {"duplicate_text": 1} and fake.calls == []


def test_unparsable_candidate_keeps_its_text_and_is_judged() -> None:
    item = verified(make_task(0), mutants=0)
    broken = Candidate("HumanEval/0", "python", "def f0(xs:\n    return (\n", "m", 1)
    fake, real = oracle(lambda _: (E, E))
    outcome = ExtrasOutcome()
    verify_candidates([item], real, outcome, [broken])
    assert [job.program for job in fake.calls[0][0]] == [broken.code]  # judged with its text as it is
    assert item.extras == [] and outcome.candidates_rejected == {"does_not_compile": 1}


def test_candidate_of_a_task_without_a_reference_has_no_edit() -> None:
    item = verified(make_task(3, canonical=False), mutants=0)
    fake, real = oracle(lambda _: (P, P))
    verify_candidates([item], real, ExtrasOutcome(), [_candidate(3, "sorted(xs)[0] + 3")])
    (extra,) = item.extras
    assert (extra.grade, extra.edit.line, extra.edit.before, extra.edit_distance) == (2, 0, "", 0)
    assert fake.calls[0][0][0].reference == ""


def test_no_candidates_runs_nothing() -> None:
    fake, real = oracle(lambda _: (P, P))
    outcome = ExtrasOutcome()
    verify_candidates([verified(make_task(0))], real, outcome, [])
    verify_candidates([verified(make_task(0))], real, outcome, [_candidate(5, "x")])
    assert fake.calls == [] and outcome.to_json()["candidates"] == {"loaded": 0, "run": 0, "passed": 0, "failed": 0, "rejected": {}}


def test_outcome_json() -> None:
    outcome = ExtrasOutcome(rewrites_generated=3, rewrites_run=2, candidates_loaded=4, candidates_run=3, candidates_passed=1, candidates_failed=1)
    outcome.rewrites_kept.update({"b": 1, "a": 1})
    outcome.rewrites_rejected["flaky"] += 1
    outcome.candidates_rejected.update({"undecided": 1, "duplicate_text": 1})
    assert outcome.to_json() == {
        "rewrites": {"generated": 3, "run": 2, "kept": 2, "kept_by_rule": {"a": 1, "b": 1}, "rejected": {"flaky": 1}},
        "candidates": {"loaded": 4, "run": 3, "passed": 1, "failed": 1, "rejected": {"duplicate_text": 1, "undecided": 1}},
    }
