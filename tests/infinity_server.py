"""A real Infinity server (``infinity_emb v2``) on a free loopback port, for the HTTP client tests.

Infinity runs from its own virtual environment (``.venv-infinity``, made by ``make setup`` from
``requirements/infinity.txt``): its pins conflict with ExecIR's. It serves local model folders
only, offline (``HF_HUB_OFFLINE=1``, telemetry off with ``DO_NOT_TRACK=1``), in float32 on the CPU,
without warm-up, disk cache or BetterTransformer, so its numbers are those of the plain model.

Where the venv is missing, :func:`infinity_binary` skips the test, unless
``EXECIR_REQUIRE_INFINITY=1`` (set by ``make test``) makes that a failure: CI must run these tests.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
VENV = REPO / ".venv-infinity"
START_TIMEOUT_S = 180.0
LOG_TAIL_CHARS = 4000


def infinity_binary() -> Path:
    """The ``infinity_emb`` entry point of ``.venv-infinity`` (``$EXECIR_INFINITY_BIN`` overrides it)."""
    binary = Path(os.environ.get("EXECIR_INFINITY_BIN") or VENV / "bin" / "infinity_emb")
    if not binary.is_file():
        message = f"the Infinity server is not installed ({binary} is missing): run `make setup`"
        if os.environ.get("EXECIR_REQUIRE_INFINITY") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return binary


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class InfinityServer:
    """A running server: its base URL and the name each model folder is served under."""

    url: str
    models: dict[str, str]
    log: Path

    def post(self, route: str, body: dict[str, object]) -> dict[str, object]:
        """POST ``body`` to ``route`` and return the JSON answer."""
        request = urllib.request.Request(self.url + route, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read())


def _log_tail(log: Path) -> str:
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    return text[-LOG_TAIL_CHARS:]


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Infinity exited with code {process.returncode} before it was healthy; its log ends:\n{_log_tail(log)}")
        try:
            with urllib.request.urlopen(url + "/health", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise RuntimeError(f"Infinity was not healthy on {url}/health after {timeout:.0f} s; its log ends:\n{_log_tail(log)}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's process group, SIGKILL it if it lingers."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=20)


@contextmanager
def serve(models: Sequence[tuple[Path, str]], log: Path, *, timeout: float = START_TIMEOUT_S) -> Iterator[InfinityServer]:
    """Run Infinity on a free loopback port serving each ``(model folder, served name)``; stop it on exit."""
    binary = infinity_binary()
    port = free_port()
    command = [str(binary), "v2", "--engine", "torch", "--device", "cpu", "--dtype", "float32", "--host", "127.0.0.1", "--port", str(port)]
    for folder, name in models:
        command += ["--model-id", str(folder), "--served-model-name", name]
    command += ["--no-model-warmup", "--no-vector-disk-cache", "--no-bettertransformer", "--log-level", "warning"]
    env = {**os.environ, "DO_NOT_TRACK": "1", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "INFINITY_ANONYMOUS_USAGE_STATS": "0"}
    env.pop("PYTHONPATH", None)  # the server's venv must not import this worktree's packages
    url = f"http://127.0.0.1:{port}"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True, cwd=log.parent)
    try:
        _wait_healthy(url, process, log, timeout)
        yield InfinityServer(url, {str(folder): name for folder, name in models}, log)
    finally:
        _stop(process)
