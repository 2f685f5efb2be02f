"""Rust (rustc): HumanEval-X / HumanEvalPack style native tests, and stdio programs.

With the task's reference, native tests are judged outside the candidate's process
(:mod:`execir.execute.runtimes.rust_split`). What follows is the in-process protocol, kept for tests
that cannot be split (no reference, an entry point whose types the wire cannot carry).

HumanEval-X's Rust tests are ``#[cfg(test)] mod tests { use super::*; #[test] fn ...() { assert!(..) } }``
appended to the program. Here they are their own module file, with a random name, that the
program's file declares last (``#[cfg(test)] #[path = "..."] pub mod execir_<random>;``, the file
starting ``use super::*;`` so the tests see the program's items as before). Their ``#[test]``
functions are plain ``pub(crate)`` functions listed by a generated ``execir_tests()`` in that module,
and every standard macro they call is called by its ``::std`` path (a program's own
``macro_rules! assert_eq`` would otherwise reach the tests' module). Program and tests are one
library crate compiled with ``--cfg test -F unsafe_code``: the program can write no ``unsafe``
block, ``#[no_mangle]``, ``#[export_name]``, ``#[link_section]`` or ``global_asm!`` (a forbidden
lint cannot be allowed again in the source), so none of its code can run before ``main`` or read
the process's memory directly. A trusted runner (harness ``rust_runner.rs``), its own binary crate
linking that library, forbids ``execve`` (seccomp), takes the run's nonce out of its file before
the first test, runs the tests in order on one thread (a failing assert panics: status 101) and
only then writes the nonce to fd 3. A program calling ``std::process::exit(0)``, aborting,
installing a panic hook that exits, or spawning a thread that exits, ends the run without the
record: FAIL. Compile errors are ERROR (the compile step has its own budget).

The tests' file name is random per run, so ``include_str!`` cannot name it; the program can name its
own file (``include_str!(file!())``), which says where the tests are but cannot read them: a macro
cannot turn text into a path at compile time, and every source file is deleted before the program
runs. What this in-process protocol cannot stop: the program reading ``/proc/self/mem`` through
``std::fs`` (no ``unsafe`` needed) to find the masked nonce or the expected values; and a return
type of the program's own whose ``PartialEq`` lies (the judged-outside protocol converts results
into the reference's types, so only tests without a reference are exposed).

Crates: HumanEval-X's Rust prompts ``use rand::Rng; use regex::Regex; use md5;``. crates.io is not
reachable at run time; Debian's packaged sources (``librust-rand-dev``, ``librust-regex-dev``,
``librust-md5-dev`` under ``/usr/share/cargo/registry``) are built once, by a root oracle at
toolchain discovery, with ``cargo --offline`` against that directory source, into
:data:`CACHE_ROOT` (root-owned, bound read-only into the sandbox), and linked with ``--extern``.

Speed (rustc 1.95, x86_64, this 2-core machine, ``perf stat`` task-clock): ``rustc`` alone costs
16 ms CPU for an empty crate's metadata, 41 ms for ``fn main(){}`` linked against std's shared
object (58 ms with static std); its link (``cc`` -> ``collect2`` -> rust-lld, the default linker since
1.90) 15-19 ms, rust-lld itself 12 ms. The in-process runner links std dynamically
(:func:`dynamic_std`); the judged-outside candidate's build is one ``rustc``
(:mod:`execir.execute.runtimes.rust_split`). ``opt-level=1`` +10%, ``codegen-units=1`` and
``-fuse-ld=gold`` no gain.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shlex
import shutil
import subprocess
import tempfile
import threading

from execir.execute.runtimes import rust_source
from execir.execute.runtimes.base import (
    HIDE_NONCE,
    NONCE_FILE,
    Plan,
    Profile,
    Runtime,
    Toolchain,
    ToolchainMissing,
    harness_source,
    not_ready,
    pick_entry,
    remove_first,
    root_owned,
)

CACHE_ROOT = "/var/cache/execir-rust"
CRATES = {"rand": "0.8", "regex": "1", "md5": "0.7"}
"""The crates HumanEval-X's Rust prompts import, with the versions Debian packages."""
CRATE_PACKAGES = {"rand": "librust-rand-dev", "regex": "librust-regex+default-dev", "md5": "librust-md5-dev"}
"""The Debian package that brings each crate with its default features (``librust-regex-dev``
alone lacks the optional ``aho-corasick`` and ``memchr`` its default features need; the others
provide their ``+default`` feature themselves)."""
DEBIAN_REGISTRY = "/usr/share/cargo/registry"
FLAGS = ("--edition", "2021", "-C", "opt-level=0", "-C", "debuginfo=0", "-A", "warnings")
PROGRAM_FLAGS = ("--crate-type", "rlib", "--crate-name", "execir_program", "--cfg", "test", "-F", "unsafe_code")
"""The program (with the tests) as a library: ``unsafe_code`` forbidden (see the module docstring)."""
PROGRAM_LIBRARY = "libexecir_program.rlib"
RUNNER = harness_source("rust_runner.rs").replace("@NONCE_FILE@", NONCE_FILE)
STDIO_FLAGS = ("--edition", "2021", "-C", "opt-level=2", "-C", "debuginfo=0", "-A", "warnings")
_lock = threading.Lock()


