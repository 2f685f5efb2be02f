"""Ruby judged outside the candidate's process (MBXP form: a top-level method, tests that raise).

Three runs, all ``ruby --disable-gems`` with one harness file each (the wire codec
``harness/ruby_wire.rb`` first, then the run's driver):

- **record** (trusted): the reference is loaded, its entry method (on ``Object``, or main's
  singleton class) is wrapped by a recorder that writes each call's argument line before calling
  the reference (calls made while the reference runs are not recorded), then the tests are loaded
  at top level. Random numbers are seeded (``srand(0)``) before the reference loads, in the judge
  too, so tests drawing them make the same calls in both. A call with a block, or arguments with
  no exact wire form (a lambda, an object of the tests' own class, a subclass of a core class, a
  cycle), stops the run: those tests stay in-process.
- **calls** (the candidate's): its syntax checked first (``harness/ruby_syntax.rb`` compiles the
  program without running it, as ``ruby -c`` does: a syntax error is an ERROR), then the caller
  requires ``set`` and ``bigdecimal`` (as the in-process runner does: Ruby >= 3.2 has ``Set``
  without a ``require``), decodes every argument line before the program loads, loads it and calls the entry point by name
  on main, once per line, writing each value with methods captured before the program ran (its
  patches of core classes change nothing); a call that changed its arguments sends their new
  contents too.
- **judge** (trusted): the reference is loaded (its helpers stay), its entry method is replaced by a
  replayer that checks the argument line, decodes the candidate's value into core classes (or
  raises the named exception: the first of its class and ancestors this process knows, with its
  message), gives mutated arguments their new contents, and the tests decide.

The record and judge runs (trusted code only) and the syntax check (the candidate's text compiled,
never run) run in a warm ``ruby`` outside the sandbox that forks a child per run
(``harness/ruby_trusted.rb``, :mod:`execir.execute.sandbox.trusted_runner`): a fork instead of an
interpreter start and a sandbox per run. The candidate's calls run stays in the sandbox.

The program and the tests are separate files loaded at top level, as one file would run them but
for two things: a local variable of the program is not visible to the tests, and the program's
``__END__`` or magic comments do not reach the tests.
"""

from __future__ import annotations

import re

from execir.execute.runtimes.base import CALLS_FILE, RESULTS_FILE, Plan, Toolchain, harness_source
from execir.execute.sandbox.trusted_runner import TrustedSpec

PROGRAM = "program.rb"
TESTS = "tests.rb"
DRIVER = "execir_driver.rb"
METHOD_NAME = re.compile(r"\A[a-z_][A-Za-z0-9_]*[?!]?\Z")

_WIRE = harness_source("ruby_wire.rb")
_ENTRY = harness_source("ruby_entry.rb")
RECORDER = _WIRE + _ENTRY + harness_source("ruby_record.rb")
CALLER = _WIRE + _ENTRY + harness_source("ruby_call.rb")
JUDGE = _WIRE + _ENTRY + harness_source("ruby_judge.rb")


TRUSTED_SERVER = harness_source("ruby_trusted.rb")
SYNTAX = harness_source("ruby_syntax.rb")


def trusted_spec(toolchain: Toolchain) -> TrustedSpec:
    """The record and judge runs in a warm ``ruby --disable-gems`` that forks a child per run."""
    ruby = toolchain.paths["ruby"]
    return TrustedSpec((ruby, "--disable-gems", "-e", TRUSTED_SERVER), (ruby, "--disable-gems"))


def _run(toolchain: Toolchain, entry_point: str) -> tuple[str, ...]:
    return (toolchain.paths["ruby"], "--disable-gems", DRIVER, entry_point)


def record_plan(toolchain: Toolchain, env: dict[str, str], reference: str, tests: str, entry_point: str) -> Plan | None:
    """The trusted record run; None when ``entry_point`` is no plain method name."""
    if not METHOD_NAME.match(entry_point):
        return None
    return Plan({PROGRAM: reference, TESTS: tests, DRIVER: RECORDER}, _run(toolchain, entry_point), (), env)


def call_plan(toolchain: Toolchain, env: dict[str, str], program: str, entry_point: str) -> Plan:
    """The candidate's run: ``program`` with the caller replaying ``calls`` (its syntax is checked
    before, by :func:`syntax_plan`)."""
    return Plan({PROGRAM: program, DRIVER: CALLER}, _run(toolchain, entry_point), (), env)


def syntax_plan(toolchain: Toolchain, env: dict[str, str], program: str) -> Plan:
    """``ruby -c``'s decision on ``program``, compiled (never run) by ``harness/ruby_syntax.rb``."""
    return Plan({PROGRAM: program, DRIVER: SYNTAX}, (toolchain.paths["ruby"], "--disable-gems", DRIVER), (), env)


def judge_plan(toolchain: Toolchain, env: dict[str, str], reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
    """The trusted judge: the reference and the tests, the entry point replaying ``results``."""
    files = {PROGRAM: reference, TESTS: tests, DRIVER: JUDGE, CALLS_FILE: calls, RESULTS_FILE: results}
    return Plan(files, _run(toolchain, entry_point), (), env)
