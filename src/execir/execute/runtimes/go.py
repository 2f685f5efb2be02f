"""Go (gc toolchain, go 1.19 + Debian testify): HumanEval-X style ``func TestX(t *testing.T)`` tests.

The ``go`` command is not used in the sandbox. The compile step calls the toolchain's ``compile``
and ``link`` directly with an ``importcfg`` (what ``go test -c`` does underneath, minus package
loading, the build cache and ``go vet``):

1. the guard (trusted, ``guard.go``, under an import path drawn per run, so the program cannot
   import it): its ``init`` takes the run's nonce out of the environment (``os.Unsetenv``) and
   overwrites its bytes in the process's original environment block, so neither ``os.Getenv`` nor
   ``/proc/self/environ`` shows it to the candidate, and registers the test flags; first of all it
   installs a seccomp filter on every thread (inherited by children) that answers ``execve`` and
   ``execveat`` with EPERM, so the program cannot run the tests' executable again with guessed
   answers and a nonce of its own (where it cannot be installed, the nonce is dropped: FAIL);
2. the candidate's file (``main.go``), the tests (``tests.go``) and ``guard_import.go`` (a blank
   import of the guard) as one package compiled as the library ``execir/prog``: the guard is then a
   dependency of the candidate's package, and Go initializes dependencies first, so the guard runs
   before any of the candidate's package-level variables or ``init`` functions;
3. a trusted ``main`` (``testmain.go``, its own package) that runs the tests found in the test code
   with ``testing.MainStart(...).Run()`` (``-test.paniconexit0``, as ``go test`` passes) and writes
   the nonce to fd 3 only when that returns 0. testify's ``assert.Equal`` marks the test failed
   without stopping it: ``Run`` then returns 1. A candidate's own ``TestMain`` or ``main`` is an
   ordinary function here (never called); a function named like a test is a duplicate: ERROR.
4. ``link -s -w`` (no DWARF: ~35% faster, tracebacks keep their function names).

testify and its dependencies (go-spew, go-difflib, yaml.v3) are compiled once, by trusted code
(:meth:`GoRuntime.discover`, as root), into :data:`PREPARED_ROOT` (root-owned, under ``/usr`` so
bubblewrap binds it read-only), keyed by the Go version and a hash of their sources; candidates
cannot write there, so no run can poison what later runs link. Without it (not root) the compile
step builds them in the work dir first (~1.2 s CPU more per check). The standard library is the
toolchain's own prebuilt archives (read-only under ``/usr/lib/go-*/pkg``).

``go vet`` is not run (``go test`` runs a subset of it; HumanEval-X uses ``go test``): vet findings
are lints, not behaviour, and would fail correct programs (a ``Printf`` verb mismatch in a helper).

Before the program runs, every file but the executable is deleted (the tests' source among them);
a program naming ``go:linkname`` is refused at build time (ERROR), and the trusted main keeps what
the outcome rests on (the tests table, the completion counts) in locals, so the program cannot
reach the guard's nonce, its ``Take`` or the counts by name. The guard's ``Arm`` resets
``os.Args``, ``flag.CommandLine`` and every ``-test.*`` flag after the program's initialization;
every listed test runs whatever ``-test.run`` says, and the record is written only when each test
returned normally exactly once.

What this in-process protocol cannot stop: a program deliberately written against this harness's
memory. It runs in the tests' process and ``unsafe`` can read any of its memory (the nonce
included) or ``/proc/self/mem``. It stops the accidental and the naive: ``os.Exit(0)`` in ``init``
or in the function, exit from a goroutine, ``os.Getenv`` of the nonce, a forged record without
the nonce, importing the guard, test flags set in ``init``, reading the tests' source.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from execir.execute.runtimes.base import (
    CALLS_FILE,
    RESULTS_FILE,
    Plan,
    Profile,
    Runtime,
    Toolchain,
    harness_source,
    not_ready,
    output_of,
    pick_entry,
    remove_first,
)

_GO_FUNC = re.compile(r"^func\s+([A-Za-z_]\w*)\s*[\[(]", re.MULTILINE)
"""A top-level function (not a method) of Go source."""

PREPARED_ROOT = Path("/usr/local/lib/execir-go")
"""Trusted, read-only builds of testify and its dependencies, one directory per key."""
GOPATH = "/usr/share/gocode"
LIBRARIES = ("github.com/davecgh/go-spew/spew", "github.com/pmezard/go-difflib/difflib", "gopkg.in/yaml.v3", "github.com/stretchr/testify/assert")
"""The non-standard packages the tests may use, in dependency order."""
TEST_RE = re.compile(r"^func\s+(Test(?![a-z])\w*)\s*\(\s*\w+\s+\*\s*testing\.T\s*\)", re.MULTILINE)
PACKAGE_RE = re.compile(r"^\s*package\s+(\w+)", re.MULTILINE)
RUN_ENV = {"GOMAXPROCS": "1", "GOTRACEBACK": "single"}
BUILD_OUTPUTS = frozenset({"guard.a", "prog.a", "testmain.a", "lib"})
"""What the native build leaves in the work dir besides ``prog`` (removed with the sources before it runs)."""

NO_LINKNAME = (
    "if grep -q 'go:linkname' main.go; then echo 'execir: the program uses //go:linkname (it could reach the private symbols of the harness)' >&2; exit 1; fi"
)
"""Build step before any compile: a program naming ``go:linkname`` is refused (ERROR)."""
GUARD = harness_source("go_guard.go")
TESTMAIN = harness_source("go_testmain.go")


@dataclass(frozen=True)
class GoToolchain(Toolchain):
    """The gc toolchain: ``compile``/``link`` paths, the standard library's importcfg lines, and the
    testify build (``prepared``: a read-only directory, else ``sources`` to build per run)."""

    std_cfg: str = ""
    prepared: str = ""
    sources: tuple[tuple[str, str, tuple[str, ...]], ...] = field(default_factory=tuple)


def _sh(argv: list[str]) -> str:
    return " ".join("'" + part.replace("'", "'\\''") + "'" for part in argv)


class GoRuntime(Runtime):
    def entry_name(self, reference: str, tests: str, hint: str) -> str:
        from execir.execute.runtimes import go_source

        return pick_entry(_GO_FUNC.findall(go_source.masked(reference)), go_source.masked(tests), hint)

    def discover(self) -> Toolchain:
        paths = self.require("go", "rm")
        go = paths["go"]
        scratch = tempfile.mkdtemp(prefix="execir-go-")  # go list wants a build cache; nothing is built
        try:
            return self._discover(
                go, paths, {"PATH": "/usr/bin:/bin", "GO111MODULE": "off", "GOPATH": GOPATH, "HOME": scratch, "GOFLAGS": "", "GOCACHE": scratch}
            )
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def _discover(self, go: str, paths: dict[str, str], env: dict[str, str]) -> Toolchain:
        tooldir = Path(subprocess.run([go, "env", "GOTOOLDIR"], capture_output=True, text=True, env=env, check=True, timeout=60).stdout.strip())
        root = Path(subprocess.run([go, "env", "GOROOT"], capture_output=True, text=True, env=env, check=True, timeout=60).stdout.strip())
        paths.update(compile=str(tooldir / "compile"), link=str(tooldir / "link"))
        stdlib = (root / "pkg" / f"{_goenv(go, env, 'GOOS')}_{_goenv(go, env, 'GOARCH')}").resolve()
        archives = sorted(stdlib.rglob("*.a"))
        std_cfg = "".join(f"packagefile {a.relative_to(stdlib).with_suffix('').as_posix()}={a}\n" for a in archives)
        version = self.version_of([go, "version"])
        sources = _library_sources(go, env)
        key = hashlib.sha256(json.dumps([version, str(tooldir), std_cfg, [(p, d, fs, _digest(d, fs)) for p, d, fs in sources]]).encode()).hexdigest()[:16]
        prepared = PREPARED_ROOT / key
        if not (prepared / "ok").exists() and os.geteuid() == 0:
            build_libraries(prepared, paths, std_cfg, sources)
        ready = (prepared / "ok").exists()
        return GoToolchain(self.name, version, paths, std_cfg, str(prepared) if ready else "", () if ready else sources)

    def system_files(self, toolchain: Toolchain) -> tuple[str, ...]:
        """The programs and the Go files of testify and its dependencies under :data:`GOPATH`."""
        sources = [str(path) for library in LIBRARIES for path in sorted(Path(GOPATH, "src", library).glob("*.go"))]
        return tuple(sorted({*super().system_files(toolchain), *sources}))

    def native_plan(self, toolchain: Toolchain, program: str, tests: str) -> Plan:
        assert isinstance(toolchain, GoToolchain)
        return self.tests_plan(toolchain, {"main.go": program, "tests.go": tests}, tests, refuse_linkname=True)

    def tests_plan(
        self,
        toolchain: GoToolchain,
        sources: dict[str, str],
        tests: str,
        *,
        refuse_linkname: bool,
        libraries: tuple[Library, ...] = (),
        keep: frozenset[str] = frozenset(),
    ) -> Plan:
        """The tests' executable: ``sources`` (the package's files, ``tests`` among them) compiled as
        the library ``execir/prog`` after ``libraries``, run by the trusted test main. Every file but
        the executable and ``keep`` is deleted before it runs."""
        names = TEST_RE.findall(tests)
        table = "".join(f'\t\t{{"{name}", ran({number}, _test.{name})}},\n' for number, name in enumerate(dict.fromkeys(names)))
        # the guard's import path is drawn per run: the program cannot import it by name
        guard = f"execir/guard{secrets.token_hex(8)}"
        match = PACKAGE_RE.search(tests)
        package = match.group(1) if match else "main"
        files = {
            **sources,
            "guard_import.go": f'package {package}\n\nimport _ "{guard}"\n',
            "guard/guard.go": GUARD,
            "testmain.go": TESTMAIN.replace("@GUARD@", guard) % table,
        }
        steps, cfg = self._prelude(toolchain, files, guard, libraries)
        if refuse_linkname:
            steps.append(NO_LINKNAME)
        compile_ = [toolchain.paths["compile"], "-c=1", "-complete", "-importcfg", cfg, "-pack"]
        steps += library_steps(compile_, files, libraries)
        steps.append(_sh([*compile_, "-p", guard, "-o", "guard.a", "guard/guard.go"]))
        steps.append(_sh([*compile_, "-p", "execir/prog", "-o", "prog.a", *sources, "guard_import.go"]))
        steps.append(_sh([*compile_, "-p", "main", "-o", "testmain.a", "testmain.go"]))
        steps.append(_sh([toolchain.paths["link"], "-s", "-w", "-buildmode=exe", "-importcfg", cfg, "-o", "prog", "testmain.a"]))
        files["build.sh"] = "set -e\n" + "\n".join(steps) + "\n"
        # everything but the binary goes before the candidate's code runs: the tests' source (its
        # expected values) must not be readable by the program under test
        outputs = BUILD_OUTPUTS | {library.archive for library in libraries}
        clean = remove_first(toolchain.paths["rm"], ({name.split("/")[0] for name in files} | outputs) - keep)
        run = ("/bin/sh", "-c", clean + 'exec "$0"', "./prog")
        return Plan(files, run, ("/bin/sh", "build.sh"), dict(RUN_ENV))

    # ---- judged outside (see runtimes/go_split.py) ------------------------------------------
    def record_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str) -> Plan | None:
        from execir.execute.runtimes import go_split

        assert isinstance(toolchain, GoToolchain)
        if not go_split.splittable(reference, tests, entry_point):
            return None
        return go_split.trusted_plan(self, toolchain, reference, tests, entry_point, {})

    def call_plan(self, toolchain: Toolchain, program: str, entry_point: str, reference: str) -> Plan:
        from execir.execute.runtimes import go_split

        assert isinstance(toolchain, GoToolchain)
        return go_split.call_plan(toolchain, program, entry_point, reference)

    def judge_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
        from execir.execute.runtimes import go_split

        assert isinstance(toolchain, GoToolchain)
        data = {CALLS_FILE: calls, RESULTS_FILE: results}
        return go_split.trusted_plan(self, toolchain, reference, tests, entry_point, data)

    def stdio_plan(self, toolchain: Toolchain, program: str) -> Plan:
        assert isinstance(toolchain, GoToolchain)
        files = {"main.go": program, "importcfg": toolchain.std_cfg}
        compile_ = _sh([toolchain.paths["compile"], "-c=1", "-complete", "-importcfg", "importcfg", "-pack", "-p", "main", "-o", "main.a", "main.go"])
        link = _sh([toolchain.paths["link"], "-s", "-w", "-buildmode=exe", "-importcfg", "importcfg", "-o", "prog", "main.a"])
        files["build.sh"] = f"set -e\n{compile_}\n{link}\n"
        return Plan(files, ("./prog",), ("/bin/sh", "build.sh"), dict(RUN_ENV))

    @staticmethod
    def _prelude(toolchain: GoToolchain, files: dict[str, str], guard: str, libraries: tuple[Library, ...] = ()) -> tuple[list[str], str]:
        """Commands that make testify available, and the importcfg path the build then uses."""
        local = f"packagefile {guard}=guard.a\npackagefile execir/prog=prog.a\n" + "".join(library.cfg_line for library in libraries)
        if toolchain.prepared:
            files["importcfg"] = toolchain.std_cfg + Path(toolchain.prepared, "importcfg.libs").read_text() + local
            return [], "importcfg"
        files["importcfg"] = toolchain.std_cfg + local
        steps = ["mkdir -p lib"]
        for number, (package, directory, names) in enumerate(toolchain.sources):
            argv = [toolchain.paths["compile"], "-c=1", "-complete", "-importcfg", "importcfg", "-pack", "-p", package, "-o", f"lib/{number}.a"]
            steps.append(_sh([*argv, *(f"{directory}/{name}" for name in names)]))
            steps.append(f"echo {_sh([f'packagefile {package}=lib/{number}.a'])} >> importcfg")
        return steps, "importcfg"


@dataclass(frozen=True)
class Library:
    """A trusted package compiled in the work dir before the program: import path, archive name
    and its files (work-dir path -> source)."""

    path: str
    archive: str
    sources: tuple[tuple[str, str], ...]

    @property
    def cfg_line(self) -> str:
        return f"packagefile {self.path}={self.archive}\n"


def library_steps(compile_: list[str], files: dict[str, str], libraries: tuple[Library, ...]) -> list[str]:
    """Add the libraries' files to ``files``; the commands that compile them, in order."""
    steps = []
    for library in libraries:
        files.update(library.sources)
        steps.append(_sh([*compile_, "-p", library.path, "-o", library.archive, *(name for name, _ in library.sources)]))
    return steps


