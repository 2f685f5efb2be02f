"""PHP (the ``php`` CLI): MBXP style tests (top-level code after the program that ``throw``\\ s
when the tests' ``compare`` helper rejects a result; mxeval runs ``php f.php``, status 0 = pass).

With the task's reference they are judged outside the candidate's process
(:mod:`execir.execute.runtimes.php_split`); without one, or when they cannot be split, they run
in-process under the trusted runner described here.

Every run is ``php -n`` (no ``php.ini``, no ``conf.d``) with explicit settings (:data:`SETTINGS`):
errors to stderr, no memory limit of PHP's own (the sandbox's limits apply), floats printed in
their shortest round-trip form (``serialize_precision=-1``, PHP's default), file access only under
the work dir (``open_basedir=.``: no ``/proc/self/mem``, ``/proc/self/environ`` or files of the
host), no URL streams, no ``dl``, and no process functions (``exec``, ``system``, ``proc_open``,
``popen``, ``pcntl_fork``, ...: a forked copy of an in-process run could try other answers to each
check). The shared extensions loaded are those of :data:`EXTENSIONS` the toolchain has (``ctype``,
``iconv``, ``mbstring``, ``tokenizer``, ...; the built-in ones such as ``json``, ``pcre`` and
``spl`` are always there); the toolchain's version names them. The compile step is ``php -l``
(judged outside: the same decision by OPcache in a warm trusted runner, see
:mod:`execir.execute.runtimes.php_split`): a syntax error is an ERROR, like a compile error.

The in-process runner (:data:`RUNNER`):

1. is started by ``/bin/sh`` (:data:`~execir.execute.runtimes.base.HIDE_NONCE`), which moves the
   nonce from the environment into ``.execir-nonce`` and ``exec``\\ s php, so the environment never
   shows it; before any program code runs it reads and deletes ``.execir-nonce`` and ``tests.php``
   inside a generator that then suspends: the nonce and the tests' text are locals of that
   generator's frame, which no reflection API reads (``debug_backtrace`` shows frames' arguments,
   not their locals);
2. loads the program at top level (its top-level variables are globals, as in one file); an
   exception or ``exit`` there leaves no record (FAIL);
3. resumes the generator: the tests are evaluated in its frame (their variables are its locals, out
   of reach of ``$GLOBALS``), and only once they returned the nonce is written to fd 3 and the run
   ends with status 0. A program that declares the tests' helper (``compare``) stops the tests
   with PHP's redeclaration error, as in mxeval's one file; ``exit`` in a call, a shutdown function
   or an exception handler leave no record; a program that resumes the generator itself only runs
   the tests early on its own functions, and the runner then refuses the run.

Limits of this in-process protocol: the program shares the tests' process, so a program written
against this runner could still look for the tests' compiled literals in its own memory by means
PHP's settings here do not remove; the judged-outside protocol is what keeps the expected values
out of the candidate's process.
"""

from __future__ import annotations

import os
import re
import subprocess

from execir.execute.runtimes import php_split
from execir.execute.runtimes.base import HIDE_NONCE, Plan, Profile, Runtime, Toolchain, harness_source, not_ready, pick_entry
from execir.execute.runtimes.source_mask import code_mask
from execir.execute.sandbox.trusted_runner import TrustedSpec

PROGRAM = "program.php"
TESTS = "tests.php"
RUNNER_NAME = "execir_runner.php"
RUNNER = harness_source("php_runner.php")
EXTENSIONS = ("ctype", "iconv", "mbstring", "tokenizer", "calendar", "bcmath", "gmp", "intl")
"""Shared extensions loaded when the toolchain has them (with ``-n`` none is loaded otherwise)."""
REQUIRED_EXTENSIONS = ("mbstring",)
"""Extensions MBXP's PHP tasks call (``mb_*``): without them the language is not ready."""
DISABLED = (
    "exec",
    "passthru",
    "shell_exec",
    "system",
    "proc_open",
    "popen",
    "proc_nice",
    "pcntl_fork",
    "pcntl_rfork",
    "pcntl_exec",
    "pcntl_signal",
    "pcntl_alarm",
    "pcntl_async_signals",
    "pcntl_unshare",
    "pcntl_setpriority",
    "dl",
)
SETTINGS = (
    "display_errors=stderr",
    "display_startup_errors=1",
    "log_errors=0",
    "html_errors=0",
    "error_reporting=32767",
    "memory_limit=-1",
    "max_execution_time=0",
    "serialize_precision=-1",
    "precision=14",
    "output_buffering=0",
    "implicit_flush=1",
    "auto_prepend_file=",
    "auto_append_file=",
    "include_path=.",
    "open_basedir=.",
    "allow_url_fopen=0",
    "allow_url_include=0",
    "enable_dl=0",
    "disable_functions=" + ",".join(DISABLED),
    "opcache.enable_cli=0",
    "zend.assertions=1",
    "date.timezone=UTC",
)
"""``-d`` settings of every run (after ``-n``)."""


