"""One worker slot: a long-lived sandbox server plus a judge, used for one run at a time.

The host side never executes candidate or test code. For each run it hands fresh channels to the
server (candidate side) and the judge (tests side), then watches: the server's ``exit`` report,
the judge's result, the output pipes (capped) and the slot cgroup's CPU counter (budget). On a
budget or cap breach it has the server kill the child; the server sweeps every leftover process.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from execir.execute.evidence import Raw
from execir.execute.harness import frames
from execir.execute.jobs import Job
from execir.execute.limits import Limits
from execir.execute.runtimes.base import NONCE_ENV, Plan
from execir.execute.sandbox import hostcheck, isolation
from execir.execute.sandbox.capture import Capture
from execir.execute.sandbox.cgroups import SlotCgroup
from execir.execute.sandbox.feed import Feed
from execir.execute.sandbox.reap import kill_group
from execir.execute.sandbox.trusted_runner import TrustedRunner, TrustedSpec

CPU_TICK = 0.01
START_TIMEOUT = 15.0
KILL_GRACE = 5.0
WIPE_TIMEOUT = 60.0
"""How long the server may take to wipe and verify its filesystem after a run before the slot is
restarted instead (a fresh sandbox has a fresh tmpfs)."""
JUDGE_GRACE = 2.0
SERVER_MEMORY_MB = 256


CHANNEL_CAP = 1 << 16
"""exec mode: bytes kept from fd 3 (the compile report, then the completion record)."""


def _frame_end(data: bytes | bytearray) -> int:
    """Where the first length-prefixed frame in ``data`` ends (0 while incomplete)."""
    if len(data) < 4:
        return 0
    end = 4 + int.from_bytes(data[:4], "big")
    return end if len(data) >= end else 0


def _first_frame(data: bytes | bytearray) -> dict | None:
    end = _frame_end(data)
    try:
        value = json.loads(bytes(data[4:end]).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) and value.get("op") == "compiled" else None


class LauncherError(RuntimeError):
    """The sandbox could not be started or lost before the candidate ran: retry, never FAIL."""


class RequestTooLarge(ValueError):
    """One run's request (its program and files) is over the sandbox's frame limit: that job is
    refused before anything is sent, the slot and the rest of the batch are untouched."""


def stdin_fd(text: str) -> int:
    """A sealed, read-only memfd holding ``text`` (UTF-8) at offset 0: stdin of one run, handed to
    the sandbox as a descriptor, so an input of any size never travels in a frame."""
    fd = os.memfd_create("execir-stdin", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        view = memoryview(text.encode("utf-8", "surrogatepass"))
        while view:
            view = view[os.write(fd, view) :]
        os.lseek(fd, 0, os.SEEK_SET)
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_WRITE | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_SEAL)
    except BaseException:
        os.close(fd)
        raise
    return fd


@dataclass(frozen=True)
class SlotSpec:
    """Everything a slot needs to start."""

    index: int
    level: str
    interpreter: isolation.Interpreter
    uid: int | None
    judge_uid: int | None
    host_dir: str
    harness: str
    """The staged, world-readable copy of the harness files (:func:`isolation.stage_harness`)."""
    bpf: bytes | None
    cgroup_name: str | None
    cpu: int | None = None
    """The CPU the slot's server, candidate and judge are pinned to (cross-CPU wakeups cost ~0.3 ms
    here), claimed host-wide by the oracle (:mod:`execir.execute.sandbox.cpus`); None: unpinned."""


class Slot:
    """A started server + judge pair bound to one uid and one cgroup."""

    def __init__(self, spec: SlotSpec) -> None:
        self.spec = spec
        self.cgroup = SlotCgroup(spec.cgroup_name) if spec.cgroup_name else None
        self.server: subprocess.Popen | None = None
        self.judge: subprocess.Popen | None = None
        self.baseline: set[int] = set()
        self.python = ""
        self.survivors = 0
        self.judge_restarts = 0
        self.tainted_restarts = 0
        self.unclean_restarts = 0
        self.generation = 0
        self._log = tempfile.TemporaryFile()
        self.cpu = spec.cpu
        self.trusted: dict[TrustedSpec, TrustedRunner] = {}
        self.start()

    # ---- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        spec = self.spec
        self.generation += 1
        self.ctrl, remote = socket.socketpair()
        launch, extra_fds = isolation.server_launch(spec.level, spec.interpreter, remote.fileno(), Path(spec.harness), spec.host_dir, 256)
        argv = [a.replace("{uid}", str(spec.uid)) for a in launch.argv]
        drop = spec.uid if spec.level in ("bwrap", "uid") else None
        procs = [str(d / "cgroup.procs") for d in set(self.cgroup.dirs.values())] if self.cgroup else []
        try:
            self.server = subprocess.Popen(
                argv,
                pass_fds=launch.pass_fds,
                env=launch.env,
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=self._log,
                preexec_fn=_preexec(procs, drop),
                start_new_session=True,
            )
        except (OSError, subprocess.SubprocessError) as exc:  # SubprocessError: preexec_fn failed
            raise LauncherError(f"cannot start the sandbox: {exc}") from exc
        finally:
            remote.close()
            for fd in extra_fds:
                os.close(fd)
        frames.send(
            self.ctrl,
            {
                "work_root": launch.work_root,
                "bpf": (spec.bpf or b"").hex(),
                "sweep": launch.sweep,
                "wipe": launch.wipe,
                "wipe_owned": launch.wipe_owned,
                "cpu": self.cpu,
                "cgroup": self.cgroup is not None,
            },
        )
        hello = self._expect(self.ctrl, START_TIMEOUT)
        if hello is None or hello.get("op") != "hello":
            raise LauncherError(f"sandbox server did not start: {self._log_tail()}")
        self.python = str(hello.get("python", ""))
        self.baseline = self._members()
        self._start_judge()

    def _start_judge(self) -> None:
        self.jctrl, remote = socket.socketpair()
        uid = self.spec.judge_uid
        # user/group/extra_groups=None leave the credentials alone (as when the arguments are absent)
        extra_groups: list[int] | None = [] if uid is not None else None
        self.judge = subprocess.Popen(
            isolation.judge_argv(self.spec.interpreter, Path(self.spec.harness), remote.fileno(), self.cpu),
            pass_fds=(remote.fileno(),),
            env=dict(isolation.ENV, HOME="/"),
            cwd="/",
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            start_new_session=True,
            user=uid,
            group=uid,
            extra_groups=extra_groups,
        )
        remote.close()
        hello = self._expect(self.jctrl, START_TIMEOUT)
        if hello is None or hello.get("op") != "hello":
            raise LauncherError(f"judge did not start: {self._log_tail()}")

    def stop(self) -> None:
        """Kill the server, judge, trusted runners and anything left in the cgroup."""
        _kill(self.server, getattr(self, "ctrl", None))
        self._stop_judge()
        for runner in self.trusted.values():
            runner.stop()
        if self.cgroup:
            self.cgroup.kill_except(set())

    def _stop_judge(self) -> None:
        _kill(self.judge, getattr(self, "jctrl", None))

    def restart(self) -> None:
        self.stop()
        self.start()

    def close(self) -> None:
        self.stop()
        if self.cgroup:
            self.cgroup.remove()
        self._log.close()

    def _log_tail(self) -> str:
        self._log.seek(0)
        return self._log.read()[-800:].decode("utf-8", "replace")

    @staticmethod
    def _expect(sock: socket.socket, timeout: float) -> dict | None:
        ready, _, _ = select.select([sock], [], [], timeout)
        if not ready:
            return None
        try:
            frame = frames.recv(sock)
        except (OSError, frames.FrameError):
            return None
        return frame[0] if frame and isinstance(frame[0], dict) else None

    # ---- one run ---------------------------------------------------------------------------
    def run_call(self, job: Job) -> Raw:
        """A check/asserts job: candidate in the sandbox, tests in the judge."""
        chan_j, chan_c = socket.socketpair()
        res_host, res_j = socket.socketpair()
        out_r, out_w = os.pipe()
        tests = job.tests
        frames.send(
            self.jctrl,
            {
                "op": "judge",
                "kind": tests.kind,
                "code": tests.code,
                "asserts": list(tests.asserts),
                "reference": job.reference,
                "entry_point": job.entry_point,
                "cpu_seconds": job.limits.cpu_seconds,
            },
            [chan_j.fileno(), res_j.fileno()],
        )
        chan_j.close()
        res_j.close()
        # the candidate's stdout and stderr are never judged in a call job: drained, only the tail kept
        captures = [Capture(out_r, None, "tail")]
        generation = self.generation
        try:
            raw = self._run(job.limits, {"mode": "call", "program": job.program, "entry_point": job.entry_point}, [chan_c, out_w], res_host, captures)
        finally:
            if self.generation == generation:  # after a restart the new judge never had this job
                self._judge_settle()
        raw.stderr_tail = captures[0].tail()
        return raw

    def _judge_settle(self) -> None:
        """Consume the judge's ``done``; restart the judge if it is stuck in test code."""
        done = self._expect(self.jctrl, JUDGE_GRACE)
        if done is None or done.get("op") != "done":
            self.judge_restarts += 1
            self._stop_judge()
            self._start_judge()

    def run_main(self, job: Job, stdin: str) -> Raw:
        """One stdio case: the program as ``__main__``; the host reads stdout itself."""
        chan_h, chan_c = socket.socketpair()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        # stdout is capped; stderr is drained to EOF but only its tail kept (its volume never decides)
        captures = [Capture(out_r, job.limits.output_kb << 10, "head"), Capture(err_r, None, "tail")]
        raw = self._run(
            job.limits, {"mode": "main", "program": job.program, "entry_point": job.entry_point}, [chan_c, out_w, err_w, stdin_fd(stdin)], chan_h, captures
        )
        raw.stdout = bytes(captures[0].data)
        raw.stderr_tail = captures[1].tail()
        raw.stderr_bytes = captures[1].total
        raw.stdout_eof = captures[0].eof
        return raw

    def run_exec(
        self,
        limits: Limits,
        plan: Plan,
        stdin: str,
        nonce: str,
        *,
        judged_stdout: bool = True,
        channel_cap: int = CHANNEL_CAP,
        feed: Sequence[str] | None = None,
    ) -> Raw:
        """A program of another language: compile (its own budget), then run; stdout captured like
        a stdio case (``judged_stdout`` False: native tests, whose stdout decides nothing, drained
        like stderr with only its tail kept), fd 3 carries the trusted compile report and then the
        tests' completion record (``channel_cap`` bytes of it are kept; beyond that the run is capped).
        ``feed`` (a judged-outside calls run): the calls, written to fd 3 one at a time, each once
        the previous one's result line is in (:mod:`execir.execute.sandbox.feed`)."""
        chan_h, chan_c = socket.socketpair()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        channel = Capture(os.dup(chan_h.fileno()), channel_cap, "head")
        stdout = Capture(out_r, limits.output_kb << 10, "head") if judged_stdout else Capture(out_r, None, "tail")
        captures = [stdout, Capture(err_r, None, "tail"), channel]
        msg = {"mode": "exec", "files": plan.files, "compile": list(plan.compile), "run": list(plan.run), "env": plan.env}
        msg.update(nonce=nonce, nonce_env=NONCE_ENV)
        feeder = Feed(chan_h, feed) if feed is not None else None
        raw = self._run(limits, msg, [chan_c, out_w, err_w, stdin_fd(stdin)], chan_h, captures, channel, feeder)
        raw.stdout = bytes(captures[0].data)
        raw.stderr_tail = captures[1].tail()
        raw.stderr_bytes = captures[1].total
        raw.stdout_eof = captures[0].eof
        raw.nonce = nonce
        raw.completion = bytes(channel.data[_frame_end(channel.data) :]) if raw.compile is not None else b""
        if raw.compile is not None:
            raw.result = raw.compile
        return raw

    def run_trusted(self, spec: TrustedSpec, limits: Limits, plan: Plan, nonce: str, channel_cap: int) -> Raw | None:
        """A trusted plan (record or judge: no candidate code) in this slot's warm runner of
        ``spec``, outside the sandbox, as the judge's uid; None when the plan is not of its shape."""
        runner = self.trusted.get(spec)
        if runner is None:
            runner = self.trusted[spec] = TrustedRunner(spec, self.spec.judge_uid)
        return runner.run(plan, limits, nonce, channel_cap)

    def _run(
        self,
        limits: Limits,
        msg: dict,
        child_fds: list,
        result_sock: socket.socket,
        captures: list[Capture],
        channel: Capture | None = None,
        feeder: Feed | None = None,
    ) -> Raw:
        raw = Raw()
        if self.cgroup:
            self.cgroup.set_limits(limits.memory_mb + SERVER_MEMORY_MB, limits.nproc + 8)
            cpu0, mem0 = self.cgroup.cpu_seconds(), self.cgroup.memory_failures()
        msg = dict(msg, op="run", limits=limits.wire())
        started = time.monotonic()
        try:
            frames.send(self.ctrl, msg, [s if isinstance(s, int) else s.fileno() for s in child_fds])
        except frames.FrameError as exc:
            for capture in captures:
                os.close(capture.fd)
            raise RequestTooLarge(f"the run's program and files are too large for the sandbox ({exc})") from None
        except OSError as exc:
            raise LauncherError(f"sandbox server unreachable: {exc}") from exc
        finally:
            for s in child_fds:
                os.close(s) if isinstance(s, int) else s.close()
        try:
            ack = self._expect(self.ctrl, START_TIMEOUT)
            if ack is None or ack.get("op") != "started":
                raise LauncherError(f"sandbox server did not start the run: {self._log_tail()}")
            raw.started = True
            exit_msg = self._watch(raw, limits, started, result_sock, captures, cpu0 if self.cgroup else 0.0, msg["mode"] in ("main", "exec"), channel, feeder)
            raw.wall = time.monotonic() - started
            if exit_msg is None:
                raw.server_lost = True
            else:
                raw.exit_code = int(exit_msg.get("code", -1))
                raw.cpu = float(exit_msg.get("cpu", 0.0))
                if exit_msg.get("cpu_killed"):
                    raw.timeout = "cpu"
                raw.extra = exit_msg
                raw.main_exited = bool(exit_msg.get("main_exited"))
                raw.leftover = bool(exit_msg.get("leftover"))
            if self.cgroup:
                raw.cpu = self.cgroup.cpu_seconds() - cpu0
            if channel is not None:  # exec mode: the run's CPU excludes the compile step's
                raw.cpu = max(0.0, raw.cpu - raw.compile_cpu)
            if self.cgroup:
                raw.memory_killed = self.cgroup.memory_failures() > mem0 and raw.exit_code == -signal.SIGKILL
            for cap in captures:
                cap.drain()
            raw.capped = raw.capped or any(c.capped for c in captures)
            if not raw.server_lost:  # a lost server's pid namespace is still collapsing; restart sweeps it
                self._check_survivors(raw)
        finally:
            result_sock.close()
            for cap in captures:
                cap.close()
        if not raw.server_lost:
            wiped = self._expect(self.ctrl, WIPE_TIMEOUT)
            if wiped is None or wiped.get("op") != "wiped":
                raw.unclean = f"no wipe report within {WIPE_TIMEOUT:.0f} s"
            else:
                raw.unclean = str(wiped.get("unclean") or "")
                raw.extra = {**raw.extra, **wiped, "op": "exit"}
        if raw.server_lost:
            self.restart()
        elif raw.extra.get("tainted"):
            # the candidate changed the server's rlimits/priority/scheduling (same uid, no ptrace
            # needed): every later child would inherit them, so start a fresh sandbox
            self.tainted_restarts += 1
            self.restart()
        elif raw.unclean:
            # the wipe could not be verified (files left, tmpfs usage above its baseline): what the
            # candidate left would reach the next run, so start a fresh sandbox (fresh tmpfs)
            self.unclean_restarts += 1
            self.restart()
        return raw

    def _watch(
        self,
        raw: Raw,
        limits: Limits,
        started: float,
        result_sock: socket.socket,
        captures: list[Capture],
        cpu0: float,
        wait_eof: bool = False,
        channel: Capture | None = None,
        feeder: Feed | None = None,
    ) -> dict | None:
        """Wait for the server's exit report and the result; enforce budgets and the output cap.

        ``wait_eof`` (stdio runs): also wait for EOF on every output pipe. The server reports the
        exit only once every process of the run has exited, so EOF follows at once; both happen
        within the CPU and wall budgets or the run is a TIMEOUT, even when the main process
        itself had exited (``Raw.leftover``).

        ``channel`` (exec mode): the result socket is read as a stream; until the trusted compile
        report arrives the compile budgets apply, then the run's, counted from that moment.

        ``feeder``: the calls of a judged-outside run, written to the result socket as the result
        lines after the compile report come in."""
        compiling = channel is not None and limits.compile_cpu_seconds > 0
        budget = limits.compile_cpu_seconds if compiling else limits.cpu_seconds
        deadline = started + (limits.compile_wall_seconds if compiling else limits.wall_seconds)
        watched = {self.ctrl.fileno(): "ctrl", **({} if channel else {result_sock.fileno(): "result"}), **{c.fd: c for c in captures}}
        exit_msg: dict | None = None
        result_done = channel is not None
        next_cpu = time.monotonic() + CPU_TICK
        if feeder is not None:
            feeder.advance(0)
        while exit_msg is None or not result_done or (wait_eof and not all(c.eof for c in captures)):
            now = time.monotonic()
            if channel is not None and raw.compile is None and _frame_end(channel.data):
                raw.compile = _first_frame(channel.data) or {"op": "compiled", "ok": False, "harness": True, "log": "malformed compile report"}
                # the compiler's own CPU, from the trusted report (the host may read the report only
                # after the run has gone on, so a cgroup reading now would include run time)
                reported = raw.compile.get("cpu", 0.0)
                spent = float(reported) if type(reported) in (int, float) else 0.0
                raw.compile_cpu, cpu0, compiling = spent, cpu0 + (spent if self.cgroup else 0.0), False
                budget, deadline = limits.cpu_seconds, now + limits.wall_seconds
            if feeder is not None and channel is not None and raw.compile is not None:
                feeder.observe(channel.data, _frame_end(channel.data))
            if now >= deadline:
                raw.timeout = "wall"
                raw.compile_timeout = compiling
                break
            if self.cgroup and now >= next_cpu:
                if self.cgroup.cpu_seconds() - cpu0 > budget:
                    raw.timeout = "cpu"
                    raw.compile_timeout = compiling
                    break
                next_cpu = now + CPU_TICK
            writing = [result_sock] if feeder is not None and feeder.wants_write else []
            ready, writable, _ = select.select(list(watched), writing, [], min(CPU_TICK, deadline - now))
            if writable and feeder is not None:
                feeder.write()
            for fd in ready:
                what = watched.get(fd)
                if what == "ctrl":
                    exit_msg = self._read_exit()
                    if exit_msg is None:
                        return None
                    del watched[fd]
                elif what == "result":
                    raw.result, result_done = self._read_result(result_sock), True
                    del watched[fd]
                elif isinstance(what, Capture):
                    what.read()
                    if what.eof:
                        del watched[fd]
                    elif what.capped:
                        raw.capped = True
            if raw.capped:
                break
        if exit_msg is None or not result_done:
            return self._abort(exit_msg)
        return exit_msg

    def _read_exit(self) -> dict | None:
        try:
            frame = frames.recv(self.ctrl)
        except (OSError, frames.FrameError):
            return None
        return frame[0] if frame and isinstance(frame[0], dict) and frame[0].get("op") == "exit" else None

    @staticmethod
    def _read_result(sock: socket.socket) -> dict | None:
        try:
            frame = frames.recv(sock)
        except (OSError, frames.FrameError):
            return None
        return frame[0] if frame and isinstance(frame[0], dict) else None

    def _abort(self, exit_msg: dict | None) -> dict | None:
        """Have the server kill the candidate, then wait for its exit report."""
        if exit_msg is not None:
            return exit_msg
        try:
            frames.send(self.ctrl, {"op": "kill"})
        except OSError:
            return None
        ready, _, _ = select.select([self.ctrl], [], [], KILL_GRACE)
        return self._read_exit() if ready else None

    def _members(self) -> set[int]:
        """Pids of the slot (cgroup members, or live processes of the slot uid)."""
        if self.cgroup:
            return self.cgroup.procs()
        return set(hostcheck.processes({self.spec.uid})) if self.spec.uid is not None else set()

    def _check_survivors(self, raw: Raw) -> None:
        """Count and kill anything the server's sweep left (a reliability failure, never seen)."""
        if self.cgroup:
            extra = self.cgroup.procs() - self.baseline
            if extra:
                raw.survivors = self.cgroup.kill_except(self.baseline)
        elif self.spec.uid is not None and self.spec.level == "uid":
            extra = set(hostcheck.processes({self.spec.uid})) - self.baseline
            for pid in extra:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            raw.survivors = len(extra)
        self.survivors += raw.survivors


def _kill(proc: subprocess.Popen | None, sock: socket.socket | None) -> None:
    if sock is not None:
        sock.close()
    if proc is not None and proc.poll() is None:
        kill_group(proc)


def _preexec(procs: list[str], uid: int | None) -> Callable[[], None]:
    """Runs in the forked child before exec: join the cgroups, then drop to the slot uid."""

    def run() -> None:
        pid = str(os.getpid()).encode()
        for path in procs:
            fd = os.open(path, os.O_WRONLY)
            os.write(fd, pid)
            os.close(fd)
        if uid is not None:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)

    return run
