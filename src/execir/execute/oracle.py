"""The execution oracle: parallel, cached, isolated PASS/FAIL labelling of candidate programs.

Design: the verdict is decided outside the candidate's process. For
``check`` and ``asserts`` suites the candidate never sees the tests: a trusted judge runs them
with the entry point bound to a proxy that calls into the sandbox over a channel, exchanging only
exact-type builtin values (so no ``__eq__``, int subclass, patched ``assert`` or exit trick in the
candidate can reach the judge). ``stdio`` suites run the program as ``__main__`` and compare its
stdout strictly on the host. See :mod:`execir.execute.sandbox.isolation` for the sandbox layers.

Residual risks, stated honestly:

* Tests that need candidate-defined objects (classes, callables passed back and forth) cannot run
  through the proxy; such a task's canonical fails admission with a "unsupported type" detail and
  the task is excluded rather than judged in-process. There is no in-sandbox fallback yet.
* The proxy passes copies: tests that check in-place mutation of an argument see the original.
* The judge runs the task's test code and reference program (trusted inputs) as its own
  unprivileged uid without a sandbox; a test that loops forever on a candidate's answer ends at
  the wall backstop and is labelled TIMEOUT.
* At the ``uid`` and ``rlimits`` levels there is no filesystem or pid namespace; at ``rlimits`` the
  candidate shares the oracle's uid and a ``setsid`` daemon can escape the process-group sweep.
"""

from __future__ import annotations

import os
import queue
import shutil
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path

from tqdm import tqdm

from execir.errors import ExecIRError
from execir.execute import decide, runtimes, split
from execir.execute.cache import VerdictCache
from execir.execute.evidence import Raw
from execir.execute.jobs import IN_PROCESS, JUDGED_OUTSIDE, LABEL_INTEGRITY, ORACLE_VERSION, Admission, ExecResult, Job
from execir.execute.limits import Limits, policy
from execir.execute.runtimes import Toolchain, ToolchainMissing
from execir.execute.safe_text import printable
from execir.execute.sandbox import cgroups, cpus, hostcheck, isolation, reclaim, uids
from execir.execute.sandbox.seccomp_filter import build_bpf
from execir.execute.sandbox.slot import LauncherError, RequestTooLarge, Slot, SlotSpec
from execir.language_declarations import is_host_language
from execir.types import TestSuite, Verdict

LAUNCH_ATTEMPTS = 3


MIN_WORKER_CAP = 8
"""Slots allowed on any machine (more than its CPUs on a small one: budgets are CPU time)."""


def max_workers() -> int:
    """The most slots one oracle may run: one per CPU this process may use, and at least
    :data:`MIN_WORKER_CAP`."""
    return max(MIN_WORKER_CAP, len(cpus.available()))


class OracleError(ExecIRError):
    """The oracle itself could not run (no sandbox could be started)."""


@dataclass(frozen=True)
class OracleConfig:
    """How the oracle runs. ``isolation``: ``auto`` (strongest available) or a level name."""

    workers: int = 2
    cache_path: Path | None = None
    isolation: str = "auto"
    progress: bool = True
    cgroups: bool = True
    seccomp: bool = True
    reruns: int = 1
    """Serial re-runs of near-limit TIMEOUTs and unexplained kills; mixed outcomes become FLAKY."""
    uid_base: int | None = None


