"""SQLite verdict cache: one row per job key, committed as each verdict is known.

A build killed midway and re-run re-executes nothing already verified. FLAKY results are not
cached, nor are UNDECIDED ones (they are not verified labels). Text is stored in printable form.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

from execir.execute.jobs import ExecResult
from execir.execute.safe_text import printable
from execir.types import Verdict

_SCHEMA = """
CREATE TABLE IF NOT EXISTS verdicts4 (
    key TEXT PRIMARY KEY, verdict TEXT NOT NULL, seconds REAL NOT NULL, wall_seconds REAL NOT NULL,
    per_test TEXT, detail TEXT NOT NULL, stderr_tail TEXT NOT NULL, isolation TEXT NOT NULL,
    protocol TEXT NOT NULL, compile_seconds REAL NOT NULL
)
"""


class VerdictCache:
    """Thread-safe get/put over one SQLite file (or a no-op when ``path`` is None)."""

    def __init__(self, path: Path | None) -> None:
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if path is not None:
            path = Path(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(_SCHEMA)

    def get(self, key: str) -> ExecResult | None:
        if self._db is None:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT verdict, seconds, wall_seconds, per_test, detail, stderr_tail, isolation, protocol, compile_seconds FROM verdicts4 WHERE key = ?",
                (key,),
            ).fetchone()
        if row is None:
            return None
        per_test = tuple(json.loads(row[3])) if row[3] is not None else None
        return ExecResult(Verdict(row[0]), row[1], row[2], per_test, row[4], row[5], row[6], True, row[7], row[8])

    def put(self, key: str, result: ExecResult) -> None:
        if self._db is None:
            return
        if not result.verdict.is_label:
            return
        per_test = json.dumps(list(result.per_test)) if result.per_test is not None else None
        # candidate text may hold lone surrogates (not encodable as UTF-8): store a printable form
        detail, tail = printable(result.detail, 2000), printable(result.stderr_tail, 8192, one_line=False)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO verdicts4 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, result.verdict.value, result.seconds, result.wall_seconds, per_test, detail, tail, result.isolation)
                + (result.protocol, result.compile_seconds),
            )

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
