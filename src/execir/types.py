"""Core records shared by every stage of the pipeline.

The data flow is one direction: Task -> Mutant candidates -> Verdicts -> Dataset -> Run -> Results.
Qrels and runs use the common currency of IR toolkits (pytrec_eval, ranx, BEIR, MTEB):
``Qrels = {query_id: {doc_id: grade}}`` and ``Run = {query_id: {doc_id: score}}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Literal

Qrels = dict[str, dict[str, int]]
"""Graded relevance judgements: query id -> document id -> grade (see :class:`Relevance`)."""

Run = dict[str, dict[str, float]]
"""Retrieval scores: query id -> document id -> score (higher is better)."""


class Relevance(IntEnum):
    """Graded relevance used in every ExecIR qrels file."""

    OTHER = 0
    """A document of another task (implicit: never written to qrels files)."""
    HARD_NEGATIVE = 1
    """A same-task near clone proven by execution to fail the task's tests."""
    CORRECT = 2
    """The task's canonical solution, proven by execution to pass."""


class Verdict(str, Enum):
    """Outcome of running one program against one task's tests."""

    PASS = "PASS"
    FAIL = "FAIL"
    TIMEOUT = "TIMEOUT"
    ERROR = "ERROR"
    """The program could not be loaded (syntax error, missing entry point, compile failure)."""
    FLAKY = "FLAKY"
    """Repeated runs disagreed; scored as a failure but never used as a label."""
    UNDECIDED = "UNDECIDED"
    """The oracle could not decide (the task's own test code or reference failed, the judge broke):
    never a label, counted and shown like FLAKY."""

    @property
    def is_failure(self) -> bool:
        """True when the program verifiably does not solve the task."""
        return self in (Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR)

    @property
    def is_label(self) -> bool:
        """True when the verdict may become a relevance label (not FLAKY, not UNDECIDED)."""
        return self not in (Verdict.FLAKY, Verdict.UNDECIDED)


TestKind = Literal["check", "asserts", "stdio", "native", "probe"]
StdioCompare = Literal["exact", "tokens"]


@dataclass(frozen=True)
class StdioCase:
    """One stdin/stdout test case (LiveCodeBench style)."""

    input: str
    output: str


@dataclass(frozen=True)
class TestSuite:
    """The tests of a task, in one of three shapes.

    * ``check``: ``code`` defines ``check(candidate)`` (HumanEval); it is called with the entry point.
    * ``asserts``: ``asserts`` are standalone assert statements naming the entry point (MBPP);
      ``code`` is setup code run before them.
    * ``stdio``: ``stdio_cases`` feed stdin and compare stdout.
    * ``native``: ``code`` is test code in the program's own language (HumanEval-X / MBXP form),
      compiled and run with the program; completion is proved by a per-run nonce.
    * ``probe``: like ``native``, but ``code`` prints one marked line per probe call (its result's
      canonical text) and ``asserts`` names the probes; the verdict's per-test booleans are a
      digest of each probe's line (:func:`execir.execute.decide.decide_probe`), never a label.
    """

    __test__ = False  # not a pytest test class, despite the name

    kind: TestKind
    code: str = ""
    asserts: tuple[str, ...] = ()
    stdio_cases: tuple[StdioCase, ...] = ()
    stdio_compare: StdioCompare = "exact"
    """How stdio output is compared: ``exact`` (after the documented normalisation: CRLF, trailing
    spaces and trailing blank lines) or ``tokens`` (LiveCodeBench's judge: the whole output and each
    line stripped, the same number of lines, and a line that differs as text must equal the expected
    one as a list of decimal numbers)."""


@dataclass(frozen=True)
class Task:
    """A programming task with a canonical solution and tests.

    ``solution`` is the complete runnable program that enters the corpus: imports, helpers,
    signature and body, with the docstring removed (so no document contains its query's text).
    ``description`` is the natural-language query text (docstring prose without code examples).
    """

    task_id: str
    description: str
    solution: str
    entry_point: str
    tests: TestSuite
    source: str
    language: str = "python"
    prompt: str = ""
    """The original prompt as published (signature + docstring for HumanEval), kept for provenance."""
    problem: str = ""
    """The problem this task states, shared by its versions in other languages (``HumanEval/12`` for
    ``CPP/12``); empty means the task id."""
    human_bugs: tuple[str, ...] = ()
    """Human-written buggy programs for the same tests (HumanEvalPack's ``buggy_solution``), in the
    same form as ``solution``; each enters the pool as ``kind: human`` once verified to fail."""


def problem_of(task: Task) -> str:
    """The problem a task states (its id when the loader gave none)."""
    return task.problem or task.task_id


@dataclass(frozen=True)
class Edit:
    """A single textual edit, located in the canonical solution (1-based line, 0-based column)."""

    line: int
    col: int
    before: str
    after: str


@dataclass(frozen=True)
class Mutant:
    """A single-edit variant of a task's canonical solution."""

    task_id: str
    operator: str
    edit: Edit
    text: str
    edit_distance: int
    """Token-level Levenshtein distance from the canonical solution."""
    kind: str = "mutant"
    """``mutant`` (one mechanical edit by ``operator``) or ``human`` (a human-written bug; ``edit``
    then spans the first to the last changed character)."""


@dataclass(frozen=True)
class ExcludedTask:
    """A task left out of a benchmark, with the reason (reported in the manifest)."""

    task_id: str
    reason: str


@dataclass(frozen=True)
class SourceLocation:
    """Where a bad input record sits, for error messages."""

    path: str
    line: int
    field: str | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        return f"{where}: field '{self.field}'" if self.field else where