def _goenv(go: str, env: dict[str, str], name: str) -> str:
    return subprocess.run([go, "env", name], capture_output=True, text=True, env=env, check=True, timeout=60).stdout.strip()


def _library_sources(go: str, env: dict[str, str]) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """Import path, directory and Go files of each library, in dependency order (``go list``)."""
    template = '{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles " "}}\t{{.Standard}}'
    argv = [go, "list", "-deps", "-f", template, LIBRARIES[-1]]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    if done.returncode != 0:
        raise not_ready("go", f"testify ({LIBRARIES[-1]}) is not in {GOPATH}", ("golang-github-stretchr-testify-dev",), argv, output_of(done))
    found = []
    for line in done.stdout.splitlines():
        path, directory, names, standard = line.split("\t")
        if standard == "false":
            found.append((path, directory, tuple(names.split())))
    return tuple(found)


def _digest(directory: str, names: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0" + Path(directory, name).read_bytes())
    return digest.hexdigest()


def build_libraries(target: Path, paths: dict[str, str], std_cfg: str, sources: tuple[tuple[str, str, tuple[str, ...]], ...]) -> None:
    """Build the libraries ``sources`` ((import path, directory, Go files), in dependency order)
    into ``target`` (trusted: no candidate code involved), atomically: their archives, an
    ``importcfg.libs`` naming them, and ``ok``."""
    if not sources:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(target.parent, 0o755)
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    try:
        libs = building = ""
        for number, (package, directory, names) in enumerate(sources):
            cfg = work / "importcfg"
            cfg.write_text(std_cfg + building)
            archive = target / f"{number}.a"
            argv = [paths["compile"], "-c=1", "-complete", "-importcfg", str(cfg), "-pack", "-p", package, "-o", str(work / f"{number}.a")]
            argv += [f"{directory}/{name}" for name in names]
            done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
            if done.returncode != 0:
                raise not_ready(
                    "go", f"the prebuilt archive of {package} does not compile", ("golang-go", "golang-github-stretchr-testify-dev"), argv, output_of(done)
                )
            libs += f"packagefile {package}={archive}\n"
            building += f"packagefile {package}={work / f'{number}.a'}\n"
        (work / "importcfg").unlink()
        (work / "importcfg.libs").write_text(libs)
        (work / "ok").write_text("")
        for entry in work.iterdir():
            os.chmod(entry, 0o644)
        os.chmod(work, 0o755)
        try:
            work.rename(target)
        except OSError:  # another oracle prepared it first
            pass
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


RUNTIME = GoRuntime(
    "go", (".go",), ("golang-go", "golang-github-stretchr-testify-dev"), Profile(address_space=False, nproc=128, nofile=256, compile_cpu_seconds=30.0)
)
