import pytest

from execir.execute.decide import decide_call, decide_case, normalise
from execir.execute.limits import Limits
from execir.execute.evidence import Raw
from execir.types import Verdict

GOOD = {"ready": True, "per_test": [True, True], "calls": 2, "violation": None, "first_failure": ""}


def raw(**kw):
    base = {"started": True, "exit_code": 0, "result": dict(GOOD)}
    base.update(kw)
    return Raw(**base)


def test_clean_run_passes():
    assert decide_call(raw()).verdict is Verdict.PASS


@pytest.mark.parametrize(
    ("kw", "verdict"),
    [
        ({"capped": True, "timeout": "cpu"}, Verdict.FAIL),  # output cap is checked first
        ({"timeout": "cpu", "exit_code": -9}, Verdict.TIMEOUT),
        ({"memory_killed": True, "exit_code": -9}, Verdict.FAIL),
        ({"exit_code": -11}, Verdict.FAIL),
        ({"exit_code": 1}, Verdict.FAIL),
        ({"result": None}, Verdict.FAIL),
        ({"server_lost": True}, Verdict.FAIL),
        ({"result": {"ready": False, "violation": "candidate exited before loading"}}, Verdict.FAIL),
        ({"result": dict(GOOD, per_test=[True, False])}, Verdict.FAIL),
        ({"result": dict(GOOD, violation="early write")}, Verdict.FAIL),
        ({"result": dict(GOOD, per_test=[])}, Verdict.FAIL),
        ({"result": dict(GOOD, per_test=[1, 1])}, Verdict.FAIL),
        ({"result": {"ready": False, "load_error": "compile: SyntaxError"}}, Verdict.ERROR),
        ({"result": {"ready": False, "load_error": "x"}, "exit_code": 1}, Verdict.FAIL),
    ],
)
def test_decision_order(kw, verdict):
    assert decide_call(raw(**kw)).verdict is verdict


def test_exit_status_zero_is_not_evidence_of_success():
    assert decide_call(raw(result={"ready": True})).verdict is Verdict.FAIL


def test_strict_stdio_normalisation():
    assert normalise("7  \r\n\n\n") == "7"
    assert normalise("a \t\nb") == "a\nb"
    assert normalise("\n7") == "\n7"
    assert normalise("７") != normalise("7")


@pytest.mark.parametrize(
    ("stdout", "verdict"),
    [(b"7\n", Verdict.PASS), (b"7 \r\n\r\n", Verdict.PASS), (b"7\xff\n", Verdict.FAIL), ("７\n".encode(), Verdict.FAIL), (b"7.0\n", Verdict.FAIL), (b"", Verdict.FAIL)],
)
def test_stdio_case(stdout, verdict):
    assert decide_case(Raw(started=True, exit_code=0, result={"op": "loaded"}, stdout=stdout), "7\n").verdict is verdict


def test_limits_from_canonical():
    tight = Limits.from_canonical(0.01)
    assert tight.cpu_seconds == 0.25 and tight.wall_seconds >= 4 * tight.cpu_seconds
    slow = Limits.from_canonical(2.0, factor=3.0, floor=0.1)
    assert slow.cpu_seconds == 6.0 and slow.wall_seconds == 24.0
    with pytest.raises(ValueError):
        Limits(0, 1)
