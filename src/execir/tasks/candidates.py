"""Candidate programs for known tasks (``--candidates FILE.jsonl``), e.g. samples of a code model.

One JSON object per line: ``task_id`` (str, no whitespace), ``language`` (a name of
:data:`execir.languages.LANGUAGE_MODULES`), ``code`` (the whole program, non-empty) and optionally
``source`` (where the program comes from; default: the file name's stem). Candidates are unlabelled:
the oracle labels them against their task's tests. An exact repeat of an earlier
``(task_id, language, code)`` is an error naming the repeat's line.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir.errors import ExecIRError, InputError
from execir.jsonl import iter_jsonl, require
from execir.languages import LANGUAGE_MODULES
from execir.tasks.python_task import check_task_id


@dataclass(frozen=True)
class Candidate:
    """One candidate program for a task, with the 1-based line it came from."""

    task_id: str
    language: str
    code: str
    source: str
    line: int


def load_candidates(path: Path, *, languages: Collection[str] | None = None) -> list[Candidate]:
    """The candidates of the JSONL file ``path``, in file order. ``languages`` narrows the accepted
    language names (default: every language ExecIR knows); a bad record raises an
    :class:`~execir.errors.InputError` naming the file, the line and the field."""
    allowed = set(LANGUAGE_MODULES) if languages is None else set(languages)
    unknown = sorted(allowed - set(LANGUAGE_MODULES))
    if unknown:
        raise ExecIRError(f"unknown languages {unknown}; choose among {', '.join(LANGUAGE_MODULES)}")
    seen: dict[tuple[str, str, str], int] = {}
    candidates = []
    for line, record in iter_jsonl(path):
        candidate = _candidate(record, path, line, allowed)
        key = (candidate.task_id, candidate.language, candidate.code)
        if key in seen:
            raise InputError(str(path), line, "code", f"repeats the candidate of line {seen[key]} (same task_id, language and code)")
        seen[key] = line
        candidates.append(candidate)
    return candidates


def _candidate(record: dict[str, Any], path: Path, line: int, allowed: set[str]) -> Candidate:
    task_id = check_task_id(_non_empty(record, "task_id", path, line), path, line)
    language = _non_empty(record, "language", path, line)
    if language not in allowed:
        raise InputError(str(path), line, "language", f"{language!r} is not one of {', '.join(sorted(allowed))}")
    code = _non_empty(record, "code", path, line)
    source = _non_empty(record, "source", path, line) if "source" in record else _stem(path)
    return Candidate(task_id=task_id, language=language, code=code, source=source, line=line)


def _stem(path: Path) -> str:
    """``samples`` for ``samples.jsonl`` and ``samples.jsonl.gz``."""
    return Path(path.stem).stem if path.suffix == ".gz" else path.stem


def _non_empty(record: dict[str, Any], key: str, path: Path, line: int) -> str:
    value: str = require(record, key, str, path, line)
    if not value.strip():
        raise InputError(str(path), line, key, "must not be empty")
    return value
