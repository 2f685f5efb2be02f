"""C++ (g++): HumanEval-X style native tests, and stdio programs.

With the task's reference, native tests are judged outside the candidate's process
(:mod:`execir.execute.runtimes.cpp_split`: the candidate's run holds only the program and a trusted
caller; a trusted judge built from the reference and the tests replays its values). What follows is
the in-process protocol, kept for tests that cannot be split (no reference, no call of the entry
point, a signature the wire cannot carry).

Native tests (``native_plan``) are a translation unit of their own: ``tests`` must declare what it
calls (prototypes; :mod:`execir.tasks.multilingual.humanevalx_cpp` derives them from the task's
declaration) and define ``int main()`` with its ``assert``\\ s, as HumanEval-X's ``test`` field does.
The trusted side (this process, not the sandbox) compiles the tests once per distinct text, with
``__assert_fail`` renamed to a private ``execir_assert_fail``, renames the tests' ``main`` to
``execir_tests_main`` in the object (so it keeps ``main``'s implicit ``return 0``), links in a small
runner whose ``main`` calls it and only then writes the nonce to fd 3, and makes every symbol of
that object local except ``main`` (COMDAT groups dropped, so the tests keep their own copies of the
template code they use). Only the object enters the sandbox, never the tests' source. The
candidate's source is then compiled in the sandbox into a shared library (``-Bsymbolic``, so its
own calls bind to its own code), with HumanEval-X's helper headers pre-included as CodeGeeX's
harness does (``-std=c++11``, ``-O0`` as its ``g++ -std=c++11``), and the tests' object is linked
into an executable that needs the system libraries (libstdc++, libm, libgcc_s, libc) *before* the
program's library: in the loader's global lookup scope the system libraries come first, so a
program defining ``memcmp``, ``strlen``, ``operator new`` or a libstdc++ member changes nothing the
tests or the libraries call (a program's own ``operator new`` serves only its own code).

What this stops: early exits with status 0 (static initializers, ``atexit``, ``exit(0)``/``_exit(0)``
in a call, a SIGABRT handler, ``std::set_terminate``): no completion record, FAIL; a failing assert
ends the process by a raw ``exit_group`` system call (no signal to catch, no atexit, no libc call to
interpose); the candidate's macros (``#define assert``/``NDEBUG``/``main``/``__assert_fail``) never
reach the tests' translation unit; a candidate defining ``__assert_fail``, ``execir_assert_fail``,
an explicit specialisation of the ``operator==`` the tests call, or a libc/libstdc++ function does
not change the tests' code; a candidate defining ``main`` is an ERROR (as the reference's
"redefinition of main" is); ``#include "tests.cpp"`` finds no source.

Tests that do not compile on their own (HumanEval-X's "appended after the program" form, relying on
the program's declarations, as ``execir exec --tests`` may get them) fall back to one translation
unit compiled in the sandbox: program, then a guard that undoes the candidate's ``NDEBUG``/
``assert``/``__assert_fail``/``main`` macros and routes ``assert`` to the private failure function,
then the tests, linked into the executable after the runner. There the candidate's other macros,
overloads and definitions of library functions can still reach the tests.

The run's nonce never reaches the program: the run command deletes every file but what runs (the
executable and the program's library; the tests' object or source and the runner's source go) and
moves the nonce from the environment into a file (:data:`~execir.execute.runtimes.base.HIDE_NONCE`),
which the executable's first ``.preinit_array`` entry, the runner's, reads and deletes before any
initializer runs (the loader runs a library's initializers after it, and never a library's own
``.preinit_array``). The loader runs nothing of the program earlier except ifunc resolvers, and an
executable or library with IRELATIVE relocations is refused at build time (ERROR). The runner's
``main`` runs once, and only after the executable's last initializer (the runner's own): the program
calling ``main`` (to try answers in a forked child, from its constructor or from the function under
test) ends the run (FAIL). Before taking the nonce the runner installs a seccomp filter (inherited
by every thread and child) that answers ``execve``/``execveat`` with EPERM, so the program cannot run
the tests' executable again with guessed answers and a nonce file of its own; where the filter
cannot be installed the nonce is dropped and the run FAILs.

What this in-process protocol cannot stop: a program deliberately written against this harness's
memory layout. It runs in the tests' process with no memory safety, so it can read the masked
nonce and its mask out of the runner's data, or read the expected values out of the executable's
memory. The record proves that the tests' ``main`` returned 0 without exiting early, in a process
whose program never saw the nonce in its environment or its files and could not replace the
functions the tests call.

Speed: headers dominate compile time (0.32 s of a 0.33 s HumanEval-X compile). Precompiled headers
for the pre-included prelude (native) and ``<bits/stdc++.h>`` (stdio) are built once by a root
oracle into :data:`PCH_ROOT` (root-owned, not writable by the slot uids; bound read-only into the
bwrap sandbox through this runtime's ``mounts``) and used only after their ownership is checked. GCC
falls back to the plain header (in the work dir, or the system's) whenever a PCH is absent or
invalid, so they never change a verdict. The tests' object is cached per text in this process.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import tempfile
import threading

from execir.execute.runtimes import cpp_source, cpp_split
from execir.execute.runtimes.base import (
    HIDE_NONCE,
    NONCE_FILE,
    Plan,
    Profile,
    Runtime,
    Toolchain,
    harness_source,
    not_ready,
    output_of,
    remove_first,
    root_owned,
)

PRELUDE_HEADERS = ("stdlib.h", "algorithm", "math.h", "stdio.h", "vector", "string", "climits", "cstring", "iostream")
"""CodeGeeX's IMPORT_HELPER["cpp"]: the headers its HumanEval-X harness puts before every program."""
TASK_HEADERS = ("boost/any.hpp", "openssl/md5.h")
"""Headers of libraries the public task sets include (HumanEval-X C++: ``boost::any``, OpenSSL's MD5)."""
PRELUDE_NAME = "execir_prelude.h"
PRELUDE = "".join(f"#include <{name}>\n" for name in PRELUDE_HEADERS)
NATIVE_FLAGS = ("-std=c++11", "-O0", "-w", "-fPIC")
"""CodeGeeX compiles ``g++ -std=c++11 test.cpp`` (so ``-O0``); ``-fPIC`` for the program's shared
library, and everywhere else so that one precompiled header serves every native compile."""
TESTS_FLAGS = (*NATIVE_FLAGS, "-fno-gnu-unique", "-D__assert_fail=execir_assert_fail")
"""The tests' translation unit: no STB_GNU_UNIQUE symbols (so every symbol can be made local), and
glibc's ``assert`` calling the runner's private ``execir_assert_fail``."""
STDIO_FLAGS = ("-std=gnu++17", "-O2", "-w")
"""The usual judge flags for stdin/stdout programs."""
LINK_LIBS = ("-Wl,--as-needed", "-lcrypto")
"""HumanEval-X CPP/162 uses OpenSSL's MD5 (libssl-dev); linked only where referenced."""
PCH_ROOT = "/var/cache/execir-cpp"
TESTS_OBJECT = "tests.o"
SINGLE_UNIT_GUARD = """
#undef NDEBUG
#undef assert
#undef __assert_fail
#undef main
#undef exit
#undef abort
extern "C" void execir_assert_fail(const char *, const char *, unsigned int, const char *) noexcept __attribute__((noreturn));
#define __assert_fail execir_assert_fail
#include <assert.h>
"""
"""Between the program and tests given in HumanEval-X's appended form (no prototypes of their own)."""

