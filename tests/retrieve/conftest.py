"""A loopback HTTP server for contract tests of the hosted and self-hosted API adapters.

``loopback.answer`` is a function ``(method, path, headers, json body) -> (status, headers, body)``
set per test; the server records every request (``loopback.requests``) and answers with it. A body
that is not bytes is sent as JSON.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Answer = Callable[[str, str, dict[str, str], Any], tuple[int, dict[str, str], Any]]


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class Loopback:
    url: str
    answer: Answer
    requests: list[Recorded] = field(default_factory=list)

    def posts(self, path_part: str = "") -> list[Recorded]:
        """The POST requests whose path contains ``path_part``."""
        return [r for r in self.requests if r.method == "POST" and path_part in r.path]


def _not_set(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
    return 404, {}, {"error": {"message": f"no route {path}"}}


@pytest.fixture
def loopback() -> Iterator[Loopback]:
    state = Loopback("", _not_set)

    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body = json.loads(raw) if raw else None
            headers = {k.lower(): v for k, v in self.headers.items()}
            state.requests.append(Recorded(self.command, self.path, headers, body))
            status, extra, payload = state.answer(self.command, self.path, headers, body)
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in extra.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _serve

        def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