_PHP_FUNCTION = re.compile(r"^function\s+&?\s*([A-Za-z_]\w*)\s*\(", re.MULTILINE)
"""A top-level function of PHP source (column 0)."""


def _code(source: str) -> str:
    """``source`` with comments and quoted strings blanked."""
    mask = code_mask(source)
    return "".join(c if keep or c == "\n" else " " for c, keep in zip(source, mask))


class PhpRuntime(Runtime):
    def entry_name(self, reference: str, tests: str, hint: str) -> str:
        return pick_entry(_PHP_FUNCTION.findall(_code(reference)), _code(tests), hint)

    def discover(self) -> Toolchain:
        paths = self.require("php", "sh")
        probe = subprocess.run([paths["php"], "-n", "-r", "echo PHP_VERSION, PHP_EOL, PHP_EXTENSION_DIR;"], capture_output=True, text=True, timeout=60)
        lines = probe.stdout.splitlines()
        version, extension_dir = (lines + ["unknown", ""])[:2]
        loaded = [name for name in EXTENSIONS if extension_dir and os.path.isfile(os.path.join(extension_dir, f"{name}.so"))]
        found = {name: name if extension_dir and os.path.isfile(os.path.join(extension_dir, f"{name}.so")) else "" for name in ("posix", "opcache")}
        absent = [name for name in REQUIRED_EXTENSIONS if name not in loaded]
        if absent:
            where = extension_dir or "(php names no extension folder)"
            raise not_ready("php", f"the extension(s) {', '.join(absent)} not in {where}", [f"php-{name}" for name in absent])
        paths = dict(paths, extension_dir=extension_dir, extensions=",".join(loaded), **found)
        return Toolchain(self.name, f"PHP {version} -n {' '.join(loaded)}", paths)

    def system_files(self, toolchain: Toolchain) -> tuple[str, ...]:
        """The programs and the shared extensions every run loads."""
        folder = toolchain.paths["extension_dir"]
        loaded = [os.path.join(folder, f"{name}.so") for name in toolchain.paths["extensions"].split(",") if name]
        return tuple(sorted({*super().system_files(toolchain), *loaded}))

    @staticmethod
    def command(toolchain: Toolchain) -> tuple[str, ...]:
        """``php -n`` with :data:`SETTINGS` and the toolchain's extensions."""
        return _command(toolchain, SETTINGS, ())

    @staticmethod
    def check(toolchain: Toolchain) -> tuple[str, ...]:
        return (toolchain.paths["php"], "-n", "-l", PROGRAM)

    def native_plan(self, toolchain: Toolchain, program: str, tests: str) -> Plan:
        files = {PROGRAM: program, TESTS: php_split.tests_file(tests), RUNNER_NAME: RUNNER}
        run = (toolchain.paths["sh"], "-c", HIDE_NONCE, *self.command(toolchain), RUNNER_NAME)
        return Plan(files, run, self.check(toolchain))

    def stdio_plan(self, toolchain: Toolchain, program: str) -> Plan:
        return Plan({PROGRAM: program}, (*self.command(toolchain), PROGRAM), self.check(toolchain))

    # ---- judged outside: see :mod:`execir.execute.runtimes.php_split` ----------------------
    def record_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str) -> Plan | None:
        if "tokenizer" not in toolchain.paths.get("extensions", "").split(","):
            return None
        return php_split.record_plan(self.command(toolchain), reference, tests, entry_point)

    def call_plan(self, toolchain: Toolchain, program: str, entry_point: str, reference: str) -> Plan:
        check = () if toolchain.paths.get("opcache") else self.check(toolchain)
        return php_split.call_plan(self.command(toolchain), check, program, entry_point)

    def syntax_plan(self, toolchain: Toolchain, program: str) -> Plan | None:
        """``php -l``'s decision before the candidate's calls run, by OPcache (compiled, never run)
        in the syntax runner of :meth:`trusted_specs`; None without OPcache (``php -l`` is then the
        calls run's compile step)."""
        if not toolchain.paths.get("opcache"):
            return None
        return php_split.syntax_plan(_command(toolchain, SYNTAX_SETTINGS, ("posix",), opcache=True), program)

    def judge_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
        return php_split.judge_plan(self.command(toolchain), reference, tests, entry_point, calls, results)

    def trusted_specs(self, toolchain: Toolchain) -> tuple[TrustedSpec, ...]:
        """Warm ``php`` runners that fork a child per run (``harness/php_trusted.php``): one for the
        record and judge runs (:meth:`command`'s settings), one for the syntax check
        (:data:`SYNTAX_SETTINGS`, OPcache loaded); both allow ``pcntl_fork`` and load the ``posix``
        extension (the runner's own tools: sessions, rlimits, kills). None without ``posix`` (the
        runs then stay in the sandbox); no syntax runner without OPcache."""
        if not toolchain.paths.get("posix"):
            return ()
        runs = (*_command(toolchain, _runner(SETTINGS), ("posix",)), "-r", TRUSTED_SERVER)
        specs = [TrustedSpec(runs, self.command(toolchain), channel="pipe")]
        if toolchain.paths.get("opcache"):
            syntax = (*_command(toolchain, _runner(SYNTAX_SETTINGS), ("posix",), opcache=True), "-r", TRUSTED_SERVER)
            specs.append(TrustedSpec(syntax, _command(toolchain, SYNTAX_SETTINGS, ("posix",), opcache=True), channel="pipe"))
        return tuple(specs)


