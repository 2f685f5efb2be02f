"""Benchmark: the verdict cache's batched commits against one commit per row (its earlier way).

Writes ``--rows`` verdicts into a fresh SQLite file both ways, in the same run: the per-row way
(``INSERT OR REPLACE`` with autocommit, what the cache did before and what a user writing results
to SQLite naively gets) and :class:`execir.execute.cache.VerdictCache` (queued, committed in
transactions of :data:`~execir.execute.cache.BATCH_ROWS` rows). Both files must hold the same rows.
Prints rows/s of each and the ratio.

Run: ``python benchmarks/bench_cache.py [--rows N]``.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from pathlib import Path

from execir.execute.cache import VerdictCache, _row
from execir.execute.jobs import ExecResult
from execir.types import Verdict


def results(rows: int) -> list[tuple[str, ExecResult]]:
    verdicts = (Verdict.PASS, Verdict.FAIL, Verdict.TIMEOUT)
    return [(f"{i:064x}", ExecResult(verdicts[i % 3], 0.01 * (i % 7), 0.02, (True,), "tests completed", "", "bwrap+uid", False)) for i in range(rows)]


def per_row(path: Path, items: list[tuple[str, ExecResult]]) -> float:
    cache = VerdictCache(path)  # creates the schema
    cache.close()
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    started = time.perf_counter()
    for key, result in items:
        db.execute("INSERT OR REPLACE INTO verdicts4 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (key, *_row(result)))
    elapsed = time.perf_counter() - started
    db.close()
    return elapsed


def batched(path: Path, items: list[tuple[str, ExecResult]]) -> float:
    cache = VerdictCache(path)
    started = time.perf_counter()
    for key, result in items:
        cache.put(key, result)
    cache.flush()
    elapsed = time.perf_counter() - started
    cache.close()
    return elapsed


def rows_of(path: Path) -> list[tuple]:
    with sqlite3.connect(str(path)) as db:
        return db.execute("SELECT * FROM verdicts4 ORDER BY key").fetchall()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    args = parser.parse_args()
    items = results(args.rows)
    with tempfile.TemporaryDirectory() as tmp:
        slow, fast = Path(tmp) / "per-row.sqlite", Path(tmp) / "batched.sqlite"
        old = per_row(slow, items)
        new = batched(fast, items)
        if rows_of(slow) != rows_of(fast):
            raise SystemExit("the two caches differ")
    print(f"{args.rows} verdicts: one commit per row {args.rows / old:,.0f} rows/s, batched {args.rows / new:,.0f} rows/s, ratio {old / new:.1f}x")


if __name__ == "__main__":
    main()
