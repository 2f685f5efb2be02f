"""The verdict cache: batched commits, reads of queued rows, durability on flush/close, merge."""

from __future__ import annotations

import sqlite3
import time

import pytest

from execir.cli import main
from execir.errors import ExecIRError
from execir.execute import cache as cache_module
from execir.execute.cache import VerdictCache, merge
from execir.execute.jobs import ExecResult
from execir.types import Verdict


def result(verdict: Verdict = Verdict.PASS, detail: str = "ok") -> ExecResult:
    return ExecResult(verdict, 0.1, 0.2, (True,), detail, "", "bwrap", False, "judged-outside", 0.0)


def committed(path) -> int:
    with sqlite3.connect(str(path)) as db:
        return db.execute("SELECT COUNT(*) FROM verdicts4").fetchone()[0]


def test_rows_are_committed_in_batches_and_readable_before(tmp_path, monkeypatch):
    monkeypatch.setattr(cache_module, "BATCH_SECONDS", 3600.0)
    path = tmp_path / "v.sqlite"
    cache = VerdictCache(path)
    for i in range(cache_module.BATCH_ROWS - 1):
        cache.put(f"k{i}", result())
    assert committed(path) == 0
    queued = cache.get("k3")
    assert queued is not None and queued.verdict is Verdict.PASS and queued.cached
    cache.put("last", result(Verdict.FAIL))
    assert committed(path) == cache_module.BATCH_ROWS
    cache.put("after", result())
    cache.close()
    assert committed(path) == cache_module.BATCH_ROWS + 1
    reopened = VerdictCache(path)
    got = reopened.get("last")
    assert got is not None and got.verdict is Verdict.FAIL and got.cached


def test_a_quiet_batch_is_committed_by_a_timer(tmp_path, monkeypatch):
    monkeypatch.setattr(cache_module, "BATCH_SECONDS", 0.05)
    path = tmp_path / "v.sqlite"
    cache = VerdictCache(path)

    def wait_for(rows: int) -> int:
        deadline = time.monotonic() + 5
        while committed(path) < rows and time.monotonic() < deadline:
            time.sleep(0.01)
        return committed(path)

    cache.put("a", result())  # no later put: the timer commits it
    assert wait_for(1) == 1
    cache.put("b", result())
    cache.put("c", result())
    assert wait_for(3) == 3
    cache.close()


def test_unlabelled_verdicts_are_not_cached(tmp_path):
    cache = VerdictCache(tmp_path / "v.sqlite")
    cache.put("f", result(Verdict.FLAKY))
    cache.put("u", result(Verdict.UNDECIDED))
    cache.flush()
    assert cache.get("f") is None and cache.get("u") is None


def _cache(path, rows):
    cache = VerdictCache(path)
    for key, verdict in rows.items():
        cache.put(key, result(verdict))
    cache.close()
    return path


def test_merge_unions_and_reports_conflicts_without_overwriting(tmp_path):
    a = _cache(tmp_path / "a.sqlite", {"x": Verdict.PASS, "y": Verdict.FAIL})
    b = _cache(tmp_path / "b.sqlite", {"y": Verdict.PASS, "z": Verdict.TIMEOUT, "x": Verdict.PASS})
    report = merge([a, b], tmp_path / "c.sqlite")
    assert report.rows_per_source == {str(a): 2, str(b): 3}
    assert report.rows_written == 3
    assert [c.key for c in report.conflicts] == ["y"]
    merged = VerdictCache(tmp_path / "c.sqlite")
    assert merged.get("y").verdict is Verdict.FAIL  # type: ignore[union-attr]  # the first file's verdict stands
    assert merged.get("z").verdict is Verdict.TIMEOUT  # type: ignore[union-attr]


def test_merge_refuses_an_existing_output_and_a_missing_source(tmp_path):
    a = _cache(tmp_path / "a.sqlite", {"x": Verdict.PASS})
    with pytest.raises(ExecIRError, match="exists"):
        merge([a], a)
    with pytest.raises(ExecIRError, match="no such verdict cache"):
        merge([tmp_path / "missing.sqlite"], tmp_path / "out.sqlite")
    assert not (tmp_path / "out.sqlite").exists()


def test_merge_cli_exit_status_names_conflicts(tmp_path, capsys):
    a = _cache(tmp_path / "a.sqlite", {"x": Verdict.PASS})
    b = _cache(tmp_path / "b.sqlite", {"x": Verdict.FAIL})
    assert main(["cache", "merge", str(a), str(b), "--out", str(tmp_path / "c.sqlite")]) == 1
    out = capsys.readouterr().out
    assert "1 keys with differing verdicts" in out and "CONFLICT" in out
    assert main(["cache", "merge", str(a), "--out", str(tmp_path / "d.sqlite")]) == 0
