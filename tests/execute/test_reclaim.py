"""Leftovers of an oracle killed with SIGKILL are reclaimed by the next oracle; live ones are not."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from execir.execute.sandbox import reclaim
from execir.execute.sandbox.cgroups import ROOT


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stale_host_dir_of_dead_oracle_is_removed_live_one_kept() -> None:
    dead = Path(tempfile.mkdtemp(prefix=f"execir-{_dead_pid()}-"))
    (dead / "s0").mkdir()
    live = Path(tempfile.mkdtemp(prefix=f"execir-{os.getpid()}-"))
    try:
        assert dead in reclaim.stale_host_dirs() and live not in reclaim.stale_host_dirs()
        reclaim.reclaim()
        assert not dead.exists() and live.exists()
    finally:
        live.rmdir()


@pytest.mark.skipif(os.geteuid() != 0 or not (ROOT / "pids").is_dir(), reason="needs root and cgroup v1 pids")
def test_stale_empty_cgroup_is_removed() -> None:
    parent = ROOT / "pids" / "execir"
    parent.mkdir(exist_ok=True)
    stale = parent / reclaim.slot_cgroup_name(9, 200000, _dead_pid())
    stale.mkdir()
    mine = parent / reclaim.slot_cgroup_name(9, 200016)
    mine.mkdir()
    # the uid base is not a pid: a live oracle's slot whose uid base equals a dead pid is kept
    live_slot = parent / reclaim.slot_cgroup_name(8, _dead_pid())
    live_slot.mkdir()
    try:
        reclaim.reclaim()
        assert not stale.exists() and mine.exists() and live_slot.exists()
    finally:
        mine.rmdir()
        live_slot.rmdir()
        if stale.exists():
            stale.rmdir()
