"""``execir mutate``: candidates of a user's program without execution, as text or JSON lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execir.cli import main
from execir.mutate import generate_mutants

PROGRAM = "def f(a, b):\n    if a < b:\n        return b - a\n    return max(0, a)\n"


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM, encoding="utf-8")
    return path


def test_all_prints_every_candidate_as_json(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mutate", str(program), "--all", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == len(generate_mutants("input", PROGRAM))
    for row in rows:
        assert set(row) == {"operator", "family", "edit", "edit_distance", "text"}
        assert row["text"] != PROGRAM and row["edit_distance"] >= 1
        compile(row["text"], "<m>", "exec")


def test_default_prints_the_selection_with_distinct_operators(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mutate", str(program), "--json", "--max", "3", "--seed", "5"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 3 and len({r["operator"] for r in rows}) == 3
    assert main(["mutate", str(program), "--json", "--max", "3", "--seed", "5"]) == 0
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == rows  # deterministic


def test_operators_filter_and_text_output(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mutate", str(program), "--all", "--operators", "function"]) == 0
    out = capsys.readouterr().out
    assert "min_max_swap (function)" in out and "arith_swap" not in out
    assert out.strip().endswith("(python)")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--operators", "nosuch"], "unknown operator or family 'nosuch'"),
        (["--max", "0"], "--max must be >= 1"),
    ],
)
def test_bad_options_are_one_line_errors(program: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mutate", str(program), *args]) == 2
    assert message in capsys.readouterr().err


def test_unknown_extension_and_unparsable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd = tmp_path / "prog.txt"
    odd.write_text(PROGRAM, encoding="utf-8")
    assert main(["mutate", str(odd)]) == 2
    assert "pass --language" in capsys.readouterr().err
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n", encoding="utf-8")
    assert main(["mutate", str(broken)]) == 2
    err = capsys.readouterr().err
    assert str(broken) in err and "does not parse" in err
