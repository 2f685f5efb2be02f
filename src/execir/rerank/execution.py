"""The execution-aware reranker (``exec``): run every candidate on the examples its query shows.

For each query, :func:`execir.rerank.examples.extract_examples` reads the examples its *text*
carries (never the hidden tests). Each candidate program is run on them by the project's oracle
(sandboxed, verdict-cached, all queries' candidates in one parallel batch). The order, as scores:

1. Candidates that pass every example come first (score in ``(1, 2)``).
2. Among those, **agreement** (``exec``; off in ``exec:plain``): when two or more pass, each is run
   on probe inputs derived from the examples (:mod:`execir.rerank.agreement`) and candidates that
   behave alike form a group; a larger group ranks first (score ``1 + size / (passing + 1)``):
   correct programs agree with each other, each near-clone errs its own way. Equal sizes, and
   candidates within a group, keep the previous stage's order.
3. Then candidates that fail, by the **share of examples they pass** (``exec``; ``exec:plain``
   scores them all 0.0): a prompt's examples are sometimes wrong, and the correct program still
   passes the others. Only a failure the tests decided counts; a protocol violation, an exit or a
   load failure scores 0.0. A native test program (below) stops at its first failing example, so
   where no candidate of a query passes every example, each native candidate that failed them is
   run again on each example alone (:func:`plan_partial`) and scores the share it passed.

A query without usable examples scores all its candidates 0.0, so a chain keeps the previous order
there. ``exec:plain`` is the two-group reranker: pass every example (1.0) or not (0.0).

How a candidate is run:

* **Call examples** (doctests, inline ``f(x) == y``, MBPP asserts) run Python candidates as an
  ``asserts`` suite judged outside the candidate's process: the judge calls the entry point the
  examples name through the oracle's proxy, which only passes exact builtin values back, and
  compares with ``_execir_same`` (:data:`SAME`): Python ``==``, except that floats compare with
  ``math.isclose(rel_tol=1e-6, abs_tol=1e-9)``, also inside lists, tuples and dict values. A list
  never equals a tuple (as with ``==``); dicts and sets compare without order because expected
  values are parsed literals, not printed text. A candidate that prints ``True``, exits, returns an
  object with a forged ``__eq__`` or patches builtins cannot pass.
* **Call examples of JavaScript, C++, Go, Java and Ruby queries** (HumanEval-X and MBXP prompts
  write them in the language's syntax, or Go's and Java's partly in Python's) run candidates of the
  query's own language as a ``native`` test program the oracle runs like the dataset's own tests:
  JavaScript, C++ and Ruby write the examples' own literals (:mod:`execir.rerank.native_calls`), Go
  and Java type them by each candidate's signature of the entry point
  (:mod:`execir.rerank.typed_calls`). Passing means every example holds; partial credit comes from
  one-example runs (point 3); agreement runs the same probes as a native ``probe`` program whose
  printed canonical values the oracle reduces to a digest (:mod:`execir.rerank.native_probes`).
* **Sample input/output** runs candidates of any language the oracle runs stdio programs in
  (:data:`STDIO_LANGUAGES`) and compares stdout as LiveCodeBench does (``stdio_compare="tokens"``).
  Python candidates of a ``livecodebench`` request get LiveCodeBench's import prelude, as the
  build ran them.

Not executed (scored 0.0 and counted): documents that are not programs (a task whose documents are
text, e.g. ``c2t``), and candidates whose language has no runner for the query's examples (call
examples run Python, and JavaScript, C++, Go, Java and Ruby in their own queries' language; a
stdio language whose toolchain is not installed), and candidates of call examples whose text
never names the function the examples call (:func:`names_entry_point`:
they cannot define it, so they fail the examples without being run), unless *no* candidate of the
query names it: the examples then misname the function (HumanEval/149's examples call
``list_sort`` for ``sorted_list_sum``; HumanEval-X's C++ names ``filp_case`` what its examples
call ``flip_case``), and each Python, JavaScript, C++, Go, Java or Ruby candidate is run with the
examples calling its own last top-level function (:func:`main_function`). A candidate whose
language the request does not give is taken as its query's language, else as Python (a program in
another language then fails to compile: 0.0).
"""

