"""Task loaders: real data loads, malformed input names file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execir.errors import InputError
from execir.tasks import load_humaneval, load_mbpp


def _write_jsonl(path: Path, rows: list[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


GOOD = {
    "task_id": "T/0",
    "prompt": 'def add(a, b):\n    """Add two numbers.\n    >>> add(1, 2)\n    3\n    """\n',
    "canonical_solution": "    return a + b\n",
    "test": "def check(candidate):\n    assert candidate(1, 2) == 3\n",
    "entry_point": "add",
}


def test_bundled_humaneval_has_164_tasks_without_query_leaks() -> None:
    tasks = load_humaneval()
    assert len(tasks) == 164
    for task in tasks:
        assert task.description
        assert task.description.splitlines()[0] not in task.solution
        assert f"def {task.entry_point}(" in task.solution
    assert tasks[0].tests.kind == "check"


def test_humaneval_115_string_after_import_is_treated_as_docstring() -> None:
    task = load_humaneval()[115]
    assert "rectangular grid of wells" in task.description
    assert "rectangular grid" not in task.solution
    assert "Input:" not in task.description  # examples removed


def test_description_drops_doctests() -> None:
    task = load_humaneval()[0]
    assert ">>>" not in task.description and "has_close_elements(" not in task.description


def test_generic_jsonl_loads(tmp_path: Path) -> None:
    tasks = load_humaneval(_write_jsonl(tmp_path / "t.jsonl", [GOOD]), source="jsonl")
    assert tasks[0].description == "Add two numbers."
    assert tasks[0].solution == "def add(a, b):\n    return a + b\n"


@pytest.mark.parametrize(
    ("row", "line", "field", "fragment"),
    [
        ("{not json", 2, None, "invalid JSON"),
        ({k: v for k, v in GOOD.items() if k != "test"}, 2, "test", "missing required field"),
        ({**GOOD, "canonical_solution": "    return a +\n"}, 2, "canonical_solution", "does not parse"),
        ({**GOOD, "entry_point": "sub"}, 2, "entry_point", "not defined"),
        ({**GOOD, "test": 5}, 2, "test", "expected str"),
        ({**GOOD, "test": "assert True\n"}, 2, "test", "check(candidate)"),
    ],
)
def test_malformed_jsonl_names_file_line_field(tmp_path: Path, row: object, line: int, field: str | None, fragment: str) -> None:
    path = _write_jsonl(tmp_path / "bad.jsonl", [{**GOOD, "task_id": "ok"}, row])
    with pytest.raises(InputError) as info:
        load_humaneval(path, source="jsonl")
    assert info.value.path == str(path) and info.value.line == line and info.value.field == field
    assert fragment in str(info.value) and f"{path}:{line}" in str(info.value)


def test_duplicate_task_id_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="duplicate task id"):
        load_humaneval(_write_jsonl(tmp_path / "d.jsonl", [GOOD, GOOD]), source="jsonl")


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="file not found"):
        load_mbpp(tmp_path / "nope.jsonl")


MBPP_ROW = {
    "text": "Write a function to add two numbers.",
    "code": "def add_nums(a, b):\r\n\treturn a + b",
    "task_id": 7,
    "test_setup_code": "",
    "test_list": ["assert add_nums(1, 2) == 3", "assert add_nums(0, 0) == 0"],
    "challenge_test_list": [],
}


def test_mbpp_row_and_crlf(tmp_path: Path) -> None:
    (task,) = load_mbpp(_write_jsonl(tmp_path / "m.jsonl", [MBPP_ROW]))
    assert task.task_id == "MBPP/7" and task.entry_point == "add_nums"
    assert "\r" not in task.solution and task.tests.kind == "asserts" and len(task.tests.asserts) == 2


def test_mbpp_sanitized_json_array_line_numbers(tmp_path: Path) -> None:
    good = {"prompt": "Add.", "code": "def f(a):\n    return a", "task_id": 1, "test_imports": [], "test_list": ["assert f(1) == 1"]}
    bad = {**good, "task_id": 2, "test_list": ["assert g(1) == 1"]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps([good, bad], indent=1), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_mbpp(path)
    text = path.read_text()
    second_object_line = text[: text.index("{", text.index("}"))].count("\n") + 1
    assert info.value.field == "test_list" and info.value.line == second_object_line


def test_real_mbpp_full_and_sanitized(shared_data: Path) -> None:
    full = load_mbpp(shared_data / "mbpp" / "mbpp.jsonl")
    sanitized = load_mbpp(shared_data / "mbpp" / "sanitized-mbpp.json", source="mbpp-sanitized")
    assert len(full) == 974 and len(sanitized) == 427
    assert all(t.entry_point in t.solution for t in full)


def test_line_separator_characters_inside_strings(tmp_path: Path) -> None:
    row = {**GOOD, "canonical_solution": '    sep = "\u2028\u0085\x0c"\n    return a + b\n'}
    path = tmp_path / "u.jsonl"
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    (task,) = load_humaneval(path, source="jsonl")
    assert "\u2028" in task.solution and task.solution.endswith("return a + b\n")


def test_task_id_with_whitespace_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        load_humaneval(_write_jsonl(tmp_path / "t.jsonl", [{**GOOD, "task_id": "a\tb"}]), source="jsonl")
    assert info.value.field == "task_id" and info.value.line == 1


def test_duplicate_id_names_the_repeated_line(tmp_path: Path) -> None:
    rows = [{**GOOD, "task_id": f"t{i}"} for i in range(4)] + [{**GOOD, "task_id": "t1"}]
    with pytest.raises(InputError) as info:
        load_humaneval(_write_jsonl(tmp_path / "d.jsonl", rows), source="jsonl")
    assert info.value.line == 5


@pytest.mark.parametrize("text", ['[{"a": 1} {"b": 2}]', '[{"a": 1},]', '[{"a": 1}] garbage'])
def test_malformed_json_arrays(tmp_path: Path, text: str) -> None:
    from execir.jsonl import iter_json_array

    path = tmp_path / "a.json"
    path.write_text(text)
    with pytest.raises(InputError):
        list(iter_json_array(path))


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode() + b"\n")
    assert load_humaneval(path, source="jsonl")[0].task_id == "T/0"


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_non_utf8_byte_names_its_line(tmp_path: Path, suffix: str) -> None:
    import gzip

    rows = [json.dumps({**GOOD, "task_id": f"t{i}"}).encode() for i in range(3)]
    rows[2] = rows[2].replace(b"Add two numbers", b"Add two n\xe9mbers")  # Latin-1, not UTF-8
    data = b"\n".join(rows) + b"\n"
    path = tmp_path / f"latin1{suffix}"
    path.write_bytes(gzip.compress(data) if suffix.endswith(".gz") else data)
    with pytest.raises(InputError) as info:
        load_humaneval(path, source="jsonl")
    assert info.value.line == 3 and "not valid UTF-8: byte 0xe9" in str(info.value)
    assert f"{path}:3:" in str(info.value)


def test_prompt_without_docstring_blames_the_prompt_field(tmp_path: Path) -> None:
    row = {**GOOD, "prompt": "def add(a, b):\n"}
    with pytest.raises(InputError) as info:
        load_humaneval(_write_jsonl(tmp_path / "p.jsonl", [{**GOOD, "task_id": "ok"}, row]), source="jsonl")
    assert info.value.field == "prompt" and info.value.line == 2 and "no docstring" in str(info.value)


def test_corrupt_gzip_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl.gz"
    path.write_bytes(b"\x1f\x8b\x08\x00garbage")
    with pytest.raises(InputError, match="cannot read file"):
        load_humaneval(path, source="jsonl")
