"""MBPP tasks, from the original full release (JSONL: ``text``, ``code``, ``test_list``,
``test_setup_code``, ``task_id``) or the sanitized release (a JSON array: ``prompt``, ``code``,
``test_list``, ``test_imports``, ``task_id``). The entry point is the first function defined by
``code`` that the tests call."""

from __future__ import annotations

import ast
from pathlib import Path

from execir.errors import InputError
from execir.jsonl import iter_records, require
from execir.source_text import normalise_newlines, parse
from execir.tasks.python_task import check_unique, make_task, parse_program
from execir.types import Task, TestSuite


def load_mbpp(path: Path, *, source: str = "mbpp") -> list[Task]:
    """Load MBPP tasks (full or sanitized) from ``path``."""
    return check_unique([(line, _task(record, path, line, source)) for line, record in iter_records(path)], path)


def _task(record: dict, path: Path, line: int, source: str) -> Task:
    number = require(record, "task_id", (int, str), path, line)
    text_field = "text" if "text" in record else "prompt"
    description = require(record, text_field, str, path, line)
    code = normalise_newlines(require(record, "code", str, path, line))
    asserts = require(record, "test_list", list, path, line)
    if not asserts or not all(isinstance(a, str) for a in asserts):
        raise InputError(str(path), line, "test_list", "expected a non-empty list of assert strings")
    setup = _setup_code(record, path, line)
    for assertion in asserts:
        parse_program(assertion, path, line, "test_list")
    entry_point = _entry_point(parse_program(code, path, line, "code"), asserts, path, line)
    return make_task(
        task_id=f"{source.upper()}/{number}",
        program=code,
        entry_point=entry_point,
        tests=TestSuite(kind="asserts", code=setup, asserts=tuple(normalise_newlines(a) for a in asserts)),
        source=source,
        path=path,
        line=line,
        program_field="code",
        description=description,
        prompt=description,
    )


def _setup_code(record: dict, path: Path, line: int) -> str:
    if "test_setup_code" in record:
        return normalise_newlines(require(record, "test_setup_code", str, path, line))
    imports = record.get("test_imports", [])
    if not isinstance(imports, list) or not all(isinstance(i, str) for i in imports):
        raise InputError(str(path), line, "test_imports", "expected a list of import strings")
    return "\n".join(imports)


def _entry_point(tree: ast.Module, asserts: list[str], path: Path, line: int) -> str:
    defined = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    called = {node.func.id for assertion in asserts for node in ast.walk(parse(assertion)) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    for name in defined:
        if name in called:
            return name
    raise InputError(str(path), line, "test_list", "the tests call no function defined in 'code'")
