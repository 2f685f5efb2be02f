"""Every verdict rule of the oracle, as pure functions over the evidence a run left behind.

A call job (``check``/``asserts``: candidate behind the judge's proxy), first match wins:

1. output cap exceeded -> FAIL
2. CPU budget (CPU of the whole process tree plus the judge's decoding of the candidate's replies)
   or wall backstop exceeded, or the judge stopped decoding at the budget -> TIMEOUT
3. memory limit kill -> FAIL; sandbox lost -> FAIL; killed by a signal -> FAIL
4. the task's own test or reference code failed before any call, or the judge gave no report
   -> UNDECIDED (never a label: the oracle could not decide)
5. the program does not compile (checked outside the sandbox, before it runs) -> ERROR
6. a value that cannot cross the proxy (an unsupported type, either way: a class of the program's
   own without comparisons of its own, a ``ChainMap``, a dataclass instance) -> UNDECIDED: the
   program may be right (tests reading its attributes, MBPP/87's ChainMap that equals the expected
   dict), the wire format just cannot carry its value
7. FAIL, for everything the candidate did to end or break the judge's calls and every failing test:
   non-zero exit status; an exit before or during the calls in any form (``os._exit``, a signal to
   itself, ``SystemExit``/``KeyboardInterrupt``/``GeneratorExit`` raised from a call or while its
   value was read); a broken channel (a malformed or truncated frame, its first one included);
   load failure reported from inside the sandbox (an import that raised, a missing entry point);
   incomplete or malformed report; a returned or mutated value whose class the program wrote with
   its own comparisons (``__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__ __bool__`` in code of
   the program: an always-equal ``int`` subclass, an ``__eq__`` that raises ``SystemExit``); any
   failing test. Why the own-comparison value is a FAIL and not UNDECIDED: in one process the
   tests' ``==`` would run the candidate's code, so the candidate, not the tests, would choose the
   outcome; the canonical of an admitted task crossed the same boundary, so what the tests expect
   is a plain value, and a value whose equality is the program's own is not one. A builtin subclass
   without comparisons of its own (``IntEnum``/``IntFlag`` members, ``time.struct_time``, a
   ``class MyList(list)``) crosses as its builtin value and the tests decide, as ``==`` would.
8. PASS. Exit status is evidence of failure only, never of success.

A stdio case: 1-3 as above, then non-zero exit status -> FAIL, no load report -> FAIL, stdout not
valid UTF-8 -> FAIL, normalised stdout differs -> FAIL, else PASS. A stdio job is the first
non-PASS case, in order. Comparison is strict: the only normalisation, applied to both sides, is
CRLF -> LF, trailing spaces/tabs removed per line and trailing blank lines removed. A lone CR is
kept (``"1\\r2"`` is not ``"1\\n2"``); no Unicode normalisation, no numeric leniency
(a suite with ``stdio_compare='tokens'`` is compared as LiveCodeBench's judge does instead: see
:func:`outputs_match`).

A program of another language (one sandbox run: compile, then run), first match wins:

1. no trusted compile report (the sandbox failed before compiling) -> UNDECIDED
2. the compile step exceeded its own budget, or the compiler failed -> ERROR (the report comes from
   the trusted driver before any candidate code runs)
3. output cap, budgets, memory, lost sandbox, signal -> as for a call job
4. language-native tests: non-zero exit -> FAIL; the completion record on fd 3 is not exactly the
   run's nonce (the program exited before the last check, with any status) -> FAIL; else PASS.
   stdio: as a stdio case above. Probe programs (``probe`` suites): as native tests; a PASS
   carries, as its per-test booleans, :data:`PROBE_BITS` bits of the SHA-256 digest of each
   probe's marked stdout line (:func:`probe_digest_bits`).

A program of another language judged outside (:mod:`execir.execute.split`): the trusted record run
is usable only when it compiled, exited 0 and wrote its calls and then the nonce last (else the
tests stay in-process). The candidate's calls run: compile failure -> ERROR; output cap (results
over the cap), budgets, memory, lost sandbox, signal -> as above; any other ending leaves later
calls unanswered for the judge to find. The trusted judge: did not compile or was lost ->
UNDECIDED (its code is the task's); over its budget on the candidate's values -> TIMEOUT; memory
-> FAIL; asked for a call nobody recorded -> a new round (the candidate runs again with it; after
:data:`execir.execute.split.MAX_ROUNDS` rounds UNDECIDED); exit 0 with exactly the nonce -> PASS;
anything else (an assert failed, a result missing or not of the declared type) -> FAIL.

Repeats: near-limit TIMEOUTs (wall-limited under budget, finished just over budget) and lost
sandboxes are re-run; if the runs disagree the verdict is FLAKY (never a label). A canonical is
admitted only when every repeat PASSes.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from execir.execute.evidence import Raw
from execir.execute.limits import Limits
from execir.execute.safe_text import printable
from execir.types import Verdict

NEAR_LIMIT = 1.25
"""A run that finished within this factor of the CPU budget is re-run before it is called TIMEOUT."""
_TRAILING_WS = re.compile(r"[ \t]+$", re.MULTILINE)


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    detail: str
    per_test: tuple[bool, ...] | None


def charged_cpu(raw: Raw) -> float:
    """CPU charged to the candidate: its process tree plus the judge's decoding of its replies."""
    result = raw.result if isinstance(raw.result, dict) else {}
    decode = result.get("decode_cpu", 0.0)
    return raw.cpu + (decode if type(decode) is float and decode > 0 else 0.0)


