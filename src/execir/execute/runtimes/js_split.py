"""JavaScript judged outside (see :mod:`execir.execute.split`): the plans of the record run, the
candidate's calls run and the judge run, built from trusted harness files.

* **record** (``js_codec.js`` + ``js_trusted.js`` + ``js_record.js``): the reference runs as a script
  (as the in-process runner runs programs), then the tests in a function of their own whose parameter,
  named as the entry point, is the recorder: every call the tests make, directly or through a
  variable or callback, writes its arguments' wire text; the reference's own calls of its entry point
  (recursion, helpers) call the reference and are not recorded. ``Math.random`` is a fixed-seed
  generator (the tests' random inputs are the same in every run; while the reference's entry point
  runs it draws from a second stream, so the tests' stream is the same in the judge, where the entry
  point never runs). ``console.assert`` throws. The tests may end asynchronously (promises, timers):
  the nonce is written once the event loop drained with no uncaught error.
* **calls** (``js_codec.js`` + ``js_caller.js``): the candidate's program, loaded as node would run
  the file: a script with CommonJS's names (``require``, ``module.exports``), or, when it has module
  syntax (``export``, ``import``, top-level ``await``), an ES module whose own binding of the entry
  point's name is exported under a name of the caller's. The caller decodes each recorded call,
  calls the entry point, awaits a promise, and writes the result's wire text, the arguments it
  changed (``after``), or the error it raised.
* **judge** (``js_codec.js`` + ``js_trusted.js`` + ``js_judge.js``): the reference (so ``poly``,
  ``encodeCyclic`` and ``isPrime`` are the task's) and the tests, the entry point's name bound to a
  replayer that returns the candidate's decoded values (built-in values only, see ``js_codec.js``),
  applies its changes to the arguments, and rethrows its errors as the standard error of that name.

The entry point is the job's ``entry_point`` when the reference declares it at the top level
(HumanEval-X's ``const hasCloseElements = ...``), else the reference's last top-level declaration
(HumanEvalPack's JS/114 names ``minSubarraySum`` for ``minSubArraySum``; jobs with no entry point).
No declaration: the tests stay in-process.

The record and judge runs (trusted code only) run in a warm node outside the sandbox
(``harness/js_warm.js``, :mod:`execir.execute.sandbox.trusted_runner`): each in a fresh V8 context
of that one process instead of a fresh node (about 1 ms of CPU instead of 30). The candidate's calls
run has the same command and stays in the sandbox (:func:`trusted_spec` names the drivers it takes).
"""

from __future__ import annotations

import re

from execir.execute.runtimes.base import CALLS_FILE, NEED_STATUS, RESULTS_FILE, Plan, harness_source
from execir.execute.sandbox.trusted_runner import TrustedSpec

REFERENCE = "reference.js"
TESTS = "tests.js"
PROGRAM = "program.js"
RECORDER_NAME = "execir_record.js"
JUDGE_NAME = "execir_judge.js"
CALLER_NAME = "execir_caller.js"

_PRELUDE = "'use strict';\n" + harness_source("js_codec.js")
RECORDER = _PRELUDE + harness_source("js_trusted.js") + harness_source("js_record.js")
JUDGE = _PRELUDE + harness_source("js_trusted.js") + harness_source("js_judge.js")
CALLER = _PRELUDE + harness_source("js_caller.js")
WARM = harness_source("js_warm.js")
HEAP_MB = 4096
"""The warm runner's V8 heap ceiling (``--max-old-space-size``): a run that fills it ends the runner
(the run is then UNDECIDED and the runner restarts); each run's own memory budget is checked on its
peak RSS (``harness/js_warm.js``)."""

_DECLARATION = re.compile(
    r"^(?:export\s+(?:default\s+)?)?(?:(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)|(?:const|let|var|class)\s+([A-Za-z_$][\w$]*))",
    re.MULTILINE,
)
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_RESERVED = frozenset(
    "await break case catch class const continue debugger default delete do else enum export extends false finally for function if "
    "implements import in instanceof interface let new null package private protected public return static super switch this throw "
    "true try typeof var void while with yield arguments eval".split()
)


def entry_name(reference: str, entry_point: str) -> str | None:
    """The name the tests call the entry point by, as the reference declares it at the top level
    (column 0); None when the reference declares nothing usable."""
    declared = [a or b for a, b in _DECLARATION.findall(reference)]
    names = [name for name in declared if _IDENTIFIER.fullmatch(name) and name not in _RESERVED]
    if entry_point in names:
        return entry_point
    return names[-1] if names else None


def record_plan(node: str, env: dict[str, str], reference: str, tests: str, entry_point: str) -> Plan | None:
    """The trusted record run, or None when the reference names no entry point."""
    entry = entry_name(reference, entry_point)
    if entry is None or not re.search(rf"(?<![\w$]){re.escape(entry)}(?![\w$])", tests):
        return None
    files = {REFERENCE: reference, TESTS: tests, RECORDER_NAME: RECORDER}
    return Plan(files, (node, RECORDER_NAME, entry), env=env)


def call_plan(node: str, env: dict[str, str], program: str, entry_point: str, reference: str) -> Plan:
    """The candidate's run: its program and the caller, no test, no expected value and no call it
    has not been given (they come on fd 3, one at a time)."""
    entry = entry_name(reference, entry_point) or entry_point
    files = {PROGRAM: program, CALLER_NAME: CALLER}
    return Plan(files, (node, CALLER_NAME, entry), env=env)


def judge_plan(node: str, env: dict[str, str], reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
    """The trusted judge run over the candidate's results."""
    entry = entry_name(reference, entry_point) or entry_point
    files = {REFERENCE: reference, TESTS: tests, CALLS_FILE: calls, RESULTS_FILE: results, JUDGE_NAME: JUDGE}
    return Plan(files, (node, JUDGE_NAME, entry, str(NEED_STATUS)), env=env)


def trusted_spec(node: str) -> TrustedSpec:
    """The warm runner of the record and judge plans (``node RECORDER|JUDGE ...``); the calls
    run (``node CALLER ...``: candidate code) is not its."""
    return TrustedSpec((node, f"--max-old-space-size={HEAP_MB}", "-e", WARM), (node,), scripts=(RECORDER_NAME, JUDGE_NAME))
