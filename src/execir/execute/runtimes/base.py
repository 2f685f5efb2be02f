"""What a language runtime provides to the oracle: toolchain, files, compile and run commands.

The sandbox mechanism (slots, bwrap, uids, cgroups, seccomp, wipe, cache) is language-neutral; a
:class:`Runtime` says how one language's programs are compiled and run in it. A run of a non-Python
program is one sandbox run in ``exec`` mode: the trusted driver writes the :class:`Plan`'s files into
the fresh work dir, runs the compile command (its own CPU and wall budget; no candidate code has run
yet, so its report is trusted), reports ``{"op": "compiled", ...}`` on the channel, then ``execve``\\ s
the run command. Language-native tests prove completion by writing the run's nonce (environment
``EXECIR_NONCE``) to fd 3 after the last check; exiting early, with any status, is a FAIL.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
import subprocess
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from execir.errors import ExecIRError
from execir.execute.limits import Limits

if TYPE_CHECKING:
    from execir.execute.sandbox.trusted_runner import TrustedSpec

NONCE_ENV = "EXECIR_NONCE"
NONCE_FILE = ".execir-nonce"
HIDE_NONCE = f'printf "%s\\n" "${NONCE_ENV}" > {NONCE_FILE} && unset {NONCE_ENV} && exec "$0" "$@"'
"""``sh -c`` script that moves the nonce from the environment into a file the runner reads and
deletes before any candidate code runs, then ``exec``\\ s the run command: the run's process never
has the nonce in its environment, so ``/proc/self/environ`` does not show it."""


def remove_first(rm: str, names: Iterable[str]) -> str:
    """The start of an ``sh -c`` run script that deletes ``names`` (files and folders of the work
    dir: the tests' source or object, build outputs) before the run command, so the program under
    test cannot read the expected values out of them; ``rm`` is the absolute path of ``rm``."""
    return f"{shlex.quote(rm)} -rf -- {' '.join(shlex.quote(name) for name in sorted(names))} && "


CALLS_FILE = "execir_calls.jsonl"
"""Judged outside: the recorded calls, one JSON array of wire values (the arguments) per line, in the
trusted judge's run (the candidate's run gets them on fd 3, one at a time)."""
RESULTS_FILE = "execir_results.jsonl"
"""Judged outside: the candidate's results as the judge gets them, one JSON object per line."""
NEED_STATUS = 3
"""Judged outside: the judge's exit status when the tests made a call the candidate was not asked."""

HARNESS = Path(__file__).parent / "harness"
"""The runtimes' trusted harness sources (runners, guards, test mains), shipped as package data."""
COMPLETION_FD = 3


def harness_source(name: str) -> str:
    """The text of one trusted harness file of :data:`HARNESS`."""
    return (HARNESS / name).read_text(encoding="utf-8")


class ToolchainMissing(ExecIRError):
    """A language's compiler or interpreter is not installed (the message names the package)."""


class ToolchainNotReady(ToolchainMissing):
    """A language's toolchain is installed but a piece the runtime prepares at discovery (a crate
    build, a prebuilt archive, a precompiled header, the codec library) could not be prepared. The
    message names the piece, the failing command and its last output lines, and the packages to
    install; the language then runs nothing (no ERROR verdicts on correct programs)."""


TAIL_LINES = 12
"""How many of a failing preparation command's last output lines a :class:`ToolchainNotReady` quotes."""


def not_ready(language: str, piece: str, packages: Iterable[str], argv: Iterable[str] = (), output: str = "") -> ToolchainNotReady:
    """The :class:`ToolchainNotReady` of ``language``: ``piece`` could not be prepared (``argv``:
    the command that failed, ``output``: what it printed); ``packages``: what to install."""
    lines = [f"{language}: not ready: {piece}"]
    command = " ".join(shlex.quote(a) for a in argv)
    if command:
        lines.append(f"  command: {command}")
    tail = [line.rstrip() for line in output.splitlines() if line.strip()][-TAIL_LINES:]
    if tail:
        lines.append("  last lines:")
        lines += [f"    {line}" for line in tail]
    wanted = " ".join(packages)
    if wanted:
        lines.append(f"  install: apt-get install --no-install-recommends {wanted} (make does this when run as root; `execir doctor` checks it)")
    return ToolchainNotReady("\n".join(lines))


def output_of(done: subprocess.CompletedProcess[str] | subprocess.CompletedProcess[bytes]) -> str:
    """A finished command's stdout and stderr as text (for :func:`not_ready`)."""
    parts = [done.stdout, done.stderr]
    return "\n".join(p.decode("utf-8", "replace") if isinstance(p, bytes) else p for p in parts if p)


@dataclass(frozen=True)
class Toolchain:
    """A discovered toolchain: absolute paths of its programs and one version line."""

    language: str
    version: str
    paths: dict[str, str]