def over_budget(raw: Raw, limits: Limits) -> str:
    """Which budget the run broke: ``cpu``/``wall`` (stopped there), ``cpu-late`` (finished, but
    over the CPU budget), ``judge`` (the judge stopped decoding at the budget), or ``""``."""
    if raw.timeout:
        return raw.timeout
    if isinstance(raw.result, dict) and raw.result.get("violation_kind") == "budget":
        return "judge"
    return "cpu-late" if charged_cpu(raw) > limits.cpu_seconds else ""


def _resource_failure(raw: Raw, limits: Limits) -> Decision | None:
    if raw.capped:
        return Decision(Verdict.FAIL, "output cap exceeded", None)
    budget = over_budget(raw, limits)
    if budget:
        what = {"cpu-late": "cpu (finished over budget)", "judge": "cpu (the judge's decoding of the replies)"}.get(budget, budget)
        return Decision(Verdict.TIMEOUT, f"{what} budget exceeded", None)
    if raw.memory_killed:
        return Decision(Verdict.FAIL, "killed at the memory limit", None)
    if raw.server_lost or raw.exit_code is None:
        return Decision(Verdict.FAIL, "sandbox lost while the candidate ran", None)
    if raw.exit_code < 0:
        return Decision(Verdict.FAIL, f"killed by signal {-raw.exit_code}", None)
    return None


def _text(value: object, limit: int = 300) -> str:
    return printable(value if isinstance(value, str) else "", limit)


