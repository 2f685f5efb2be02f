"""A warm trusted interpreter that runs a task's record and judge plans in a forked child each.

The record and judge runs of the judged-outside protocol (:mod:`execir.execute.split`) execute
trusted code only: the task's reference, its tests and ExecIR's harness; a candidate's values reach
a judge only as wire text that the harness's codec decodes into the language's core values. For an
interpreted language whose runtime declares trusted specs (:class:`TrustedSpec`: Ruby, PHP,
JavaScript and TypeScript), those runs, and a syntax check that compiles the candidate's text
without running it, skip the sandbox's per-run start (a fresh interpreter, namespaces, cgroup,
wipe): one long-lived interpreter per slot and spec, started like the Python judge (outside the
candidate's sandbox, as the judge's uid, in a session of its own, with a clean environment), runs
each request in a private directory under a root it alone may write, with CPU, wall and memory
budgets and an output cap: Ruby and PHP in a forked child (with file-size and descriptor budgets
too), Node, which cannot fork, in a fresh V8 context of its one process (``harness/js_warm.js``).
Candidate code never runs here: the candidate's own calls run stays in the sandbox.

Requests and replies are length-prefixed JSON frames (:mod:`execir.execute.harness.frames`); the
reply becomes the same :class:`~execir.execute.evidence.Raw` evidence a sandbox run gives, so the
verdict rules in :mod:`execir.execute.decide` do not change. A runner that dies or answers out of
protocol is restarted and the run reports ``server_lost`` (UNDECIDED, never a verdict).
"""

from __future__ import annotations

import base64
import fcntl
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass

from execir.execute.evidence import Raw
from execir.execute.harness import frames
from execir.execute.limits import Limits
from execir.execute.runtimes.base import Plan
from execir.execute.sandbox.reap import kill_group

START_SECONDS = 10.0
GRACE_SECONDS = 5.0
"""How long past a run's wall budget the runner may take to answer before it counts as lost."""
_NOTHING_TO_COMPILE = {"op": "compiled", "ok": True, "status": 0, "cpu": 0.0, "log": ""}
"""The compile report of a trusted run (its plans have no compile step)."""
DECLINED = {"op": "decline"}
"""A runner's answer to a request it cannot read (the plan then runs in the sandbox)."""


@dataclass(frozen=True)
class TrustedSpec:
    """How a runtime's trusted plans run warm: the runner's command (the control socket's
    descriptor is added to it at start) and the interpreter prefix a plan's run command must have
    (the script and its arguments follow it).

    ``channel``: how a child gets its fd 3. ``"null"``: the runner starts with fd 3 open on
    /dev/null (so its runtime keeps that number free), the control socket's descriptor is its last
    argument, and it points each child's fd 3 at a pipe of its own (Ruby). ``"pipe"``: for a runtime
    that cannot move a descriptor (PHP has no ``dup2``; it can only close its standard streams and
    open others in their place), the control socket is the runner's stdin and stdout (a child closes
    both), fd 3 is the write end of one pipe that every child inherits and the read end's descriptor
    is the runner's last argument; runs are one at a time.

    ``scripts``: when not empty, the only scripts the runner takes (a runtime whose candidate's calls
    run has the same command as its trusted runs names its record and judge drivers here, so that
    run stays in the sandbox)."""

    argv: tuple[str, ...]
    prefix: tuple[str, ...]
    channel: str = "null"
    scripts: tuple[str, ...] = ()

    def takes(self, plan: Plan) -> bool:
        """Whether ``plan`` is of this interpreter's shape (no compile step, this command, one of
        ``scripts`` where they are named)."""
        if plan.compile or plan.run[: len(self.prefix)] != self.prefix or len(plan.run) <= len(self.prefix):
            return False
        return not self.scripts or plan.run[len(self.prefix)] in self.scripts

    def request(self, plan: Plan, limits: Limits, nonce: str, cap: int) -> dict | None:
        """The runner's request for ``plan``, or None when the plan is not of this interpreter's
        shape (a compile step, another command): it then runs in the sandbox."""
        if not self.takes(plan):
            return None
        script, *args = plan.run[len(self.prefix) :]
        return {
            "files": plan.files,
            "script": script,
            "args": args,
            "env": plan.env,
            "nonce": nonce,
            "cpu": limits.cpu_seconds,
            "wall": limits.wall_seconds,
            "memory_mb": limits.memory_mb,
            "file_size_mb": limits.file_size_mb,
            "nofile": limits.nofile,
            "cap": cap,
        }


