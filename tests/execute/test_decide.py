import pytest

from execir.execute.decide import (
    Decision,
    admission,
    aggregate_cases,
    charged_cpu,
    combine_repeats,
    decide_call,
    decide_case,
    is_suspect,
    normalise,
)
from execir.execute.evidence import Raw
from execir.execute.limits import Limits
from execir.execute.safe_text import printable
from execir.types import Verdict

GOOD = {"ready": True, "per_test": [True, True], "calls": 2, "violation": None, "first_failure": ""}
LIMITS = Limits(cpu_seconds=1.0, wall_seconds=4.0)
P, F, T, E, U = Verdict.PASS, Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.UNDECIDED


def raw(**kw):
    base = {"started": True, "exit_code": 0, "result": dict(GOOD), "cpu": 0.1}
    base.update(kw)
    return Raw(**base)


def test_clean_run_passes():
    assert decide_call(raw(), LIMITS).verdict is P


@pytest.mark.parametrize(
    ("kw", "verdict"),
    [
        ({"capped": True, "timeout": "cpu"}, F),  # output cap is checked first
        ({"timeout": "cpu", "exit_code": -9}, T),
        ({"cpu": 1.2}, T),  # finished, but over the CPU budget
        ({"result": dict(GOOD, decode_cpu=0.95)}, T),  # the judge's decoding is charged to the candidate
        ({"result": dict(GOOD, violation="budget", violation_kind="budget")}, T),
        ({"memory_killed": True, "exit_code": -9}, F),
        ({"exit_code": -11}, F),
        ({"exit_code": 1}, F),
        ({"result": None}, U),  # the judge gave no report: the oracle cannot decide
        ({"result": {"ready": True, "judge_error": "NameError: helper"}}, U),
        ({"server_lost": True}, F),
        ({"result": {"ready": False, "violation": "candidate exited before loading"}}, F),
        ({"result": dict(GOOD, per_test=[True, False])}, F),
        ({"result": dict(GOOD, violation="early write")}, F),
        ({"result": dict(GOOD, violation="unsupported type x.ChainMap", violation_kind="unsupported")}, U),
        ({"result": dict(GOOD, per_test=[])}, F),
        ({"result": dict(GOOD, per_test=[1, 1])}, F),
        # load failures reported from inside the sandbox are the candidate's word: FAIL, never ERROR
        ({"result": {"ready": False, "load_error": "compile: SyntaxError"}}, F),
        ({"result": {"ready": False, "load_error": "x"}, "exit_code": 1}, F),
    ],
)
def test_decision_order(kw, verdict):
    assert decide_call(raw(**kw), LIMITS).verdict is verdict


@pytest.mark.parametrize(
    ("kind", "verdict", "prefix"),
    [
        ("unsupported", U, "a value that cannot cross the proxy: "),  # may be right: no label
        ("own", F, ""),  # a value whose class decides its own comparisons
        ("raised", F, ""),  # reading the value ran candidate code that raised (an exit included)
        ("exit", F, ""),  # an exit or interrupt raised from a call
        ("protocol", F, "protocol violation: "),
        (None, F, "protocol violation: "),
    ],
)
def test_violation_kinds(kind, verdict, prefix):
    result = dict(GOOD, per_test=[False], violation="why", violation_kind=kind)
    decision = decide_call(raw(result=result), LIMITS)
    assert (decision.verdict, decision.detail) == (verdict, prefix + "why")


def test_a_broken_first_frame_is_the_candidates_failure():
    broken = {"ready": False, "violation": "malformed hello: FrameError: truncated frame header"}
    assert decide_call(raw(result=broken), LIMITS).verdict is F


def test_error_only_from_the_host_compile_check():
    assert decide_call(raw(), LIMITS, compile_error="SyntaxError: invalid syntax").verdict is E
    assert decide_case(raw(result={"op": "loaded"}), "", LIMITS, compile_error="SyntaxError").verdict is E


def test_exit_status_zero_is_not_evidence_of_success():
    assert decide_call(raw(result={"ready": True}), LIMITS).verdict is F


def test_candidate_text_is_escaped_in_details():
    hostile = dict(GOOD, per_test=[False], first_failure="AssertionError: \x1b[2K\rPASS \udcff \u202e")
    detail = decide_call(raw(result=hostile), LIMITS).detail
    assert "\x1b" not in detail and "\r" not in detail and "\udcff" not in detail and "\u202e" not in detail
    assert "\\x1b" in detail and "\\udcff" in detail
    detail.encode("utf-8")  # storable


def test_printable_keeps_newlines_only_when_asked():
    assert printable("a\nb\tc") == "a\\x0ab\\x09c"
    assert printable("a\nb\tc\r", one_line=False) == "a\nb\tc\\x0d"
    assert len(printable("x" * 1000, 10)) == 10


def test_strict_stdio_normalisation():
    assert normalise("7  \r\n\n\n") == "7"
    assert normalise("a \t\nb") == "a\nb"
    assert normalise("\n7") == "\n7"
    assert normalise("７") != normalise("7")
    assert normalise("1\r2") != normalise("1\n2")  # a lone CR is kept


@pytest.mark.parametrize(
    ("stdout", "verdict"),
    [(b"7\n", P), (b"7 \r\n\r\n", P), (b"7\xff\n", F), ("７\n".encode(), F), (b"7.0\n", F), (b"", F), (b"7\r", F)],
)
def test_stdio_case(stdout, verdict):
    assert decide_case(Raw(started=True, exit_code=0, result={"op": "loaded"}, stdout=stdout), "7\n", LIMITS).verdict is verdict


def test_stdio_aggregation_first_failure_decides():
    ok, bad = Decision(P, "output matches", (True,)), Decision(F, "wrong output", (False,))
    assert aggregate_cases([ok, ok], 2) == Decision(P, "2 cases passed", (True, True))
    decided = aggregate_cases([ok, bad], 3)
    assert decided.verdict is F and decided.per_test == (True, False, False) and "case 2" in decided.detail and "not run" in decided.detail


def test_suspect_runs_are_near_the_limit_only():
    assert is_suspect(Raw(timeout="wall", cpu=0.5), LIMITS)
    assert not is_suspect(Raw(timeout="wall", cpu=1.5), LIMITS)
    assert is_suspect(Raw(exit_code=0, cpu=1.1), LIMITS)
    assert not is_suspect(Raw(exit_code=0, cpu=2.0), LIMITS)
    assert is_suspect(Raw(server_lost=True), LIMITS)
    assert charged_cpu(Raw(cpu=0.5, result={"decode_cpu": 0.25})) == 0.75
    assert charged_cpu(Raw(cpu=0.5, result={"decode_cpu": "9"})) == 0.5


def test_repeats_and_admission():
    assert combine_repeats([F, F]) is F and combine_repeats([T, F]) is Verdict.FLAKY
    assert admission([P, P, P], ["", "", ""]) == (True, "")
    assert admission([P, U, F], ["", "judge broke", "x"]) == (False, "UNDECIDED: judge broke")


def test_limits_from_canonical():
    tight = Limits.from_canonical(0.01)
    assert tight.cpu_seconds == 0.25 and tight.wall_seconds >= 4 * tight.cpu_seconds
    slow = Limits.from_canonical(2.0, factor=3.0, floor=0.1)
    assert slow.cpu_seconds == 6.0 and slow.wall_seconds == 24.0
    with pytest.raises(ValueError):
        Limits(0, 1)