def _sysroot(rustc: str) -> str | None:
    try:
        done = subprocess.run([rustc, "--print", "sysroot"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    root = done.stdout.strip()
    return root if done.returncode == 0 and os.path.isfile(os.path.join(root, "bin", "rustc")) else None


def find_rustc() -> tuple[str, str]:
    """The real ``rustc`` (not rustup's proxy) and its sysroot: from /usr/local/bin, /usr/bin, or
    rustup's ``$CARGO_HOME/bin`` (``~/.cargo/bin``)."""
    cargo_home = os.environ.get("CARGO_HOME") or os.path.expanduser("~/.cargo")
    for folder in ("/usr/local/bin", "/usr/bin", os.path.join(cargo_home, "bin"), "/root/.cargo/bin"):
        candidate = os.path.join(folder, "rustc")
        if os.access(candidate, os.X_OK):
            root = _sysroot(candidate)
            if root is not None:
                return os.path.join(root, "bin", "rustc"), root
    raise ToolchainMissing("rust: rustc not found; install a Rust toolchain (rustup, or Debian rustc) and the crates " + " ".join(CRATE_PACKAGES.values()))


def mirror(rustc: str, root: str, version: str) -> str:
    """The ``rustc`` the sandbox runs: where the toolchain lives outside /usr (rustup keeps it in a
    0700 home), a root-owned mirror of its ``bin/rustc`` and ``lib/`` under :data:`CACHE_ROOT`
    (hard links, made once as root; bound read-only into the sandbox); else ``rustc`` itself."""
    if root.startswith("/usr/") or os.geteuid() != 0:
        return rustc
    key = hashlib.sha256(repr((version, root)).encode()).hexdigest()[:16]
    final = os.path.join(CACHE_ROOT, "toolchain-" + key)
    target = os.path.join(final, "bin", "rustc")
    with _lock:
        if not (os.path.isfile(target) and root_owned(final, resolve=True)):
            os.makedirs(CACHE_ROOT, mode=0o755, exist_ok=True)
            os.chmod(CACHE_ROOT, 0o755)
            work = tempfile.mkdtemp(prefix=".build-", dir=CACHE_ROOT)
            try:
                os.chmod(work, 0o755)
                os.makedirs(os.path.join(work, "bin"), mode=0o755)
                for source, dest in (
                    (os.path.join(root, "bin", "rustc"), os.path.join(work, "bin", "rustc")),
                    (os.path.join(root, "lib"), os.path.join(work, "lib")),
                ):
                    done = subprocess.run(["cp", "-al", source, dest], capture_output=True, timeout=600)
                    if done.returncode != 0:
                        subprocess.run(["cp", "-a", source, dest], capture_output=True, timeout=600, check=True)
                os.rename(work, final)
            except (OSError, subprocess.SubprocessError):
                pass
            finally:
                shutil.rmtree(work, ignore_errors=True)
    return target if os.path.isfile(target) and root_owned(final, resolve=True) else rustc


def crate_project(work: str) -> None:
    """Write into ``work`` the cargo project whose build is the prebuilt crates: :data:`CRATES` as
    dependencies, crates.io replaced by Debian's directory source :data:`DEBIAN_REGISTRY`."""
    os.makedirs(os.path.join(work, "src"), exist_ok=True)
    os.makedirs(os.path.join(work, ".cargo"), exist_ok=True)
    deps = "".join(f'{name} = "{version}"\n' for name, version in CRATES.items())
    files = {
        "Cargo.toml": f'[package]\nname = "execir_crates"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n{deps}',
        "src/lib.rs": "",
        ".cargo/config.toml": f'[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "{DEBIAN_REGISTRY}"\n',
    }
    for name, text in files.items():
        with open(os.path.join(work, name), "w", encoding="utf-8") as handle:
            handle.write(text)


def cargo_of(rustc: str) -> str:
    """The ``cargo`` beside ``rustc``."""
    return os.path.join(os.path.dirname(rustc), "cargo")


def crates(rustc: str, version: str) -> dict[str, str]:
    """``--extern`` and ``-L`` arguments of the prebuilt crates, by name (``"-L"``: the deps
    folder), built once by a root oracle. :class:`ToolchainNotReady` (naming the packages, and the
    failing build's last lines) when they are not built and cannot be: Debian's sources missing, no
    ``cargo``, a failed build, or not root (the cache must be root's; a root ``execir doctor`` or
    ``make`` builds it)."""
    cargo = cargo_of(rustc)
    if not os.path.isdir(DEBIAN_REGISTRY):
        raise not_ready("rust", f"the crates {', '.join(CRATES)} (Debian's sources, {DEBIAN_REGISTRY}, are missing)", CRATE_PACKAGES.values())
    listing = sorted(os.listdir(DEBIAN_REGISTRY))
    absent = [name for name in CRATES if not any(entry.startswith(name + "-") and entry[len(name) + 1 : len(name) + 2].isdigit() for entry in listing)]
    if absent:
        missing = [CRATE_PACKAGES[name] for name in absent]
        raise not_ready("rust", f"the crate source of {', '.join(absent)} is not in {DEBIAN_REGISTRY}", missing)
    key = hashlib.sha256(repr((version, rustc, listing, CRATES)).encode()).hexdigest()[:16]
    final = os.path.join(CACHE_ROOT, key)
    index = os.path.join(final, "crates.json")
    with _lock:
        if not (os.path.isfile(index) and root_owned(final, resolve=True)):
            if os.geteuid() != 0:
                raise not_ready(
                    "rust",
                    f"the crates {', '.join(CRATES)} are not prebuilt yet (a root oracle builds them into {CACHE_ROOT}: run `execir doctor` once as root)",
                    (),
                )
            if not os.access(cargo, os.X_OK):
                raise not_ready("rust", f"cargo not found beside {rustc} (it builds the crates {', '.join(CRATES)})", ("cargo",))
            _build_crates(cargo, rustc, final)
        with open(index, encoding="utf-8") as handle:
            found: dict[str, str] = json.load(handle)
    return found


def _build_crates(cargo: str, rustc: str, final: str) -> None:
    """Build the crates into ``final`` (atomically), or raise :class:`ToolchainNotReady` with the
    build's last lines."""
    os.makedirs(CACHE_ROOT, mode=0o755, exist_ok=True)
    os.chmod(CACHE_ROOT, 0o755)
    work = tempfile.mkdtemp(prefix=".build-", dir=CACHE_ROOT)
    argv = [cargo, "build", "--offline", "--release", "--message-format=json"]
    try:
        crate_project(work)
        env = dict(os.environ, RUSTC=rustc, CARGO_HOME=os.path.join(work, "home"), CARGO_TARGET_DIR=os.path.join(work, "target"))
        done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=900)
        found: dict[str, str] = {}
        for line in done.stdout.splitlines():
            message = json.loads(line) if line.startswith("{") else {}
            target = message.get("target", {})
            if message.get("reason") == "compiler-artifact" and target.get("name") in CRATES:
                rlib = next((f for f in message.get("filenames", []) if f.endswith(".rlib")), None)
                if rlib:
                    found[target["name"]] = rlib.replace(work, final, 1)
        if done.returncode != 0 or set(found) != set(CRATES):
            rendered = [json.loads(line).get("message", {}).get("rendered", "") for line in done.stdout.splitlines() if line.startswith("{")]
            raise not_ready(
                "rust", f"the offline build of the crates {', '.join(CRATES)} failed", CRATE_PACKAGES.values(), argv, done.stderr + "".join(rendered)
            )
        found["-L"] = os.path.join(final, "target", "release", "deps")
        with open(os.path.join(work, "crates.json"), "w", encoding="utf-8") as handle:
            json.dump(found, handle)
        shutil.rmtree(os.path.join(work, "home"), ignore_errors=True)
        for root, _dirs, names in os.walk(work):
            os.chmod(root, 0o755)
            for entry in names:
                os.chmod(os.path.join(root, entry), 0o644)
        try:
            os.rename(work, final)
        except OSError:  # another oracle built it first
            pass
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        raise not_ready("rust", f"the offline build of the crates {', '.join(CRATES)} failed ({exc})", CRATE_PACKAGES.values(), argv) from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)


