"""Distractor files: records, defaults, and errors naming file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from execir.errors import InputError
from execir.texts.distractors import DEFAULT_SOURCE, Distractor, load_distractors


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "distractors.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_loads_records_with_lines_and_default_source(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '{"task_id": "HumanEval/0", "text": "Find far elements.", "source": "gpt"}\n\n{"task_id": "HumanEval/1", "text": "Join groups.", "extra": 1}\n',
    )
    assert load_distractors(path) == [
        Distractor("HumanEval/0", "Find far elements.", "gpt", 1),
        Distractor("HumanEval/1", "Join groups.", DEFAULT_SOURCE, 3),
    ]


def test_empty_file(tmp_path: Path) -> None:
    assert load_distractors(_write(tmp_path, "\n")) == []


@pytest.mark.parametrize(
    ("content", "line", "field", "message"),
    [
        ('{"task_id": "a", "text": "ok"}\n{"task_id": "b"}\n', 2, "text", "missing required field"),
        ('{"task_id": "a", "text": "   "}\n', 1, "text", "must not be empty"),
        ('{"task_id": "", "text": "x"}\n', 1, "task_id", "must not be empty"),
        ('{"task_id": 7, "text": "x"}\n', 1, "task_id", "expected str, got int"),
        ('{"task_id": "a", "text": ["x"]}\n', 1, "text", "expected str, got list"),
        ('{"task_id": "a", "text": "x", "source": null}\n', 1, "source", "expected str, got NoneType"),
        ('{"task_id": "a", "text": "x", "source": ""}\n', 1, "source", "must not be empty"),
        ('{"task_id": "a", "text": "x"}\n{"task_id": \n', 2, None, "invalid JSON"),
        ('["a"]\n', 1, None, "expected a JSON object"),
    ],
)
def test_errors_name_file_line_field(tmp_path: Path, content: str, line: int, field: str | None, message: str) -> None:
    path = _write(tmp_path, content)
    with pytest.raises(InputError) as caught:
        load_distractors(path)
    error = caught.value
    assert (error.path, error.line, error.field) == (str(path), line, field)
    assert str(error).startswith(f"{path}:{line}" + (f": field '{field}'" if field else ""))
    assert message in str(error)


def test_missing_file_is_line_zero(tmp_path: Path) -> None:
    path = tmp_path / "absent.jsonl"
    with pytest.raises(InputError) as caught:
        load_distractors(path)
    assert (caught.value.path, caught.value.line) == (str(path), 0)
    assert "file not found" in str(caught.value)
