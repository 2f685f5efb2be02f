"""Host-wide claims of CPUs for slot pinning, so two oracles on one host never pin their slots to
the same CPU (each slot keeps its server, candidate and judge on one CPU).

A claim is a lock file ``/run/execir-cpus/<cpu>`` holding the owner's pid (a dead owner's claim is
taken over). A slot that finds no free CPU runs unpinned. Without root the lock directory is not
writable and slots are pinned by index, as on a host with one oracle.
"""

from __future__ import annotations

import os
from pathlib import Path

from execir.execute.sandbox.uids import claim_lock

LOCK_DIR = Path("/run/execir-cpus")


def available() -> list[int]:
    """The CPUs this process may run on, in order."""
    return sorted(os.sched_getaffinity(0))


def claim(count: int, root: bool) -> list[int | None]:
    """One CPU (or None: unpinned) for each of ``count`` slots."""
    cpus = available()
    if not root:
        return [cpus[i % len(cpus)] for i in range(count)]
    LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
    claimed: list[int | None] = []
    for cpu in cpus:
        if len(claimed) == count:
            break
        if claim_lock(LOCK_DIR / str(cpu)):
            claimed.append(cpu)
    return claimed + [None] * (count - len(claimed))


def release(claimed: list[int | None]) -> None:
    """Give back this process's claims."""
    for cpu in claimed:
        if cpu is None:
            continue
        path = LOCK_DIR / str(cpu)
        try:
            if path.read_text() == str(os.getpid()):
                path.unlink()
        except OSError:
            pass
