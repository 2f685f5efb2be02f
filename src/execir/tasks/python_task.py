"""Turn one raw Python task record into a validated :class:`~execir.types.Task`.

Shared by the HumanEval, MBPP and generic JSONL loaders: docstrings are stripped from the
solution that enters the corpus, the query is the docstring prose (or a given description), and
every failure names the file, line and field.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from execir.errors import InputError
from execir.source_text import (
    describe,
    function_docstring,
    normalise_newlines,
    parse,
    strip_docstrings,
)
from execir.types import Task, TestSuite


def parse_program(text: str, path: Path, line: int, field: str) -> ast.Module:
    """Parse ``text`` or raise an InputError naming the field and the syntax problem."""
    try:
        return parse(text)
    except SyntaxError as exc:
        raise InputError(str(path), line, field, f"does not parse as Python: {exc.msg} (line {exc.lineno} of the field)") from None


_BAD_ID = re.compile(r"[\s\x00-\x1f\x7f]")


def check_task_id(task_id: str, path: Path, line: int) -> str:
    """Task ids become query ids in TSV qrels and TREC runs: no whitespace or control characters."""
    if not task_id or _BAD_ID.search(task_id):
        raise InputError(str(path), line, "task_id", f"{task_id!r} must be non-empty without whitespace or control characters")
    return task_id


def check_unique(tasks: list[tuple[int, Task]], path: Path) -> list[Task]:
    """The tasks, or an error naming the line of the first repeated task id."""
    seen: set[str] = set()
    for line, task in tasks:
        if task.task_id in seen:
            raise InputError(str(path), line, "task_id", f"duplicate task id '{task.task_id}'")
        seen.add(task.task_id)
    return [task for _, task in tasks]


def defines_function(tree: ast.Module, name: str) -> bool:
    """True when ``name`` is a top-level function (or class) of the module."""
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name for n in tree.body)


def make_task(
    *,
    task_id: str,
    program: str,
    entry_point: str,
    tests: TestSuite,
    source: str,
    path: Path,
    line: int,
    program_field: str,
    description: str | None = None,
    prompt: str = "",
    docstring_field: str | None = None,
) -> Task:
    """Validate a raw Python task and build its corpus text and query text. ``docstring_field`` is the
    field blamed when the entry point has no docstring (default: ``program_field``)."""
    program = normalise_newlines(program)
    tree = parse_program(program, path, line, program_field)
    if not defines_function(tree, entry_point):
        raise InputError(str(path), line, "entry_point", f"'{entry_point}' is not defined at top level of {program_field}")
    try:
        solution = strip_docstrings(program)
    except SyntaxError as exc:
        raise InputError(str(path), line, program_field, f"cannot remove its docstrings cleanly: {exc.msg}") from None
    if description is None:
        docstring = function_docstring(program, entry_point)
        if not docstring:
            field = docstring_field or program_field
            raise InputError(str(path), line, field, f"'{entry_point}' has no docstring in {field} to use as the query (or give a 'description')")
        description = describe(docstring, entry_point)
    description = description.strip()
    if not description:
        raise InputError(str(path), line, "description", "the task description is empty")
    return Task(
        task_id=check_task_id(task_id, path, line),
        description=description,
        solution=solution,
        entry_point=entry_point,
        tests=tests,
        source=source,
        prompt=prompt,
    )
