"""The collected-test floor that make test enforces."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check_collected import check, collected_count, read_floor


@pytest.mark.parametrize(("output", "count"), [("...\n460/473 tests collected (13 deselected) in 2.66s\n", 460), ("1 test collected in 0.1s", 1)])
def test_collected_count_parses_pytest_summary(output: str, count: int) -> None:
    assert collected_count(output) == count


def test_missing_summary_is_an_error() -> None:
    with pytest.raises(ValueError, match="no 'N tests collected'"):
        collected_count("ERROR collecting tests/x.py")


def test_floor_enforced(tmp_path: Path) -> None:
    assert check(471, 471) is None
    message = check(465, 471)
    assert message is not None and "only 465 fast tests collected" in message


def test_floor_file_is_read(tmp_path: Path) -> None:
    (tmp_path / "floor").write_text("# floor\n123\n")
    assert read_floor(tmp_path / "floor") == 123
    (tmp_path / "bad").write_text("many\n")
    with pytest.raises(ValueError, match="bad:1"):
        read_floor(tmp_path / "bad")
    with pytest.raises(ValueError, match="missing"):
        read_floor(tmp_path / "absent")
