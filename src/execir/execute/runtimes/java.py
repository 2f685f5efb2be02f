"""Java (OpenJDK 17, Debian ``default-jdk-headless``): HumanEval-X style tests (``public class Main``
whose ``main`` checks a ``class Solution`` and throws on failure).

Native tests with a reference are judged outside the candidate's process (:meth:`JavaRuntime.record_plan`,
:meth:`~JavaRuntime.call_plan`, :meth:`~JavaRuntime.judge_plan`; the rewriting of the reference and
the judge's classes are :mod:`execir.execute.runtimes.java_split`'s, the trusted harness is
``java_Split``, ``java_Caller``, ``java_Wire``, ``java_Json``, ``java_Channel``). Every trusted run
that evaluates tests (record, judge, the in-process run below) starts the JVM with ``-ea`` for the
tests' own classes (:func:`assertions`): a test written with Java's ``assert`` checks. The rest of
this docstring is the in-process protocol, kept for tests that cannot be split.

Layout of a native run (one work dir, one ``javac`` then one ``java``):

* ``Solution.java``: the candidate's program, verbatim (unnamed package, as in HumanEval-X).
* ``Main.java``: the tests in their own compilation unit, so the candidate cannot redefine ``Main``
  (a ``class Main`` of its own is a duplicate class: ERROR). Every call on a ``Solution`` variable
  (``s.method(...)``) is wrapped in ``execirValue(...)`` (:data:`BOUNDARY`, statically imported): the
  value crosses into the tests as a fresh copy built by trusted code from JDK value classes
  (``ArrayList``, ``LinkedHashMap``, ``Optional``, ``String``, boxed primitives, ``BigInteger``...),
  so an object of the candidate's own class (``equals``/``hashCode``/``iterator`` overridden, a
  ``TreeSet`` with a comparator that says everything is equal, a list a background thread keeps
  changing) never reaches the tests' comparisons. A value of any other class is an
  ``AssertionError``.
* ``execir/Runner.class`` and ``execir/Boundary.class`` (package ``execir``, so no candidate type
  can shadow or obscure a name in them), compiled once on the host by trusted code
  (:func:`trusted_classes`) and written into the work dir as bytes: ``java`` starts at the runner,
  never at ``Main``. The runner takes the run's nonce out of reach (see below), checks that the
  compiled tests link to no class of the candidate's file except ``Solution`` (a candidate's
  top-level ``class Arrays``/``AssertionError``/``Objects``, or a class named ``java``, shadows or
  obscures the JDK names the tests use *at compile time*; the constant pools of ``Main.class`` and
  its nested classes show it), loads the tests' classes and the boundary (so a candidate that
  rewrites their class files at run time changes nothing), then calls ``Main.main`` by reflection.
  Only when it returns does the runner flush stdout/stderr, write the nonce to fd 3 and
  ``halt(0)``; on any throwable it prints the trace and ``halt(1)``. ``halt`` skips shutdown hooks:
  a candidate's hook never runs on the PASS path, and a hook (or ``System.exit(0)`` from a static
  initializer or a thread, ``halt(0)``) that ends the JVM before the tests return leaves no record:
  FAIL. ``-Djava.security.manager=disallow``: no ``SecurityManager`` can veto the runner's exit.
  The runner keeps no mutable static state for reflection to change.
* fd 3 is the sandbox's socket (``/proc/self/fd/3`` cannot be opened for a socket): the runner
  builds a ``FileDescriptor`` for it through ``sun.misc.Unsafe`` (the JDK's ``jdk.unsupported``
  module; no ``--add-opens``).

The nonce: ``java`` is started by ``/bin/sh``, which writes ``$EXECIR_NONCE`` to ``.execir-nonce``,
unsets it and ``exec``\\ s the JVM, so neither ``System.getenv`` nor ``/proc/self/environ`` shows
it; the runner reads and deletes that file before any class of the candidate is loaded (the
candidate's ``static {}`` runs when ``Main`` first touches ``Solution``).

Tests without ``import`` lines of their own (HumanEval-X's rely on the prompt's) get
:data:`DEFAULT_IMPORTS`. Reading the source (code vs comments and literals, top-level types, the
stdio main class) and the edits to the tests are :mod:`execir.execute.runtimes.java_source`'s.

What this in-process protocol cannot stop: a program written to forge the record. The candidate runs
in the tests' JVM; with ``sun.misc.Unsafe`` or ``/proc/self/mem`` it can find the nonce in the
runner's heap or stack, write it to fd 3 and halt(0). Nor does the boundary see values the tests
read back from their *own* objects after passing them to the candidate (a list argument the
candidate fills with its own objects and the test then compares, ``expected.equals(result)`` with
``expected`` handed to the candidate first), nor state the tests keep in static fields of ``Main``
(same unnamed module as the candidate: ``setAccessible`` works on it); HumanEval-X tests compare
return values held in local variables only. It stops
the accidental and the naive: early exits, hooks, threads, ``Object``-method overrides on returned
values, shadowing JDK classes, reflection on the tests (``Main`` has no state to change; the JDK's
``java.base`` is not open to reflection), forged records without the nonce.

Speed: both JVMs run with class data sharing, C1 only (``TieredStopAtLevel=1``), the serial GC and
no perf-data file; ``javac`` without annotation processing.

Memory: the run's heap follows the job's memory budget (:func:`heap_mb`: three quarters of
``memory_mb``, leaving at least :data:`NON_HEAP_MB` for metaspace, code cache, thread stacks and
the JVM itself), so a program that outgrows it ends in an ``OutOfMemoryError`` (FAIL) and the slot's
memory cgroup (``memory_mb`` plus the sandbox server's share) stays the bound of the whole process.
``javac`` keeps its own fixed heap (:data:`COMPILE_HEAP_MB`; about 65 MiB resident for a HumanEval-X
compile): a budget far below that can end a compile at the memory kill (ERROR).
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from execir.errors import ExecIRError
from execir.execute.limits import Limits
from execir.execute.runtimes import java_split
from execir.execute.runtimes.base import CALLS_FILE, HIDE_NONCE, NONCE_FILE, RESULTS_FILE, Plan, Profile, Runtime, Toolchain, harness_source, root_owned
from execir.execute.runtimes.java_source import code_mask, declared_classes, insert_enter, main_class, wrap_solution_calls

HEAP_FRACTION = 0.75
NON_HEAP_MB = 96
"""Room a run's JVM needs besides its heap: metaspace, code cache, thread stacks, the class-data
archive and its own structures (a HumanEval-X run: about 36 MiB resident, measured)."""
MIN_HEAP_MB = 32
COMPILE_HEAP_MB = 384
JVM_FLAGS = (
    "-Xshare:auto",
    "-XX:TieredStopAtLevel=1",
    "-XX:+UseSerialGC",
    "-XX:-UsePerfData",
    "-XX:+DisableAttachMechanism",
    "-Xlog:disable",
    "-Xlog:all=warning:stderr",
    "-Dfile.encoding=UTF-8",
    "-Dsun.stdout.encoding=UTF-8",
    "-Dsun.stderr.encoding=UTF-8",
    "-Djava.security.manager=disallow",
)
"""Flags of every JVM (``javac`` gets them as ``-J...``). JVM warnings go to stderr, never stdout."""


def heap_mb(memory_mb: int) -> int:
    """``-Xmx`` of a run whose memory budget is ``memory_mb``: :data:`HEAP_FRACTION` of it, leaving at
    least :data:`NON_HEAP_MB`, never under :data:`MIN_HEAP_MB` (a budget that small ends at the
    cgroup's memory kill instead: FAIL as well)."""
    return max(MIN_HEAP_MB, min(int(memory_mb * HEAP_FRACTION), memory_mb - NON_HEAP_MB))


def run_flags(memory_mb: int) -> tuple[str, ...]:
    """Flags of the run's JVM under a memory budget of ``memory_mb``."""
    return (*JVM_FLAGS, f"-Xmx{heap_mb(memory_mb)}m", "-XX:MaxMetaspaceSize=128m", "-XX:ReservedCodeCacheSize=32m")


JAVAC_FLAGS = ("-encoding", "UTF-8", "-proc:none", "-implicit:none", "-nowarn", "-g:source,lines", "-Xmaxerrs", "20", "-cp", ".", "-d", ".")
ENV = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}

