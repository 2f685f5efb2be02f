"""Atomic, deterministic file writers (the only place ExecIR writes output bytes).

Every file is written to a temporary sibling, flushed and fsynced, then renamed over its target,
so a crash never leaves a half-written file. A dataset's ``manifest.json`` is written last and
carries the sha256 of every other file: a directory with a valid manifest is a complete dataset.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file in the same directory, fsync, rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp creates 0600; outputs are ordinary files
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable (so "manifest written last" survives a power loss)."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def jsonl_bytes(rows: Iterable[dict[str, Any]]) -> bytes:
    """Canonical JSONL: one compact, key-ordered JSON object per line."""
    lines = (json.dumps(row, ensure_ascii=False, sort_keys=True, separators=(",", ":")) for row in rows)
    return "".join(line + "\n" for line in lines).encode("utf-8")


def json_bytes(value: Any) -> bytes:
    """Canonical pretty JSON (sorted keys, trailing newline)."""
    return (json.dumps(value, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode("utf-8")


def sha256_hex(data: bytes) -> str:
    """Hex sha256 of bytes."""
    return hashlib.sha256(data).hexdigest()
