"""JavaScript (Node): HumanEval-X style tests (``console.assert`` calls after the program) run by a
trusted runner.

A job with the task's reference is judged outside the candidate's process instead (record, the
candidate's calls, a trusted judge: :mod:`execir.execute.runtimes.js_split`); what follows is the
in-process protocol, kept for jobs without a reference and tests whose record run fails.

``node`` prints a failed ``console.assert`` and carries on, so a harness that trusts the exit status
passes every wrong program (and hides wrong canonicals). Here the run is a fresh ``node`` started
from the trusted runner's start-up snapshot (see Speed below), or ``node execir_runner.js`` where
there is none; the trusted runner (:data:`RUNNER`):

1. is started by ``/bin/sh`` (:data:`~execir.execute.runtimes.base.HIDE_NONCE`), which moves the
   nonce from the environment into ``.execir-nonce`` and ``exec``\\ s node, so
   ``/proc/self/environ`` never shows it; captures ``fs.writeSync`` and ``process.reallyExit``,
   reads ``.execir-nonce``, ``program.js`` and ``tests.js`` into memory and deletes the nonce's and
   the tests' files before any candidate code runs;
2. replaces ``console.assert`` with a version that throws, as a non-writable, non-configurable
   property of a ``console`` that is itself a non-writable, non-configurable global; ``require`` and
   each ECMAScript global the tests' text names (``JSON``, ``Math``, ``Object``, ...) become
   non-writable, non-configurable too, so ``console = {...}`` does nothing and a top-level ``const
   JSON`` in the program is a SyntaxError when the tests use ``JSON`` (a script may not shadow a
   restricted global); a global the tests never name stays the program's to declare (``function
   escape``, ``const isFinite``). ``require`` does not serve ``v8``, ``inspector`` or ``module``
   (heap snapshots and debugger sessions read the tests' text and closures);
3. loads ``assert`` (under each of its names) and every module the tests ``require`` itself,
   deep-freezes them, and serves them to ``require`` (a trusted wrapper) before Node's loader:
   patching ``require('assert')`` or ``Module._load`` cannot disarm the tests;
4. records every property of the intrinsics (reachable from those globals), runs the program as a
   *script* in this context (``vm.Script#runInThisContext``: top-level ``return`` is a SyntaxError,
   not an early exit as in a CommonJS module), then refuses the run (FAIL) when it changed or deleted
   an existing property, changed a prototype, or added ``toJSON``, a symbol (``Symbol.toPrimitive``)
   or an index property to an intrinsic. New helper methods (``Array.prototype.sum = ...``) are fine;
5. freezes the intrinsics (with SES-style setters for ``constructor``/``toString``/``valueOf``/
   ``message``/``name`` so assigning them on ordinary objects still works), so the candidate cannot
   patch them while the tests call it;
6. runs the tests as a second script in the same context (they see the program's top-level
   declarations as a concatenated file would), wrapped in a strict function of their own: their
   declarations are not globals the program could read (``String(testAdd)``), and a strict caller is
   hidden from the program's functions (``add.caller`` is null, a stack frame's ``getFunction()``
   undefined). Only if they return without an exception it writes
   the nonce to fd 3 and exits at once (``process.reallyExit(0)``): timers, promises, ``exit``
   handlers, ``process.exitCode`` of the candidate never run or never matter; ``process.exit(0)``
   anywhere before leaves no record (FAIL).

The program and the tests are two scripts rather than one concatenated file so that the program's
text cannot change how the tests parse (an unclosed comment, a dangling expression) and so that the
runner can check and freeze the intrinsics between them. The tests must finish synchronously (all of
HumanEval-X's do); promises they create are never awaited. A syntax error in the program is a FAIL,
not an ERROR (there is no compile step: ``node --check`` would double the cost of every check).

Limits of this in-process protocol: a program written against this runner could still look for the
nonce or the tests' text in its own memory (``/proc/self/mem``) and forge the record. A candidate's
own object can satisfy only loose (``==``) comparisons whose expected value it already knows. A
program that adds a property to a built-in *during a call* (``Array.prototype.total = ...`` inside
the function) has it ignored, or a TypeError in strict code: the built-ins are frozen once the
program has loaded (adding them at the top level works).

Speed: node's own start dominates a check (``node -e 0``: about 23 ms CPU here); the runner's
preparation added about 11 ms more (walking and recording ~590 intrinsics and 1,760 properties,
loading and freezing ``assert``). That preparation (steps 2 and 3 for ``assert``, and the record of
step 4) reads no candidate input, so a root oracle runs it once, into a V8 start-up snapshot
(``node --build-snapshot``, trusted code, clean environment, :data:`NODE_FLAGS`) under
:data:`SNAPSHOT_ROOT`: root-owned, checked like C++'s precompiled headers and Java's class-data
archives, bound read-only into the sandbox through this runtime's ``mounts``. Every run is still a
fresh process (``node --snapshot-blob``) deserialised from that immutable file, with nothing of any
earlier run; it starts at the runner's ``run()`` (nonce, program, tests, the modules the tests
require, steps 4 to 6). A snapshot is keyed by the node binary (path, size, mtime, inode), its
version, the runner and the flags; it is checked (a right program passes, a wrong one fails) before
it is installed, and a plan uses it only while it is still root's and the node binary unchanged,
else the plain runner. Measured per run (CPU, runner + HumanEval-X JS/0): 34-38 ms plain, 27-30 ms
from the snapshot.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile

from execir.execute.runtimes import js_split
from execir.execute.runtimes.base import HIDE_NONCE, NONCE_FILE, Plan, Profile, Runtime, Toolchain, harness_source, root_owned
from execir.execute.sandbox.trusted_runner import TrustedSpec

PROGRAM = "program.js"
TESTS = "tests.js"
RUNNER_NAME = "execir_runner.js"
INTRINSICS = (
    "Object Function Array Number parseFloat parseInt Boolean String Symbol Date Promise RegExp Error AggregateError EvalError RangeError "
    "ReferenceError SyntaxError TypeError URIError globalThis JSON Math Intl ArrayBuffer Uint8Array Int8Array Uint16Array Int16Array "
    "Uint32Array Int32Array Float32Array Float64Array Uint8ClampedArray BigUint64Array BigInt64Array DataView Map BigInt Set WeakMap "
    "WeakSet Proxy Reflect decodeURI decodeURIComponent encodeURI encodeURIComponent escape unescape eval isFinite isNaN console "
    "structuredClone"
).split()
"""Globals made non-writable and non-configurable before the program runs (``console`` always, the others when the tests name them); all but ``console``,
``globalThis`` and ``structuredClone`` are also walked, checked and frozen as intrinsics."""

RUNNER = harness_source("js_runner.js").replace("__INTRINSICS__", json.dumps(INTRINSICS))
"""The trusted runner, as run (plain) or as built into the start-up snapshot."""

NODE_FLAGS = ("--no-rehash-snapshot",)
"""Flags of ``node`` with the runner's snapshot (the same at its build and at every run, or node
refuses it): keep the hash seed the snapshot was built with instead of re-hashing every table of
the heap at start-up (about 2.5 ms of a 32 ms start, measured). A known seed only lets a program
collide its own hash tables, inside its own CPU budget. Not used without the snapshot: with node's
built-in snapshot (built without it) the flag made the plain runner about 4 ms slower, measured."""

GLOBAL_MODULES = "/usr/lib/node_modules"
"""npm's global folder (``npm install -g js-md5``: HumanEval-X JS/162 requires it); on ``NODE_PATH``."""

