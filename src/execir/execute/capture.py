"""Bounded capture of a candidate's output pipe: memory never grows past the cap."""

from __future__ import annotations

import os

TAIL_BYTES = 4096


class Capture:
    """Reads one pipe; keeps the head up to ``cap`` (``keep='head'``) or a short tail."""

    def __init__(self, fd: int, cap: int, keep: str) -> None:
        self.fd = fd
        self.cap = cap
        self.keep = keep
        self.total = 0
        self.data = bytearray()
        self.eof = False

    @property
    def capped(self) -> bool:
        return self.total > self.cap

    def read(self) -> None:
        """One read of at most 64 KiB; marks EOF."""
        try:
            chunk = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return
        if not chunk:
            self.eof = True
            return
        self.total += len(chunk)
        if self.keep == "head":
            room = self.cap + 1 - len(self.data)
            if room > 0:
                self.data += chunk[:room]
        else:
            self.data = (self.data + chunk)[-TAIL_BYTES:]

    def drain(self) -> None:
        """Read what is left without blocking (writers are dead or about to be)."""
        os.set_blocking(self.fd, False)
        for _ in range(64):
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
