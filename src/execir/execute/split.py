"""Judged outside, for languages whose tests are native code: the expected values and the
comparisons never enter the candidate's process.

Three sandbox runs replace the one in-process run (each runtime builds their plans, see
:class:`execir.execute.runtimes.base.Runtime`):

1. **record** (once per task, trusted code only): the reference program with the task's own tests,
   the entry point wrapped by a recorder; it writes the arguments of every call the tests make.
2. **calls** (the candidate's run): the program with a trusted caller that replays those arguments
   and writes the program's return values as the language's own serialized types. No test code, no
   expected value, no helper of the tests is in this process, and no call it has not been given:
   the host writes each call to the run's channel only once the previous call's result line is in
   (:mod:`execir.execute.sandbox.feed`), so no file, buffer or memory of the run holds a later one.
3. **judge** (trusted code only): the reference (so helpers such as ``poly`` or ``encode_cyclic``
   are the task's, never the candidate's) with the tests, the entry point replaced by a replayer
   that returns the candidate's values; the tests' own asserts and helpers decide.

The first candidate of a task whose values the judge passes (in one round) leaves its result lines
with the task's recording; a later candidate whose result lines are byte-identical to them is a PASS
with no judge run of its own: the judge is a deterministic function of (calls, results), so it would
decide exactly as it did before (the wire text is exact, so identical bytes are identical values).
In a build the canonicals are admitted first, so the reference's own lines are the ones kept and
only candidates whose values differ from the reference's pay for a judge run; no run is spent on
the reference beyond its own checks.

When a test's arguments depend on an earlier result (``f(f(x))``) and the candidate's result
differs from the reference's, the judge meets a call nobody recorded: it names it, the candidate is
run again with the calls up to that one, and the judge replays again (at most :data:`MAX_ROUNDS`).
Tests that cannot be split (no recorder for the form, or the record run fails) stay in-process; the
protocol that decided is recorded with every result.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass, replace

from execir.execute import decide
from execir.execute.evidence import Raw
from execir.execute.jobs import Job
from execir.execute.limits import Limits
from execir.execute.runtimes.base import NEED_STATUS, Plan, Runtime, Toolchain
from execir.execute.sandbox.slot import Slot
from execir.types import Verdict

MAX_ROUNDS = 8
RESULTS_CAP = 8 << 20
"""Bytes of results kept from the candidate's run (more is an output-cap FAIL)."""
RECORD_CAP = 16 << 20


def trusted_limits(limits: Limits) -> Limits:
    """Budget of a record or judge run (trusted code): admission's, keeping the language profile's
    process, file and address-space settings and compile budget of ``limits``."""
    base = Limits.admission()
    return replace(
        limits,
        cpu_seconds=base.cpu_seconds,
        wall_seconds=base.wall_seconds,
        memory_mb=max(limits.memory_mb, base.memory_mb),
        output_kb=max(limits.output_kb, base.output_kb),
    )


@dataclass(frozen=True)
class Recording:
    """What a task's trusted runs established: the calls its tests make (wire text, in order) and
    result lines for them that the judge passed ("" until a candidate's passed)."""

    calls: tuple[str, ...]
    passed_results: str = ""


SAME_AS_REFERENCE = "results identical to results the tests passed"


class Recordings:
    """The recordings per task (thread-safe; one record run per task and toolchain), and the first
    result lines the judge passed per task."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._found: dict[str, tuple[str, ...] | None] = {}
        self._passed: dict[str, str] = {}
        self._why: dict[str, str] = {}
        self._busy: dict[str, threading.Lock] = {}
        self.runs = 0

    @staticmethod
    def key(job: Job, toolchain: Toolchain) -> str:
        parts = (job.language, toolchain.version, job.tests.code, job.reference, job.entry_point)
        return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()

    def get(self, slot: Slot, runtime: Runtime, toolchain: Toolchain, job: Job, limits: Limits) -> Recording | None:
        """``job``'s task's recording, made on ``slot`` the first time; None: not splittable."""
        key = self.key(job, toolchain)
        with self._lock:
            busy = self._busy.setdefault(key, threading.Lock())
        with busy:  # one record run per task; later callers wait for it, then read it
            with self._lock:
                done = key in self._found
            if not done:
                calls, why = record(slot, runtime, toolchain, job, trusted_limits(limits))
                with self._lock:
                    self._found[key] = calls
                    self._why[key] = why
                    self.runs += not why or why.startswith(RECORD_FAILED)
        with self._lock:
            calls = self._found[key]
            return None if calls is None else Recording(calls, self._passed.get(key, ""))

    def why_not(self, job: Job, toolchain: Toolchain) -> str:
        """Why ``job``'s task is not judged outside (after :meth:`get` returned None)."""
        with self._lock:
            return self._why.get(self.key(job, toolchain), "")

    def settle(self, job: Job, toolchain: Toolchain, decision: decide.Decision, raws: list[Raw]) -> None:
        """Keep ``job``'s result lines as the task's passed results when the judge passed them in
        one round and none are kept yet."""
        if decision.verdict is not Verdict.PASS or len(raws) != 1 or decision.detail == SAME_AS_REFERENCE:
            return
        key = self.key(job, toolchain)
        with self._lock:
            if self._found.get(key) is not None:
                self._passed.setdefault(key, decide.results_text(raws[0]))