SNAPSHOT_ROOT = "/var/cache/execir-js"
"""Root-owned start-up snapshots of the trusted runner (one per node binary, version and runner
text), built once by a root oracle with no candidate input and bound read-only into the sandbox."""
SNAPSHOT_NAME = "runner.blob"
_CHECK_PROGRAM = "const add = (a, b) => a + b\n"
_CHECK_TESTS = "console.assert(add(2, 3) === 5)\nconsole.assert(JSON.stringify([add(1, 1)]) === '[2]')\n"


def _node_identity(node: str) -> str:
    """The node binary as it is now: a node upgraded in place is another binary."""
    info = os.stat(node)
    return f"{os.path.realpath(node)}:{info.st_size}:{info.st_mtime_ns}:{info.st_ino}"


def _snapshot_key(identity: str, version: str) -> str:
    """Everything a snapshot depends on: the node binary, its version, the runner, the flags."""
    return hashlib.sha256(repr((identity, version, RUNNER, NODE_FLAGS)).encode()).hexdigest()[:16]


def _snapshot_works(node: str, blob: str) -> bool:
    """The snapshot passes a right program and fails a wrong one (run here, by trusted code, with
    fd 3 on stdout)."""
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="execir-js-check-") as work:
        for program in (_CHECK_PROGRAM, _CHECK_PROGRAM.replace("a + b", "a - b")):
            for name, text in ((PROGRAM, program), (TESTS, _CHECK_TESTS), (NONCE_FILE, "execir-check\n")):
                with open(os.path.join(work, name), "w", encoding="utf-8") as handle:
                    handle.write(text)
            argv = ["/bin/sh", "-c", 'exec "$@" 3>&1', "sh", node, *NODE_FLAGS, "--snapshot-blob", blob]
            done = subprocess.run(argv, cwd=work, env={"LANG": "C.UTF-8"}, capture_output=True, timeout=60)
            outcomes.append((done.returncode, done.stdout))
    return outcomes == [(0, b"execir-check\n"), (1, b"")]


