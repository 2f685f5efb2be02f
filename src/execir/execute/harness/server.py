"""Sandbox server: one per worker slot, started before anything heavy (stdlib only).

Runs as the slot's unprivileged uid, as PID 1 of the sandbox's pid namespace under bubblewrap (so
candidates cannot signal it). Protocol on the control socket (fd given as argv[1]):

* first frame: ``{"work_root", "bpf" (hex or ""), "sweep": "pidns"|"uid"|"pgrp", "wipe": [dirs]}``;
  answered by ``{"op": "hello", ...}``;
* ``{"op": "run", "mode": "call"|"main", ...}`` with fds ``[chan, out_w(, err_w)]``: fork one child
  (see ``driver``), answer ``{"op": "started"}``, then one ``{"op": "exit", ...}`` once the run is
  over and every leftover process is killed, then one ``{"op": "wiped", "unclean": str, ...}`` once
  the filesystem is wiped and verified (``unclean`` non-empty: the slot could not be proven clean,
  the host restarts it). The run is over when the child exits (``call``), or, in ``main`` mode,
  when the child and every other process of the run have exited (as under a pipe judge; output
  written by leftover processes counts) or the host asks for a kill;
* ``{"op": "kill"}`` while a run is active: SIGKILL the child (or, in ``main`` mode after the child
  exited, the processes it left) now.

Between runs the private roots (the work root and ``wipe``: tmpfs at bwrap/unshare) are emptied by
an fd-based walk that fixes permissions at every depth, then verified: each is empty, has its
start-up mode, and (private tmpfs) its used blocks and inodes are back at the start-up baseline.
Entries the slot uid owns in shared world-writable directories (``wipe_owned`` and the usual ones
it can write to) are removed and the removal verified. Not covered: a file the slot uid creates in
a world-writable directory elsewhere on a shared host filesystem (``uid``/``unshare`` levels).
"""

from __future__ import annotations

import ctypes
import gc
import os
import resource
import select
import signal
import socket
import stat
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import driver  # noqa: E402
import frames  # noqa: E402
import wipe  # noqa: E402

_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_DUMPABLE = 4
_IPC_RMID = 0
_LIBC = ctypes.CDLL(None, use_errno=True)
_RLIMITS = tuple(getattr(resource, name) for name in dir(resource) if name.startswith("RLIMIT_"))
WARM_MODULES = (
    "typing",
    "math",
    "re",
    "collections",
    "itertools",
    "functools",
    "heapq",
    "bisect",
    "string",
    "hashlib",
    "random",
    "fractions",
    "decimal",
    "statistics",
    "copy",
    "datetime",
    "operator",
    "json",
)
"""Imported once before any fork, so candidates do not each pay for them (children share pages)."""


def warm_up() -> None:
    import importlib

    for name in WARM_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass


def sweep(mode: str, child: int) -> int:
    """Kill every process the candidate may have left; returns kill rounds that found something."""
    rounds = 0
    if mode == "pgrp":  # no pid namespace: the process group, then every descendant (subreaper)
        for _ in range(50):
            try:
                os.killpg(child, signal.SIGKILL)
            except OSError:
                pass
            pids = tree_pids()
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            reaped = _reap_all(block=True)
            if not pids and not reaped:
                break
            rounds += bool(pids)
        return rounds
    for _ in range(50):
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:  # nothing else in our pid namespace
            break
        reaped = _reap_all(block=True)
        if reaped == 0 and mode == "uid":  # kill(-1) reports 0 even when nothing was signalled
            break
        rounds += 1
    return rounds


def tree_pids() -> list[int]:
    """Live descendants of this server (orphans are reparented to it: PID 1 or subreaper)."""
    out: list[int] = []
    todo = [os.getpid()]
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/task/{pid}/children", "rb") as handle:
                kids = [int(k) for k in handle.read().split()]
        except (OSError, ValueError):
            continue
        out += kids
        todo += kids
    return out


