"""Tasks in other languages with their own test code (HumanEval-X, HumanEvalPack, MBXP): one module
per language turns the public files into :class:`NativeTask` records the oracle can run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class NativeTask:
    """A task whose tests are code in the solution's own language.

    ``program`` is the complete canonical program (what enters a corpus); ``tests`` is the test code
    run with it (``TestSuite("native", tests)``); ``buggy`` is a human-written buggy program for the
    same tests where the source has one (HumanEvalPack), else None."""

    task_id: str
    language: str
    program: str
    tests: str
    source: str
    buggy: str | None = None


def shared_data() -> Path | None:
    """``../shared/data`` beside the checkout, when present (public task sets; never copied)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent.parent / "shared" / "data"
        if (parent / "pyproject.toml").exists() and candidate.is_dir():
            return candidate
    return None
