"""Sandbox server: one per worker slot, started before anything heavy (stdlib only).

Runs as the slot's unprivileged uid, as PID 1 of the sandbox's pid namespace under bubblewrap (so
candidates cannot signal it). Protocol on the control socket (fd given as argv[1]):

* first frame: ``{"work_root", "bpf" (hex or ""), "sweep": "pidns"|"uid"|"pgrp", "wipe": [dirs]}``;
  answered by ``{"op": "hello", ...}``;
* ``{"op": "run", "mode": "call"|"main", ...}`` with fds ``[chan, out_w(, err_w)]``: fork one child
  (see ``driver``), answer ``{"op": "started"}``, then exactly one ``{"op": "exit", ...}`` after the
  child is reaped, every leftover process is killed and the work root is wiped;
* ``{"op": "kill"}`` while a run is active: SIGKILL the child now.
"""

from __future__ import annotations

import ctypes
import gc
import os
import resource
import select
import signal
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import driver  # noqa: E402
import frames  # noqa: E402

# shutil imports bz2 and lzma for archives we never make: four shared libraries (20 mappings) that
# would make every fork and child teardown ~0.1 ms dearer. Block them for this import only, so a
# candidate's own ``import bz2`` still works.
# None in sys.modules is the documented import blocker; typeshed types the values as ModuleType only.
sys.modules.update(bz2=None, lzma=None)  # type: ignore[call-overload]
import shutil  # noqa: E402

del sys.modules["bz2"], sys.modules["lzma"]

_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_DUMPABLE = 4
_IPC_RMID = 0
_LIBC = ctypes.CDLL(None, use_errno=True)
_RLIMITS = tuple(getattr(resource, name) for name in dir(resource) if name.startswith("RLIMIT_"))
WARM_MODULES = (
    "typing", "math", "re", "collections", "itertools", "functools", "heapq", "bisect", "string",
    "hashlib", "random", "fractions", "decimal", "statistics", "copy", "datetime", "operator", "json",
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
    if mode == "pgrp":
        try:
            os.killpg(child, signal.SIGKILL)
        except OSError:
            pass
        _reap_all(block=False)
        return 0
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


def wipe(dirs: list[str]) -> None:
    """Empty each directory without following symlinks (rmtree's fd-based walk)."""
    for root in dirs:
        try:
            entries = list(os.scandir(root))
        except OSError:
            continue
        for entry in entries:
            path = entry.path
            if entry.is_dir(follow_symlinks=False):
                try:
                    os.rmdir(path)  # the usual case: the run's work dir, left empty
                except OSError:
                    shutil.rmtree(path, onerror=_force)
            else:
                try:
                    os.unlink(path)
                except OSError:
                    pass


def wipe_owned(dirs: list[str]) -> None:
    """Remove what this (dedicated, per-slot) uid owns directly under shared host directories such
    as /tmp at the ``uid`` level, where there is no private tmpfs: otherwise it reaches the next run."""
    uid = os.getuid()
    for root in dirs:
        try:
            entries = [e for e in os.scandir(root) if e.stat(follow_symlinks=False).st_uid == uid]
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, onerror=_force)
            else:
                try:
                    os.unlink(entry.path)
                except OSError:
                    pass


def _force(func, path, _exc) -> None:  # type: ignore[no-untyped-def]
    """rmtree error hook: make the parent writable/searchable and retry once."""
    try:
        os.chmod(os.path.dirname(path), 0o700)
    except OSError:  # not ours (a shared host directory such as /tmp at the uid level)
        pass
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, 0o700)
            shutil.rmtree(path, ignore_errors=True)
        else:
            func(path)
    except OSError:
        pass


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


def run_one(ctrl: socket.socket, msg: dict, fds: list[int], config: dict, seccomp) -> None:
    workdir = os.path.join(config["work_root"], "w")
    os.mkdir(workdir, 0o700)
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
    while True:
        watched: list[socket.socket | int] = [ctrl, pidfd]
        ready, _, _ = select.select(watched, [], [], poll)
        if pidfd in ready:
            break
        if not ready:  # no cgroup: enforce the CPU budget from the child's own counters
            if _cpu_of(pid) > msg["limits"]["cpu_seconds"]:
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
    rounds = sweep(config["sweep"], pid)
    wipe([config["work_root"], *config["wipe"]])
    # with seccomp, SysV IPC cannot be created; pgrp (rlimits level) runs as the oracle's own uid
    ipc = remove_ipc(os.getuid()) if config["sweep"] != "pgrp" and not config["bpf"] else 0
    wipe_owned(config.get("wipe_owned", []))
    tainted = process_state() != config["state"]
    frames.send(ctrl, {
        "op": "exit",
        "code": os.waitstatus_to_exitcode(status),
        "cpu": usage.ru_utime + usage.ru_stime,
        "maxrss_kb": usage.ru_maxrss,
        "killed": killed,
        "cpu_killed": cpu_killed,
        "sweep_rounds": rounds,
        "ipc_removed": ipc,
        "tainted": tainted,
    })


def main() -> None:
    ctrl = socket.socket(fileno=int(sys.argv[1]))
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
    wipe([config["work_root"], *config["wipe"]])
    config["state"] = process_state()
    gc.freeze()  # a child's full collection then skips (and does not copy) the server's pages
    frames.send(ctrl, {"op": "hello", "pid": os.getpid(), "uid": os.getuid(), "python": sys.version.split()[0]})
    while True:
        frame = frames.recv(ctrl, max_fds=4)
        if frame is None or frame[0].get("op") == "quit":
            return
        msg, fds = frame
        if msg.get("op") == "run":
            run_one(ctrl, msg, fds, config, seccomp)


if __name__ == "__main__":
    main()