def decide_call(raw: Raw, limits: Limits, compile_error: str = "") -> Decision:
    """Verdict of a check/asserts run. ``compile_error`` is the host's own compile check."""
    if compile_error:
        return Decision(Verdict.ERROR, f"does not compile: {_text(compile_error)}", None)
    found = _resource_failure(raw, limits)
    if found:
        return found
    result = raw.result
    if isinstance(result, dict) and result.get("judge_error"):
        return Decision(Verdict.UNDECIDED, f"the task's test code failed in the judge: {_text(result['judge_error'])}", None)
    if raw.exit_code != 0:
        return Decision(Verdict.FAIL, f"exit status {raw.exit_code}", _per_test(result))
    if not isinstance(result, dict):
        return Decision(Verdict.UNDECIDED, "the judge gave no report", None)
    if not result.get("ready"):
        if result.get("load_error"):
            return Decision(Verdict.FAIL, f"failed to load: {_text(result['load_error'])}", None)
        return Decision(Verdict.FAIL, f"incomplete record stream: {_text(result.get('violation'))}", None)
    per_test = _per_test(result)
    if per_test is None or not per_test:
        return Decision(Verdict.FAIL, "malformed judge report", None)
    if result.get("violation"):
        if result.get("violation_kind") == "unsupported":
            # a value the wire format cannot carry (a ChainMap, a custom class): the program may be
            # right (MBPP/87 returns a ChainMap that equals the expected dict), so no label
            return Decision(Verdict.UNDECIDED, f"a value that cannot cross the proxy: {_text(result['violation'])}", per_test)
        # exits, own-comparison values, values that raised while read: the judge's words say which
        label = "" if result.get("violation_kind") in ("exit", "own", "raised") else "protocol violation: "
        return Decision(Verdict.FAIL, f"{label}{_text(result['violation'])}", per_test)
    if not all(per_test):
        return Decision(Verdict.FAIL, f"{per_test.count(False)}/{len(per_test)} tests failed: {_text(result.get('first_failure'))}", per_test)
    calls = result.get("calls")
    return Decision(Verdict.PASS, f"{len(per_test)} tests passed, {calls if type(calls) is int else 0} calls", per_test)


_FAILED_BY_TESTS = re.compile(r"^(?:[a-z+ ]+: )?(?:\d+/\d+ tests failed: |case \d+: )")
"""A decision's detail, perhaps behind the oracle's label of how the job ran (``proxy judge: ``)."""


def failed_by_tests(verdict: Verdict, detail: str) -> bool:
    """True for a FAIL decided by the tests themselves (a call job's failing asserts, a stdio job's
    failing case), whose per-test booleans then say which tests passed; False for every other
    outcome (a protocol violation, an exit, a load failure), where they say nothing trustworthy."""
    return verdict is Verdict.FAIL and _FAILED_BY_TESTS.match(detail) is not None


def _per_test(result: object) -> tuple[bool, ...] | None:
    if not isinstance(result, dict) or not isinstance(result.get("per_test"), list):
        return None
    values = result["per_test"]
    if not all(type(v) is bool for v in values):
        return None
    return tuple(values)


def normalise(text: str) -> str:
    """The documented stdio normalisation (applied to actual and expected output alike)."""
    return _TRAILING_WS.sub("", text.replace("\r\n", "\n")).rstrip("\n")


def _stripped_lines(text: str) -> list[str]:
    return [line.strip() for line in text.strip().split("\n")]


def _decimals(line: str) -> list[Decimal] | None:
    try:
        return [Decimal(token) for token in line.split()]
    except InvalidOperation:
        return None


def outputs_match(actual: str, expected: str, compare: str = "exact") -> bool:
    """Whether a program's stdout answers a case: ``exact`` after :func:`normalise`; ``tokens`` as
    LiveCodeBench's judge compares (stripped lines, equal as text or as lists of decimals)."""
    if compare == "exact":
        return normalise(actual) == normalise(expected)
    got, want = _stripped_lines(actual.replace("\r\n", "\n")), _stripped_lines(expected.replace("\r\n", "\n"))
    if len(got) != len(want):
        return False
    for line, expected_line in zip(got, want):
        if line == expected_line:
            continue
        numbers, expected_numbers = _decimals(line), _decimals(expected_line)
        if numbers is None or expected_numbers is None or numbers != expected_numbers:
            return False
    return True


