"""Task specifications: what a query is, what a document is, and what makes a document relevant.

A benchmark build writes one dataset folder per :class:`TaskSpec` (``t2c-description``,
``t2c-full``, ``t2c-search``, ``c2t``, ``c2c``, with a language suffix per folder where a
multi-language build needs one). Every relevance grade is decided by execution or by a recorded
mechanical edit, never by hand:

* **t2c** (text to code): the query is the task's text (three subtypes, below); documents are
  programs. 2 = a program verified to pass the task's tests (canonical, semantics-preserving
  rewrites, passing user candidates), 1 = a same-task program verified to fail (mutants, human
  bugs, failing candidates), 0 = every other document.
* **c2t** (code to text): the query is a task's canonical program; documents are task
  descriptions. 2 = the task's own description, 1 = counterfactual descriptions of the same task
  (single meaning-flipping edits, or distractors a user supplies), 0 = other tasks' descriptions.
* **c2c** (code to code): the query is a canonical program (the *anchor*); documents are programs
  in every language of the build. 2 = passing programs of the same problem, 1 = verified-failing
  programs of the same problem, 0 = others. The anchor is never in its own pool: its query id *is*
  its document id, and every evaluator drops a document whose id equals the query id (BEIR's and
  MTEB's ``ignore_identical_ids``; ExecIR always does), so no tool can credit it.
* **c2c-rewrite** (code to code, asked for by name only): the same documents and grades, but the
  query is a passing program that is *not* the canonical one (a verified rewrite or a passing
  candidate), and it is dropped from its own pool the same way. The hard negatives stay the
  canonical program's mutants, so they are edits of a program the query should find, not of the
  query. In ``c2c`` every hard negative is one edit away from the query, so a model that encodes
  queries and documents differently (a query prompt, a cross-encoder) can gain exec@1 by learning
  "unlike the query" instead of "does what the query does"; ``c2c-rewrite`` gives that nothing to
  hold on to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from execir.errors import ExecIRError

Direction = Literal["t2c", "c2t", "c2c"]
DIRECTIONS: tuple[Direction, ...] = ("t2c", "c2t", "c2c")
T2C_SUBTYPES: tuple[str, ...] = ("description", "full", "search")

NL2CODE = "Given a natural language question, retrieve code that answers it"
SEARCH2CODE = "Given a short code search query, retrieve code that matches it"
CODE2TEXT = "Given a piece of code, retrieve the natural language description of what it does"
CODE2CODE = "Given a piece of code, retrieve other code that does the same thing"


@dataclass(frozen=True)
class TaskSpec:
    """One retrieval task of a benchmark: query and document kinds, relevance rules, instruction."""

    direction: Direction
    subtype: str = ""
    """t2c: ``description`` (prose only), ``full`` (the whole problem text with its examples) or
    ``search`` (a short keyword query); c2c: empty (the canonical program is the query) or
    ``rewrite`` (another passing program is); empty for c2t."""
    query_kind: Literal["text", "code"] = "text"
    document_kind: Literal["text", "code"] = "code"
    instruction: str = NL2CODE
    """The task instruction an instruct embedder gets (``Instruct: {instruction}\\nQuery:``)."""
    relevance: tuple[tuple[int, str], ...] = ()
    by_name_only: bool = False
    """Built only when ``--tasks`` names it, not for its direction or for every task."""
    queries: str = ""
    """What a query is, where the kinds alone do not say it (the dataset card prints it)."""

    @property
    def name(self) -> str:
        """Folder and task name: ``t2c-description``, ``c2t``, ``c2c``."""
        return f"{self.direction}-{self.subtype}" if self.subtype else self.direction

    def relevance_json(self) -> dict[str, str]:
        """The grades and what each means, for the manifest and the dataset card."""
        return {str(grade): meaning for grade, meaning in self.relevance}


_CODE_GRADES = (
    (2, "a program verified by execution to pass the task's tests"),
    (1, "a program of the same task verified by execution to fail its tests (mutant, human bug or failing candidate)"),
    (0, "any other document (implicit)"),
)

TASK_SPECS: dict[str, TaskSpec] = {
    spec.name: spec
    for spec in (
        TaskSpec("t2c", "description", instruction=NL2CODE, relevance=_CODE_GRADES),
        TaskSpec("t2c", "full", instruction=NL2CODE, relevance=_CODE_GRADES),
        TaskSpec("t2c", "search", instruction=SEARCH2CODE, relevance=_CODE_GRADES),
        TaskSpec(
            "c2t",
            query_kind="code",
            document_kind="text",
            instruction=CODE2TEXT,
            relevance=(
                (2, "the task's own description"),
                (1, "a counterfactual description of the same task (one meaning-flipping edit) or a user-supplied distractor"),
                (0, "other tasks' descriptions (implicit)"),
            ),
        ),
        TaskSpec("c2c", query_kind="code", document_kind="code", instruction=CODE2CODE, relevance=_CODE_GRADES),
        TaskSpec(
            "c2c",
            "rewrite",
            query_kind="code",
            document_kind="code",
            instruction=CODE2CODE,
            relevance=_CODE_GRADES,
            by_name_only=True,
            queries="a passing program that is not the task's canonical one (a verified rewrite or a passing candidate); "
            "the hard negatives are the canonical program's mutants, so none is an edit of the query",
        ),
    )
}


def parse_tasks(spec: str | None) -> tuple[TaskSpec, ...]:
    """``--tasks`` (``t2c,c2t,c2c``; ``t2c`` means its three subtypes, ``t2c-full`` one) -> specs
    in the canonical order; None means every task. A spec built by name only (``c2c-rewrite``) is
    in the result only when named."""
    if spec is None or not spec.strip():
        return tuple(s for s in TASK_SPECS.values() if not s.by_name_only)
    wanted: set[str] = set()
    for part in (p.strip() for p in spec.split(",")):
        if part in DIRECTIONS:
            wanted.update(name for name, s in TASK_SPECS.items() if s.direction == part and not s.by_name_only)
        elif part in TASK_SPECS:
            wanted.add(part)
        else:
            raise ExecIRError(f"--tasks: unknown task '{part}' (known: {', '.join(dict.fromkeys([*DIRECTIONS, *TASK_SPECS]))})")
    return tuple(s for name, s in TASK_SPECS.items() if name in wanted)


def get_spec(name: str) -> TaskSpec:
    """The spec of a folder's task name (``t2c-full``); a language suffix (``c2c-java``) is ignored."""
    for candidate in (name, name.rsplit("-", 1)[0]):
        if candidate in TASK_SPECS:
            return TASK_SPECS[candidate]
    raise ExecIRError(f"unknown task '{name}' (known: {', '.join(TASK_SPECS)})")
