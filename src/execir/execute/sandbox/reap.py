"""Ending a process the sandbox started: its whole process group killed, the process reaped with a
bound, so a caller never blocks on a process the kernel is still tearing down."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess

REAP_SECONDS = 30.0
"""How long a killed process is waited for before it is left to the kernel."""


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL ``proc``'s process group (``proc`` alone when the group is gone or not ours), then
    reap ``proc``, waiting at most :data:`REAP_SECONDS`."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        with contextlib.suppress(OSError):
            proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=REAP_SECONDS)