RUNNER = harness_source("cpp_runner.cpp").replace("@NONCE_FILE@", NONCE_FILE)
PROGRAM_LIBRARY = "libexecir_program.so"
"""The candidate's code, as a shared library the tests' executable loads last (see the docstring)."""
SYSTEM_LIBRARIES = "-Wl,--no-as-needed,-lstdc++,-lm,-lgcc_s,-lc"
"""Named before :data:`PROGRAM_LIBRARY` on the link line, passed through to the linker (the ``g++``
driver would drop its own ``-lm``/``-lc``): the system libraries precede the program's library in
the executable's DT_NEEDED list, so in the loader's global lookup scope."""
CHECKS = """\
if {readelf} -d prog | {grep} NEEDED | {tail} -n 1 | {grep} -qvF '[{library}]'; then
  echo "execir: {library} is not the last library the tests' executable needs" >&2; exit 1; fi
if {nm} -D --defined-only {library} | {grep} -qE ' main$'; then
  echo "{library}: multiple definition of 'main' (the tests define it)" >&2; exit 1; fi
"""
"""Build checks after the link (ERROR when one fails): the program's library is looked up last; it
defines no ``main`` (as compiling program and tests together would refuse)."""
NO_IFUNC = (
    "if {readelf} -r -W {files} | {grep} -q IRELATIV; then "
    'echo "execir: the program defines an ifunc resolver (it would run before the tests\' runner)" >&2; exit 1; fi'
)
"""Build step after the link: the loader runs ifunc resolvers before the runner's ``.preinit_array``
entry takes the nonce, so an executable or library with IRELATIVE relocations
(``__attribute__((ifunc))``, ``target_clones``) is refused (ERROR)."""

