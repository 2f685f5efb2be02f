"""Host-state checks: files the candidate uids left outside the sandbox, processes still alive."""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable

SCAN_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
"""World-writable places: the only ones an unprivileged slot uid can write on the host."""
MAX_ENTRIES = 20000


def pid_alive(pid: int) -> bool:
    """True while ``pid`` exists (also when it belongs to another user and cannot be signalled)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def artefacts(uids: Collection[int], roots: Iterable[str] = SCAN_DIRS, skip: Collection[str] = ()) -> list[str]:
    """Paths under ``roots`` owned by one of ``uids`` (no symlinks followed, bounded walk)."""
    found: list[str] = []
    seen = 0
    for root in roots:
        stack = [root]
        while stack and seen < MAX_ENTRIES:
            path = stack.pop()
            try:
                entries = list(os.scandir(path))
            except OSError:
                continue
            for entry in entries:
                seen += 1
                if entry.path in skip:
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if info.st_uid in uids:
                    found.append(entry.path)
                elif entry.is_dir(follow_symlinks=False) and entry.name not in (".git", ".venv", "node_modules"):
                    stack.append(entry.path)
    return found


def processes(uids: Collection[int]) -> list[int]:
    """Live (non-zombie) pids whose real uid is one of ``uids``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", encoding="ascii", errors="replace") as handle:
                status = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue
        uid = int(status.get("Uid", "-1").split()[0])
        if uid in uids and not status.get("State", "").strip().startswith("Z"):
            found.append(int(name))
    return found
