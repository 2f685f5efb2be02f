"""LiveCodeBench problems (``code_generation_lite`` layout, e.g. the public-test copy of release_v1).

Each JSONL record has ``question_id``, ``platform``, ``question_content``, ``starter_code`` and two
fields that are JSON *strings*: ``public_test_cases`` (a list of ``{input, output, testtype}``) and
``metadata`` (``{"func_name": ...}`` for LeetCode problems). Two test protocols:

* ``stdin`` (AtCoder, Codeforces): the program reads ``input`` and must print ``output``; the task's
  tests are ``TestSuite("stdio")`` cases, compared by the oracle's strict stdio rules
  (:func:`execir.execute.decide.normalise`: CRLF, trailing spaces/tabs and trailing blank lines only).
  LiveCodeBench itself strips every line on both sides and, when a line differs, compares it as a
  list of ``Decimal`` tokens; so a program printing ``1.0`` for ``1``, leading spaces or doubled
  spaces between numbers passes there and fails here. Outputs printed the ordinary way agree.
* ``functional`` (LeetCode): ``Solution().<func_name>(*args)`` with one JSON-decoded argument per line
  of ``input``, compared (``==``, a tuple result taken as a list) with the JSON-decoded ``output``.
  The tests are ``TestSuite("asserts")`` naming ``func_name``, judged outside the candidate. The
  oracle's proxy only calls a *top-level* callable and only builtin values cross it (a ``Solution``
  instance cannot), so the program actually run is :func:`candidate_program`: the code plus a
  top-level ``func_name`` that calls ``Solution().func_name`` (a fresh instance per call).

LiveCodeBench has no reference solutions: ``Task.solution`` is empty, so these tasks enter a pool only
through candidates (``execir.tasks.candidates``, e.g. samples of a code model) run with
:func:`candidate_program` under :func:`lcb_limits`. The query is the whole ``question_content``
(statement, constraints and sample I/O as published).
"""

from __future__ import annotations

import ast
import json
import keyword
from pathlib import Path
from typing import Any

from execir.errors import InputError
from execir.execute.limits import WALL_MULTIPLIER, Limits
from execir.jsonl import iter_jsonl, require
from execir.source_text import normalise_newlines
from execir.tasks.python_task import check_task_id, check_unique
from execir.types import StdioCase, Task, TestSuite

SOURCE = "livecodebench"
SECONDS_PER_RUN = 6.0
"""CPU budget of one run: LiveCodeBench's own harness allows 6 s per test case. A stdio case is one
run (so 6 s per case, as there); a functional task's public calls share one run (at most six calls on
small inputs in release_v1)."""

PRELUDE = (
    "from string import *\nfrom re import *\nfrom datetime import *\nfrom collections import *\nfrom heapq import *\n"
    "from bisect import *\nfrom copy import *\nfrom math import *\nfrom random import *\nfrom statistics import *\n"
    "from itertools import *\nfrom functools import *\nfrom operator import *\nfrom io import *\nfrom sys import *\n"
    "from json import *\nfrom builtins import *\nfrom typing import *\nimport string\nimport re\nimport datetime\n"
    "import collections\nimport heapq\nimport bisect\nimport copy\nimport math\nimport random\nimport statistics\n"
    "import itertools\nimport functools\nimport operator\nimport io\nimport sys\nimport json\nsys.setrecursionlimit(50000)\n"
)
"""LiveCodeBench's ``import_string``, put before every program it runs (starter code says ``List[int]``
without importing ``typing``; models rely on it)."""

SAME = (
    "def _lcb_same(got, expected):\n"
    '    """LiveCodeBench\'s comparison: a tuple result counts as a list, then ==."""\n'
    "    if type(got) is tuple:\n"
    "        got = list(got)\n"
    "    return got == expected\n"
)
"""Setup code of every functional suite (runs in the judge, on decoded builtin values only)."""


def load_livecodebench(path: Path, *, source: str = SOURCE) -> list[Task]:
    """LiveCodeBench tasks from the JSONL file ``path``; a bad record raises an
    :class:`~execir.errors.InputError` naming the file, the line and the field."""
    return check_unique([(line, _task(record, path, line, source)) for line, record in iter_jsonl(path)], path)


def lcb_limits() -> Limits:
    """The fixed budget of a LiveCodeBench run (no canonical to time): :data:`SECONDS_PER_RUN` of CPU,
    the usual wall backstop, the default memory (1 GiB, AtCoder's usual limit)."""
    return Limits(cpu_seconds=SECONDS_PER_RUN, wall_seconds=WALL_MULTIPLIER * SECONDS_PER_RUN)


def is_functional(task: Task) -> bool:
    """True for a LeetCode-style task (tests call ``Solution().<entry_point>``)."""
    return task.tests.kind == "asserts" and bool(task.entry_point)


