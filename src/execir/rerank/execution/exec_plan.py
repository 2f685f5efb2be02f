"""Which candidates the ``exec`` reranker runs on a query's examples, and how (pure planning).

How a candidate is run:

* **Call examples** (doctests, inline ``f(x) == y``, MBPP asserts) run Python candidates as an
  ``asserts`` suite judged outside the candidate's process: the judge calls the entry point the
  examples name through the oracle's proxy, which only passes exact builtin values back, and
  compares with ``_execir_same`` (:data:`SAME`): Python ``==``, except that floats compare with
  ``math.isclose(rel_tol=1e-6, abs_tol=1e-9)``, also inside lists, tuples and dict values. A list
  never equals a tuple (as with ``==``); dicts and sets compare without order because expected
  values are parsed literals, not printed text. A candidate that prints ``True``, exits, returns an
  object with a forged ``__eq__`` or patches builtins cannot pass.
* **Call examples of JavaScript, C++, Go, Java, Ruby and Rust queries** (HumanEval-X and MBXP prompts
  write them in the language's syntax, or Go's and Java's partly in Python's) run candidates of the
  query's own language as a ``native`` test program the oracle runs like the dataset's own tests:
  JavaScript, C++ and Ruby write the examples' own literals (:mod:`execir.rerank.execution.native_calls`), Go,
  Java and Rust (examples from its doc comments' ``assert_eq!`` lines, :mod:`execir.rerank.execution.rust_doctests`)
  type them by each candidate's signature of the entry point (:mod:`execir.rerank.execution.typed_calls`).
  Passing means every example holds; partial credit comes from
  one-example runs (point 3); agreement runs the same probes as a native ``probe`` program whose
  printed canonical values the oracle reduces to a digest (:mod:`execir.rerank.execution.native_probes`).
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
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from execir.errors import ExecIRError
from execir.execute import Job
from execir.language_declarations import CallForm, calling, having, is_host_language
from execir.languages import LANGUAGE_MODULES, get_language
from execir.rerank.base import RerankRequest
from execir.rerank.execution.examples import SYNTAXES, Examples
from execir.rerank.execution.native_calls import NATIVE_CALL_LANGUAGES, NativeSuite, native_suite
from execir.rerank.execution.planned import CALL_LIMITS, PlannedRun
from execir.rerank.execution.typed_calls import TYPED_CALL_LANGUAGES, signature, typed_suite
from execir.rerank.execution.writers import writer_of
from execir.tasks.livecodebench import lcb_limits
from execir.tasks.registry import runnable_program
from execir.types import Task, TestSuite

NATIVE_LANGUAGES = NATIVE_CALL_LANGUAGES | TYPED_CALL_LANGUAGES
"""Languages whose candidates run call examples read in their own syntax, as a native test program."""
CALL_LANGUAGES = calling(CallForm.PYTHON) | NATIVE_LANGUAGES
"""Languages whose candidates run call examples (Python through the judge, others natively)."""
STDIO_LANGUAGES = having("stdio")
_KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "return", "function", "else"})
RESERVED_PREFIX = "_execir_"
"""Names the comparison helper uses in the judge; an entry point with this prefix is not run."""

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
        writer = writer_of(language)
        lines = code if writer is not None and writer.methods_indented else [line for line in code if line[:1] not in (" ", "\t")]
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
    if examples.calls and is_host_language(language) and examples.language not in SYNTAXES and not examples.entry_point.startswith(RESERVED_PREFIX):
        return Job(program, call_suite(examples), examples.entry_point, CALL_LIMITS, language=language)
    if examples.calls and language in NATIVE_LANGUAGES and examples.language == language:
        native = native_calls_suite(examples, language, program)
        if native is not None:
            return Job(program, native.suite, examples.entry_point, CALL_LIMITS, language=language)
    if examples.stdio and language in STDIO_LANGUAGES:
        suite = stdio_suite(examples)
        program = runnable_program(Task("examples", "", "", "", suite, source, language=language), program)
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