def _reap_all(block: bool) -> int:
    reaped = 0
    while True:
        try:
            pid, _status = os.waitpid(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return reaped
        if pid == 0:
            return reaped
        reaped += 1


def process_state() -> tuple:
    """What a same-uid candidate could change in the server without ptrace (prlimit, setpriority,
    sched_setscheduler/affinity) and every later child would inherit. Compared after each run: a
    change marks the slot tainted and the host restarts it (the seccomp filter denies these calls
    on other processes; this covers runs without seccomp)."""
    return (
        tuple(resource.getrlimit(r) for r in _RLIMITS),
        os.getpriority(os.PRIO_PROCESS, 0),
        os.sched_getscheduler(0),
        frozenset(os.sched_getaffinity(0)),
    )


def remove_ipc(uid: int) -> int:
    """Remove the SysV shared memory segments, message queues and semaphore sets owned or created
    by ``uid``: they outlive every process (shm pages stay charged to the slot's memory cgroup, and
    all three carry data to the next run). Returns how many were removed."""
    removed = 0
    for kind, call in (("shm", "shmctl"), ("msg", "msgctl"), ("sem", "semctl")):
        try:
            with open(f"/proc/sysvipc/{kind}", "rb") as handle:
                lines = handle.read().splitlines()[1:]
        except OSError:
            continue
        if not lines:
            continue
        columns = {"shm": (1, 7, 9), "msg": (1, 7, 9), "sem": (1, 4, 6)}[kind]  # id, uid, cuid
        for line in lines:
            cols = line.split()
            try:
                ident, owner, creator = (int(cols[i]) for i in columns)
            except (IndexError, ValueError):
                continue
            if uid in (owner, creator):
                args = (ident, 0, _IPC_RMID, None) if kind == "sem" else (ident, _IPC_RMID, None)
                removed += getattr(_LIBC, call)(*args) == 0
    return removed


CPU_POLL = 0.01
_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_of(pid: int) -> float:
    """utime+stime of ``pid`` and its reaped children (used only when no cgroup measures the tree)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(f) for f in fields[11:15]) / _TICK


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _wait_tree(ctrl: socket.socket, config: dict, budget: float) -> tuple[bool, bool]:
    """``main`` mode, once the main process has exited: wait until every other process of the run
    has exited too (they may still write output, as under a pipe judge), or until the host asks for
    a kill (budget, output cap). Returns (killed, cpu_killed); the caller sweeps."""
    delay = 0.0002
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:  # no process of the run is left
            return False, False
        ready, _, _ = select.select([ctrl], [], [], delay)
        delay = min(delay * 2, CPU_POLL)
        if ready:
            frame = frames.recv(ctrl)
            if frame is None or frame[0].get("op") == "kill":
                return True, False
        elif not config.get("cgroup") and _children_cpu() + sum(_cpu_of(p) for p in tree_pids()) > budget:
            return True, True


def run_one(ctrl: socket.socket, msg: dict, fds: list[int], config: dict, seccomp: driver.Seccomp | None) -> None:
    workdir = os.path.join(config["work_root"], "w")
    os.mkdir(workdir, 0o700)
    cpu0 = _children_cpu()
    pid = os.fork()
    if pid == 0:
        ctrl.close()
        driver.child_main(msg, fds, workdir, seccomp)
    for fd in fds:
        os.close(fd)
    frames.send(ctrl, {"op": "started"})
    pidfd = os.pidfd_open(pid)
    killed = cpu_killed = False
    poll = None if config.get("cgroup") else CPU_POLL
    budget = msg["limits"]["cpu_seconds"] + msg["limits"].get("compile_seconds", 0.0)
    while True:
        watched: list[socket.socket | int] = [ctrl, pidfd]
        ready, _, _ = select.select(watched, [], [], poll)
        if pidfd in ready:
            break
        if not ready:  # no cgroup: enforce the CPU budget from the child's own counters
            if _cpu_of(pid) > budget:
                os.kill(pid, signal.SIGKILL)
                killed = cpu_killed = True
            continue
        frame = frames.recv(ctrl)
        if frame is None or frame[0].get("op") == "kill":
            os.kill(pid, signal.SIGKILL)
            killed = True
            if frame is None:
                break
    _, status, usage = os.wait4(pid, 0)
    os.close(pidfd)
    main_exited = not killed
    leftover = False
    waited = time.monotonic()
    if msg.get("mode") in ("main", "exec") and main_exited:
        leftover, cpu_killed = _wait_tree(ctrl, config, cpu0 + budget)
        killed = leftover
    waited = time.monotonic() - waited
    rounds = sweep(config["sweep"], pid)
    tainted = process_state() != config["state"]
    frames.send(
        ctrl,
        {
            "op": "exit",
            "code": os.waitstatus_to_exitcode(status),
            "cpu": _children_cpu() - cpu0,
            "maxrss_kb": usage.ru_maxrss,
            "killed": killed,
            "cpu_killed": cpu_killed,
            "main_exited": main_exited,
            "leftover": leftover,
            "tree_wait": round(waited, 6),
            "sweep_rounds": rounds,
            "tainted": tainted,
        },
    )
    # after the report (the run's time is over): SysV IPC, then the filesystem, verified. With
    # seccomp, SysV IPC cannot be created; pgrp (rlimits level) runs as the oracle's own uid.
    started = time.monotonic()
    ipc = remove_ipc(os.getuid()) if config["sweep"] != "pgrp" and not config["bpf"] else 0
    problems = wipe.clean_up(config)
    frames.send(ctrl, {"op": "wiped", "unclean": "; ".join(problems)[:500], "ipc_removed": ipc, "wipe_seconds": round(time.monotonic() - started, 6)})


def plain_signals() -> None:
    """A plain process's signal state for everything this server starts: nothing blocked, nothing
    ignored. The oracle's host process may block or ignore signals (a Ray worker blocks SIGINT),
    and a forked child inherits both: a candidate's ``os.kill(getpid(), SIGINT)`` then did nothing."""
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    for sig in signal.valid_signals():
        if sig in (signal.SIGKILL, signal.SIGSTOP):
            continue
        try:
            if signal.getsignal(sig) == signal.SIG_IGN:
                signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):
            pass