class TrustedRunner:
    """One warm interpreter (started on first use, restarted when lost)."""

    def __init__(self, spec: TrustedSpec, uid: int | None) -> None:
        self.spec = spec
        self.uid = uid
        self.process: subprocess.Popen | None = None
        self.ctrl: socket.socket | None = None
        self.root = ""
        self.restarts = 0
        self._lock = threading.Lock()

    def run(self, plan: Plan, limits: Limits, nonce: str, cap: int) -> Raw | None:
        """``plan``'s evidence, or None when it is not of this runner's shape, the runner cannot
        start here or it declines the request (the plan then runs in the sandbox)."""
        request = self.spec.request(plan, limits, nonce, cap)
        if request is None:
            return None
        with self._lock:
            if (self.process is None or self.process.poll() is not None) and not self._start():
                return None
            reply = self._ask(request, limits.wall_seconds + GRACE_SECONDS)
            if reply == DECLINED:
                return None
            if reply is None:
                self.restarts += 1
                self.stop()
                return Raw(started=True, server_lost=True, nonce=nonce, compile=dict(_NOTHING_TO_COMPILE))
        return _evidence(reply, nonce)

    def _start(self) -> bool:
        """Start the interpreter; False when it does not answer (it is then stopped)."""
        self.stop()
        self.root = tempfile.mkdtemp(prefix="execir-trusted-")
        if self.uid is not None:
            os.chown(self.root, self.uid, self.uid)
        os.chmod(self.root, 0o700)
        ctrl, remote = socket.socketpair()
        extra_groups: list[int] | None = [] if self.uid is not None else None
        # fd 3 set by the shell before the interpreter starts (every descriptor passed is numbered
        # above it): on /dev/null, so the runtime keeps it free for the children's fd 3 (the channel
        # every trusted harness writes), or on the shared channel's pipe (handed over as stdout)
        held = [_above_three(remote.fileno())]
        redirect, ends = "3</dev/null", (subprocess.DEVNULL, subprocess.DEVNULL, subprocess.DEVNULL)
        if self.spec.channel == "pipe":  # the pipe's write end handed over as stderr, then moved to fd 3
            reader, writer = os.pipe()
            os.close(held.pop())
            held.append(_above_three(reader, close=True))
            redirect, ends = "3>&2 2>/dev/null", (remote.fileno(), remote.fileno(), writer)
        try:
            self.process = subprocess.Popen(
                ["/bin/sh", "-c", f'exec "$0" "$@" {redirect}', *self.spec.argv, str(held[0])],
                pass_fds=tuple(held),
                env={"PATH": "/usr/bin:/bin", "TMPDIR": self.root, "HOME": self.root, "LANG": "C.UTF-8"},
                cwd=self.root,
                stdin=ends[0],
                stdout=ends[1],
                stderr=ends[2],
                start_new_session=True,
                user=self.uid,
                group=self.uid,
                extra_groups=extra_groups,
            )
        except OSError:
            ctrl.close()
            self.stop()
            return False
        finally:
            remote.close()
            for fd in held + ([ends[2]] if ends[2] != subprocess.DEVNULL else []):
                os.close(fd)
        self.ctrl = ctrl
        hello = _receive(ctrl, START_SECONDS)
        if not isinstance(hello, dict) or hello.get("op") != "hello":
            self.stop()
            return False
        return True

    def _ask(self, request: dict, seconds: float) -> dict | None:
        assert self.ctrl is not None
        try:
            frames.send(self.ctrl, request)
        except OSError:
            return None
        reply = _receive(self.ctrl, seconds)
        if reply == DECLINED:
            return DECLINED
        return reply if isinstance(reply, dict) and isinstance(reply.get("data"), str) else None

    def cpu_seconds(self) -> float:
        """CPU of the running interpreter and of the children it reaped (its runs), 0 when none
        runs; a runner outside the slot's cgroup is not in the cgroup's figure."""
        if self.process is None:
            return 0.0
        try:
            with open(f"/proc/{self.process.pid}/stat", encoding="ascii") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return 0.0
        return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        """End the interpreter (and every child of its session) and remove its directory."""
        if self.process is not None:
            kill_group(self.process)
            self.process = None
        if self.ctrl is not None:
            self.ctrl.close()
            self.ctrl = None
        if self.root:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = ""


def _above_three(fd: int, close: bool = False) -> int:
    """A copy of ``fd`` numbered above 3 (the shell's redirection of fd 3 would replace it)."""
    copy = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    if close:
        os.close(fd)
    return copy


def _receive(sock: socket.socket, seconds: float) -> object | None:
    sock.settimeout(seconds)
    try:
        frame = frames.recv(sock)
    except (OSError, frames.FrameError):
        return None
    finally:
        sock.settimeout(None)
    return frame[0] if frame else None


def _evidence(reply: dict, nonce: str) -> Raw:
    """The runner's reply as a run's evidence (the fields a sandbox run fills for a trusted plan)."""
    status, signal = reply.get("status"), reply.get("signal")
    exit_code = status if isinstance(status, int) else -signal if isinstance(signal, int) else None
    return Raw(
        started=True,
        exit_code=exit_code,
        cpu=float(reply.get("cpu") or 0.0),
        wall=float(reply.get("wall") or 0.0),
        timeout=str(reply.get("timeout") or ""),
        capped=bool(reply.get("capped")),
        memory_killed=bool(reply.get("memory")),
        main_exited=isinstance(status, int),
        compile=dict(_NOTHING_TO_COMPILE),
        nonce=nonce,
        completion=base64.b64decode(reply["data"]),
    )
