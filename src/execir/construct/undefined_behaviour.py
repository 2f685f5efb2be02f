"""Hard negatives whose failure does not hang on undefined behaviour (C++).

A C++ mutant that leaves a loop and flows off the end of a non-void function, or reads one past
the end of a vector, fails our tests by chance: the value it returns is whatever the registers or
the heap hold, and the reference harness (another compiler, other flags) may see the right one
(two HumanEval-X C++ /39 mutants pass the official tests that way). Such a mutant is no hard
negative. The probe says whether a failing mutant's run reaches undefined behaviour of two kinds
before any test fails:

* flowing off the end of a non-void function: a call to ``execir_ub_reached()`` is inserted before
  the closing brace of every non-void function's body (``main`` returns 0 there and is left alone);
* a precondition libstdc++ checks under ``_GLIBCXX_ASSERTIONS`` (an index out of range,
  ``front``/``back``/``pop_back`` of an empty container), routed to the same call.

The probe program is ``harness/cpp_ub_probe.h``, HumanEval-X's prelude, the instrumented program
and the task's tests, run in the sandbox through the oracle as a stdio job whose expected output is
:data:`MARK`: the call writes the mark and ends the run with status 0, so PASS means the mark was
reached (before a failing assert ended the run) and anything else means it was not. A mutant is
rejected when its probe PASSes and its canonical's does not (a canonical that reaches the mark
itself leaves the probe unable to tell; its task is listed and its mutants are kept). Languages
without undefined behaviour of this kind (Python, Java, Go, JavaScript, Ruby) are not probed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tree_sitter import Node

from execir.execute import Job, Limits, Oracle
from execir.execute.runtimes.base import harness_source
from execir.execute.runtimes.cpp import PRELUDE
from execir.language_declarations import having
from execir.languages import ParseError, get_language
from execir.languages.treesitter import Program
from execir.types import StdioCase, Task, TestSuite, Verdict

MARK = "execir-undefined-behaviour-reached\n"
"""What the probe's ``execir_ub_reached()`` writes (the header's ``mark``)."""
PROBE_HEADER = "cpp_ub_probe.h"
REACHED = "execir_ub_reached();"
PROBED_LANGUAGES = having("undefined_behaviour")


def instrument_cpp(program: str) -> str | None:
    """``program`` with :data:`REACHED` before the closing brace of every non-void function body
    (None when tree-sitter cannot parse it)."""
    try:
        parsed = get_language("cpp").parse(program)
    except ParseError:
        return None
    assert isinstance(parsed, Program)
    inserts = sorted((parsed.span(body)[1] - 1 for body in _non_void_bodies(parsed)), reverse=True)
    text = program
    for closing in inserts:
        text = text[:closing] + REACHED + text[closing:]
    return text


def _non_void_bodies(parsed: Program) -> list[Node]:
    """The bodies of function definitions that return a value (constructors, destructors, ``main``
    and ``void`` functions excluded; a ``void*`` function returns a value)."""
    bodies: list[Node] = []
    for node in parsed.walk(("function_definition",)):
        body, kind, declarator = node.child_by_field_name("body"), node.child_by_field_name("type"), node.child_by_field_name("declarator")
        if body is None or body.type != "compound_statement" or kind is None or declarator is None:
            continue
        if parsed.source(kind) == "void" and declarator.type == "function_declarator":
            continue
        name = declarator.child_by_field_name("declarator")
        if name is not None and parsed.source(name) == "main":
            continue
        bodies.append(body)
    return bodies


def probe_program(language: str, program: str, tests: str) -> str | None:
    """The probe's source for ``program`` with ``tests`` (None: the language is not probed, or the
    program cannot be instrumented)."""
    if language not in PROBED_LANGUAGES:
        return None
    instrumented = instrument_cpp(program)
    if instrumented is None:
        return None
    return harness_source(PROBE_HEADER) + PRELUDE + instrumented + "\n" + tests + "\n"


def probe_job(task: Task, limits: Limits, program: str) -> Job | None:
    """The stdio job that PASSes exactly when ``program``'s run with the task's tests reaches the mark."""
    source = probe_program(task.language, program, task.tests.code) if task.tests.kind == "native" else None
    if source is None:
        return None
    tests = TestSuite("stdio", stdio_cases=(StdioCase("", MARK),))
    return Job(source, tests, task.entry_point, limits, language=task.language)


@dataclass
class UndefinedBehaviourScreen:
    """Probes failing candidates through the oracle; remembers each task's canonical probe."""

    oracle: Oracle
    canonical_reaches: dict[str, bool] = field(default_factory=dict)
    """Task id -> its canonical's probe reached the mark (probed only when a candidate's did)."""
    probes: int = 0
    cpu_seconds: float = 0.0
    """CPU seconds of every probe run (compile excluded), for the build report."""
    compile_cpu_seconds: float = 0.0

    def reaches(self, items: Sequence[tuple[Task, Limits, str]]) -> list[bool]:
        """For each (task, limits, program): does its run reach undefined behaviour the task's
        canonical does not? Languages without a probe answer False without running anything."""
        jobs = {i: job for i, (task, limits, program) in enumerate(items) if (job := probe_job(task, limits, program)) is not None}
        found = {i: r.verdict is Verdict.PASS for i, r in zip(jobs, self._run(list(jobs.values()), "undefined-behaviour probes"))}
        tasks = {items[i][0].task_id: items[i] for i, hit in found.items() if hit and items[i][0].task_id not in self.canonical_reaches}
        canonical_jobs = [(task_id, probe_job(task, limits, task.solution)) for task_id, (task, limits, _) in tasks.items()]
        ready = [(task_id, job) for task_id, job in canonical_jobs if job is not None]
        for (task_id, _), result in zip(ready, self._run([job for _, job in ready], "undefined-behaviour probes of canonicals")):
            self.canonical_reaches[task_id] = result.verdict is Verdict.PASS
        return [found.get(i, False) and not self.canonical_reaches.get(task.task_id, True) for i, (task, _, _) in enumerate(items)]

    def _run(self, jobs: list[Job], desc: str) -> list:
        if not jobs:
            return []
        results = self.oracle.run(jobs, desc=desc)
        self.probes += len(jobs)
        self.cpu_seconds += sum(r.seconds for r in results)
        self.compile_cpu_seconds += sum(r.compile_seconds for r in results)
        return results

    def to_json(self) -> dict[str, object]:
        """The build report's account of the probes."""
        return {
            "probes_run": self.probes,
            "cpu_seconds": round(self.cpu_seconds, 3),
            "compile_cpu_seconds": round(self.compile_cpu_seconds, 3),
            "canonicals_reaching": sorted(t for t, hit in self.canonical_reaches.items() if hit),
        }