TRUSTED_SERVER = php_split.body("php_trusted.php")
"""The trusted runner's source, as ``php -r`` takes it (no opening tag)."""
RUNNER_DISABLED = "disable_functions=" + ",".join(name for name in DISABLED if name not in ("pcntl_fork",))
"""The trusted runner's ``disable_functions``: the runs' list but ``pcntl_fork`` (it forks each run's
child; the record and judge runs hold trusted code only, which calls no process function)."""


SYNTAX_SETTINGS = (
    *(s for s in SETTINGS if not s.startswith("opcache.")),
    "opcache.enable_cli=1",
    "opcache.optimization_level=0",
    "opcache.memory_consumption=8",
    "opcache.interned_strings_buffer=1",
    "opcache.revalidate_freq=0",
    "opcache.file_cache=",
    "opcache.jit=disable",
)
"""``-d`` settings of the syntax check: the runs' with OPcache enabled (compile only, no optimiser,
a small shared cache that each check empties of its program again, no JIT)."""


def _runner(settings: tuple[str, ...]) -> tuple[str, ...]:
    """A trusted runner's settings: ``settings`` with :data:`RUNNER_DISABLED`, and no
    ``open_basedir`` (each child sets the runs' ``open_basedir=.`` in its own directory)."""
    return tuple(RUNNER_DISABLED if s.startswith("disable_functions=") else s for s in settings if s != "open_basedir=.")


def _command(toolchain: Toolchain, settings: tuple[str, ...], more: tuple[str, ...], opcache: bool = False) -> tuple[str, ...]:
    """``php -n`` with ``settings``, then the toolchain's extensions and ``more`` (with ``opcache``:
    OPcache and ``more`` only, as ``php -n -l`` has no extension loaded)."""
    args = [toolchain.paths["php"], "-n"]
    for setting in settings:
        args += ["-d", setting]
    extensions = [] if opcache else [name for name in toolchain.paths.get("extensions", "").split(",") if name]
    extensions += list(more)
    if extensions or opcache:
        args += ["-d", f"extension_dir={toolchain.paths['extension_dir']}"]
    if opcache:
        args += ["-d", "zend_extension=opcache"]
    for name in extensions:
        args += ["-d", f"extension={name}"]
    return tuple(args)


RUNTIME = PhpRuntime("php", (".php",), ("php-cli", "php-mbstring"), Profile(address_space=True, nproc=64, compile_cpu_seconds=10.0, compile_wall_seconds=60.0))
