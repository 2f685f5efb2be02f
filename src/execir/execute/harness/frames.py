"""Length-prefixed JSON frames over Unix stream sockets, optionally carrying file descriptors.

Stdlib only: shared by the host, the sandbox server, the candidate driver and the judge.
"""

from __future__ import annotations

import json
import socket

MAX_FRAME = 32 << 20
_HEADER = 4


class FrameError(ValueError):
    """A malformed or oversized frame."""


def send(sock: socket.socket, obj: object, fds: tuple[int, ...] | list[int] = ()) -> None:
    """Send one frame; ``fds`` travel with its first byte (SCM_RIGHTS). A frame over
    :data:`MAX_FRAME` raises :class:`FrameError` and sends nothing."""
    body = json.dumps(obj, separators=(",", ":")).encode("utf-8", "surrogatepass")
    if len(body) > MAX_FRAME:  # refused before a byte is sent: the peer would drop the connection
        raise FrameError(f"frame of {len(body)} bytes exceeds {MAX_FRAME}")
    data = len(body).to_bytes(_HEADER, "big") + body
    if fds:
        sent = socket.send_fds(sock, [data], list(fds))
        data = data[sent:]
    if data:
        sock.sendall(data)


def recv(sock: socket.socket, max_fds: int = 0, limit: int = MAX_FRAME) -> tuple[object, list[int]] | None:
    """Receive one frame; None on a clean end of stream before any byte."""
    header = b""
    fds: list[int] = []
    while len(header) < _HEADER:
        if max_fds and not fds:
            chunk, got, _flags, _addr = socket.recv_fds(sock, _HEADER - len(header), max_fds)
            fds.extend(got)
        else:
            chunk = sock.recv(_HEADER - len(header))
        if not chunk:
            if header:
                raise FrameError("truncated frame header")
            return None
        header += chunk
    size = int.from_bytes(header, "big")
    if size > limit:
        raise FrameError(f"frame of {size} bytes exceeds {limit}")
    body = bytearray()
    while len(body) < size:
        chunk = sock.recv(min(size - len(body), 1 << 20))
        if not chunk:
            raise FrameError("truncated frame body")
        body += chunk
    try:
        return json.loads(body.decode("utf-8", "surrogatepass")), fds
    except (ValueError, RecursionError) as exc:  # ValueError: also an int literal over 4300 digits
        raise FrameError(f"malformed frame: {type(exc).__name__}") from None
