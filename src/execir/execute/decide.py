"""The verdict, decided outside the candidate from what the run left behind (pure functions).

Order (first match wins): output cap -> FAIL; CPU or wall budget -> TIMEOUT; memory kill -> FAIL;
signal or non-zero status -> FAIL; malformed or incomplete record stream -> FAIL; any failing
test -> FAIL; could not load (syntax error, missing entry point, import raised) -> ERROR; PASS.
Exit status is evidence of failure only, never of success.

stdio comparison is strict: stdout must be valid UTF-8 (invalid bytes -> FAIL); the only
normalisation, applied to both sides, is CRLF/CR -> LF, trailing spaces/tabs removed per line and
trailing blank lines removed. No Unicode normalisation, no numeric leniency.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from execir.execute.evidence import Raw
from execir.types import Verdict

_TRAILING_WS = re.compile(r"[ \t]+$", re.MULTILINE)


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    detail: str
    per_test: tuple[bool, ...] | None


def _resource_failure(raw: Raw) -> Decision | None:
    if raw.capped:
        return Decision(Verdict.FAIL, "output cap exceeded", None)
    if raw.timeout:
        what = "cpu (finished over budget)" if raw.timeout == "cpu-late" else raw.timeout
        return Decision(Verdict.TIMEOUT, f"{what} budget exceeded", None)
    if raw.memory_killed:
        return Decision(Verdict.FAIL, "killed at the memory limit", None)
    if raw.server_lost or raw.exit_code is None:
        return Decision(Verdict.FAIL, "sandbox lost while the candidate ran", None)
    if raw.exit_code < 0:
        return Decision(Verdict.FAIL, f"killed by signal {-raw.exit_code}", None)
    return None


def decide_call(raw: Raw) -> Decision:
    """Verdict of a check/asserts run (candidate behind the judge's proxy)."""
    found = _resource_failure(raw)
    if found:
        return found
    result = raw.result
    if raw.exit_code != 0:
        return Decision(Verdict.FAIL, f"exit status {raw.exit_code}", _per_test(result))
    if not isinstance(result, dict):
        return Decision(Verdict.FAIL, "no judge report (incomplete record stream)", None)
    if result.get("judge_error"):
        return Decision(Verdict.ERROR, f"judge error: {result['judge_error']}", None)
    if not result.get("ready"):
        if result.get("load_error"):
            return Decision(Verdict.ERROR, f"load error: {result['load_error']}", None)
        return Decision(Verdict.FAIL, f"incomplete record stream: {result.get('violation', '')}", None)
    per_test = _per_test(result)
    if per_test is None or not per_test:
        return Decision(Verdict.FAIL, "malformed judge report", None)
    if result.get("violation"):
        return Decision(Verdict.FAIL, f"protocol violation: {result['violation']}", per_test)
    if not all(per_test):
        return Decision(Verdict.FAIL, f"{per_test.count(False)}/{len(per_test)} tests failed: {result.get('first_failure', '')}", per_test)
    return Decision(Verdict.PASS, f"{len(per_test)} tests passed, {result.get('calls', 0)} calls", per_test)


def _per_test(result: dict | None) -> tuple[bool, ...] | None:
    if not isinstance(result, dict) or not isinstance(result.get("per_test"), list):
        return None
    values = result["per_test"]
    if not all(type(v) is bool for v in values):
        return None
    return tuple(values)


def normalise(text: str) -> str:
    """The documented stdio normalisation (applied to actual and expected output alike)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _TRAILING_WS.sub("", text).rstrip("\n")


def decide_case(raw: Raw, expected: str) -> Decision:
    """Verdict of one stdio case."""
    found = _resource_failure(raw)
    if found:
        return found
    hello = raw.result
    if isinstance(hello, dict) and hello.get("op") == "load_error" and raw.exit_code == 0:
        return Decision(Verdict.ERROR, f"load error: {hello.get('reason', '')}", None)
    if raw.exit_code != 0:
        return Decision(Verdict.FAIL, f"exit status {raw.exit_code}", (False,))
    if not isinstance(hello, dict) or hello.get("op") != "loaded":
        return Decision(Verdict.FAIL, "incomplete record stream (no load report)", (False,))
    try:
        actual = raw.stdout.decode("utf-8", "strict")
    except UnicodeDecodeError:
        return Decision(Verdict.FAIL, "stdout is not valid UTF-8", (False,))
    if normalise(actual) != normalise(expected):
        return Decision(Verdict.FAIL, "wrong output", (False,))
    return Decision(Verdict.PASS, "output matches", (True,))