from __future__ import annotations

import ast
import importlib
import re
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from execir.errors import ExecIRError
from execir.execute import ExecResult, Job, Oracle, OracleConfig
from execir.execute.decide import failed_by_tests
from execir.execute.runtimes.base import ToolchainMissing
from execir.languages import LANGUAGE_MODULES, get_language
from execir.rerank.agreement import agreement_scores, plan_probes, probe_counts
from execir.rerank.base import RerankRequest, RerankStats
from execir.rerank.examples import SYNTAXES, Examples, extract_examples
from execir.rerank.native_calls import NATIVE_CALL_LANGUAGES, NativeSuite, native_suite
from execir.rerank.native_probes import PROBE_LANGUAGES
from execir.rerank.planned import CALL_LIMITS, PlannedRun
from execir.rerank.probes import BITS, PROBES
from execir.rerank.typed_calls import TYPED_CALL_LANGUAGES, signature, typed_suite
from execir.tasks.livecodebench import candidate_program, lcb_limits
from execir.types import Task, TestSuite, Verdict

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec

NATIVE_LANGUAGES = NATIVE_CALL_LANGUAGES | TYPED_CALL_LANGUAGES
"""Languages whose candidates run call examples read in their own syntax, as a native test program."""
CALL_LANGUAGES = frozenset({"python"}) | NATIVE_LANGUAGES
"""Languages whose candidates run call examples (Python through the judge, others natively)."""
STDIO_LANGUAGES = frozenset({"python", "cpp", "java", "go", "js", "ruby"})
_KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "return", "function", "else"})
RESERVED_PREFIX = "_execir_"
"""Names the comparison helper uses in the judge; an entry point with this prefix is not run."""
BELOW_PASS = 0.99
"""The most a candidate that failed its examples together can score (a share of them): never a pass's 1.0."""

SAME = (
    "import math as _execir_math\n"
    "\n"
    "\n"
    "def _execir_same(got, expected):\n"
    '    """Python == with math.isclose(rel_tol=1e-6, abs_tol=1e-9) for floats, also inside lists,\n'
    '    tuples and dict values (a list never equals a tuple)."""\n'
    "    numbers = (int, float)\n"
    "    if isinstance(got, numbers) and isinstance(expected, numbers) and (type(got) is float or type(expected) is float):\n"
    "        return _execir_math.isclose(got, expected, rel_tol=1e-6, abs_tol=1e-9)\n"
    "    if (type(got) is list and type(expected) is list) or (type(got) is tuple and type(expected) is tuple):\n"
    "        return len(got) == len(expected) and all(_execir_same(g, e) for g, e in zip(got, expected))\n"
    "    if type(got) is dict and type(expected) is dict:\n"
    "        return got.keys() == expected.keys() and all(_execir_same(got[k], expected[k]) for k in expected)\n"
    "    return got == expected\n"
)
"""Setup code of every call-example suite; runs in the judge on decoded builtin values only."""


@dataclass(frozen=True)
class Plan:
    """The runs of one request and what was left out, by reason."""

    runs: tuple[PlannedRun, ...]
    not_programs: int
    no_runner: Counter[str]
    """Candidates not run because their language has no runner for the query's examples, by language."""
    without_entry_point: int = 0
    """Candidates not run because their text never names the function the call examples call."""
    renamed: int = 0
    """Candidates run with the examples calling their own function (no candidate named the examples')."""
    unwritten: int = 0
    """Call examples of native-syntax queries their language cannot write as a literal (once per query and language)."""


def names_entry_point(program: str, entry_point: str) -> bool:
    """True when ``program`` contains ``entry_point`` as a whole identifier. A program that never
    names the function its query's examples call cannot define it (short of building the name at
    run time), so it fails them without being run; at depth 100 this spares running the other
    problems' programs."""
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(entry_point)}(?![A-Za-z0-9_])", program) is not None


