"""LiveCodeBench loader: field mapping, errors naming file:line:field, and real-oracle verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from execir.errors import InputError
from execir.execute import Job, Oracle, OracleConfig
from execir.tasks import multilingual
from execir.tasks.livecodebench import PRELUDE, candidate_program, is_functional, lcb_limits, load_livecodebench
from execir.types import StdioCase, Verdict

STDIN = {
    "question_title": "A. Sum",
    "question_content": "Print A+B.\n\nSample Input 1\n\n1 2\n\nSample Output 1\n\n3\n",
    "platform": "atcoder",
    "question_id": "abc000_a",
    "contest_id": "abc000",
    "contest_date": "2023-08-01T00:00:00",
    "starter_code": "",
    "difficulty": "easy",
    "public_test_cases": json.dumps([{"input": "1 2\n", "output": "3\n", "testtype": "stdin"}, {"input": "5 5\n", "output": "10\n", "testtype": "stdin"}]),
    "metadata": "{}",
}
FUNCTIONAL = {
    **STDIN,
    "question_content": "Return the pairs of nums that sum to target.",
    "platform": "leetcode",
    "question_id": "9999",
    "starter_code": "class Solution:\n    def pairs(self, nums: List[int], target: int) -> List[List[int]]:\n        ",
    "public_test_cases": json.dumps(
        [{"input": "[1, 2, 3]\n4", "output": "[[1, 3]]", "testtype": "functional"}, {"input": "[]\n0", "output": "[]", "testtype": "functional"}]
    ),
    "metadata": json.dumps({"func_name": "pairs"}),
}


def _write(tmp_path: Path, *records: dict[str, Any] | str) -> Path:
    path = tmp_path / "lcb.jsonl"
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records), encoding="utf-8")
    return path


def test_stdin_record_becomes_stdio_cases(tmp_path: Path) -> None:
    (task,) = load_livecodebench(_write(tmp_path, STDIN))
    assert task.task_id == "lcb/atcoder/abc000_a"
    assert task.tests.kind == "stdio"
    assert task.tests.stdio_cases == (StdioCase("1 2\n", "3\n"), StdioCase("5 5\n", "10\n"))
    assert (task.entry_point, task.solution, task.prompt, task.language, task.source) == ("", "", "", "python", "livecodebench")
    assert task.description == STDIN["question_content"].strip()  # the whole statement, samples included
    assert not is_functional(task)


def test_functional_record_becomes_asserts_on_the_method(tmp_path: Path) -> None:
    (task,) = load_livecodebench(_write(tmp_path, FUNCTIONAL))
    assert task.task_id == "lcb/leetcode/9999"
    assert task.entry_point == "pairs" and is_functional(task)
    assert task.tests.kind == "asserts"
    assert task.tests.asserts == ("assert _lcb_same(pairs([1, 2, 3], 4), [[1, 3]])", "assert _lcb_same(pairs([], 0), [])")
    assert task.prompt == FUNCTIONAL["starter_code"]
    namespace: dict[str, Any] = {}
    exec(task.tests.code, namespace)
    assert namespace["_lcb_same"]((1, 2), [1, 2]) and not namespace["_lcb_same"]([1], [2])


def test_candidate_program_adds_prelude_and_adapter(tmp_path: Path) -> None:
    stdin_task, functional_task = load_livecodebench(_write(tmp_path, STDIN, FUNCTIONAL))
    assert candidate_program(stdin_task, "print(3)") == PRELUDE + "\nprint(3)\n"
    code = "class Solution:\n    def pairs(self, nums: List[int], target: int) -> List[List[int]]:\n        return [[1, 3]]\n"
    namespace: dict[str, Any] = {}
    exec(candidate_program(functional_task, code), namespace)
    assert namespace["pairs"]([1, 2, 3], 4) == [[1, 3]]
    plain: dict[str, Any] = {}
    exec(candidate_program(functional_task, "def pairs(nums, target):\n    return 'top'\n"), plain)
    assert plain["pairs"]([], 0) == "top"  # no Solution: the top-level function is the entry point


def test_limits_are_fixed() -> None:
    limits = lcb_limits()
    assert limits.cpu_seconds == 6.0 and limits.wall_seconds >= limits.cpu_seconds


@pytest.mark.parametrize(
    ("change", "field", "needle"),
    [
        ({"question_id": None}, "question_id", "expected str"),
        ({"platform": " "}, "platform", "must not be empty"),
        ({"question_content": ""}, "question_content", "empty"),
        ({"public_test_cases": "[{"}, "public_test_cases", "not valid JSON"),
        ({"public_test_cases": "[]"}, "public_test_cases", "non-empty"),
        ({"public_test_cases": json.dumps([{"input": "1"}])}, "public_test_cases", "case 1"),
        ({"public_test_cases": json.dumps([{"input": "", "output": "", "testtype": "file"}])}, "public_test_cases", "unknown testtype"),
        ({"question_id": "a b"}, "task_id", "whitespace"),
    ],
)
def test_bad_stdin_records_name_file_line_field(tmp_path: Path, change: dict[str, Any], field: str, needle: str) -> None:
    path = _write(tmp_path, FUNCTIONAL, {**STDIN, **change})
    with pytest.raises(InputError) as caught:
        load_livecodebench(path)
    assert (caught.value.path, caught.value.line, caught.value.field) == (str(path), 2, field)
    assert needle in str(caught.value)


@pytest.mark.parametrize(
    ("change", "field", "needle"),
    [
        ({"metadata": "{}"}, "metadata", "func_name"),
        ({"metadata": json.dumps({"func_name": "class"})}, "metadata", "identifier"),
        ({"starter_code": ""}, "starter_code", "starter code"),
        ({"public_test_cases": json.dumps([{"input": "[1,", "output": "1", "testtype": "functional"}])}, "public_test_cases", "input is not JSON"),
        ({"public_test_cases": json.dumps([{"input": "1", "output": "NaN", "testtype": "functional"}])}, "public_test_cases", "no exact Python literal"),
        (
            {"public_test_cases": json.dumps([{"input": "1", "output": "1", "testtype": "functional"}, {"input": "1", "output": "1", "testtype": "stdin"}])},
            "public_test_cases",
            "mixes",
        ),
    ],
)
def test_bad_functional_records_name_file_line_field(tmp_path: Path, change: dict[str, Any], field: str, needle: str) -> None:
    path = _write(tmp_path, {**FUNCTIONAL, **change})
    with pytest.raises(InputError) as caught:
        load_livecodebench(path)
    assert (caught.value.line, caught.value.field) == (1, field)
    assert needle in str(caught.value)


def test_bad_json_line_and_duplicate_id(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"lcb.jsonl:2: invalid JSON"):
        load_livecodebench(_write(tmp_path, STDIN, "{"))
    with pytest.raises(InputError, match=r"lcb.jsonl:2: field 'task_id': duplicate task id 'lcb/atcoder/abc000_a'"):
        load_livecodebench(_write(tmp_path, STDIN, STDIN))


@pytest.fixture
def lcb_file() -> Path:
    data = multilingual.shared_data()
    path = data / "livecodebench-v1-public" / "lcb.jsonl" if data else None
    if path is None or not path.exists():
        pytest.skip("../shared/data/livecodebench-v1-public is not present")
    return path


@pytest.mark.shared
def test_real_file_loads(lcb_file: Path) -> None:
    tasks = load_livecodebench(lcb_file)
    kinds = [t.tests.kind for t in tasks]
    assert len(tasks) == 400 and kinds.count("stdio") == 219 and kinds.count("asserts") == 181
    assert all(t.solution == "" and t.description for t in tasks)


SOLUTIONS = {
    "lcb/leetcode/2727": (
        "class Solution:\n    def countSeniors(self, details: List[str]) -> int:\n        return sum(int(d[11:13]) > 60 for d in details)\n",
        "class Solution:\n    def countSeniors(self, details: List[str]) -> int:\n        return sum(int(d[12:14]) > 60 for d in details)\n",
    ),
    "lcb/atcoder/abc315_a": (
        "s = input()\nprint(''.join(c for c in s if c not in 'aeiou'))\n",
        "s = input()\nprint(''.join(c for c in s if c not in 'aiou'))\n",
    ),
}


@pytest.mark.shared
def test_real_oracle_passes_correct_and_fails_wrong(lcb_file: Path, tmp_path: Path) -> None:
    tasks = {t.task_id: t for t in load_livecodebench(lcb_file) if t.task_id in SOLUTIONS}
    jobs = [
        Job(candidate_program(tasks[task_id], code), tasks[task_id].tests, tasks[task_id].entry_point, lcb_limits())
        for task_id, pair in SOLUTIONS.items()
        for code in pair
    ]
    with Oracle(OracleConfig(workers=2, cache_path=tmp_path / "cache.sqlite", progress=False)) as oracle:
        verdicts = [r.verdict for r in oracle.run(jobs)]
    assert verdicts == [Verdict.PASS, Verdict.FAIL, Verdict.PASS, Verdict.FAIL]