def target_libdir(rustc: str) -> str | None:
    """The folder of the toolchain's own target libraries, when it holds the standard library as a
    shared object (``libstd-*.so``, which rustup's and Debian's toolchains ship)."""
    try:
        done = subprocess.run([rustc, "--print", "target-libdir"], capture_output=True, text=True, timeout=60)
        folder = done.stdout.strip()
        found = done.returncode == 0 and any(n.startswith("libstd-") and n.endswith(".so") for n in os.listdir(folder))
    except (OSError, subprocess.SubprocessError):
        return None
    return folder if found else None


def dynamic_std(toolchain: Toolchain) -> list[str]:
    """``rustc`` flags that link an executable against the standard library's shared object, found
    at run time through a RUNPATH to the toolchain's (root-owned, read-only mounted) library
    folder: the link then writes a 50 KB executable, not 4 MB of static std (about 20 ms less CPU a
    link). Empty where the toolchain has no ``libstd-*.so`` or its folder is not root's."""
    folder = toolchain.paths.get("libdir")
    if not folder or not root_owned(folder, resolve=True):
        return []
    return ["-C", "prefer-dynamic", "-C", f"link-arg=-Wl,-rpath,{folder}"]


def extern_args(toolchain: Toolchain) -> list[str]:
    """``--extern name=path`` for every prebuilt crate, and ``-L dependency=`` their deps folder
    (only when the cache is still root's)."""
    listed = json.loads(toolchain.paths.get("crates", "{}"))
    if not listed or not root_owned(listed["-L"], resolve=True):
        return []
    args = []
    for name, path in sorted(listed.items()):
        if name != "-L":
            args += ["--extern", f"{name}={path}"]
    return [*args, "-L", f"dependency={listed['-L']}"]