@dataclass(frozen=True)
class Profile:
    """Resource profile of a language's processes.

    JVMs and V8 reserve far more address space than they use: their memory is bounded by the slot's
    memory cgroup (``address_space=False``), not ``RLIMIT_AS``. ``nproc`` counts threads (a JVM starts
    dozens)."""

    address_space: bool = True
    nproc: int = 64
    nofile: int = 256
    compile_cpu_seconds: float = 30.0
    compile_wall_seconds: float = 120.0


@dataclass(frozen=True)
class Plan:
    """One run: files for the work dir, an optional compile command, the run command, environment."""

    files: dict[str, str]
    run: tuple[str, ...]
    compile: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Runtime:
    """One language. Subclasses implement :meth:`discover`, :meth:`native_plan`, :meth:`stdio_plan`
    (and :meth:`plan` where the limits shape the command)."""

    name: str
    extensions: tuple[str, ...]
    packages: tuple[str, ...]
    """Debian packages that provide the toolchain (named in the missing-toolchain error)."""
    profile: Profile = Profile()
    mounts: tuple[str, ...] = ()
    """Host paths outside /usr the toolchain reads (bound read-only into the sandbox when present)."""

    def discover(self) -> Toolchain:
        raise NotImplementedError

    def native_plan(self, toolchain: Toolchain, program: str, tests: str) -> Plan:
        """Compile and run ``program`` with the language's own test code ``tests``."""
        raise NotImplementedError

    def stdio_plan(self, toolchain: Toolchain, program: str) -> Plan:
        """Compile and run ``program`` alone, reading stdin and writing stdout."""
        raise NotImplementedError

    def plan(self, toolchain: Toolchain, program: str, tests: str | None, limits: Limits) -> Plan:
        """The oracle's entry: the run of ``program`` under ``limits``, with the native ``tests``, or
        alone (stdio) when ``tests`` is None. Runtimes whose command line depends on the limits (the
        JVM's heap follows ``memory_mb``) override it; by default the limits change nothing here
        (the sandbox enforces them)."""
        if tests is None:
            return self.stdio_plan(toolchain, program)
        return self.native_plan(toolchain, program, tests)

    # ---- judged outside (see :mod:`execir.execute.split`) ----------------------------------
    # Three runs replace the one in-process run. Every line written to fd 3 is one JSON document
    # (UTF-8, one line). The *wire* text of a value is this runtime's own JSON encoding of the
    # language's types (exact: floats round-trip, integers keep their width's range, strings their
    # bytes); :mod:`execir.execute.split` treats it as opaque text and compares argument lines
    # byte for byte, so the recorder and the judge must encode arguments identically.
    def entry_name(self, reference: str, tests: str, hint: str) -> str:
        """The entry point to judge outside: ``hint`` where the reference defines it, else what the
        reference's source and the tests' calls say (:func:`pick_entry`); ``hint`` unchanged where
        the runtime resolves names itself (C++, Java, JavaScript)."""
        return hint

    def record_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str) -> Plan | None:
        """Trusted run of the ``reference`` program with the native ``tests``, the entry point
        wrapped by a recorder that calls the reference: on fd 3 one line per call of the entry
        point, in call order, the JSON array of the arguments' wire values (taken before the call);
        then, only once the tests completed, the run's nonce line (environment :data:`NONCE_ENV`).
        None: this runtime cannot split these tests (they stay in-process)."""
        return None

    def call_plan(self, toolchain: Toolchain, program: str, entry_point: str, reference: str) -> Plan:
        """The candidate's run: ``program`` with a trusted caller (``reference``: the task's
        trusted program, for the entry point's declared signature where the caller needs it) that
        reads the calls from fd 3, one line at a time (a JSON array of argument wire values; the
        host writes call ``k + 1`` only once result ``k`` is in, and shuts the channel for writing
        after the last result), calls the entry point once per line, in order, in one process, and
        writes to fd 3 one line per call, ``{"ok": VALUE}`` or ``{"raised": "TypeName"}`` (an
        exception/panic escaped the call), flushing after each; at the end of the calls it exits 0.
        No test code, no expected value and no later call is in this run; nothing it writes is
        trusted."""
        raise NotImplementedError

    def syntax_plan(self, toolchain: Toolchain, program: str) -> Plan | None:
        """A run that compiles ``program`` without running it, before the candidate's calls run of
        the judged-outside protocol (then not compiled by :meth:`call_plan`): the nonce line on fd 3
        when it compiles, else the compiler's message and status 1. None: :meth:`call_plan`
        compiles the program itself."""
        return None

    def trusted_specs(self, toolchain: Toolchain) -> tuple[TrustedSpec, ...]:
        """How this runtime's record, judge and syntax-check plans (no candidate code runs in them)
        run in warm interpreters outside the sandbox (:mod:`execir.execute.sandbox.trusted_runner`):
        a plan goes to the first spec that takes it; none: in the sandbox."""
        return ()

    def judge_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
        """Trusted run of the ``reference`` (its helpers, never the candidate's) with the native
        ``tests``, the entry point replaced by a replayer. Call ``i`` (from 0) encodes its arguments;
        when that text is not line ``i`` of :data:`CALLS_FILE` (or there is no line ``i``) it writes
        the line ``{"need": i}``, then the arguments' JSON array line, and exits with status :data:`NEED_STATUS` (the oracle then
        re-runs the candidate with that call). Otherwise it returns line ``i`` of
        :data:`RESULTS_FILE` decoded into the reference's return type (``raised``: throws the
        language's nearest standard exception; no line ``i``: writes ``{"missing": i}`` and exits 1;
        a value it cannot decode into the return type: ``{"malformed": i}``, exit 1). Only once the
        tests completed it writes the nonce line."""
        raise NotImplementedError

    def system_files(self, toolchain: Toolchain) -> tuple[str, ...]:
        """The files this runtime reads from the system's packages (programs, headers, libraries,
        crate and module sources): ``tests/test_debian_packages.py`` checks that each one belongs
        to a package ``make`` installs or to its ``Depends`` closure. By default the toolchain's
        programs; runtimes add what they read besides."""
        return tuple(sorted({value for value in toolchain.paths.values() if os.path.isabs(value) and os.path.isfile(value)}))

    # ---- helpers for subclasses -------------------------------------------------------------
    def require(self, *programs: str) -> dict[str, str]:
        """Absolute paths of ``programs`` on PATH, or :class:`ToolchainMissing` naming the packages."""
        found = {name: shutil.which(name, path="/usr/local/bin:/usr/bin:/bin") for name in programs}
        missing = [name for name, path in found.items() if path is None]
        if missing:
            raise ToolchainMissing(
                f"{self.name}: {', '.join(missing)} not found; install the Debian package(s) {' '.join(self.packages)} (make does this when run as root)"
            )
        return {name: str(path) for name, path in found.items()}

    @staticmethod
    def version_of(argv: list[str]) -> str:
        """First non-empty output line of a ``--version`` style command."""
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        lines = [line.strip() for line in (done.stdout + done.stderr).splitlines() if line.strip()]
        return lines[0] if lines else "unknown"


