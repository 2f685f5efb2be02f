"""Bounded capture of a candidate's output pipe: memory never grows past the cap."""

from __future__ import annotations

import os

TAIL_BYTES = 4096
DRAIN_READS = 1024
"""At most 64 MiB read after the run (a pipe holds far less once its writers are dead)."""


class Capture:
    """Reads one pipe; keeps the head up to ``cap`` (``keep='head'``) or a short tail.

    ``cap=None``: never capped (a stderr pipe: drained to EOF, only the tail kept, its volume never
    decides a verdict)."""

    def __init__(self, fd: int, cap: int | None, keep: str) -> None:
        self.fd = fd
        self.cap = cap
        self.keep = keep
        self.total = 0
        self.data = bytearray()
        self.eof = False

    @property
    def capped(self) -> bool:
        return self.cap is not None and self.total > self.cap

    def read(self) -> None:
        """One read of at most 64 KiB; marks EOF."""
        try:
            chunk = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return
        except ConnectionResetError:
            # a socket whose peer closed with input unread (calls it was still to get): Linux reports
            # the reset only once everything the peer wrote has been read, so this is the end
            chunk = b""
        if not chunk:
            self.eof = True
            return
        self.total += len(chunk)
        if self.keep == "head":
            room = (self.cap or 0) + 1 - len(self.data)
            if room > 0:
                self.data += chunk[:room]
        elif len(chunk) >= TAIL_BYTES:
            self.data = bytearray(chunk[-TAIL_BYTES:])
        else:
            self.data += chunk
            del self.data[:-TAIL_BYTES]

    def drain(self) -> None:
        """Read what is left without blocking, up to EOF or the cap (once every writer is dead the
        pipe holds at most its capacity; a live writer stops the drain at the first empty read)."""
        os.set_blocking(self.fd, False)
        for _ in range(DRAIN_READS):
            if self.eof or self.capped:
                break
            before = self.total
            self.read()
            if self.total == before and not self.eof:
                break

    def tail(self) -> str:
        return bytes(self.data[-TAIL_BYTES:]).decode("utf-8", "replace")

    def close(self) -> None:
        os.close(self.fd)