def tests_module(tests: str) -> tuple[str, str, str]:
    """A random module name, the tests' module file (see the module docstring) and the line the
    program's file ends with to declare it."""
    name = "execir_" + secrets.token_hex(8)
    found = rust_source.test_functions(tests)
    listing = ", ".join(found.paths)
    text = f"#![allow(unused_imports)]\nuse super::*;\n{found.code}\npub fn execir_tests() -> &'static [fn()] {{\n    &[{listing}]\n}}\n"
    declare = f'\n#[cfg(test)]\n#[path = "{name}.rs"]\npub mod {name};\n'
    return name, text, declare


_RUST_FN = re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe)\s+)*fn\s+([A-Za-z_]\w*)", re.MULTILINE)
"""A top-level function of Rust source (column 0)."""


class RustRuntime(Runtime):
    def entry_name(self, reference: str, tests: str, hint: str) -> str:
        return pick_entry(_RUST_FN.findall(rust_source.mask(reference)), rust_source.mask(tests), hint)

    def discover(self) -> Toolchain:
        host_rustc, root = find_rustc()
        paths = self.require("cc", "sh", "rm", "cp", "chmod")
        version = self.version_of([host_rustc, "--version"])
        rustc = mirror(host_rustc, root, version)
        paths.update(rustc=rustc, sysroot=root)
        libdir = target_libdir(rustc)
        if libdir and libdir.startswith((CACHE_ROOT + "/", "/usr/")):  # where the sandbox can read it
            paths["libdir"] = libdir
        paths["crates"] = json.dumps(crates(host_rustc, version), sort_keys=True)
        from execir.execute.runtimes.rust_split import wire_library

        paths["wire"] = wire_library(rustc, version)
        return Toolchain(self.name, version, paths)

    def system_files(self, toolchain: Toolchain) -> tuple[str, ...]:
        """The programs and the manifest of every crate source the prebuilt crates' build resolved
        (its ``Cargo.lock``: the crates and the optional dependencies their default features pull)."""
        listed = json.loads(toolchain.paths.get("crates", "{}"))
        found: set[str] = set()
        if listed:
            lock = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(listed["-L"]))), "Cargo.lock")
            with open(lock, encoding="utf-8") as handle:
                text = handle.read()
            for name, version in re.findall(r'\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"', text):
                manifest = os.path.join(DEBIAN_REGISTRY, f"{name}-{version}", "Cargo.toml")
                if os.path.isfile(manifest):
                    found.add(manifest)
        return tuple(sorted({*super().system_files(toolchain), *found}))

    def rustc(self, toolchain: Toolchain, *flags: str) -> list[str]:
        return [toolchain.paths["rustc"], *flags, *extern_args(toolchain)]

    def native_plan(self, toolchain: Toolchain, program: str, tests: str) -> Plan:
        name, module, declare = tests_module(tests)
        files = {"main.rs": program + declare, f"{name}.rs": module, "runner.rs": RUNNER.replace("@MODULE@", name)}
        steps = [
            [*self.rustc(toolchain, *FLAGS, *PROGRAM_FLAGS), "main.rs", "-o", PROGRAM_LIBRARY],
            [
                *self.rustc(toolchain, *FLAGS, *dynamic_std(toolchain)),
                *("--crate-type", "bin", "--extern", f"execir_program={PROGRAM_LIBRARY}", "-L", ".", "runner.rs", "-o", "prog"),
            ],
        ]
        script = "set -e\n" + "".join(" ".join(shlex.quote(a) for a in step) + "\n" for step in steps)
        clean = remove_first(toolchain.paths["rm"], {*files, PROGRAM_LIBRARY})
        return Plan(files, (toolchain.paths["sh"], "-c", clean + HIDE_NONCE, "./prog"), (toolchain.paths["sh"], "-c", script))

    def stdio_plan(self, toolchain: Toolchain, program: str) -> Plan:
        return Plan({"main.rs": program}, ("./prog",), (*self.rustc(toolchain, *STDIO_FLAGS), "main.rs", "-o", "prog"))

    # ---- judged outside (see runtimes/rust_split.py) -------------------------------------------
    def record_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str) -> Plan | None:
        from execir.execute.runtimes import rust_split

        return rust_split.record_plan(toolchain, reference, tests, entry_point)

    def call_plan(self, toolchain: Toolchain, program: str, entry_point: str, reference: str) -> Plan:
        from execir.execute.runtimes import rust_split

        return rust_split.call_plan(toolchain, program, entry_point, reference)

    def judge_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
        from execir.execute.runtimes import rust_split

        return rust_split.judge_plan(toolchain, reference, tests, entry_point, calls, results)


RUNTIME = RustRuntime(
    "rust",
    (".rs",),
    ("rustc", "gcc", *CRATE_PACKAGES.values()),
    Profile(address_space=False, nproc=128, compile_cpu_seconds=20.0, compile_wall_seconds=60.0),
    mounts=(CACHE_ROOT,),
)