def main_function(program: str, language: str = "python") -> str | None:
    """The name of a program's last top-level function (the one a prompt asks for comes after its
    helpers), or None when it defines none or does not parse. Python: the last top-level ``def``;
    JavaScript, C++, Go and Ruby: the last function its unindented lines open (the language's own
    ``entry_point`` reader, as for prompts; control keywords are never names); Java: the last
    method the program opens (methods are indented inside their class)."""
    if language in NATIVE_LANGUAGES:
        opens = importlib.import_module(LANGUAGE_MODULES[language][0]).entry_point
        code = _code_only(program, language).splitlines()  # a comment's example is no declaration
        lines = code if language == "java" else [line for line in code if line[:1] not in (" ", "\t")]
        name = opens("\n".join(lines))
        return name if isinstance(name, str) and name not in _KEYWORDS and not name.startswith(RESERVED_PREFIX) else None
    try:
        tree = ast.parse(program)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    names = [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    names = [name for name in names if not name.startswith(RESERVED_PREFIX)]
    return names[-1] if names else None


def call_suite(examples: Examples) -> TestSuite:
    """The ``asserts`` suite of a query's call examples, judged outside the candidate."""
    asserts = tuple(f"assert _execir_same({example.call}, {example.expected})" for example in examples.calls)
    return TestSuite(kind="asserts", code=SAME, asserts=asserts)


def stdio_suite(examples: Examples) -> TestSuite:
    """The ``stdio`` suite of a query's sample input/output, compared as LiveCodeBench does."""
    return TestSuite(kind="stdio", stdio_cases=examples.stdio, stdio_compare="tokens")


def candidate_job(examples: Examples, program: str, language: str, source: str) -> Job | None:
    """The job that runs ``program`` on the examples, or None when its language has no runner for them.
    Python candidates run call examples read as Python; a JavaScript, C++, Go, Java or Ruby
    candidate runs those read in its own language's syntax (Go and Java: typed by its signature;
    None when none of them can be written for it)."""
    if examples.calls and language == "python" and examples.language not in SYNTAXES and not examples.entry_point.startswith(RESERVED_PREFIX):
        return Job(program, call_suite(examples), examples.entry_point, CALL_LIMITS, language=language)
    if examples.calls and language in NATIVE_LANGUAGES and examples.language == language:
        native = native_calls_suite(examples, language, program)
        if native is not None:
            return Job(program, native.suite, examples.entry_point, CALL_LIMITS, language=language)
    if examples.stdio and language in STDIO_LANGUAGES:
        suite = stdio_suite(examples)
        if language == "python" and source == "livecodebench":
            program = candidate_program(Task("examples", "", "", "", suite, source), program)
        return Job(program, suite, "", lcb_limits(), language=language)
    return None


def native_calls_suite(examples: Examples, language: str, program: str) -> NativeSuite | None:
    """The native test program of a query's call examples for one candidate: JavaScript, C++ and
    Ruby write the examples' own literals; Go and Java type them by the candidate's signature of the
    entry point (None when it declares none this can read)."""
    if language in NATIVE_CALL_LANGUAGES:
        return native_suite(examples.calls, language)
    declared = signature(program, language, examples.entry_point)
    return typed_suite(examples.calls, language, declared) if declared is not None else None


def plan_runs(request: RerankRequest, examples: Mapping[str, Examples], *, programs: bool = True) -> Plan:
    """Every (query, candidate) run of ``request`` (pure); ``programs`` False when documents are text."""
    runs: list[PlannedRun] = []
    not_programs = 0
    unnamed = renamed = unwritten = 0
    no_runner: Counter[str] = Counter()
    for query_id in request.queries:
        candidates = request.candidates.get(query_id, ())
        if not programs:
            not_programs += len(candidates)
            continue
        found = examples.get(query_id, Examples())
        if not found.count:
            continue
        default = request.query_language.get(query_id) or "python"
        for doc_id in candidates:
            if doc_id not in request.documents:
                raise ExecIRError(f"exec reranker: candidate {doc_id!r} of query {query_id!r} has no document text")
        language_of = {doc_id: request.doc_language.get(doc_id) or default for doc_id in candidates}
        native = [] if not found.calls or found.language not in NATIVE_LANGUAGES else [d for d in candidates if language_of[d] == found.language]
        named = {d: _declares(request.documents[d], found.entry_point, language_of[d]) for d in candidates if found.calls and language_of[d] in CALL_LANGUAGES}
        misnamed = bool(named) and not any(named.values())
        if native:
            unwritten += _unwritten(found, [request.documents[d] for d in native], misnamed)
        for doc_id in candidates:
            language, program, used = language_of[doc_id], request.documents[doc_id], found
            if not named.get(doc_id, True):
                own = main_function(program, language) if misnamed else None
                if own is None:
                    unnamed += 1
                    continue
                used = found.renamed(own)
                renamed += 1
            job = candidate_job(used, program, language, request.source)
            if job is None:
                no_runner[language] += 1
            else:
                runs.append(PlannedRun(query_id, doc_id, language, job, used))
    return Plan(tuple(runs), not_programs, no_runner, unnamed, renamed, unwritten)


def _declares(program: str, entry_point: str, language: str) -> bool:
    """Whether ``program`` may define ``entry_point``. A prompt's comments name the examples'
    function even where the code calls it otherwise (HumanEval-X's C++ examples call
    ``incr_vector`` for ``incr_list``), so Go and Java programs must declare it and JavaScript, C++
    and Ruby programs must name it outside their comments; Python programs must name it
    (:func:`names_entry_point`)."""
    if language in TYPED_CALL_LANGUAGES:
        return signature(program, language, entry_point) is not None
    if language in NATIVE_CALL_LANGUAGES:
        return names_entry_point(_code_only(program, language), entry_point)
    return names_entry_point(program, entry_point)


@lru_cache(maxsize=4096)
def _code_only(program: str, language: str) -> str:
    """``program`` without its comments (the language's own reader)."""
    return get_language(language).strip_comments(program)


def _unwritten(examples: Examples, programs: Sequence[str], misnamed: bool) -> int:
    """How many of a query's native call examples cannot be written: with the types of the first
    candidate that declares the function (Go, Java; for misnamed examples, its own last function);
    all of them when no candidate declares one."""
    for program in programs:
        used = examples
        if misnamed:
            own = main_function(program, examples.language)
            if own is None:
                continue
            used = examples.renamed(own)
        if used.language in NATIVE_CALL_LANGUAGES or signature(program, used.language, used.entry_point) is not None:
            written = native_calls_suite(used, used.language, program)
            return len(used.calls) if written is None else written.dropped
    return len(examples.calls)


def scores_from(
    request: RerankRequest, runs: Sequence[PlannedRun], results: Sequence[ExecResult | None], *, partial: bool = False
) -> dict[str, dict[str, float]]:
    """1.0 for a candidate whose run passed; with ``partial``, a candidate its tests failed scores
    the share of examples it passed (below 1.0); 0.0 for every other candidate of every query (pure)."""
    scores = {query_id: dict.fromkeys(request.candidates.get(query_id, ()), 0.0) for query_id in request.queries}
    for run, result in zip(runs, results):
        if result is None:
            continue
        if result.verdict is Verdict.PASS:
            scores[run.query_id][run.doc_id] = 1.0
        elif partial and result.per_test and failed_by_tests(result.verdict, result.detail):
            scores[run.query_id][run.doc_id] = min(result.per_test.count(True) / len(result.per_test), BELOW_PASS)
    return scores


def plan_partial(runs: Sequence[PlannedRun], results: Sequence[ExecResult | None], source: str) -> tuple[PlannedRun, ...]:
    """One run per example for every native candidate that failed its query's examples, in queries
    where no candidate passed them all (pure). A native test program stops at its first failing
    example and reports nothing the host could trust about the others, so the share of examples a
    candidate passes comes from running each example alone; an example its language cannot write
    for the candidate has no run. Only a FAIL is split: a program that does not compile passes no
    example alone either, and one that ran out of time is not run again (each run could spend the
    whole budget); a query with one example has nothing to split."""
    by_query: dict[str, list[tuple[PlannedRun, ExecResult | None]]] = {}
    for run, result in zip(runs, results):
        by_query.setdefault(run.query_id, []).append((run, result))
    planned: list[PlannedRun] = []
    for query_id, pairs in by_query.items():
        if any(result is not None and result.verdict is Verdict.PASS for _, result in pairs):
            continue
        for run, result in pairs:
            if run.job.tests.kind != "native" or result is None or result.verdict is not Verdict.FAIL or len(run.examples.calls) < 2:
                continue
            for call in run.examples.calls:
                alone = replace(run.examples, calls=(call,), stdio=())
                job = candidate_job(alone, run.job.program, run.language, source)
                if job is not None:
                    planned.append(PlannedRun(query_id, run.doc_id, run.language, job, alone))
    return tuple(planned)


def partial_scores(runs: Sequence[PlannedRun], results: Sequence[ExecResult]) -> dict[str, dict[str, float]]:
    """query id -> candidate -> the share of its one-example runs that passed, below 1.0 (a
    candidate that failed the examples together never ties one that passed them); candidates that
    passed none are left out (they keep 0.0) (pure)."""
    tally: dict[str, dict[str, list[int]]] = {}
    for run, result in zip(runs, results):
        counts = tally.setdefault(run.query_id, {}).setdefault(run.doc_id, [0, 0])
        counts[0] += result.verdict is Verdict.PASS
        counts[1] += 1
    return {
        query_id: {doc: min(passed / total, BELOW_PASS) for doc, (passed, total) in docs.items() if passed}
        for query_id, docs in tally.items()
    }


@dataclass(frozen=True)
class Executed:
    """What one request's runs gave."""

    results: list[ExecResult | None]
    """In the order of the planned runs; None where the language's toolchain is missing."""
    cache_hits: int
    missing: Counter[str]
    """Runs left out for a missing toolchain, by language."""
    probes: tuple[PlannedRun, ...]
    probed: list[ExecResult]
    partial: tuple[PlannedRun, ...]
    """One-example runs of native candidates (:func:`plan_partial`)."""
    partial_results: list[ExecResult]


class ExecReranker:
    """Orders candidates by the examples their query's text shows (see the module docstring);
    ``plain`` keeps only the two groups: pass every example (1.0) or not (0.0)."""

    def __init__(self, oracle: OracleConfig, *, progress: bool = True, plain: bool = False) -> None:
        self.oracle = oracle
        self.progress = progress
        self.plain = plain
        self.name = "exec:plain" if plain else "exec"
        self._task: TaskSpec | None = None
        self._stats = RerankStats(0, 0, 0.0)

    def use_task(self, task: TaskSpec | None) -> None:
        """Remember the folder's task: documents that are text (``c2t``) are never run."""
        self._task = task

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        """query id -> candidate id -> 1.0 (passes every example) or 0.0."""
        start = time.perf_counter()
        examples = {query_id: extract_examples(text, request.query_language.get(query_id) or "python") for query_id, text in request.queries.items()}
        programs = self._task is None or self._task.document_kind == "code"
        plan = plan_runs(request, examples, programs=programs)
        done = self._execute(plan.runs, examples, request.source)
        scores = scores_from(request, plan.runs, done.results, partial=not self.plain)
        for query_id, shares in partial_scores(done.partial, done.partial_results).items():
            scores[query_id].update(shares)
        for query_id, agreed in agreement_scores(done.probes, done.probed).items():
            scores[query_id].update(agreed)
        counts = _counts(request, examples, plan, done.results, done.missing)
        counts.update(probe_counts(done.probes, done.probed))
        counts["queries_partial"] = len({run.query_id for run in done.partial})
        counts["candidates_partial"] = len({(run.query_id, run.doc_id) for run in done.partial})
        counts["partial_runs"] = len(done.partial)
        counts["cache_hits"] = done.cache_hits
        pairs = sum(len(v) for v in scores.values())
        acted_on = frozenset(q for q in request.queries if examples[q].count) if programs else frozenset()
        self._stats = RerankStats(len(scores), pairs, round(time.perf_counter() - start, 3), counts, acted_on)
        return scores

    def _execute(self, runs: Sequence[PlannedRun], examples: Mapping[str, Examples], source: str) -> Executed:
        """Every run of the request, with the probe runs and the one-example runs they call for
        (neither for ``plain``)."""
        if not runs:
            return Executed([], 0, Counter(), (), [], (), [])
        config = replace(self.oracle, progress=self.oracle.progress and self.progress)
        with Oracle(config) as oracle:
            usable = {language: _has_toolchain(oracle, language) for language in sorted({r.language for r in runs})}
            todo = [run for run in runs if usable[run.language]]
            done = iter(oracle.run([run.job for run in todo], desc="exec rerank"))
            results = [next(done) if usable[run.language] else None for run in runs]
            probes = () if self.plain else plan_probes(runs, results, examples)
            probed = oracle.run([run.job for run in probes], desc="exec probes") if probes else []
            partial = () if self.plain else plan_partial(runs, results, source)
            partial_results = oracle.run([run.job for run in partial], desc="exec one example each") if partial else []
            cache_hits = oracle.stats["cached"]
        missing = Counter(run.language for run in runs if not usable[run.language])
        return Executed(results, cache_hits, missing, probes, probed, partial, partial_results)

    def stats(self) -> RerankStats:
        """Counts of the last :meth:`score` call (see :func:`_counts` for the ``extra`` keys)."""
        return self._stats

    def config(self) -> dict[str, object]:
        """The reranker's identity for ``results.json``."""
        return {
            "name": self.name,
            "order": "pass/fail" if self.plain else "pass, then agreement on probes; fail, by the share of examples passed",
            **({} if self.plain else {"probes": PROBES, "probe_bits": BITS, "native_probe_languages": sorted(PROBE_LANGUAGES)}),
            "call_limits": {"cpu_seconds": CALL_LIMITS.cpu_seconds, "wall_seconds": CALL_LIMITS.wall_seconds},
            "stdio_limits": {"cpu_seconds": lcb_limits().cpu_seconds, "wall_seconds": lcb_limits().wall_seconds},
            "float_tolerance": {"rel": 1e-6, "abs": 1e-9},
            "stdio_compare": "tokens",
            "isolation": self.oracle.isolation,
            "workers": self.oracle.workers,
        }


def _has_toolchain(oracle: Oracle, language: str) -> bool:
    if language == "python":
        return True
    try:
        oracle.toolchain(language)
    except ToolchainMissing:
        return False
    return True


def _counts(
    request: RerankRequest, examples: Mapping[str, Examples], plan: Plan, results: Sequence[ExecResult | None], missing: Counter[str]
) -> dict[str, float]:
    """``extra`` of the stats: queries, queries_with_examples (and by shape), examples, examples_skipped,
    candidates, candidates_executed, candidates_passing, candidates_no_runner, verdict counts and
    per-language executed/passing counts."""
    found = [examples[q] for q in request.queries]
    counts: dict[str, float] = {
        "queries": len(found),
        "queries_with_examples": sum(1 for e in found if e.count),
        "queries_with_call_examples": sum(1 for e in found if e.calls),
        "queries_with_stdio_examples": sum(1 for e in found if e.stdio),
        "examples": sum(e.count for e in found),
        "examples_skipped": sum(e.skipped for e in found),
        "candidates": sum(len(request.candidates.get(q, ())) for q in request.queries),
        "candidates_executed": sum(1 for r in results if r is not None),
        "candidates_passing": sum(1 for r in results if r is not None and r.verdict is Verdict.PASS),
        "candidates_not_programs": plan.not_programs,
        "candidates_no_runner": sum(plan.no_runner.values()) + sum(missing.values()),
        "candidates_without_entry_point": plan.without_entry_point,
        "candidates_renamed": plan.renamed,
        "examples_unwritten": plan.unwritten,
    }
    for run, result in zip(plan.runs, results):
        if result is not None:
            counts[f"executed_{run.language}"] = counts.get(f"executed_{run.language}", 0) + 1
            counts[f"passing_{run.language}"] = counts.get(f"passing_{run.language}", 0) + (result.verdict is Verdict.PASS)
            key = f"verdict_{result.verdict.value.lower()}"
            counts[key] = counts.get(key, 0) + 1
    for language, number in (plan.no_runner + missing).items():
        counts[f"no_runner_{language}"] = number
    return counts