def decide_case(raw: Raw, expected: str, limits: Limits, compile_error: str = "", compare: str = "exact") -> Decision:
    """Verdict of one stdio case."""
    if compile_error:
        return Decision(Verdict.ERROR, f"does not compile: {_text(compile_error)}", None)
    found = _resource_failure(raw, limits)
    if found:
        return found
    hello = raw.result
    if raw.exit_code != 0:
        return Decision(Verdict.FAIL, f"exit status {raw.exit_code}", (False,))
    if not isinstance(hello, dict) or hello.get("op") not in ("loaded", "compiled"):
        return Decision(Verdict.FAIL, "incomplete record stream (no load report)", (False,))
    try:
        actual = raw.stdout.decode("utf-8", "strict")
    except UnicodeDecodeError:
        return Decision(Verdict.FAIL, "stdout is not valid UTF-8", (False,))
    if not outputs_match(actual, expected, compare):
        return Decision(Verdict.FAIL, "wrong output", (False,))
    return Decision(Verdict.PASS, "output matches", (True,))


def _compile_failure(raw: Raw) -> Decision | None:
    report = raw.compile
    if raw.compile_timeout:
        return Decision(Verdict.ERROR, "compile step exceeded its budget", None)
    if not isinstance(report, dict):
        return Decision(Verdict.UNDECIDED, "the sandbox gave no compile report", None)
    if report.get("harness"):
        return Decision(Verdict.UNDECIDED, f"the sandbox could not prepare the run: {_text(report.get('log'))}", None)
    if report.get("ok") is not True:
        log = report.get("log")
        text = log[-600:] if isinstance(log, str) else ""
        return Decision(Verdict.ERROR, f"compile error: {printable(text, 600)}", None)
    return None


def decide_native(raw: Raw, limits: Limits) -> Decision:
    """Verdict of language-native tests run in-process, with their completion proved by the nonce."""
    found = _compile_failure(raw) or _resource_failure(raw, limits)
    if found:
        return found
    if raw.exit_code != 0:
        return Decision(Verdict.FAIL, f"exit status {raw.exit_code}", (False,))
    if not raw.nonce or raw.completion != f"{raw.nonce}\n".encode():
        return Decision(Verdict.FAIL, "the tests did not run to completion (no completion record)", (False,))
    return Decision(Verdict.PASS, "tests completed", (True,))


PROBE_MARK = "@@execir-probe@@"
"""Start of the stdout line a probe program prints for each probe: ``MARK <index> <text>``."""
PROBE_BITS = 16
"""Digest bits per probe: two different results collide with probability 2**-16 per probe."""


