"""Build sources in every language: HumanEval-X, HumanEvalPack (with its human-written bugs) and
MBXP, turned into :class:`~execir.types.Task` records the build pipeline verifies.

A document is the complete program with its comments (and docstrings) removed by the language's
``strip_comments``; the query is the prose of the prompt's doc comment (``describe``). Human bugs
are stripped the same way, so a bug and its canonical differ only by the bug.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

from execir.errors import ExecIRError
from execir.language_declarations import is_host_language
from execir.languages import get_language
from execir.source_text import normalise_newlines, strip_docstrings
from execir.tasks.humaneval import load_humaneval
from execir.tasks.multilingual import NativeTask, native_tasks, read_jsonl
from execir.types import Task, TestSuite

MULTILINGUAL_SOURCES: dict[str, tuple[str, ...]] = {
    "humaneval-x": ("python", "cpp", "java", "go", "js", "rust"),
    "humanevalpack": ("python", "cpp", "java", "go", "js", "rust"),
    "mbxp": ("ruby", "php", "typescript"),
}
"""Source -> the languages ExecIR loads from it."""


def load_multilingual(source: str, language: str, data: Path) -> list[Task]:
    """Tasks of ``source`` in ``language`` from the data folder ``data`` (the folder holding
    ``humaneval-x/``, ``humanevalpack/`` and ``mxeval/``, as ``../shared/data`` does).

    ``humanevalpack`` carries each task's human-written bug (``human_bugs``); ``humaneval-x`` the
    same canonicals without them."""
    languages = MULTILINGUAL_SOURCES.get(source)
    if languages is None:
        raise ExecIRError(f"unknown source {source!r}; choose one of {', '.join(MULTILINGUAL_SOURCES)}")
    if language not in languages:
        raise ExecIRError(f"{source} has no {language} tasks ExecIR can run; languages: {', '.join(languages)}")
    if not data.is_dir():
        raise ExecIRError(f"--path {data}: not a directory (expected the folder holding humaneval-x/, humanevalpack/, mxeval/)")
    with_bugs = source == "humanevalpack"
    if is_host_language(language):
        return _with_problems(_python(data, with_bugs), source)
    try:
        natives = native_tasks(language, data)
    except FileNotFoundError as error:
        raise ExecIRError(f"--path {data}: {error}") from None
    if not natives:
        raise ExecIRError(f"--path {data}: no {language} tasks of {source} found there")
    return _with_problems([native_to_task(native, human_bugs=with_bugs) for native in natives], source)


def _with_problems(tasks: list[Task], source: str) -> list[Task]:
    """Name each task's problem as every language's version names it (``CPP/12`` -> ``HumanEval/12``,
    ``MBRBP/7`` -> ``MBPP/7``), so code-to-code pools and splits join the languages."""
    family = "MBPP" if source == "mbxp" else "HumanEval"
    return [replace(t, problem=f"{family}/{t.task_id.rsplit('/', 1)[-1]}") for t in tasks]


def native_to_task(native: NativeTask, *, human_bugs: bool) -> Task:
    """A loaded task in its own language as a build task (comments stripped, query described)."""
    lang = get_language(native.language)
    description = lang.describe(native.prompt).strip()
    if not description:
        raise ExecIRError(f"{native.source} {native.task_id}: the prompt has no doc comment to use as the query (field 'prompt')")
    bugs = (lang.strip_comments(native.buggy),) if human_bugs and native.buggy else ()
    return Task(
        task_id=native.task_id,
        description=description,
        solution=lang.strip_comments(native.program),
        entry_point=native.entry_point,
        tests=TestSuite(kind="native", code=native.tests),
        source=native.source,
        language=native.language,
        prompt=native.prompt,
        human_bugs=bugs,
    )


def _python(data: Path, with_bugs: bool) -> list[Task]:
    """HumanEval in HumanEvalPack's Python file (HumanEval-X's Python tasks are the same 164, but its
    file has no ``entry_point``); with ``with_bugs``, each task's ``buggy_solution``."""
    path = data / "humanevalpack" / "humanevalpack_python.jsonl"
    if not path.exists():
        raise ExecIRError(f"--path {data}: {path.relative_to(data)} not found")
    tasks = load_humaneval(path, source="humanevalpack")
    if not with_bugs:
        return tasks
    bugs = {r["task_id"]: r["prompt"] + r["buggy_solution"] for r in read_jsonl(path) if r.get("buggy_solution")}
    return [_with_python_bug(task, bugs.get(task.task_id)) for task in tasks]


def _with_python_bug(task: Task, buggy: str | None) -> Task:
    if buggy is None:
        return task
    try:
        text = strip_docstrings(normalise_newlines(buggy))
        ast.parse(text)
    except SyntaxError:
        return task
    from dataclasses import replace

    return replace(task, human_bugs=(text,))