JUDGE_EXECUTABLE = "execir_judge"
"""A prebuilt record/judge executable's name in the work dir."""
REPLAY_ENV = "EXECIR_REPLAY"
"""Which part of a prebuilt record/judge executable runs: ``record`` or ``judge``."""


def judge_executable_plan(toolchain: Toolchain, binary: str, mode: str, data: dict[str, str] | None = None) -> Plan:
    """A run of a task's prebuilt trusted record/judge executable (C++, Rust): its bytes written
    back, made executable, run as ``mode`` (``record``, or ``judge`` with the calls and results in
    ``data``). The toolchain names ``sh`` and ``chmod``."""
    chmod = shlex.quote(toolchain.paths["chmod"])
    run = (toolchain.paths["sh"], "-c", f"{chmod} 0500 {JUDGE_EXECUTABLE} && exec ./{JUDGE_EXECUTABLE}", mode)
    return Plan({JUDGE_EXECUTABLE: binary, **(data or {})}, run, env={REPLAY_ENV: mode})


T = TypeVar("T")


class BuiltOnce(Generic[T]):
    """Values built once per key in this process (a task's trusted judge executable): concurrent
    callers of one key wait for its one build; at most ``limit`` are kept, the oldest dropped first."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._lock = threading.Lock()
        self._values: dict[str, T] = {}
        self._building: dict[str, threading.Lock] = {}

    def get(self, key: str, build: Callable[[], T]) -> T:
        """The value of ``key``, built by ``build`` the first time."""
        with self._lock:
            if key in self._values:
                return self._values[key]
            busy = self._building.setdefault(key, threading.Lock())
        with busy:
            with self._lock:
                if key in self._values:
                    return self._values[key]
            built = build()
            with self._lock:
                if len(self._values) >= self._limit:
                    self._values.pop(next(iter(self._values)))
                self._values[key] = built
                self._building.pop(key, None)
            return built


def root_owned(path: str, *, resolve: bool = False) -> bool:
    """``path`` and every folder above it are root's, not symlinks, and writable by no one else, so
    no slot uid can have planted or changed a trusted cache file there (``resolve``: follow
    symlinks first and check the real path)."""
    try:
        current = os.path.realpath(path) if resolve else path
        while True:
            info = os.lstat(current)
            if info.st_uid != 0 or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or stat.S_ISLNK(info.st_mode):
                return False
            if current == "/":
                return True
            current = os.path.dirname(current)
    except OSError:
        return False


def pick_entry(defined: Sequence[str], masked_tests: str, hint: str, parens: bool = True) -> str:
    """``hint`` when it is among the reference's top-level ``defined`` names, else the last of them
    (public sets put the entry point last) that the tests call as code (``masked_tests``: comments
    and strings blanked), ``main`` never; ``hint`` when none is. ``parens``: a call needs ``(``
    (Ruby calls without them)."""
    names = [name for name in defined if name != "main"]
    if hint in names:
        return hint
    tail = r"\s*\(" if parens else r"(?![\w?!])"
    used = [name for name in names if re.search(rf"(?<![\w$.:]){re.escape(name)}{tail}", masked_tests)]
    return used[-1] if used else hint
