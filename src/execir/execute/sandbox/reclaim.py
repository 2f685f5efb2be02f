"""Reclaim what an oracle killed with SIGKILL left behind: empty slot cgroups and host work dirs.

Both carry the owning oracle's pid in their name (cgroup ``<pid>-u<uid base>-s<slot>`` from
:func:`slot_cgroup_name`, host dir ``execir-<pid>-*`` under the temp dir). Only entries whose owner is dead are touched: a cgroup is
removed only when it holds no process (``rmdir`` refuses otherwise), a host dir only when it
belongs to this uid. Returns what was removed, for the reliability report.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from execir.execute.sandbox.cgroups import ROOT
from execir.execute.sandbox.hostcheck import pid_alive
from execir.execute.sandbox.isolation import HARNESS_ROOT, IsolationError, host_base

_CGROUP_NAME = re.compile(r"^(\d+)-u\d+-s\d+$")


def slot_cgroup_name(index: int, uid_base: int, pid: int | None = None) -> str:
    """The one naming of a slot cgroup: the owning oracle's pid first (what reclaim checks), then
    the uid block and the slot index (unique among the slots of live oracles)."""
    return f"{os.getpid() if pid is None else pid}-u{uid_base}-s{index}"


def cgroup_owner(name: str) -> int | None:
    """The pid of the oracle that owns a slot cgroup named by :func:`slot_cgroup_name`."""
    match = _CGROUP_NAME.match(name)
    return int(match.group(1)) if match else None


_HOST_DIR = re.compile(r"^execir-(\d+)-")


def stale_cgroups(root: Path = ROOT) -> list[Path]:
    """Slot cgroups (v1 controllers or v2) whose oracle process is gone."""
    parents = [root / c / "execir" for c in ("pids", "memory", "cpuacct")] + [root / "execir"]
    found = []
    for parent in parents:
        if not parent.is_dir():
            continue
        for child in parent.iterdir():
            owner = cgroup_owner(child.name)
            if owner is not None and child.is_dir() and not pid_alive(owner):
                found.append(child)
    return found


def stale_host_dirs(tmp: Path | None = None) -> list[Path]:
    """Host work dirs of dead oracles owned by this uid."""
    found = []
    for child in (c for base in _host_bases(tmp) for c in base.glob("execir-*")):
        match = _HOST_DIR.match(child.name)
        if match and child.is_dir() and not child.is_symlink() and child.stat().st_uid == os.getuid() and not pid_alive(int(match.group(1))):
            found.append(child)
    return found


def stale_harness_dirs(root: Path = HARNESS_ROOT) -> list[Path]:
    """Staged harness copies of dead oracles (``<pid>-*`` under ``root``)."""
    if not root.is_dir():
        return []
    found = []
    for child in root.iterdir():
        owner = child.name.split("-", 1)[0]
        if owner.isdigit() and child.is_dir() and not child.is_symlink() and not pid_alive(int(owner)):
            found.append(child)
    return found


def _host_bases(tmp: Path | None) -> list[Path]:
    if tmp is not None:
        return [tmp]
    bases = {Path(tempfile.gettempdir())}
    try:
        bases.add(host_base())
    except IsolationError:
        pass
    return sorted(bases)


def reclaim() -> int:
    """Remove stale cgroups and host dirs; returns how many entries were removed."""
    removed = 0
    for path in stale_cgroups():
        try:
            path.rmdir()
            removed += 1
        except OSError:
            continue  # still holds a process, or not ours to remove
    for path in stale_host_dirs() + stale_harness_dirs():
        shutil.rmtree(path, ignore_errors=True)
        removed += not path.exists()
    return removed
