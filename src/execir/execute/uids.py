"""Allocation of a block of unprivileged uids per oracle, unique across live processes.

Each oracle takes a block of 16 uids (8 candidate slots + 8 judges) by creating
``/run/execir-uids/<base>`` exclusively; a block whose owner pid is dead is reclaimed.
"""

from __future__ import annotations

import os
from pathlib import Path

from execir.execute.hostcheck import pid_alive

LOCK_DIR = Path("/run/execir-uids")
FIRST = 200000
BLOCK = 16
BLOCKS = 4096


def allocate() -> int:
    """A free uid base (root only)."""
    LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
    start = os.getpid() % BLOCKS
    for step in range(BLOCKS):
        base = FIRST + ((start + step) % BLOCKS) * BLOCK
        path = LOCK_DIR / str(base)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            if _alive(path):
                continue
            path.unlink(missing_ok=True)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                continue
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return base
    raise OSError("no free uid block")


def release(base: int) -> None:
    (LOCK_DIR / str(base)).unlink(missing_ok=True)


def _alive(path: Path) -> bool:
    try:
        pid = int(path.read_text() or "0")
    except (OSError, ValueError):
        return True
    return pid > 0 and pid_alive(pid)
