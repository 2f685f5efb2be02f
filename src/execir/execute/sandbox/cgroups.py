"""Per-slot control groups: pids + memory limits, whole-tree CPU accounting, sweep.

Created once per worker slot and reused for every run. cgroup v1 (separate ``pids``, ``memory``
and ``cpuacct`` hierarchies) is used where mounted; a pure v2 hierarchy (``cgroup.controllers`` at
the root) is used otherwise. Needs root; :func:`available` says whether it can work here.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")


def version() -> int | None:
    """1 or 2 for the usable hierarchy, None when cgroups cannot be managed here."""
    if os.geteuid() != 0:
        return None
    if all((ROOT / c / "cgroup.procs").exists() for c in ("pids", "memory", "cpuacct")):
        return 1
    controllers = ROOT / "cgroup.controllers"
    if controllers.exists() and {"pids", "memory", "cpu"} <= set(controllers.read_text().split()):
        return 2
    return None


class SlotCgroup:
    """The cgroup(s) of one worker slot."""

    def __init__(self, name: str) -> None:
        self.version = version()
        if self.version is None:
            raise OSError("cgroups are not available")
        if self.version == 1:
            self.dirs = {c: ROOT / c / "execir" / name for c in ("pids", "memory", "cpuacct")}
        else:
            base = ROOT / "execir"
            base.mkdir(exist_ok=True)
            (ROOT / "cgroup.subtree_control").write_text("+pids +memory +cpu")
            (base / "cgroup.subtree_control").write_text("+pids +memory +cpu")
            self.dirs = dict.fromkeys(("pids", "memory", "cpuacct"), base / name)
        for path in set(self.dirs.values()):
            path.mkdir(parents=True, exist_ok=True)
        self._memory_mb = 0
        self._pids = 0
        self._fds: dict[Path, int] = {}

    def _read(self, controller: str, name: str) -> str:
        """Re-read a control file through an fd kept open (``pread`` at 0 regenerates it): ~1 us
        instead of ~25 us for open/read/close, and the host reads several per run."""
        path = self.dirs[controller] / name
        fd = self._fds.get(path)
        if fd is None:
            fd = self._fds[path] = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        chunks = []
        offset = 0
        while chunk := os.pread(fd, 1 << 16, offset):
            chunks.append(chunk)
            offset += len(chunk)
        return b"".join(chunks).decode()

    def add(self, pid: int) -> None:
        """Move ``pid`` into every controller (call before it starts the sandbox)."""
        for path in set(self.dirs.values()):
            (path / "cgroup.procs").write_text(str(pid))

    def set_limits(self, memory_mb: int, pids: int) -> None:
        """Apply limits when they change (writes are skipped otherwise)."""
        if pids != self._pids:
            (self.dirs["pids"] / "pids.max").write_text(str(pids))
            self._pids = pids
        if memory_mb != self._memory_mb:
            name = "memory.limit_in_bytes" if self.version == 1 else "memory.max"
            (self.dirs["memory"] / name).write_text(str(memory_mb << 20))
            self._memory_mb = memory_mb

    def cpu_seconds(self) -> float:
        """CPU time consumed by everything ever in the group."""
        if self.version == 1:
            return int(self._read("cpuacct", "cpuacct.usage")) / 1e9
        for line in self._read("cpuacct", "cpu.stat").splitlines():
            if line.startswith("usage_usec"):
                return int(line.split()[1]) / 1e6
        return 0.0

    def memory_failures(self) -> int:
        """Count of allocations refused at the memory limit (v1 failcnt, v2 max events)."""
        if self.version == 1:
            return int(self._read("memory", "memory.failcnt"))
        for line in self._read("memory", "memory.events").splitlines():
            if line.startswith("oom_kill"):
                return int(line.split()[1])
        return 0

    def procs(self) -> set[int]:
        """Pids currently in the group. Opened afresh on every call: cgroup v1 caches a
        ``cgroup.procs`` pid list per open file for about a second, so re-reading a kept fd returned
        stale pids (a restarted slot took the old server's pids as its baseline, and the next run's
        survivor check then killed the new server; dead pids could be signalled again after reuse)."""
        return {int(p) for p in (self.dirs["pids"] / "cgroup.procs").read_text().split()}

    def kill_except(self, keep: set[int], rounds: int = 20) -> int:
        """SIGKILL every member not in ``keep`` until none remain; returns how many were found."""
        found: set[int] = set()
        for _ in range(rounds):
            extra = self.procs() - keep
            if not extra:
                break
            found |= extra
            for pid in extra:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.005)
        return len(found)

    def remove(self) -> None:
        """Kill what is left and remove the group(s)."""
        self.kill_except(set())
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()
        for path in set(self.dirs.values()):
            for _ in range(50):
                try:
                    path.rmdir()
                    break
                except OSError:
                    time.sleep(0.01)
