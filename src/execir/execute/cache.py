"""SQLite verdict cache: one row per job key, committed in batched transactions.

Verdicts are committed every :data:`BATCH_ROWS` rows, and none waits longer than
:data:`BATCH_SECONDS` seconds (a timer commits a quiet batch), and whenever the oracle finishes a run
of jobs, so a build killed midway and re-run
re-executes nothing committed (at most the last moment's uncommitted verdicts run again). One
commit per row managed 15-16k rows/s; batches of 256 manage an order of magnitude more
(``benchmarks/bench_cache.py``). FLAKY results are not cached, nor are UNDECIDED ones (they are not
verified labels). Text is stored in printable form. :func:`merge` combines caches and reports keys
whose verdicts differ instead of overwriting them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from execir.errors import ExecIRError
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
_COLUMNS = "key, verdict, seconds, wall_seconds, per_test, detail, stderr_tail, isolation, protocol, compile_seconds"
BATCH_ROWS = 256
BATCH_SECONDS = 0.5


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
        self._pending: dict[str, Row] = {}
        self._flushed = time.monotonic()

    def get(self, key: str) -> ExecResult | None:
        if self._db is None:
            return None
        with self._lock:
            pending = self._pending.get(key)
            if pending is not None:
                return _result(pending)
            row = self._db.execute(
                "SELECT verdict, seconds, wall_seconds, per_test, detail, stderr_tail, isolation, protocol, compile_seconds FROM verdicts4 WHERE key = ?",
                (key,),
            ).fetchone()
        return None if row is None else _result(row)

    def put(self, key: str, result: ExecResult) -> None:
        """Queue ``result`` under ``key``; committed with its batch (see :meth:`flush`)."""
        if self._db is None or not result.verdict.is_label:
            return
        with self._lock:
            first = not self._pending
            self._pending[key] = _row(result)
            if len(self._pending) >= BATCH_ROWS or time.monotonic() - self._flushed >= BATCH_SECONDS:
                self._commit()
            elif first:  # a verdict never waits longer than BATCH_SECONDS for its commit
                timer = threading.Timer(BATCH_SECONDS, self.flush)
                timer.daemon = True
                timer.start()

    def flush(self) -> None:
        """Commit every queued verdict in one transaction."""
        with self._lock:
            if self._db is not None:
                self._commit()

    def _commit(self) -> None:
        assert self._db is not None
        if self._pending:
            rows = [(key, *row) for key, row in self._pending.items()]
            with self._db:  # one transaction
                self._db.execute("BEGIN")
                self._db.executemany(f"INSERT OR REPLACE INTO verdicts4 ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            self._pending.clear()
        self._flushed = time.monotonic()

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._commit()
                self._db.close()
                self._db = None


Row = tuple[str, float, float, str | None, str, str, str, str, float]
"""A cached verdict's columns after the key."""


def _row(result: ExecResult) -> Row:
    per_test = json.dumps(list(result.per_test)) if result.per_test is not None else None
    # candidate text may hold lone surrogates (not encodable as UTF-8): store a printable form
    detail, tail = printable(result.detail, 2000), printable(result.stderr_tail, 8192, one_line=False)
    return (result.verdict.value, result.seconds, result.wall_seconds, per_test, detail, tail, result.isolation, result.protocol, result.compile_seconds)


def _result(row: Row) -> ExecResult:
    per_test = tuple(json.loads(row[3])) if row[3] is not None else None
    return ExecResult(Verdict(row[0]), row[1], row[2], per_test, row[4], row[5], row[6], True, row[7], row[8])


@dataclass(frozen=True)
class Conflict:
    """One key whose cached verdicts differ between merged caches (file name -> verdict)."""

    key: str
    verdicts: dict[str, str]


@dataclass(frozen=True)
class MergeReport:
    """What :func:`merge` did: rows read per source, rows written, and conflicting keys."""

    rows_per_source: dict[str, int]
    rows_written: int
    conflicts: tuple[Conflict, ...]


def merge(sources: list[Path], out: Path) -> MergeReport:
    """Write the union of the verdict caches ``sources`` to ``out`` (a new file, written whole and
    then renamed into place). A key cached with different verdicts keeps the first source's row
    and is reported, never silently overwritten."""
    if out.exists():
        raise ExecIRError(f"{out}: exists; cache merge writes a new file")
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    db = sqlite3.connect(str(tmp), isolation_level=None)
    counts: dict[str, int] = {}
    conflicts: list[Conflict] = []
    try:
        db.execute(_SCHEMA)
        db.execute("BEGIN")
        for number, source in enumerate(sources):
            if not source.is_file():
                raise ExecIRError(f"{source}: no such verdict cache")
            db.execute("ATTACH DATABASE ? AS src", (str(source),))
            try:
                counts[str(source)] = db.execute("SELECT COUNT(*) FROM src.verdicts4").fetchone()[0]
            except sqlite3.DatabaseError as exc:
                raise ExecIRError(f"{source}: not a verdict cache ({exc})") from exc
            for key, mine, theirs in db.execute(
                "SELECT s.key, m.verdict, s.verdict FROM src.verdicts4 s JOIN main.verdicts4 m ON m.key = s.key WHERE m.verdict != s.verdict"
            ).fetchall():
                earlier = [str(p) for p in sources[:number]]
                conflicts.append(Conflict(key, {"earlier (" + ", ".join(earlier) + ")": mine, str(source): theirs}))
            db.execute(f"INSERT OR IGNORE INTO main.verdicts4 ({_COLUMNS}) SELECT {_COLUMNS} FROM src.verdicts4")
            db.execute("COMMIT")
            db.execute("DETACH DATABASE src")
            db.execute("BEGIN")
        db.execute("COMMIT")
        written = db.execute("SELECT COUNT(*) FROM verdicts4").fetchone()[0]
    except BaseException:
        db.close()
        tmp.unlink(missing_ok=True)
        raise
    db.close()
    os.replace(tmp, out)
    return MergeReport(counts, written, tuple(conflicts))
