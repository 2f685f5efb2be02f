"""The judged-outside protocol's verdict rules and rounds (pure: Raw evidence in, decisions out;
the rounds with a scripted slot). The real runtimes are exercised in test_lang_*.py."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from execir.execute import decide, split
from execir.execute.evidence import Raw
from execir.execute.jobs import Job
from execir.execute.limits import Limits
from execir.execute.runtimes.base import NEED_STATUS, Plan, Runtime, Toolchain
from execir.types import TestSuite, Verdict

LIMITS = Limits(1.0, 4.0)
NONCE = "ab" * 16
COMPILED = {"op": "compiled", "ok": True, "status": 0, "cpu": 0.1, "log": ""}


def raw(completion: bytes = b"", *, exit_code: int = 0, nonce: str = NONCE, **extra: object) -> Raw:
    found = Raw(started=True, exit_code=exit_code, nonce=nonce, completion=completion, compile=dict(COMPILED), main_exited=True)
    for name, value in extra.items():
        setattr(found, name, value)
    return found


# ---- record ---------------------------------------------------------------------------------
def test_recording_is_the_calls_before_the_nonce():
    assert decide.parse_recording(raw(b'[1,2]\n["a"]\n' + NONCE.encode() + b"\n")) == ("[1,2]", '["a"]')


@pytest.mark.parametrize(
    "evidence",
    [
        raw(b"[1,2]\n"),  # no nonce: the tests did not complete
        raw(b"[1,2]\n" + NONCE.encode() + b"\n", exit_code=1),
        raw(NONCE.encode() + b"\n"),  # no call at all: nothing to split
        raw(b'{"a":1}\n' + NONCE.encode() + b"\n"),  # not an argument array
        raw(b"[1,\n" + NONCE.encode() + b"\n"),  # not JSON
        raw(b"[1]\n" + NONCE.encode() + b"\n", compile={"op": "compiled", "ok": False, "log": "error"}),
        raw(b"[1]\n" + NONCE.encode() + b"\n", timeout="cpu"),
        raw(b"[1]\n" + NONCE.encode() + b"\nextra\n"),
    ],
)
def test_a_record_that_did_not_complete_cleanly_cannot_split(evidence):
    assert decide.parse_recording(evidence) is None


# ---- the candidate's run --------------------------------------------------------------------
def test_calls_run_compile_failure_is_error_and_budgets_decide():
    assert decide.decide_calls(raw(compile={"op": "compiled", "ok": False, "log": "no"}), LIMITS).verdict is Verdict.ERROR  # type: ignore[union-attr]
    assert decide.decide_calls(raw(timeout="cpu"), LIMITS).verdict is Verdict.TIMEOUT  # type: ignore[union-attr]
    assert decide.decide_calls(raw(capped=True), LIMITS).verdict is Verdict.FAIL  # type: ignore[union-attr]
    assert decide.decide_calls(raw(exit_code=-9), LIMITS).verdict is Verdict.FAIL  # type: ignore[union-attr]
    # an early exit with any status leaves the judge to find the unanswered call
    assert decide.decide_calls(raw(b'{"ok":1}\n', exit_code=0), LIMITS) is None
    assert decide.decide_calls(raw(b"", exit_code=3), LIMITS) is None


def test_results_text_keeps_complete_lines_only():
    assert decide.results_text(raw(b'{"ok":1}\n{"ok":2')) == '{"ok":1}\n'
    assert decide.results_text(raw(b"\xff\n")) == "\ufffd\n"


# ---- the judge ------------------------------------------------------------------------------
def judged(completion: bytes, exit_code: int = 0, **extra: object) -> decide.Decision | decide.Need:
    return decide.decide_judge(raw(completion, exit_code=exit_code, **extra), LIMITS, 3, NEED_STATUS)


def test_judge_passes_only_on_the_nonce_alone():
    assert judged(NONCE.encode() + b"\n") == decide.Decision(Verdict.PASS, "tests completed on the candidate's values", (True,))
    assert judged(b"junk\n" + NONCE.encode() + b"\n").verdict is Verdict.FAIL  # type: ignore[union-attr]
    assert judged(NONCE.encode() + b"\n", exit_code=1).verdict is Verdict.FAIL  # type: ignore[union-attr]
    assert judged(b"").verdict is Verdict.FAIL  # type: ignore[union-attr]


def test_judge_need_carries_the_exact_argument_text():
    need = judged(b'{"need":1}\n[1.0,"x",{"k":-0.0}]\n', exit_code=NEED_STATUS)
    assert need == decide.Need(1, '[1.0,"x",{"k":-0.0}]')
    assert judged(b'{"need":9}\n[1]\n', exit_code=NEED_STATUS).verdict is Verdict.UNDECIDED  # type: ignore[union-attr]
    assert judged(b'{"need":1}\n', exit_code=NEED_STATUS).verdict is Verdict.UNDECIDED  # type: ignore[union-attr]


@pytest.mark.parametrize(("line", "words"), [(b'{"missing":2}', "no result for call 2"), (b'{"malformed":0}', "call 0 is not a value")])
def test_judge_reports_name_the_call(line, words):
    decision = judged(line + b"\n", exit_code=1)
    assert isinstance(decision, decide.Decision) and decision.verdict is Verdict.FAIL and words in decision.detail


def test_judge_that_cannot_run_abstains_and_budgets_are_the_candidates():
    assert judged(b"", compile={"op": "compiled", "ok": False, "log": "x"}).verdict is Verdict.UNDECIDED  # type: ignore[union-attr]
    assert judged(b"", server_lost=True).verdict is Verdict.UNDECIDED  # type: ignore[union-attr]
    assert judged(b"", timeout="cpu").verdict is Verdict.TIMEOUT  # type: ignore[union-attr]
    assert judged(b"", memory_killed=True, exit_code=-9).verdict is Verdict.FAIL  # type: ignore[union-attr]


# ---- rounds ---------------------------------------------------------------------------------
@dataclass
class ScriptedSlot:
    """Answers run_exec from a script: the candidate doubles its argument, the judge asks for the
    call ``f(f(x))`` needs until it has it."""

    log: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    rounds_needed: int = 1

    def run_exec(self, limits, plan, stdin, nonce, *, judged_stdout=True, channel_cap=0, feed=None):
        kind = plan.run[0]
        files = dict(plan.files)
        if kind == "calls":  # the candidate's plan carries no call: they come one at a time on fd 3
            assert feed is not None and not plan.files
            files["calls"] = "".join(line + "\n" for line in feed)
        self.log.append((kind, files))
        if kind == "calls":
            lines = list(feed)
            return raw("".join(f'{{"ok":{2 * int(line[1:-1])}}}\n' for line in lines).encode(), nonce="")
        calls = [line for line in plan.files["calls"].splitlines() if line]
        if len(calls) <= self.rounds_needed:
            index = len(calls)
            return raw(f'{{"need":{index}}}\n[{2 * int(calls[-1][1:-1])}]\n'.encode(), exit_code=NEED_STATUS, nonce=nonce)
        return raw(f"{nonce}\n".encode(), nonce=nonce)


class DoubleRuntime(Runtime):
    def call_plan(self, toolchain, program, entry_point, reference):
        return Plan({}, ("calls",))

    def judge_plan(self, toolchain, reference, tests, entry_point, calls, results):
        return Plan({"calls": calls, "results": results}, ("judge",))


JOB = Job("program", TestSuite("native", "tests"), "f", LIMITS, reference="reference", language="cpp")
TOOLCHAIN = Toolchain("cpp", "test", {})


def test_rounds_extend_the_calls_until_the_judge_has_them():
    slot = ScriptedSlot(rounds_needed=2)
    decision, raws = split.judge(slot, DoubleRuntime("cpp", (), ()), TOOLCHAIN, JOB, LIMITS, split.Recording(("[1]",)))  # type: ignore[arg-type]
    assert decision.verdict is Verdict.PASS and len(raws) == 3
    assert [files["calls"] for kind, files in slot.log if kind == "calls"] == ["[1]\n", "[1]\n[2]\n", "[1]\n[2]\n[4]\n"]
    assert slot.log[-1][1]["results"] == '{"ok":2}\n{"ok":4}\n{"ok":8}\n'


def test_rounds_are_bounded():
    slot = ScriptedSlot(rounds_needed=10**6)
    decision, raws = split.judge(slot, DoubleRuntime("cpp", (), ()), TOOLCHAIN, JOB, LIMITS, split.Recording(("[1]",)))  # type: ignore[arg-type]
    assert decision.verdict is Verdict.UNDECIDED and len(raws) == split.MAX_ROUNDS


def test_results_identical_to_the_references_skip_the_judge():
    slot = ScriptedSlot(rounds_needed=0)
    recording = split.Recording(("[1]", "[5]"), '{"ok":2}\n{"ok":10}\n')
    decision, raws = split.judge(slot, DoubleRuntime("cpp", (), ()), TOOLCHAIN, JOB, LIMITS, recording)  # type: ignore[arg-type]
    assert decision == decide.Decision(Verdict.PASS, split.SAME_AS_REFERENCE, (True,)) and len(raws) == 1
    assert [kind for kind, _ in slot.log] == ["calls"]
    other = split.Recording(("[1]", "[5]"), '{"ok":2}\n{"ok":11}\n')  # one value differs: the judge decides
    slot = ScriptedSlot(rounds_needed=0)
    decision, _ = split.judge(slot, DoubleRuntime("cpp", (), ()), TOOLCHAIN, JOB, LIMITS, other)  # type: ignore[arg-type]
    assert decision.verdict is Verdict.PASS and [kind for kind, _ in slot.log] == ["calls", "judge"]


def test_the_first_results_the_judge_passes_in_one_round_are_kept_for_the_task():
    recordings = split.Recordings()
    runtime = DoubleRuntime("cpp", (), ())
    recordings._found[recordings.key(JOB, TOOLCHAIN)] = ("[3]",)
    assert recordings.get(ScriptedSlot(rounds_needed=0), runtime, TOOLCHAIN, JOB, LIMITS) == split.Recording(("[3]",))  # type: ignore[arg-type]
    failed = decide.Decision(Verdict.FAIL, "no", (False,))
    recordings.settle(JOB, TOOLCHAIN, failed, [raw(b'{"ok":5}\n')])  # a failing candidate leaves nothing
    rounds = decide.Decision(Verdict.PASS, "ok", (True,))
    recordings.settle(JOB, TOOLCHAIN, rounds, [raw(b'{"ok":5}\n'), raw(b'{"ok":6}\n')])  # nor one decided in rounds
    assert recordings.get(ScriptedSlot(rounds_needed=0), runtime, TOOLCHAIN, JOB, LIMITS).passed_results == ""  # type: ignore[arg-type, union-attr]
    recordings.settle(JOB, TOOLCHAIN, rounds, [raw(b'{"ok":6}\n')])
    recordings.settle(JOB, TOOLCHAIN, rounds, [raw(b'{"ok":7}\n')])  # the first kept stays
    assert recordings.get(ScriptedSlot(rounds_needed=0), runtime, TOOLCHAIN, JOB, LIMITS).passed_results == '{"ok":6}\n'  # type: ignore[arg-type, union-attr]
    other = Job("program", TestSuite("native", "other tests"), "f", LIMITS, reference="reference", language="cpp")
    recordings.settle(other, TOOLCHAIN, rounds, [raw(b'{"ok":6}\n')])  # a task never recorded keeps nothing
    assert recordings.key(other, TOOLCHAIN) not in recordings._passed