def runner_snapshot(node: str, version: str, identity: str) -> str | None:
    """The runner's start-up snapshot: found, or built (as root, once per key, verified before it is
    installed); None when there is none (not root, the build or its check failed)."""
    final = os.path.join(SNAPSHOT_ROOT, _snapshot_key(identity, version), SNAPSHOT_NAME)
    if os.path.exists(final) or os.geteuid() != 0:
        return final if root_owned(final) else None
    try:
        os.makedirs(SNAPSHOT_ROOT, mode=0o755, exist_ok=True)
        os.chmod(SNAPSHOT_ROOT, 0o755)
        folder = tempfile.mkdtemp(prefix=".build-", dir=SNAPSHOT_ROOT)
        try:
            with open(os.path.join(folder, RUNNER_NAME), "w", encoding="utf-8") as handle:
                handle.write(RUNNER)
            blob = os.path.join(folder, SNAPSHOT_NAME)
            argv = [node, *NODE_FLAGS, "--snapshot-blob", blob, "--build-snapshot", RUNNER_NAME]
            built = subprocess.run(argv, cwd=folder, env={"LANG": "C.UTF-8"}, capture_output=True, timeout=300)
            os.unlink(os.path.join(folder, RUNNER_NAME))
            if built.returncode != 0 or not os.path.isfile(blob):
                return None
            os.chmod(blob, 0o644)
            os.chmod(folder, 0o755)
            if not _snapshot_works(node, blob):
                return None
            try:
                os.rename(folder, os.path.dirname(final))
            except OSError:  # another oracle installed it first
                pass
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return final if root_owned(final) else None


def _usable(snapshot: str, node: str, identity: str) -> bool:
    """Still there, still trusted, still for this node binary (one upgraded in place would refuse
    the snapshot: the plain runner is used until the toolchain is discovered again)."""
    try:
        return _node_identity(node) == identity and root_owned(snapshot)
    except OSError:
        return False


class JsRuntime(Runtime):
    def discover(self) -> Toolchain:
        paths = self.require("node", "sh")
        if os.path.isdir(GLOBAL_MODULES):
            paths = dict(paths, node_path=GLOBAL_MODULES)
        version = self.version_of([paths["node"], "--version"])
        identity = _node_identity(paths["node"])
        snapshot = runner_snapshot(paths["node"], version, identity)
        if snapshot:
            paths.update({"runner-snapshot": snapshot, "node-identity": identity})
        return Toolchain(self.name, version, paths)

    def _env(self, toolchain: Toolchain) -> dict[str, str]:
        env = {"LANG": "C.UTF-8"}
        if toolchain.paths.get("node_path"):
            env["NODE_PATH"] = toolchain.paths["node_path"]
        return env

    def native_plan(self, toolchain: Toolchain, program: str, tests: str) -> Plan:
        node, snapshot = toolchain.paths["node"], toolchain.paths.get("runner-snapshot")
        hide = (toolchain.paths["sh"], "-c", HIDE_NONCE)
        if snapshot and _usable(snapshot, node, toolchain.paths.get("node-identity", "")):
            return Plan({PROGRAM: program, TESTS: tests}, (*hide, node, *NODE_FLAGS, "--snapshot-blob", snapshot), env=self._env(toolchain))
        return Plan({PROGRAM: program, TESTS: tests, RUNNER_NAME: RUNNER}, (*hide, node, RUNNER_NAME), env=self._env(toolchain))

    def stdio_plan(self, toolchain: Toolchain, program: str) -> Plan:
        return Plan({PROGRAM: program}, (toolchain.paths["node"], PROGRAM), env=self._env(toolchain))

    # judged outside: see :mod:`execir.execute.runtimes.js_split`
    def record_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str) -> Plan | None:
        return js_split.record_plan(toolchain.paths["node"], self._env(toolchain), reference, tests, entry_point)

    def call_plan(self, toolchain: Toolchain, program: str, entry_point: str, reference: str) -> Plan:
        return js_split.call_plan(toolchain.paths["node"], self._env(toolchain), program, entry_point, reference)

    def judge_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
        return js_split.judge_plan(toolchain.paths["node"], self._env(toolchain), reference, tests, entry_point, calls, results)

    def trusted_specs(self, toolchain: Toolchain) -> tuple[TrustedSpec, ...]:
        return (js_split.trusted_spec(toolchain.paths["node"]),)


RUNTIME = JsRuntime("js", (".js", ".mjs"), ("nodejs",), Profile(address_space=False, nproc=64), mounts=(SNAPSHOT_ROOT,))
