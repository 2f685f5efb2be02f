"""PHP judged outside the candidate's process (MBXP form: a top-level function, tests that
``throw`` when their own ``compare`` helper says a result is wrong).

Three runs, each ``php`` with the runtime's settings (:data:`execir.execute.runtimes.php.SETTINGS`)
and one driver file (the wire codec ``harness/php_wire.php`` first, loaded before any program, so
a program cannot declare a class or function of its names: PHP never redefines one):

- **record** (trusted): the reference's entry function is renamed (its declaration's name token,
  found with PHP's tokenizer; functions are matched without regard to case, as PHP calls them) and
  the reference is loaded at top level; a function of the entry's name with the reference's
  parameters (by-reference ones kept) writes each call's argument line before calling the renamed
  reference (calls made while the reference runs are not recorded), then the tests are loaded at
  top level. ``mt_srand(0)``/``srand(0)`` run first, in the judge too, and the tests'
  ``random_int`` draws from ``mt_rand``, so tests drawing random numbers make the same calls in both. Arguments with no exact wire form (an object other than a
  ``stdClass``, a closure, a resource, a cycle) or named ones stop the run: those tests stay
  in-process.
- **calls** (the candidate's): its syntax checked first as ``php -l`` decides (a syntax error is
  an ERROR): ``harness/php_syntax.php`` compiles the program with OPcache without running it
  (``php -l`` as the run's compile step where OPcache is missing); the caller decodes
  every argument line before the program loads, loads it at top level (its top-level variables are
  globals, as in one file), calls the entry function by name once per line through
  ``execir_invoke.php``, which declares ``strict_types=1`` exactly when the program does (the
  tests, in the program's file, would call it in that mode), and writes each value; a call that
  changed its (by-reference) arguments sends their new contents too.
- **judge** (trusted): the reference is loaded with its entry renamed (its helpers stay), a
  replayer of the entry's name checks the argument line, returns the candidate's value decoded
  into PHP values (or throws the exception it threw: the first of its class and parents this
  process knows, with its message), writes changed arguments back, and the tests' own ``compare``
  decides. A program that declares a function of a helper's name of the tests (``compare``) is
  not in this process: the helper is the tests'.

The record and judge runs (trusted code only) and the syntax check (the candidate's text compiled,
never run) run in warm ``php`` processes outside the sandbox that fork a child per run
(``harness/php_trusted.php``, :mod:`execir.execute.sandbox.trusted_runner`): a fork instead of an
interpreter start. Their children differ from a sandbox run in what the runner needs: ``pcntl_fork``
is not disabled and the ``posix`` extension is loaded (the syntax check's command loads ``posix`` in
the sandbox too, so both compile against the same functions), so a reference or tests declaring a
function of those names would compile differently; MBXP's declare none. OPcache's check differs
from ``php -l`` (which loads no extension) only for a program declaring a function named like one
of ``posix``'s or OPcache's.

The program and the tests are separate files loaded at top level in one global scope, as one file
would run them, but for two things: a program ending in HTML after ``?>`` does not swallow the
tests, and a program that declares the tests' helper name does not stop the file from compiling.
"""

from __future__ import annotations

import re

from execir.execute.runtimes.base import CALLS_FILE, RESULTS_FILE, Plan, harness_source
from execir.execute.runtimes.source_mask import code_mask

PROGRAM = "program.php"
TESTS = "tests.php"
DRIVER = "execir_driver.php"
INVOKE = "execir_invoke.php"
FUNCTION_NAME = re.compile(r"\A[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*\Z")
_STRICT = re.compile(
    r"\A(?:#![^\n]*\n)?<\?php\s*(?:(?://|#)[^\n]*\n\s*|/\*.*?\*/\s*)*declare\s*\(\s*strict_types\s*=\s*1\s*\)",
    re.S | re.I,
)


def body(name: str) -> str:
    """A harness file's text without its opening ``<?php`` (to append it to another)."""
    text = harness_source(name)
    if not text.startswith("<?php\n"):
        raise ValueError(f"{name} does not start with <?php")
    return text[len("<?php\n") :]


_WIRE = harness_source("php_wire.php")
RECORDER = _WIRE + body("php_entry.php") + body("php_record.php")
CALLER = _WIRE + body("php_call.php")
SYNTAX = harness_source("php_syntax.php")
JUDGE = _WIRE + body("php_entry.php") + body("php_judge.php")


def strict_types(program: str) -> bool:
    """Whether ``program`` starts with ``declare(strict_types=1)`` (after ``<?php`` and comments)."""
    return _STRICT.match(program) is not None


def invoker(program: str) -> str:
    """``execir_invoke.php``: the one call site of the entry function, in ``program``'s typing mode."""
    declare = "declare(strict_types=1);\n" if strict_types(program) else ""
    return f"<?php\n{declare}function execir_invoke(string $name, array &$args): mixed\n{{\n    return $name(...$args);\n}}\n"


_RANDOM_INT = re.compile(r"(?<![\w$>:])(\\?)random_int(\s*\()", re.IGNORECASE)


def seeded(tests: str) -> str:
    """``tests`` with their ``random_int(...)`` calls drawn from ``mt_rand`` (seeded in the record
    and judge runs; the same range, both ends included, and the same ValueError on an empty one),
    so tests drawing random arguments make the same calls in both. Only the tests' own code (never
    in a string or a comment) is rewritten; the tests are trusted code."""
    code = code_mask(tests)
    return _RANDOM_INT.sub(lambda m: m.group(1) + "mt_rand" + m.group(2) if code[m.start()] else m.group(0), tests)


def tests_file(tests: str) -> str:
    """The tests as a file of their own (MBXP's tests are PHP code without an opening tag), their
    random draws seeded (:func:`seeded`)."""
    tests = seeded(tests)
    return tests if tests.lstrip().startswith("<?php") else "<?php\n" + tests


def record_plan(php: tuple[str, ...], reference: str, tests: str, entry_point: str) -> Plan | None:
    """The trusted record run; None when ``entry_point`` is no plain function name."""
    if not FUNCTION_NAME.match(entry_point):
        return None
    return Plan({PROGRAM: reference, TESTS: tests_file(tests), DRIVER: RECORDER}, (*php, DRIVER, entry_point))


def call_plan(php: tuple[str, ...], check: tuple[str, ...], program: str, entry_point: str) -> Plan:
    """The candidate's run: ``program`` with the caller replaying ``calls`` (``check``: its compile
    step, ``php -l``; empty when :func:`syntax_plan` checks the program before)."""
    files = {PROGRAM: program, DRIVER: CALLER, INVOKE: invoker(program)}
    return Plan(files, (*php, DRIVER, entry_point), check)


def syntax_plan(php: tuple[str, ...], program: str) -> Plan:
    """``php -l``'s decision on ``program``, compiled (never run) by ``harness/php_syntax.php``
    (``php``: a command with OPcache loaded and enabled)."""
    return Plan({PROGRAM: program, DRIVER: SYNTAX}, (*php, DRIVER))


def judge_plan(php: tuple[str, ...], reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
    """The trusted judge: the reference and the tests, the entry point replaying ``results``."""
    files = {PROGRAM: reference, TESTS: tests_file(tests), DRIVER: JUDGE, CALLS_FILE: calls, RESULTS_FILE: results}
    return Plan(files, (*php, DRIVER, entry_point))