class Oracle:
    """Context manager owning the worker slots, the cache and the reliability counters."""

    def __init__(self, config: OracleConfig | None = None) -> None:
        self.config = config or OracleConfig()
        if self.config.isolation not in ("auto", *isolation.LEVELS):
            raise ExecIRError(f"unknown isolation level {self.config.isolation!r}; choose auto or one of {', '.join(isolation.LEVELS)}")
        most = max_workers()
        if not 1 <= self.config.workers <= most:
            raise ExecIRError(f"workers must be between 1 and {most} (one per CPU of this machine, at least {MIN_WORKER_CAP})")
        self.slots: list[Slot] = []
        self._free: queue.Queue[Slot] = queue.Queue()
        self._cache = VerdictCache(self.config.cache_path)
        self._lock = threading.Lock()
        self.stats: Counter[str] = Counter()
        self.verdicts: Counter[str] = Counter()
        self.flaky: list[str] = []
        self.level = ""
        self.layers: list[str] = []
        self._host_dir = ""
        self._toolchains: dict[str, Toolchain] = {}
        self._unready: dict[str, ToolchainMissing] = {}
        self._recordings = split.Recordings()
        self._pool: ThreadPoolExecutor | None = None
        """Lives as long as the slots: a slot restarted from a worker thread starts bwrap with
        --die-with-parent, whose parent-death signal fires when *that thread* exits, so a per-call
        pool killed every slot it had restarted at the end of the call (a launcher error and a
        restart on the next call, every call)."""

    # ---- lifecycle -------------------------------------------------------------------------
    def __enter__(self) -> Oracle:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        if self.slots:
            return
        root = isolation.is_root()
        levels = isolation.available_levels() if self.config.isolation == "auto" else [self.config.isolation]
        self.interpreter = isolation.find_interpreter(need_world_access=root)
        self.bpf: bytes | None = None
        use_cg = self.config.cgroups and cgroups.version() is not None
        self._uid_size = uids.block_size(self.config.workers)
        self._uid_block = uids.allocate(self._uid_size) if root and not self.config.uid_base else None
        self._cpus = cpus.claim(self.config.workers, root)
        base = self.config.uid_base or self._uid_block or 0
        self.stats["reclaimed_stale"] += reclaim.reclaim()
        self._host_dir = tempfile.mkdtemp(prefix=f"execir-{os.getpid()}-", dir=isolation.host_base() if root else None)
        os.chmod(self._host_dir, 0o711)
        self._harness: Path | None = isolation.stage_harness(isolation.harness_dir(Path(self._host_dir)))
        errors = []
        for level in levels:
            try:
                self._start_slots(level, root, use_cg, base)
                break
            except (LauncherError, OSError) as exc:
                errors.append(f"{level}: {exc}")
                self._close_slots()
        else:
            raise OracleError("no isolation level could be started: " + "; ".join(errors))
        self.level = level
        uid = level in ("bwrap", "unshare", "uid")
        self.layers = [level] + (["uid"] if uid and level != "uid" else []) + (["cgroup"] if use_cg else []) + (["seccomp"] if self.bpf else []) + ["rlimits"]
        if level == "rlimits":
            self.layers = self.layers[1:]

    def _start_slots(self, level: str, root: bool, use_cg: bool, base: int) -> None:
        drop = root and level != "rlimits"
        self.bpf = build_bpf(unix_sockets=level == "bwrap") if self.config.seccomp else None
        self.uids = [base + i for i in range(self.config.workers)] if drop else []
        for i in range(self.config.workers):
            host_dir = os.path.join(self._host_dir, f"s{i}")
            os.makedirs(host_dir, exist_ok=True)
            os.chmod(host_dir, 0o700)
            if drop:
                os.chown(host_dir, base + i, base + i)
            spec = SlotSpec(
                i,
                level,
                self.interpreter,
                base + i if drop else None,
                base + self.config.workers + i if root else None,
                host_dir,
                str(self._harness),
                self.bpf,
                reclaim.slot_cgroup_name(i, base) if use_cg else None,
                self._cpus[i],
            )
            slot = Slot(spec)
            self.slots.append(slot)
            self._free.put(slot)

    def _close_slots(self) -> None:
        for slot in self.slots:
            slot.close()
        self.slots = []
        self._free = queue.Queue()

    def close(self) -> None:
        """Stop every slot, remove cgroups and work dirs, close the cache."""
        self._close_slots()
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self._host_dir:
            shutil.rmtree(self._host_dir, ignore_errors=True)
            self._host_dir = ""
        harness = getattr(self, "_harness", None)
        if harness:
            shutil.rmtree(harness, ignore_errors=True)
            self._harness = None
        block = getattr(self, "_uid_block", None)
        if block:
            uids.release(block, self._uid_size)
            self._uid_block = None
        cpus.release(getattr(self, "_cpus", []))
        self._cpus = []
        self._cache.close()

    @property
    def isolation(self) -> str:
        return "+".join(self.layers)

    # ---- running ---------------------------------------------------------------------------
    def run(self, jobs: Sequence[Job], desc: str = "exec") -> list[ExecResult]:
        """Verdicts for ``jobs`` in order: cached ones first, the rest in parallel over the slots."""
        self.start()
        keys = [self._key(job) for job in jobs]
        return self._run_keyed(list(jobs), keys, desc)

    def run_repeated(self, jobs: Sequence[Job], repeats: int, desc: str = "exec") -> list[tuple[ExecResult, ...]]:
        """Each job ``repeats`` times (each run cached under its own key, so a rebuild re-runs none):
        a relevance-2 label needs every run to PASS."""
        self.start()
        expanded: list[Job] = []
        keys: list[str] = []
        for job in jobs:
            key = self._key(job)
            expanded += [job] * repeats
            keys += [f"{key}:repeat:{i}" for i in range(repeats)]
        results = self._run_keyed(expanded, keys, desc)
        return [tuple(results[i : i + repeats]) for i in range(0, len(results), repeats)]

    def _run_keyed(self, jobs: list[Job], keys: list[str], desc: str) -> list[ExecResult]:
        results: dict[str, ExecResult] = {}
        todo: dict[str, Job] = {}
        for job, key in zip(jobs, keys):
            if key in results or key in todo:
                continue
            cached = self._cache.get(key)
            if cached is not None:
                results[key] = cached
                self._count(cached)
            else:
                todo[key] = job
        confirm: list[tuple[str, ExecResult, bool]] = []
        show = self.config.progress and sys.stderr.isatty()
        if self._pool is None:
            self._pool = ThreadPoolExecutor(len(self.slots), thread_name_prefix="execir-slot")
        pool = self._pool
        with tqdm(total=len(todo), desc=desc, disable=not show, leave=False) as bar:
            futures = {pool.submit(self._execute, job): key for key, job in todo.items()}
            for future in as_completed(futures):
                key = futures[future]
                result, suspect = future.result()
                bar.update(1)
                if suspect and self.config.reruns:
                    confirm.append((key, result, suspect))
                else:
                    self._finish(key, result, results)
        for key, first, _ in confirm:
            self._finish(key, self._confirm(todo[key], first), results)
        self._cache.flush()
        return [results[key] for key in keys]

    def _finish(self, key: str, result: ExecResult, results: dict[str, ExecResult]) -> None:
        results[key] = result
        self._cache.put(key, result)
        self._count(result)

    def _count(self, result: ExecResult) -> None:
        with self._lock:
            self.stats["cached" if result.cached else "executed"] += 1
            self.verdicts[result.verdict.value] += 1

    def _confirm(self, job: Job, first: ExecResult) -> ExecResult:
        """Re-run serially; any disagreement makes the result FLAKY."""
        seen = [first]
        for _ in range(self.config.reruns):
            again, _suspect = self._execute(job)
            seen.append(again)
            with self._lock:
                self.stats["reruns"] += 1
        if decide.combine_repeats([r.verdict for r in seen]) is not Verdict.FLAKY:
            return seen[-1]
        with self._lock:
            self.flaky.append(f"{job.entry_point}@{self._key(job)[:12]}: " + "/".join(r.verdict.value for r in seen))
        return replace(first, verdict=Verdict.FLAKY, detail="repeated runs disagreed: " + "/".join(r.verdict.value for r in seen))

    def _execute(self, job: Job) -> tuple[ExecResult, bool]:
        slot = self._free.get()
        try:
            for attempt in range(LAUNCH_ATTEMPTS):
                try:
                    return self._execute_on(slot, job)
                except RequestTooLarge as exc:  # this job only: the slot never saw it
                    return self._result(decide.Decision(Verdict.UNDECIDED, str(exc), None), [], job, "refused")
                except LauncherError as exc:
                    with self._lock:
                        self.stats["launcher_errors"] += 1
                    if attempt == LAUNCH_ATTEMPTS - 1:
                        raise OracleError(f"sandbox failed {LAUNCH_ATTEMPTS} times: {exc}") from exc
                    try:
                        slot.restart()
                    except LauncherError:
                        pass
            raise AssertionError("unreachable")
        finally:
            self._free.put(slot)

    def _key(self, job: Job) -> str:
        return job.cache_key(self.isolation, self.toolchain(job.language).version if not is_host_language(job.language) else "")

    def toolchain(self, language: str) -> Toolchain:
        """The toolchain of a non-Python language, discovered once (ToolchainMissing names the
        Debian package; other languages keep working). A language that is missing or not ready
        (:class:`ToolchainNotReady`: a piece that could not be prepared) is reported once on
        stderr and raises the same error for every later job: it runs nothing."""
        with self._lock:
            if language in self._unready:
                raise self._unready[language]
            found = self._toolchains.get(language)
            if found is None:
                try:
                    found = self._toolchains[language] = runtimes.runtime(language).discover()
                except ToolchainMissing as exc:
                    self._unready[language] = exc
                    print(f"execir: {exc}", file=sys.stderr, flush=True)
                    raise
            return found

    def _execute_on(self, slot: Slot, job: Job) -> tuple[ExecResult, bool]:
        if not is_host_language(job.language):
            return self._execute_exec(slot, job)
        if job.tests.kind in ("native", "probe"):
            raise ExecIRError(f"python programs take check, asserts or stdio tests, not {job.tests.kind!r}")
        broken = compile_error(job.program)
        if job.tests.kind == "stdio":
            return self._execute_stdio(slot, job, broken)
        raw = Raw() if broken else slot.run_call(job)
        decision = decide.decide_call(raw, job.limits, broken)
        return self._result(decision, [raw], job, "proxy judge")

    def _execute_stdio(self, slot: Slot, job: Job, broken: str) -> tuple[ExecResult, bool]:
        cases = job.tests.stdio_cases
        raws: list[Raw] = []
        decisions: list[decide.Decision] = []
        for case in cases:
            raw = Raw() if broken else slot.run_main(replace(job, limits=job.limits.for_expected_output(case.output)), case.input)
            raws.append(raw)
            decisions.append(decide.decide_case(raw, case.output, job.limits, broken, job.tests.stdio_compare))
            if decisions[-1].verdict is not Verdict.PASS:
                break
        return self._result(decide.aggregate_cases(decisions, len(cases)), raws, job, "stdio")

    def _execute_exec(self, slot: Slot, job: Job) -> tuple[ExecResult, bool]:
        """A program of another language: one sandbox run per native test suite or stdio case."""
        runtime = runtimes.runtime(job.language)
        toolchain = self.toolchain(job.language)
        profile = runtime.profile
        limits = replace(
            job.limits,
            nproc=max(job.limits.nproc, profile.nproc),
            nofile=max(job.limits.nofile, profile.nofile),
            address_space=job.limits.address_space and profile.address_space,
            compile_cpu_seconds=job.limits.compile_cpu_seconds or profile.compile_cpu_seconds,
            compile_wall_seconds=job.limits.compile_wall_seconds or profile.compile_wall_seconds,
        )
        if job.tests.kind == "stdio":
            plan = runtime.plan(toolchain, job.program, None, limits)
            raws: list[Raw] = []
            decisions: list[decide.Decision] = []
            for case in job.tests.stdio_cases:
                raws.append(slot.run_exec(limits.for_expected_output(case.output), plan, case.input, ""))
                decisions.append(decide.decide_exec_case(raws[-1], case.output, limits, job.tests.stdio_compare))
                if decisions[-1].verdict is not Verdict.PASS:
                    break
            return self._result(decide.aggregate_cases(decisions, len(job.tests.stdio_cases)), raws, job, f"{job.language} stdio", JUDGED_OUTSIDE)
        if job.tests.kind not in ("native", "probe"):
            raise ExecIRError(f"{job.language} programs take native, probe or stdio tests, not {job.tests.kind!r}")
        weaker = ""
        if job.tests.kind == "native":
            if job.reference:
                job = replace(job, entry_point=runtime.entry_name(job.reference, job.tests.code, job.entry_point))
            recording = self._recordings.get(slot, runtime, toolchain, job, limits)
            if recording is not None:
                decision, raws = split.judge(slot, runtime, toolchain, job, limits, recording)
                self._recordings.settle(job, toolchain, decision, raws)
                return self._result(decision, raws, job, f"{job.language} judged outside", JUDGED_OUTSIDE)
            weaker = self._recordings.why_not(job, toolchain)
            self._say_in_process(job.language, weaker)
        plan = runtime.plan(toolchain, job.program, job.tests.code, limits)
        raw = slot.run_exec(limits, plan, "", os.urandom(16).hex(), judged_stdout=job.tests.kind == "probe")
        if job.tests.kind == "probe":
            return self._result(decide.decide_probe(raw, limits, len(job.tests.asserts)), [raw], job, f"{job.language} probes", IN_PROCESS)
        decision = decide.decide_native(raw, limits)
        decision = replace(decision, detail=f"{decision.detail} (in-process, a weaker protocol: {weaker})")
        return self._result(decision, [raw], job, f"{job.language} native tests", IN_PROCESS)

    def _say_in_process(self, language: str, why: str) -> None:
        """Say on stderr, once per language and reason, that native tests ran in the candidate's
        process (the weaker protocol: the tests and their expected values are in its reach); every
        such result says it in its detail and ``protocol``, and :meth:`reliability` counts them (``in_process_reasons``)."""
        reason = why.split(" (", 1)[0]
        with self._lock:
            self.stats[f"in_process:{language}: {reason}"] += 1
            first = self.stats[f"in_process:{language}: {reason}"] == 1
        if first:
            print(f"execir: {language}: judged in-process, a weaker protocol (the tests run in the candidate's process): {why}", file=sys.stderr, flush=True)

    def _result(self, decision: decide.Decision, raws: list[Raw], job: Job, label: str, protocol: str = JUDGED_OUTSIDE) -> tuple[ExecResult, bool]:
        """The typed result of a decided job, and whether it deserves a serial re-run."""
        last = raws[-1] if raws else Raw()
        suspect = decision.verdict is not Verdict.PASS and decide.is_suspect(last, job.limits)
        with self._lock:
            self.stats[f"protocol:{protocol}"] += 1
            self.stats["timeouts"] += decision.verdict is Verdict.TIMEOUT
            self.stats["near_limit_timeouts"] += suspect and decision.verdict is Verdict.TIMEOUT
            self.stats["undecided"] += decision.verdict is Verdict.UNDECIDED
        cpu = sum(decide.charged_cpu(r) for r in raws)
        wall = sum(r.wall for r in raws)
        tail = printable(last.stderr_tail, 4096, one_line=False)
        compiled = round(sum(r.compile_cpu for r in raws), 6)
        detail = f"{label}: {decision.detail}"
        return ExecResult(decision.verdict, round(cpu, 6), round(wall, 6), decision.per_test, detail, tail, self.isolation, False, protocol, compiled), suspect

    # ---- admission and reporting -----------------------------------------------------------
    def admit_canonical(self, program: str, tests: TestSuite, entry_point: str, repeats: int = 3) -> Admission:
        """Run the canonical ``repeats`` times under generous limits; it must PASS every time."""
        return self.admit_canonicals([(program, tests, entry_point)], repeats=repeats)[0]

    def admit_canonicals(
        self, canonicals: Sequence[tuple[str, TestSuite, str]], repeats: int = 3, desc: str = "canonicals", language: str = "python"
    ) -> list[Admission]:
        """:meth:`admit_canonical` for many tasks at once, run in parallel over the slots."""
        self.start()
        jobs: list[Job] = []
        keys: list[str] = []
        for program, tests, entry_point in canonicals:
            reference = program if tests.kind in ("check", "asserts", "native") else ""
            job = Job(program, tests, entry_point, Limits.admission(), reference=reference, language=language)
            key = self._key(job)
            jobs += [job] * repeats
            keys += [f"{key}:admission:{i}" for i in range(repeats)]
        results = self._run_keyed(jobs, keys, desc)
        return [_admission(tuple(results[i : i + repeats])) for i in range(0, len(results), repeats)]

    def reliability(self) -> dict:
        """JSON-able figures to publish with every build."""
        timeouts = self.stats["timeouts"]
        skip = {self._host_dir} if self._host_dir else set()
        uids = set(self.uids) if self.level and getattr(self, "uids", None) else set()
        return {
            "oracle_version": ORACLE_VERSION,
            "isolation": self.isolation,
            "level": self.level,
            "guarantees": isolation.GUARANTEES.get(self.level, ""),
            "label_integrity": LABEL_INTEGRITY,
            "toolchains": {name: tc.version for name, tc in sorted(self._toolchains.items())},
            "workers": len(self.slots),
            "limits_policy": policy(),
            "runtime": {
                "python_host": sys.version.split()[0],
                "python_sandbox": getattr(self, "interpreter", None) and self.interpreter.version,
                "interpreter": getattr(self, "interpreter", None) and self.interpreter.path,
                "bwrap": isolation.bwrap_version(),
            },
            "runs_executed": self.stats["executed"],
            "protocols": {name: self.stats[f"protocol:{name}"] for name in (JUDGED_OUTSIDE, IN_PROCESS)},
            "in_process_reasons": {k.split(":", 1)[1]: v for k, v in sorted(self.stats.items()) if k.startswith("in_process:")},
            "record_runs": self._recordings.runs,
            "runs_cached": self.stats["cached"],
            "reruns": self.stats["reruns"],
            "verdicts": dict(sorted(self.verdicts.items())),
            "flaky": list(self.flaky),
            "timeouts": timeouts,
            "undecided": self.stats["undecided"],
            "near_limit_timeout_share": round(self.stats["near_limit_timeouts"] / timeouts, 4) if timeouts else 0.0,
            "launcher_errors": self.stats["launcher_errors"],
            "reclaimed_stale": self.stats["reclaimed_stale"],
            "surviving_processes": sum(s.survivors for s in self.slots),
            "tainted_restarts": sum(s.tainted_restarts for s in self.slots),
            "unclean_restarts": sum(s.unclean_restarts for s in self.slots),
            "host_artefacts": len(hostcheck.artefacts(uids, skip=skip)) if uids else None,
        }


def _admission(results: tuple[ExecResult, ...]) -> Admission:
    """Admit a canonical only if every repeat passed; its slowest CPU time sets the mutants' budget."""
    cpu = max(r.seconds for r in results)
    ok, reason = decide.admission([r.verdict for r in results], [r.detail for r in results])
    return Admission(ok, cpu, Limits.from_canonical(cpu), reason, results)


def compile_error(program: str) -> str:
    """Why ``program`` does not compile, checked here (outside the sandbox, without running it),
    so that ERROR is a verdict only the trusted side can give; ``""`` when it compiles."""
    try:
        compile(program, "<candidate>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return ""
