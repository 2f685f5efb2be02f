"""A watchdog for the test run: a test that blocks is named, and the run ends instead of waiting.

A test (setup, call and teardown) running longer than ``EXECIR_TEST_WATCHDOG_S`` seconds (600 by
default; six times that for a test marked ``slow``, which ``make test`` does not run) gets a report
on the terminal: every thread's stack, the processes the run started (with their state and command
line) and, as the last line, the test's id. If it is still running ``EXECIR_TEST_WATCHDOG_END_S``
seconds later (120 by default, scaled alike), the processes the run started are killed and the run
exits with status 3, so CI prints which test blocked within minutes instead of reaching its own
limit with the test's name scrolled out of the output.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

EXIT_STATUS = 3
CHECK_EVERY_S = 2.0
SLOW_FACTOR = 6.0
GONE_WAIT_S = 10.0
"""How long the run waits, after SIGKILL, for the processes it killed to be gone before it exits."""
"""A test marked ``slow`` (full builds, model training) gets this many times the limits."""


def _seconds(name: str, default: float) -> float:
    value = os.environ.get(name, "")
    return float(value) if value else default


def _stat(pid: int | str) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name (state first, then the parent pid)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def descendants(root: int) -> list[int]:
    """The processes below ``root`` (children first, then theirs), read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parents[int(entry.name)] = int(_stat(entry.name)[1])
        except (OSError, IndexError):
            continue
    found: list[int] = []
    frontier = [root]
    while frontier:
        below = [pid for pid, parent in parents.items() if parent in frontier]
        found += below
        frontier = below
    return found


def running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie (a killed child of this process stays one until it exits)."""
    try:
        return _stat(pid)[0] != "Z"
    except (OSError, IndexError):
        return False


def describe(pid: int) -> str:
    """``pid``, its state and its command line (shortened), or that it has gone."""
    try:
        state = _stat(pid)[0]
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except (OSError, IndexError):
        return f"{pid} (gone)"
    return f"{pid} {state} {argv[:300]}"


class Watchdog:
    """Watches the running test from a daemon thread; see the module's docstring."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.name_after_s = _seconds("EXECIR_TEST_WATCHDOG_S", 600.0)
        self.end_after_s = self.name_after_s + _seconds("EXECIR_TEST_WATCHDOG_END_S", 120.0)
        self.current: tuple[str, float, float] | None = None
        self.named = ""
        self._lock = threading.Lock()
        threading.Thread(target=self._watch, name="execir-test-watchdog", daemon=True).start()

    def start(self, nodeid: str, factor: float = 1.0) -> None:
        with self._lock:
            self.current = (nodeid, time.monotonic(), factor)

    def finish(self) -> None:
        with self._lock:
            self.current = None

    def _watch(self) -> None:
        while True:
            time.sleep(CHECK_EVERY_S)
            with self._lock:
                current = self.current
            if current is None:
                continue
            nodeid, started, factor = current
            elapsed = time.monotonic() - started
            if elapsed >= self.end_after_s * factor:
                self._end(nodeid, elapsed)
            elif elapsed >= self.name_after_s * factor and self.named != nodeid:
                self.named = nodeid
                self._report(nodeid, elapsed)

    def _write(self, *parts: str | None) -> None:
        """Write ``parts`` past pytest's capture; a None part is every thread's stack."""
        capture = self.config.pluginmanager.getplugin("capturemanager")
        with capture.global_and_fixture_disabled():
            writer = self.config.get_terminal_writer()
            for part in parts:
                if part is None:
                    writer.flush()
                    faulthandler.dump_traceback(file=writer._file, all_threads=True)  # type: ignore[attr-defined]
                else:
                    writer.write(part)
            writer.flush()

    def _report(self, nodeid: str, elapsed: float) -> None:
        processes = "\n".join(describe(pid) for pid in descendants(os.getpid())) or "(none)"
        line = f"WATCHDOG: {nodeid} has run {elapsed:.0f} s"
        self._write(f"\n\n{line}; every thread's stack:\n", None, f"processes started by the run:\n{processes}\n{line}\n")

    def _end(self, nodeid: str, elapsed: float) -> None:
        killed = list(reversed(descendants(os.getpid())))
        for pid in killed:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        deadline = time.monotonic() + GONE_WAIT_S  # SIGKILL is delivered at once, the teardown is not
        while any(running(pid) for pid in killed) and time.monotonic() < deadline:
            time.sleep(0.05)
        self._write(f"\nWATCHDOG: {nodeid} still ran after {elapsed:.0f} s; the run ends here (exit {EXIT_STATUS})\n")
        os._exit(EXIT_STATUS)


_watchdog: Watchdog | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _watchdog
    _watchdog = Watchdog(config)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    if _watchdog is not None:
        _watchdog.start(item.nodeid, SLOW_FACTOR if item.get_closest_marker("slow") else 1.0)
    try:
        yield
    finally:
        if _watchdog is not None:
            _watchdog.finish()
