"""Fail when the fast test suite collects fewer tests than the floor kept in ``tests/MIN_COLLECTED``.

Run by ``make test`` (and so by ``.ci/run``) before the suite itself: a directory that pytest
silently stops collecting (as ``tests/build/`` once was, through ``norecursedirs``) fails loudly.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

FLOOR_FILE = Path(__file__).with_name("MIN_COLLECTED")
COLLECTED = re.compile(r"^(\d+)(?:/\d+)? tests? collected", re.MULTILINE)


def collected_count(pytest_output: str) -> int:
    """The number of selected tests in ``pytest --collect-only -q`` output ("460/473 tests collected")."""
    match = COLLECTED.search(pytest_output)
    if match is None:
        raise ValueError("pytest printed no 'N tests collected' line:\n" + pytest_output[-2000:])
    return int(match.group(1))


def read_floor(path: Path = FLOOR_FILE) -> int:
    """The floor: the first integer in ``path``."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{path}: missing (it holds the minimum number of collected fast tests)") from None
    match = re.search(r"\d+", text)
    if match is None:
        raise ValueError(f"{path}:1: expected the minimum number of collected fast tests")
    return int(match.group())


def check(count: int, floor: int) -> str | None:
    """None when ``count`` reaches ``floor``; otherwise the failure message."""
    if count >= floor:
        return None
    return f"only {count} fast tests collected, fewer than the floor of {floor} in {FLOOR_FILE.name}: a test file or folder is no longer collected"


def main() -> int:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "not slow", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 5):
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        print(f"check_collected: pytest --collect-only failed (exit {done.returncode})", file=sys.stderr)
        return 1
    try:
        count, floor = collected_count(done.stdout), read_floor()
    except ValueError as exc:
        print(f"check_collected: {exc}", file=sys.stderr)
        return 1
    print(f"collected {count} fast tests (floor {floor})")
    problem = check(count, floor)
    if problem:
        print(f"check_collected: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