def main() -> None:
    ctrl = socket.socket(fileno=int(sys.argv[1]))
    plain_signals()
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    # PID 1 of its namespace gets only the signals it handles: Python's SIGINT handler let a
    # candidate kill the server with os.kill(1, SIGINT). Children restore it (driver.child_main).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    first = frames.recv(ctrl)
    if first is None:
        return
    config = first[0]
    # Not dumpable: the candidate runs as this uid, and same-uid access to /proc/1/mem (writing the
    # server's memory, hence every later child's), /proc/1/fd, pidfd_getfd or oom_score_adj needs
    # only a dumpable target. Children re-enable it for themselves (driver.child_main).
    _LIBC.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    if config["sweep"] != "pidns":  # adopt orphans so they can be reaped after the sweep
        _LIBC.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    seccomp = driver.Seccomp(bytes.fromhex(config["bpf"])) if config["bpf"] else None
    if config.get("cpu") is not None:
        os.sched_setaffinity(0, {config["cpu"]})
    os.makedirs(config["work_root"], mode=0o700, exist_ok=True)
    warm_up()
    roots = [config["work_root"], *config["wipe"]]
    wipe.wipe(roots)
    config["modes"] = {}
    for root in roots:
        try:
            config["modes"][root] = stat.S_IMODE(os.lstat(root).st_mode)
        except OSError:
            pass
    # bwrap/unshare: every wiped root is a private tmpfs, so its usage must return to this baseline
    config["usage"] = wipe.usage(roots) if config["sweep"] == "pidns" else {}
    config["owned"] = wipe.shared_dirs(config, roots)
    config["state"] = process_state()
    gc.freeze()  # a child's full collection then skips (and does not copy) the server's pages
    hello = {"op": "hello", "pid": os.getpid(), "uid": os.getuid(), "python": sys.version.split()[0]}
    frames.send(ctrl, {**hello, "wiped": roots, "verified": list(config["usage"]), "owned": config["owned"]})
    while True:
        frame = frames.recv(ctrl, max_fds=4)
        if frame is None or frame[0].get("op") == "quit":
            return
        msg, fds = frame
        if msg.get("op") == "run":
            run_one(ctrl, msg, fds, config, seccomp)


if __name__ == "__main__":
    main()