def candidate_program(task: Task, code: str) -> str:
    """The program the oracle runs for the candidate ``code`` of a LiveCodeBench ``task``: LCB's
    import prelude, the code, and for functional tasks a top-level ``entry_point`` that calls a fresh
    ``Solution()``'s method (left out when the code defines no ``Solution``, so a plain top-level
    function of that name is called, as LCB does)."""
    program = PRELUDE + "\n" + normalise_newlines(code).rstrip("\n") + "\n"
    if not is_functional(task):
        return program
    name = task.entry_point
    adapter = f'\n\nif "Solution" in globals():\n    def {name}(*args):\n        return Solution().{name}(*args)\n'
    return program + adapter


def _task(record: dict[str, Any], path: Path, line: int, source: str) -> Task:
    platform = _text(record, "platform", path, line)
    question = _text(record, "question_id", path, line)
    description = require(record, "question_content", str, path, line).strip()
    if not description:
        raise InputError(str(path), line, "question_content", "the problem statement is empty")
    starter = normalise_newlines(require(record, "starter_code", str, path, line))
    cases = _cases(record, path, line)
    kinds = {case["testtype"] for case in cases}
    if len(kinds) != 1:
        raise InputError(str(path), line, "public_test_cases", f"mixes test types {sorted(kinds)}")
    if kinds == {"stdin"}:
        entry_point, tests = "", TestSuite(kind="stdio", stdio_cases=tuple(StdioCase(c["input"], c["output"]) for c in cases), stdio_compare="tokens")
    else:
        entry_point = _func_name(record, path, line)
        tests = _functional_suite(cases, entry_point, path, line)
    return Task(
        task_id=check_task_id(f"lcb/{platform}/{question}", path, line),
        description=description,
        solution="",
        entry_point=entry_point,
        tests=tests,
        source=source,
        prompt=starter,
    )


def _text(record: dict[str, Any], key: str, path: Path, line: int) -> str:
    value = require(record, key, str, path, line).strip()
    if not value:
        raise InputError(str(path), line, key, "must not be empty")
    return str(value)


def _json_field(record: dict[str, Any], key: str, path: Path, line: int) -> Any:
    """A field holding JSON text (or, leniently, the already decoded value)."""
    value = require(record, key, (str, list, dict), path, line)
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise InputError(str(path), line, key, f"is not valid JSON text ({exc.msg} at column {exc.colno})") from None


def _cases(record: dict[str, Any], path: Path, line: int) -> list[dict[str, str]]:
    field = "public_test_cases"
    cases = _json_field(record, field, path, line)
    if not isinstance(cases, list) or not cases:
        raise InputError(str(path), line, field, "expected a non-empty JSON list of test cases")
    for number, case in enumerate(cases, start=1):
        if not isinstance(case, dict) or not all(isinstance(case.get(k), str) for k in ("input", "output", "testtype")):
            raise InputError(str(path), line, field, f"case {number}: expected an object with string input, output and testtype")
        if case["testtype"] not in ("stdin", "functional"):
            raise InputError(str(path), line, field, f"case {number}: unknown testtype {case['testtype']!r} (stdin or functional)")
    return cases


def _func_name(record: dict[str, Any], path: Path, line: int) -> str:
    metadata = _json_field(record, "metadata", path, line)
    name = metadata.get("func_name") if isinstance(metadata, dict) else None
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
        raise InputError(str(path), line, "metadata", f"functional tests need 'func_name', a Python identifier (got {name!r})")
    if not require(record, "starter_code", str, path, line).strip():
        raise InputError(str(path), line, "starter_code", "functional tests need the starter code (class Solution)")
    return name


def _functional_suite(cases: list[dict[str, str]], name: str, path: Path, line: int) -> TestSuite:
    asserts = []
    for number, case in enumerate(cases, start=1):
        args = [_literal(text, path, line, number, "input") for text in case["input"].split("\n")]
        expected = _literal(case["output"], path, line, number, "output")
        asserts.append(f"assert _lcb_same({name}({', '.join(args)}), {expected})")
    return TestSuite(kind="asserts", code=SAME, asserts=tuple(asserts))


def _literal(text: str, path: Path, line: int, number: int, part: str) -> str:
    """The Python literal of one JSON value, checked to read back as the same value."""
    where = f"case {number}: {part} "
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(str(path), line, "public_test_cases", f"{where}is not JSON ({exc.msg}): {text[:60]!r}") from None
    literal = repr(value)
    try:
        same = ast.literal_eval(literal) == value
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        same = False
    if not same:
        raise InputError(str(path), line, "public_test_cases", f"{where}has a value with no exact Python literal (NaN, Infinity?): {text[:60]!r}")
    return literal
