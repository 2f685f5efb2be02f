"""Records of the execute stage: a job, its result, and a canonical's admission."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from execir.execute.limits import Limits
from execir.types import TestSuite, Verdict

ORACLE_VERSION = "execir-oracle/8"
"""2: the sandbox wipes all of its /tmp between runs (1 let a file in /tmp outlive its run).
3: a candidate's StopIteration no longer ends the judge's ``map``/``zip`` iteration (a false PASS);
the server is not dumpable and resists same-uid tampering (memory, rlimits, SIGINT, SysV IPC) that
reached later candidates in the slot; an over-long int literal in a reply is a protocol violation.
4: calls keep one-process semantics (aliasing and in-place mutation mirrored both ways, exception
classes rebuilt by hierarchy, exits end the job as FAIL, iterators/generators, Fraction, Decimal,
dates, ranges, any nesting depth); the judge's decoding is charged to the candidate's CPU budget;
stdio programs finish as ``python3 prog.py`` does (threads joined, atexit, exit()/quit(), the whole
process tree waited for); the per-run wipe reaches every depth and is verified; ERROR only from the
host's compile check; UNDECIDED when the task's own test code fails; no AF_UNIX sockets outside bwrap.
7: native tests are judged outside the candidate's process (record, calls, trusted judge:
:mod:`execir.execute.split`) wherever the runtime can split them.
8: judged outside, each call reaches the candidate only once the previous result is in (no calls
file); C++ exceptions cross by their standard class, what() and thrown numbers' values; the C++
caller is compiled before the program (no macro of the program reaches it); the entry point is taken
from the reference and the tests where the caller names none or a wrong one (Go, Ruby, PHP, Rust);
a result decided in-process says why; stdin reaches the sandbox as a sealed memfd."""


JUDGED_OUTSIDE = "judged-outside"
IN_PROCESS = "in-process"
LABEL_INTEGRITY = {
    JUDGED_OUTSIDE: "the candidate never sees the tests or expected values; a trusted judge decides outside the sandbox",
    IN_PROCESS: "the tests run in the candidate's process (language-native test code) in a separate file or translation unit where "
    "the language allows, and must write a per-run nonce after the last check; exits before it are FAIL. A program written "
    "to forge that record (it can read its own environment and memory) or to patch the test code at run time is not stopped.",
}
"""What each test protocol guarantees, recorded in reliability reports and dataset manifests."""


@dataclass(frozen=True)
class Job:
    """One candidate program to run against a task's tests.

    ``program`` is the full source text of the candidate module. ``reference`` is the canonical
    program; the judge execs it (never the candidate) for helpers the tests call.
    """

    program: str
    tests: TestSuite
    entry_point: str
    limits: Limits
    reference: str = ""
    language: str = "python"
    """``python`` (the judge's proxy or stdio) or another language of :mod:`execir.execute.runtimes`:
    ``tests`` is then ``native`` (the language's own test code in ``code``) or ``stdio``."""

    def cache_key(self, isolation: str, toolchain: str = "") -> str:
        """Everything that can change the verdict, hashed (``toolchain``: the compiler or
        interpreter version of a non-Python language)."""
        parts = {
            "language": self.language,
            "toolchain": toolchain,
            "program": _sha(self.program),
            "tests": tests_hash(self.tests),
            "reference": _sha(self.reference),
            "entry_point": self.entry_point,
            "limits": self.limits.key(),
            "oracle": ORACLE_VERSION,
            "isolation": isolation,
        }
        return _sha(json.dumps(parts, sort_keys=True))


@dataclass(frozen=True)
class ExecResult:
    """The verdict of one job. ``seconds`` is CPU seconds of the candidate's whole process tree."""

    verdict: Verdict
    seconds: float
    wall_seconds: float
    per_test: tuple[bool, ...] | None
    detail: str
    stderr_tail: str
    isolation: str
    cached: bool = False
    protocol: str = JUDGED_OUTSIDE
    """How the tests ran: :data:`JUDGED_OUTSIDE` (a trusted judge compares outside the sandbox) or
    :data:`IN_PROCESS` (language-native tests beside the candidate, completion proved by a nonce)."""
    compile_seconds: float = 0.0
    """CPU seconds of the compile step (languages with one); not part of ``seconds``."""


@dataclass(frozen=True)
class Admission:
    """Whether a canonical passed every repeat, and the limits derived from its CPU time."""

    ok: bool
    cpu_seconds: float
    limits: Limits
    reason: str
    results: tuple[ExecResult, ...]


def tests_hash(tests: TestSuite) -> str:
    """Content hash of a test suite."""
    body = {
        "kind": tests.kind,
        "code": tests.code,
        "asserts": list(tests.asserts),
        "stdio": [[c.input, c.output] for c in tests.stdio_cases],
    }
    if tests.stdio_compare != "exact":  # keys of every earlier suite stay as they were
        body["stdio_compare"] = tests.stdio_compare
    return _sha(json.dumps(body, sort_keys=True))


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