BOUNDARY = harness_source("java_Boundary.java")
"""The trusted copy of every value a ``Solution`` call returns to the tests."""

RUNNER = harness_source("java_Runner.java")
"""The trusted main class of a native run."""

SPLIT_HARNESS = ("Json", "Wire", "Channel", "Split", "Caller")
"""Trusted classes of the split runs (``java_<Name>.java``): the wire codec, fd 3, the record and
judge main with the wrapper's hook, the candidate's caller."""


def assertions(tests: str) -> tuple[str, ...]:
    """``-ea`` for the tests' own classes only (their nested classes follow their top-level class):
    a test's ``assert`` always checks, while the program's own asserts stay off as in the tests'
    reference build (``java Main``)."""
    return tuple(f"-ea:{name}" for name in declared_classes(tests))


IMPORT_BOUNDARY = "import static execir.Boundary.execirValue;\nimport static execir.Boundary.execirEnter;\n"
DEFAULT_IMPORTS = "".join(
    f"import {package}.*;\n" for package in ("java.util", "java.lang", "java.util.function", "java.util.stream", "java.math", "java.security")
)
"""Imports of tests that have none of their own (HumanEval-X's ``test`` relies on the prompt's:
``java.util.*``, ``java.lang.*``, ``Collectors``, ``BigInteger``, ``java.security.*`` for Java/162's
``NoSuchAlgorithmException``; no simple name of these packages clashes)."""
_IMPORT_LINE = re.compile(r"^\s*import\s", re.M)