def probe_digest_bits(stdout: bytes, probes: int) -> tuple[bool, ...]:
    """:data:`PROBE_BITS` bits per probe of the SHA-256 digest of its line's text (the first line
    that starts with the mark and the probe's index; ``missing`` when there is none). Lines without
    the mark (the candidate's own output) are ignored."""
    found: dict[int, bytes] = {}
    for line in stdout.split(b"\n"):
        if not line.startswith(PROBE_MARK.encode() + b" "):
            continue
        number, _, text = line[len(PROBE_MARK) + 1 :].partition(b" ")
        if number.isdigit() and int(number) < probes:
            found.setdefault(int(number), text)
    bits: list[bool] = []
    for index in range(probes):
        digest = hashlib.sha256(found.get(index, b"\x00missing")).digest()
        bits.extend((digest[bit // 8] >> (bit % 8)) & 1 == 1 for bit in range(PROBE_BITS))
    return tuple(bits)


def decide_probe(raw: Raw, limits: Limits, probes: int) -> Decision:
    """Verdict of a probe program: as :func:`decide_native`; a PASS carries the probes' digest bits."""
    decision = decide_native(raw, limits)
    if decision.verdict is not Verdict.PASS:
        return Decision(decision.verdict, decision.detail, None)
    return Decision(Verdict.PASS, f"{probes} probes completed", probe_digest_bits(raw.stdout, probes))


def decide_exec_case(raw: Raw, expected: str, limits: Limits, compare: str = "exact") -> Decision:
    """Verdict of one stdio case of a program of another language."""
    found = _compile_failure(raw)
    if found:
        return found
    return decide_case(raw, expected, limits, compare=compare)


def aggregate_cases(decisions: Sequence[Decision], total: int) -> Decision:
    """A stdio job: the first non-PASS case decides (later cases are not run)."""
    for number, decision in enumerate(decisions, 1):
        if decision.verdict is not Verdict.PASS:
            per_test = (True,) * (number - 1) + (False,) * (total - number + 1)
            later = " (later cases not run)" if number < total else ""
            return Decision(decision.verdict, f"case {number}: {decision.detail}{later}", per_test)
    return Decision(Verdict.PASS, f"{total} cases passed", (True,) * total)


def is_suspect(raw: Raw, limits: Limits) -> bool:
    """Worth a serial re-run: wall-limited while under the CPU budget, finished just over budget,
    or the sandbox was lost."""
    budget = over_budget(raw, limits)
    if budget == "wall" and charged_cpu(raw) < limits.cpu_seconds:
        return True
    if budget == "cpu-late" and charged_cpu(raw) < NEAR_LIMIT * limits.cpu_seconds:
        return True
    return raw.server_lost


def combine_repeats(verdicts: Sequence[Verdict]) -> Verdict:
    """One verdict from repeated runs of the same job: their common verdict, else FLAKY."""
    return verdicts[0] if len(set(verdicts)) == 1 else Verdict.FLAKY


def admission(verdicts: Sequence[Verdict], details: Sequence[str]) -> tuple[bool, str]:
    """A canonical is admitted only if every repeat passed; otherwise the first failure's reason."""
    for verdict, detail in zip(verdicts, details):
        if verdict is not Verdict.PASS:
            return False, f"{verdict.value}: {detail}"
    return True, ""


# ---- judged outside: record, candidate's calls, trusted judge (see execir.execute.split) ------
MAX_WIRE_LINE = 1 << 24
"""Longest fd-3 line the oracle reads from a split run's record or judge."""


def parse_recording(raw: Raw) -> tuple[str, ...] | None:
    """The calls a trusted record run wrote (one JSON array per line, then the nonce line), or
    None when the tests cannot be split: the run did not compile, failed, or did not complete."""
    if _compile_failure(raw) or raw.capped or raw.timeout or raw.exit_code != 0 or not raw.nonce:
        return None
    lines = raw.completion.split(b"\n")
    if len(lines) < 3 or lines[-1] != b"" or lines[-2] != raw.nonce.encode():
        return None
    calls: list[str] = []
    for line in lines[:-2]:
        text = _json_line(line)
        if text is None or not (text.startswith("[") or text.startswith('{"self":')):  # {"self": k, ...}: Java, on the k-th instance
            return None
        calls.append(text)
    return tuple(calls)


def record_failure(raw: Raw) -> str:
    """Why :func:`parse_recording` found no calls in a record run, in a few words."""
    if _compile_failure(raw):
        return "it did not compile"
    if raw.timeout:
        return f"over its {raw.timeout} budget"
    if raw.capped:
        return "over the output cap"
    if raw.exit_code != 0:
        return f"exit status {raw.exit_code}" + (f": {_text(raw.stderr_tail[-300:])}" if raw.stderr_tail else "")
    return "its calls were malformed or not completed"


def _json_line(line: bytes) -> str | None:
    """``line`` as text when it is one UTF-8 JSON document, else None."""
    try:
        text = line.decode("utf-8", "strict")
        json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return text


@dataclass(frozen=True)
class Need:
    """The judge's tests made call ``index`` with arguments (wire text) the candidate was not asked."""

    index: int
    args: str


def results_text(raw: Raw) -> str:
    """The candidate's result lines as the judge reads them: complete lines only, undecodable bytes
    replaced (the judge then finds that line malformed)."""
    data = raw.completion
    end = data.rfind(b"\n")
    return data[: end + 1].decode("utf-8", "replace") if end >= 0 else ""


def decide_syntax(raw: Raw) -> Decision | None:
    """A syntax check before the candidate's calls run (its program compiled, never run): None when
    it compiles (the nonce line alone), ERROR with the compiler's message when it does not (or the
    check broke its budget), UNDECIDED when the check itself was lost."""
    if raw.server_lost or raw.exit_code is None:
        return Decision(Verdict.UNDECIDED, "the syntax check was lost", None)
    if raw.timeout:
        return Decision(Verdict.ERROR, "compile step exceeded its budget", None)
    if raw.exit_code == 0 and raw.nonce and raw.completion == f"{raw.nonce}\n".encode():
        return None
    message = raw.completion.decode("utf-8", "replace")[-600:]
    return Decision(Verdict.ERROR, f"does not compile: {message}" if message else f"does not compile (status {raw.exit_code})", None)


def decide_calls(raw: Raw, limits: Limits) -> Decision | None:
    """The candidate's run, before the judge: a compile failure is ERROR, a broken budget or a kill
    decides (as for native tests); None: the judge decides from the results it wrote (a run that
    stopped early, with any status, simply left later calls unanswered)."""
    return _compile_failure(raw) or _resource_failure(raw, limits)


def decide_judge(raw: Raw, limits: Limits, calls: int, need_status: int) -> Decision | Need:
    """The trusted judge's run over the candidate's results: PASS only when the tests completed
    (the nonce line last); a call the candidate was not asked is a :class:`Need`; a judge that did
    not compile or was lost is UNDECIDED (its code is the task's, not the candidate's); budgets
    broken while replaying the candidate's values are the candidate's TIMEOUT; any other ending is
    a FAIL with the judge's report as detail."""
    compiled = _compile_failure(raw)
    if compiled is not None:
        return Decision(Verdict.UNDECIDED, f"the judge could not be built: {compiled.detail}", None)
    if raw.server_lost or raw.exit_code is None:
        return Decision(Verdict.UNDECIDED, "the judge's sandbox was lost", None)
    if raw.timeout or raw.capped:
        return Decision(Verdict.TIMEOUT, f"the tests did not finish on the candidate's values ({raw.timeout or 'output cap'})", None)
    if raw.memory_killed:
        return Decision(Verdict.FAIL, "the candidate's values exhausted the judge's memory", (False,))
    lines = raw.completion.split(b"\n")
    report = _judge_report(lines[0]) if lines and lines[0] else {}
    if raw.exit_code == need_status:
        index = report.get("need")
        args = _json_line(lines[1]) if len(lines) > 2 else None
        if type(index) is int and 0 <= index <= calls and args is not None and (args.startswith("[") or args.startswith('{"self":')):
            return Need(index, args)
        return Decision(Verdict.UNDECIDED, "the judge asked for a call it did not describe", None)
    if raw.exit_code == 0 and raw.nonce and raw.completion == f"{raw.nonce}\n".encode():
        return Decision(Verdict.PASS, "tests completed on the candidate's values", (True,))
    if type(report.get("inexact")) is int:
        return Decision(Verdict.UNDECIDED, f"the candidate's result for call {report['inexact']} is a wider number than the reference's type holds", None)
    for key, text in JUDGE_REPORTS.items():
        if type(report.get(key)) is int:
            return Decision(Verdict.FAIL, text.format(report[key]), (False,))
    status = f"exit status {raw.exit_code}" if raw.exit_code else "no completion record"
    return Decision(Verdict.FAIL, f"a test failed on the candidate's values ({status})", (False,))


JUDGE_REPORTS = {
    "missing": "the candidate gave no result for call {}",
    "malformed": "the candidate's result for call {} is not a value of the declared type",
}
"""The judge's own failure reports (first fd-3 line) and how a FAIL's detail names them."""


def _judge_report(line: bytes) -> dict:
    try:
        value = json.loads(line.decode("utf-8", "strict"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}
