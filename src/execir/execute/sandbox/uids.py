"""Allocation of a block of unprivileged uids per oracle, unique across live processes.

An oracle with N slots needs 2N uids (N candidate slots + N judges). uids are handed out in units
of :data:`UNIT`; an oracle takes ``ceil(2N / UNIT)`` consecutive units by creating
``/run/execir-uids/<unit base>`` exclusively for each; a unit whose owner pid is dead is reclaimed.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from execir.execute.sandbox.hostcheck import pid_alive

LOCK_DIR = Path("/run/execir-uids")
FIRST = 200000
UNIT = 16
BLOCK = UNIT
"""uids of the smallest block (up to 8 slots)."""
BLOCKS = 4096
"""Units in the uid range (FIRST .. FIRST + BLOCKS * UNIT)."""


def block_size(workers: int) -> int:
    """uids an oracle with ``workers`` slots takes (a whole number of units)."""
    return max(1, math.ceil(2 * workers / UNIT)) * UNIT


def allocate(size: int = BLOCK) -> int:
    """A free base of ``size`` consecutive uids (root only; ``size`` a multiple of :data:`UNIT`)."""
    units = max(1, math.ceil(size / UNIT))
    LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
    start = os.getpid() % BLOCKS
    for step in range(BLOCKS):
        first = (start + step) % BLOCKS
        if first + units > BLOCKS:
            continue
        taken: list[Path] = []
        for unit in range(first, first + units):
            path = LOCK_DIR / str(FIRST + unit * UNIT)
            if not claim_lock(path):
                break
            taken.append(path)
        else:
            return FIRST + first * UNIT
        for path in taken:
            path.unlink(missing_ok=True)
    raise OSError(f"no free block of {size} uids")


def release(base: int, size: int = BLOCK) -> None:
    """Give back the block of ``size`` uids at ``base``."""
    for unit in range(max(1, math.ceil(size / UNIT))):
        (LOCK_DIR / str(base + unit * UNIT)).unlink(missing_ok=True)


def claim_lock(path: Path) -> bool:
    """Create the lock file ``path`` with this pid (reclaiming a dead owner's); False if taken."""
    for _ in range(2):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            if _alive(path):
                return False
            path.unlink(missing_ok=True)
            continue
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return True
    return False


def _alive(path: Path) -> bool:
    try:
        pid = int(path.read_text() or "0")
    except (OSError, ValueError):
        return True
    return pid > 0 and pid_alive(pid)