@functools.lru_cache(maxsize=4)
def trusted_classes(javac: str) -> dict[str, str]:
    """``execir/Runner.class`` and ``execir/Boundary.class`` compiled once on the host (trusted code),
    as text that the sandbox driver writes back byte for byte (``surrogateescape``)."""
    with tempfile.TemporaryDirectory(prefix="execir-java-") as tmp:
        root = Path(tmp)
        (root / "execir").mkdir()
        sources = {"execir/Runner.java": RUNNER.replace("@NONCE_FILE@", NONCE_FILE), "execir/Boundary.java": BOUNDARY}
        for name in SPLIT_HARNESS:
            text = harness_source(f"java_{name}.java")
            sources[f"execir/{name}.java"] = (
                text.replace("@NONCE_FILE@", NONCE_FILE).replace("@CALLS_FILE@", CALLS_FILE).replace("@RESULTS_FILE@", RESULTS_FILE)
            )
        for name, text in sources.items():
            (root / name).write_text(text, encoding="utf-8")
        flags = [flag for flag in JAVAC_FLAGS if flag != "-nowarn"]
        done = subprocess.run([javac, "-XDignore.symbol.file", *flags, *sources], cwd=root, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise ExecIRError(f"java: the trusted runner does not compile: {done.stdout}{done.stderr}")
        found = sorted(path.relative_to(root).as_posix() for path in (root / "execir").glob("*.class"))
        return {name: (root / name).read_bytes().decode("utf-8", "surrogateescape") for name in found}


CDS_ROOT = "/var/cache/execir-java"
"""Root-owned class-data-sharing archives of javac's own classes (about a third off every compile),
built once by trusted code with no candidate input and bound read-only into the sandbox. A missing,
stale or foreign archive is ignored by the JVM (``-Xshare:auto``): it never changes a verdict."""
_CDS_SAMPLE = {
    "Solution.java": "import java.util.*;\nimport java.util.stream.*;\nclass Solution {\n"
    "    public List<Integer> f(List<Integer> xs) { return xs.stream().map(x -> x + 1).collect(Collectors.toList()); }\n}\n",
    "Main.java": "import java.util.*;\npublic class Main {\n    public static void main(String[] args) {\n"
    "        if (!new Solution().f(Arrays.asList(1, 2)).equals(Arrays.asList(2, 3))) throw new AssertionError();\n    }\n}\n",
}


def _javac_archive(javac: str, version: str) -> str | None:
    """Build (as root, once per toolchain) or find the javac archive; None when unavailable."""
    key = hashlib.sha256(repr((javac, version, JVM_FLAGS, COMPILE_HEAP_MB)).encode()).hexdigest()[:16]
    final = os.path.join(CDS_ROOT, key, "javac.jsa")
    if os.path.exists(final):
        return final if root_owned(final) else None
    if os.geteuid() != 0:
        return None
    try:
        os.makedirs(CDS_ROOT, mode=0o755, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="execir-cds-") as work:
            for name, text in _CDS_SAMPLE.items():
                with open(os.path.join(work, name), "w", encoding="utf-8") as handle:
                    handle.write(text)
            jsa = os.path.join(work, "javac.jsa")
            jvm = [f"-J{flag}" for flag in (*JVM_FLAGS, f"-Xmx{COMPILE_HEAP_MB}m")]
            argv = [javac, *jvm, f"-J-XX:ArchiveClassesAtExit={jsa}", *JAVAC_FLAGS, *_CDS_SAMPLE]
            if subprocess.run(argv, cwd=work, capture_output=True, timeout=300).returncode != 0 or not os.path.exists(jsa):
                return None
            folder = tempfile.mkdtemp(prefix=f".{key}-", dir=CDS_ROOT)
            os.chmod(folder, 0o755)
            shutil.copyfile(jsa, os.path.join(folder, "javac.jsa"))
            os.chmod(os.path.join(folder, "javac.jsa"), 0o644)
            try:
                os.rename(folder, os.path.dirname(final))
            except OSError:  # another oracle built it first
                shutil.rmtree(folder, ignore_errors=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return final if root_owned(final) else None


class JavaRuntime(Runtime):
    def discover(self) -> Toolchain:
        paths = self.require("javac", "java", "sh")
        version = self.version_of([paths["java"], "-version"])
        archive = _javac_archive(paths["javac"], version)
        if archive:
            paths["javac-archive"] = archive
        return Toolchain(self.name, version, paths)

    def _compile(self, toolchain: Toolchain, *sources: str) -> tuple[str, ...]:
        flags = [*JVM_FLAGS, f"-Xmx{COMPILE_HEAP_MB}m"]
        archive = toolchain.paths.get("javac-archive")
        if archive and root_owned(archive):
            flags.append(f"-XX:SharedArchiveFile={archive}")
        jvm = tuple(f"-J{flag}" for flag in flags)
        return (toolchain.paths["javac"], *jvm, *JAVAC_FLAGS, *sources)

    def plan(self, toolchain: Toolchain, program: str, tests: str | None, limits: Limits) -> Plan:
        """The JVM's heap follows ``limits.memory_mb`` (:func:`heap_mb`)."""
        if tests is None:
            return self.stdio_plan(toolchain, program, memory_mb=limits.memory_mb)
        return self.native_plan(toolchain, program, tests, memory_mb=limits.memory_mb)

    def native_plan(self, toolchain: Toolchain, program: str, tests: str, memory_mb: int = Limits.memory_mb) -> Plan:
        mask = code_mask(tests)
        own = any(mask[m.end() - 1] for m in _IMPORT_LINE.finditer(tests))
        files = {"Solution.java": program, "Main.java": IMPORT_BOUNDARY + ("" if own else DEFAULT_IMPORTS) + insert_enter(wrap_solution_calls(tests))}
        compile_ = self._compile(toolchain, *files)
        files.update(trusted_classes(toolchain.paths["javac"]))
        java = (toolchain.paths["java"], *run_flags(memory_mb), *assertions(tests), "-cp", ".", "execir.Runner", *declared_classes(tests))
        return Plan(files, (toolchain.paths["sh"], "-c", HIDE_NONCE, *java), compile_, dict(ENV))

    # ---- judged outside (see execir.execute.runtimes.java_split) ----------------------------
    def _trusted_run(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str, mode: str) -> tuple[dict[str, str], tuple[str, ...]] | None:
        """Files and command of a trusted split run (``record`` or ``judge``), or None when the
        tests cannot be split (see :mod:`execir.execute.runtimes.java_split`)."""
        found = _entry(reference, entry_point)
        if found is None or "Main" not in declared_classes(tests) or not _calls_entry(tests, found.name):
            return None
        trusted = trusted_classes(toolchain.paths["javac"])
        flags = self._compile(toolchain)[1:]
        classes = java_split.judge_classes(toolchain.paths["javac"], tuple(sorted(trusted.items())), found.source, _with_imports(tests), flags)
        if classes is None:
            return None
        java = (toolchain.paths["java"], *run_flags(Limits.memory_mb), *assertions(tests), "-cp", ".", "execir.Split", mode, found.owner, found.name, "Main")
        return {**classes, **trusted}, (toolchain.paths["sh"], "-c", HIDE_NONCE, *java)

    def record_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str) -> Plan | None:
        run = self._trusted_run(toolchain, reference, tests, entry_point, "record")
        return None if run is None else Plan(run[0], run[1], (), dict(ENV))

    def call_plan(self, toolchain: Toolchain, program: str, entry_point: str, reference: str) -> Plan:
        found = _entry(reference, entry_point)
        owner, name = (found.owner, found.name) if found is not None else ("Solution", entry_point)
        files = {java_split.REFERENCE_FILE: program, **java_split.stubs("class Main { }\n")}
        compile_ = self._compile(toolchain, java_split.REFERENCE_FILE, java_split.TESTS_FILE)
        files.update(trusted_classes(toolchain.paths["javac"]))
        java = (toolchain.paths["java"], *run_flags(Limits.memory_mb), "-cp", ".", "execir.Caller", owner, name, "Main")
        return Plan(files, java, compile_, dict(ENV))

    def judge_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
        run = self._trusted_run(toolchain, reference, tests, entry_point, "judge")
        if run is None:
            raise ExecIRError("java: the judge of a task that was recorded cannot be built")
        return Plan({**run[0], CALLS_FILE: calls, RESULTS_FILE: results}, run[1], (), dict(ENV))

    def stdio_plan(self, toolchain: Toolchain, program: str, memory_mb: int = Limits.memory_mb) -> Plan:
        source, name = main_class(program)
        run = (toolchain.paths["java"], *run_flags(memory_mb), "-cp", ".", name)
        return Plan({source: program}, run, self._compile(toolchain, source), dict(ENV))


@functools.lru_cache(maxsize=1024)
def _entry(reference: str, entry_point: str) -> java_split.Wrapped | None:
    name = java_split.entry_name(reference, entry_point)
    return java_split.wrap(reference, name) if name is not None else None


def _calls_entry(tests: str, name: str) -> bool:
    """Do the tests name the entry method as code (a call or a method reference)?"""
    mask = code_mask(tests)
    pattern = re.compile(rf"(?:(?<![\w$])|::\s*){re.escape(name)}(?![\w$])")
    return any(mask[m.start()] for m in pattern.finditer(tests))


def _with_imports(tests: str) -> str:
    """The tests with :data:`DEFAULT_IMPORTS` when they have no ``import`` of their own."""
    mask = code_mask(tests)
    own = any(mask[m.end() - 1] for m in _IMPORT_LINE.finditer(tests))
    return ("" if own else DEFAULT_IMPORTS) + tests


RUNTIME = JavaRuntime(
    "java",
    (".java",),
    ("default-jdk-headless",),
    Profile(address_space=False, nproc=256, nofile=512, compile_cpu_seconds=30.0, compile_wall_seconds=120.0),
    mounts=(CDS_ROOT,),
)
