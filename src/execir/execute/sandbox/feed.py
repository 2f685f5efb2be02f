"""The calls of a judged-outside run, delivered one at a time on the run's channel.

The candidate's process gets call ``k + 1`` only once the host holds its ``k``-th result line, and
the end of the calls (the channel shut for writing) only once the last result is in: no later call,
and not even whether there is one, is anywhere in the sandbox while a call is being answered. A
result line is final once its newline arrives, so a program that writes a line early to be handed
the next call has already answered the call it was asked.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence


class Feed:
    """Writes ``calls`` (wire text, one line each) to ``sock`` as the results come in."""

    def __init__(self, sock: socket.socket, calls: Sequence[str]) -> None:
        self.sock = sock
        self.calls = tuple(calls)
        self.sent = 0
        self.pending = bytearray()
        self.ended = False
        self.broken = False
        self.results = 0
        self._scanned = 0

    def observe(self, data: bytes | bytearray, start: int) -> None:
        """Count the complete result lines of ``data`` after ``start`` (the compile report's end;
        ``data`` only grows) and queue what they unlock."""
        begin = max(start, self._scanned)
        self.results += data.count(b"\n", begin)
        self._scanned = len(data)
        self.advance(self.results)

    def advance(self, results: int) -> None:
        """Queue what ``results`` complete result lines unlock: the next call, or the end."""
        if self.broken or self.pending or self.ended or results < self.sent:
            return
        if self.sent < len(self.calls):
            self.pending += (self.calls[self.sent] + "\n").encode("utf-8", "surrogatepass")
            self.sent += 1
        else:
            self._end()

    @property
    def wants_write(self) -> bool:
        return bool(self.pending) and not self.broken

    def write(self) -> None:
        """Write what the socket takes now (never blocks)."""
        try:
            done = self.sock.send(self.pending, socket.MSG_DONTWAIT | socket.MSG_NOSIGNAL)
        except BlockingIOError:
            return
        except OSError:  # the run closed its end: later calls are simply unanswered
            self.broken = True
            return
        del self.pending[:done]

    def _end(self) -> None:
        self.ended = True
        try:
            self.sock.shutdown(socket.SHUT_WR)
        except OSError:
            self.broken = True