_CACHE_LIMIT = 512
_lock = threading.Lock()
_objects: dict[str, str | None] = {}
_key_locks: dict[str, threading.Lock] = {}


def _build_pch(gxx: str, version: str, name: str, header_text: str | None, system_header: str | None, flags: tuple[str, ...]) -> str | None:
    """Build (once per compiler, flags and header) ``PCH_ROOT/<key>/<name>.gch`` as root; the
    directory to put first on the include path, or None (not root: GCC then reads the plain
    header); :class:`ToolchainNotReady` when the header does not compile."""
    if os.geteuid() != 0:
        return None
    key = hashlib.sha256(repr((version, gxx, name, header_text, system_header, flags)).encode()).hexdigest()[:16]
    final = os.path.join(PCH_ROOT, key)
    if os.path.isfile(os.path.join(final, name + ".gch")) and root_owned(final, resolve=True):
        return final
    try:
        os.makedirs(PCH_ROOT, mode=0o755, exist_ok=True)
        os.chmod(PCH_ROOT, 0o755)
        work = tempfile.mkdtemp(prefix=".build-", dir=PCH_ROOT)
        target = os.path.join(work, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if header_text is not None:
            with open(target, "w", encoding="utf-8") as handle:
                handle.write(header_text)
            source = target
        else:
            source = str(system_header)
        argv = [gxx, *flags, "-x", "c++-header", source, "-o", target + ".gch"]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            shutil.rmtree(work, ignore_errors=True)
            raise not_ready("cpp", f"the precompiled header of {name} does not compile", ("g++",), argv, output_of(done))
        for root, _dirs, files in os.walk(work):
            os.chmod(root, 0o755)
            for entry in files:
                os.chmod(os.path.join(root, entry), 0o644)
        try:
            os.rename(work, final)
        except OSError:  # another oracle built it first
            shutil.rmtree(work, ignore_errors=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise not_ready("cpp", f"the precompiled header of {name} could not be built in {PCH_ROOT} ({exc})", ()) from exc
    return final if root_owned(final, resolve=True) else None


def _tests_object(toolchain: Toolchain, tests: str) -> str | None:
    """The tests' object (see the module docstring), as text that the sandbox driver writes back as
    the same bytes (surrogateescape), or None when the tests do not compile (they are then
    compiled in the sandbox, where the error becomes the ERROR verdict's log)."""
    key = hashlib.sha256(repr((toolchain.version, toolchain.paths.get("g++"), tests)).encode()).hexdigest()
    with _lock:
        if key in _objects:
            return _objects[key]
        key_lock = _key_locks.setdefault(key, threading.Lock())
    with key_lock:
        with _lock:
            if key in _objects:
                return _objects[key]
        found = _compile_tests(toolchain, tests)
        with _lock:
            if len(_objects) >= _CACHE_LIMIT:
                _objects.pop(next(iter(_objects)))
            _objects[key] = found
            _key_locks.pop(key, None)
        return found


def _object_steps(paths: dict[str, str], prelude_dir: str) -> list[list[str]]:
    """Commands that turn ``tests.cpp`` and ``runner.cpp`` into :data:`TESTS_OBJECT` (see the
    module docstring), run in the directory holding them."""
    gxx, objcopy, ld = paths["g++"], paths["objcopy"], paths["ld"]
    pch = paths.get("pch-tests")
    include = [*(["-I", pch] if pch and root_owned(pch, resolve=True) else []), "-I", prelude_dir, "-include", PRELUDE_NAME]
    return [
        [gxx, *TESTS_FLAGS, *include, "-c", "tests.cpp", "-o", "t.o"],
        [objcopy, "--redefine-sym", "main=execir_tests_main", "t.o"],
        [gxx, *NATIVE_FLAGS, "-c", "runner.cpp", "-o", "r.o"],
        [ld, "-r", "t.o", "r.o", "-o", "c.o"],
        [objcopy, "--remove-section=.group", "--keep-global-symbol=main", "c.o", TESTS_OBJECT],
    ]


_runner_object: list[bytes] = []
"""The runner's object, compiled once per process (it never changes)."""


def _compile_tests(toolchain: Toolchain, tests: str) -> str | None:
    with tempfile.TemporaryDirectory(prefix="execir-cpp-") as work:
        # the prelude in a subdirectory: ``-include`` looks in the current directory first, and
        # the precompiled header on the include path is only found if the plain one is not there
        os.mkdir(os.path.join(work, "inc"))
        with open(os.path.join(work, "inc", PRELUDE_NAME), "w", encoding="utf-8") as handle:
            handle.write(PRELUDE)
        with open(os.path.join(work, "tests.cpp"), "w", encoding="utf-8", errors="surrogateescape") as handle:
            handle.write(tests)
        with open(os.path.join(work, "runner.cpp"), "w", encoding="utf-8") as handle:
            handle.write(RUNNER)
        steps = _object_steps(toolchain.paths, "inc")
        if _runner_object:
            with open(os.path.join(work, "r.o"), "wb") as handle:
                handle.write(_runner_object[0])
            steps = [step for step in steps if "runner.cpp" not in step]
        try:
            for argv in steps:
                if subprocess.run(argv, cwd=work, capture_output=True, timeout=120).returncode != 0:
                    return None
                if "runner.cpp" in argv and not _runner_object:
                    with open(os.path.join(work, "r.o"), "rb") as handle:
                        _runner_object.append(handle.read())
            with open(os.path.join(work, TESTS_OBJECT), "rb") as handle:
                return handle.read().decode("utf-8", "surrogateescape")
        except (OSError, subprocess.SubprocessError):
            return None


class CppRuntime(Runtime):
    def discover(self) -> Toolchain:
        paths = self.require("g++", "objcopy", "ld", "readelf", "nm", "grep", "tail", "sh", "rm", "chmod")
        version = self.version_of([paths["g++"], "--version"])
        if os.path.exists("/usr/bin/ld.gold"):
            paths["fuse-ld"] = "-fuse-ld=gold"  # links in a third of bfd's time
        native = _build_pch(paths["g++"], version, PRELUDE_NAME, PRELUDE, None, NATIVE_FLAGS)
        if native:
            paths["pch-native"] = native
        tests = _build_pch(paths["g++"], version, PRELUDE_NAME, PRELUDE, None, TESTS_FLAGS)
        if tests:
            paths["pch-tests"] = tests
        stdcxx = _system_header(paths["g++"], "bits/stdc++.h")
        stdio = _build_pch(paths["g++"], version, "bits/stdc++.h", None, stdcxx, STDIO_FLAGS) if stdcxx else None
        if stdio:
            paths["pch-stdio"] = stdio
        return Toolchain(self.name, version, paths)

    def system_files(self, toolchain: Toolchain) -> tuple[str, ...]:
        """The programs, the prelude's headers, boost's and OpenSSL's headers and ``libcrypto.so``."""
        gxx = toolchain.paths["g++"]
        headers = [_system_header(gxx, name) for name in (*PRELUDE_HEADERS, *TASK_HEADERS)]
        library = subprocess.run([gxx, "-print-file-name=libcrypto.so"], capture_output=True, text=True, timeout=60).stdout.strip()
        found = [path for path in (*headers, library) if path and os.path.isabs(path)]
        return tuple(sorted({*super().system_files(toolchain), *found}))

    def _gxx(self, toolchain: Toolchain, flags: tuple[str, ...], pch: str) -> list[str]:
        argv = [toolchain.paths["g++"], *flags, "-pipe"]
        if toolchain.paths.get("fuse-ld"):
            argv.append(toolchain.paths["fuse-ld"])
        if toolchain.paths.get(pch) and root_owned(toolchain.paths[pch], resolve=True):
            argv += ["-I", toolchain.paths[pch]]
        return argv

    def native_plan(self, toolchain: Toolchain, program: str, tests: str) -> Plan:
        files = {"main.cpp": program, f"inc/{PRELUDE_NAME}": PRELUDE}
        tests = cpp_source.trusted(tests)  # NDEBUG never switches the tests' asserts off
        gxx = self._gxx(toolchain, NATIVE_FLAGS, "pch-native")
        obj = _tests_object(toolchain, tests)
        tools = {name: shlex.quote(toolchain.paths[name]) for name in ("readelf", "grep", "nm", "tail")}
        if obj is not None:
            # the program as a shared library looked up after the system libraries (its definitions
            # of memcmp, operator new or a libstdc++ member interpose nothing the tests or the
            # libraries call; -Bsymbolic binds the program's own calls to its own code), linked into
            # a stripped executable of the tests' object (holding the runner: its .preinit_array
            # entry runs first; no symbol names the tests' code for a program reading /proc/self/exe)
            files[TESTS_OBJECT] = obj
            library = ("-shared", "-Wl,-Bsymbolic", f"-Wl,-soname,{PROGRAM_LIBRARY}")
            steps = [
                [*gxx, *library, "-I", "inc", "-include", PRELUDE_NAME, "main.cpp", "-o", PROGRAM_LIBRARY, *LINK_LIBS],
                [*gxx, "-s", TESTS_OBJECT, "-o", "prog", "-Wl,-rpath,$ORIGIN", SYSTEM_LIBRARIES, PROGRAM_LIBRARY],
            ]
            checks = CHECKS.format(library=PROGRAM_LIBRARY, **tools)
            built: tuple[str, ...] = ("prog", PROGRAM_LIBRARY)
        else:
            # not built here: the tests do not compile on their own (a test file in HumanEval-X's
            # "appended after the program" form, without prototypes) or the host build failed. Then
            # one translation unit in the sandbox: program, a guard that restores ``assert`` and
            # routes it to the private failure function, then the tests; their ``main`` is renamed
            # in the object and the runner links in (first) as above. The candidate's macros defined
            # before the guard are undone by it; what one translation unit cannot stop is stated in
            # the docstring.
            files["main.cpp"] = program + SINGLE_UNIT_GUARD + tests + "\n"
            files["runner.cpp"] = RUNNER
            steps = [
                [*gxx, "-I", "inc", "-include", PRELUDE_NAME, "-c", "main.cpp", "-o", "m.o"],
                [toolchain.paths["objcopy"], "--redefine-sym", "main=execir_tests_main", "m.o"],
                [*gxx, "-c", "runner.cpp", "-o", "r.o"],
                [*gxx, "-s", "r.o", "m.o", "-o", "prog", *LINK_LIBS],
            ]
            checks, built = "", ("prog",)
        script = "set -e\n" + "".join(" ".join(shlex.quote(a) for a in step) + "\n" for step in steps) + checks
        script += NO_IFUNC.format(files=" ".join(built), readelf=tools["readelf"], grep=tools["grep"]) + "\n"
        # before the program runs: every file but what runs goes (the tests' source or object must
        # not be readable by the program), and the nonce moves into the file the runner takes
        clean = remove_first(toolchain.paths["rm"], {name.split("/")[0] for name in files} | {"m.o", "r.o"})
        return Plan(files, (toolchain.paths["sh"], "-c", clean + HIDE_NONCE, "./prog"), (toolchain.paths["sh"], "-c", script))

    # ---- judged outside (see runtimes/cpp_split.py) -------------------------------------------
    def record_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str) -> Plan | None:
        return cpp_split.record_plan(toolchain, reference, tests, entry_point)

    def call_plan(self, toolchain: Toolchain, program: str, entry_point: str, reference: str) -> Plan:
        return cpp_split.call_plan(toolchain, program, entry_point, reference)

    def judge_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
        return cpp_split.judge_plan(toolchain, reference, tests, entry_point, calls, results)

    def stdio_plan(self, toolchain: Toolchain, program: str) -> Plan:
        argv = self._gxx(toolchain, STDIO_FLAGS, "pch-stdio")
        return Plan({"main.cpp": program}, ("./prog",), (*argv, "main.cpp", "-o", "prog", *LINK_LIBS))


def _system_header(gxx: str, name: str) -> str | None:
    """Where ``g++`` finds ``#include <name>``."""
    try:
        done = subprocess.run([gxx, "-x", "c++", "-E", "-H", "-"], input=f"#include <{name}>\n", capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    for line in done.stderr.splitlines():
        if line.startswith(". ") and line.endswith(name):
            return line[2:].strip()
    return None


RUNTIME = CppRuntime(
    "cpp",
    (".cpp", ".cc", ".cxx"),
    ("g++", "binutils", "libssl-dev", "libboost-dev"),
    Profile(address_space=True, nproc=512, compile_cpu_seconds=10.0, compile_wall_seconds=40.0),
    mounts=(PCH_ROOT,),
)
