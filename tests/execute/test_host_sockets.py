"""No isolation level lets a candidate reach a unix socket of the host (abstract or path)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.sandbox import isolation
from execir.types import TestSuite, Verdict

CHECK = TestSuite("check", "def check(candidate):\n    assert candidate(2, 3) == 5\n")
LIMITS = Limits(cpu_seconds=1.0, wall_seconds=3.0)


def _attack(address: str) -> str:
    """Correct answers only if connecting to ``address`` works (a PASS means the defence failed)."""
    return (
        "import socket\n"
        "def add(a, b):\n"
        "    try:\n"
        "        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
        f"        s.connect({address!r})\n"
        "        s.sendall(b'hello')\n"
        "    except OSError:\n"
        "        return a - b\n"
        "    return a + b\n"
    )


@pytest.fixture()
def listeners(tmp_path_factory: pytest.TempPathFactory):
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    name = f"\0execir-canary-{os.getpid()}"
    abstract.bind(name)
    abstract.listen(8)
    folder = Path("/tmp") / f"execir-canary-sock-{os.getpid()}"
    folder.mkdir(mode=0o755, exist_ok=True)
    path = folder / "s"
    named = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    named.bind(str(path))
    os.chmod(path, 0o777)
    named.listen(8)
    try:
        yield name, str(path)
    finally:
        abstract.close()
        named.close()
        path.unlink(missing_ok=True)
        folder.rmdir()


@pytest.mark.parametrize("level", isolation.available_levels())
def test_host_unix_sockets_unreachable(level: str, listeners: tuple[str, str]) -> None:
    abstract, path = listeners
    jobs = [
        Job(_attack(abstract), CHECK, "add", LIMITS),
        Job(_attack(path), CHECK, "add", LIMITS),
        Job("def add(a, b):\n    return a + b\n", CHECK, "add", LIMITS),
    ]
    with Oracle(OracleConfig(workers=1, isolation=level, progress=False)) as oracle:
        results = oracle.run(jobs)
        assert oracle.reliability()["guarantees"]
    assert [r.verdict for r in results] == [Verdict.FAIL, Verdict.FAIL, Verdict.PASS], [r.detail for r in results]