NO_REFERENCE = "no reference program was given (--reference): the tests' helpers and types come from it"
NO_RECORDER = "the tests or the reference's entry point are of a form this language's recorder cannot replay"
RECORD_FAILED = "the reference's record run did not complete"


def record(slot: Slot, runtime: Runtime, toolchain: Toolchain, job: Job, limits: Limits) -> tuple[tuple[str, ...] | None, str]:
    """Run the record plan: the calls, or None and why the tests cannot be split."""
    if not job.reference or job.tests.kind != "native":
        return None, NO_REFERENCE
    plan = runtime.record_plan(toolchain, job.reference, job.tests.code, job.entry_point)
    if plan is None:
        return None, NO_RECORDER + (f" (entry point {job.entry_point!r})" if job.entry_point else " (no entry point named)")
    raw = run_trusted(slot, runtime, toolchain, limits, plan, RECORD_CAP)
    calls = decide.parse_recording(raw)
    return calls, "" if calls is not None else f"{RECORD_FAILED} ({decide.record_failure(raw)})"


def run_trusted(slot: Slot, runtime: Runtime, toolchain: Toolchain, limits: Limits, plan: Plan, cap: int) -> Raw:
    """A record or judge plan (trusted code only): in the runtime's warm trusted runner where it
    has one, else in the sandbox."""
    nonce = os.urandom(16).hex()
    spec = next((spec for spec in runtime.trusted_specs(toolchain) if spec.takes(plan)), None)
    raw = slot.run_trusted(spec, limits, plan, nonce, cap) if spec is not None else None
    return raw if raw is not None else slot.run_exec(limits, plan, "", nonce, judged_stdout=False, channel_cap=cap)


def judge(
    slot: Slot, runtime: Runtime, toolchain: Toolchain, job: Job, limits: Limits, recording: Recording, rounds: int = MAX_ROUNDS
) -> tuple[decide.Decision, list[Raw]]:
    """The candidate's verdict from its calls run and the trusted judge (in rounds when the tests'
    arguments follow the candidate's results). The raws returned are the candidate's runs only."""
    todo = list(recording.calls)
    raws: list[Raw] = []
    judge_limits = trusted_limits(limits)
    check = runtime.syntax_plan(toolchain, job.program)
    if check is not None:
        budget = replace(limits, cpu_seconds=limits.compile_cpu_seconds or limits.cpu_seconds, wall_seconds=limits.compile_wall_seconds or limits.wall_seconds)
        checked = run_trusted(slot, runtime, toolchain, budget, check, 1 << 16)
        failed = decide.decide_syntax(checked)
        if failed is not None:
            return failed, [checked]
    for _ in range(rounds):
        text = "".join(line + "\n" for line in todo)
        plan = runtime.call_plan(toolchain, job.program, job.entry_point, job.reference)
        raw = slot.run_exec(limits, plan, "", "", judged_stdout=False, channel_cap=RESULTS_CAP, feed=todo)
        raws.append(raw)
        early = decide.decide_calls(raw, limits)
        if early is not None:
            return early, raws
        if len(raws) == 1 and recording.passed_results and decide.results_text(raw) == recording.passed_results:
            return decide.Decision(Verdict.PASS, SAME_AS_REFERENCE, (True,)), raws
        judge_plan = runtime.judge_plan(toolchain, job.reference, job.tests.code, job.entry_point, text, decide.results_text(raw))
        judged = run_trusted(slot, runtime, toolchain, judge_limits, judge_plan, RECORD_CAP)
        outcome = decide.decide_judge(judged, judge_limits, len(todo), NEED_STATUS)
        if isinstance(outcome, decide.Decision):
            return outcome, raws
        todo = todo[: outcome.index] + [outcome.args]
    detail = f"the tests' calls still followed the candidate's values after {rounds} rounds"
    return decide.Decision(Verdict.UNDECIDED, detail, None), raws
