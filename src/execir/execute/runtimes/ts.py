"""TypeScript: transpiled by the real ``tsc`` (npm ``typescript``), then run on Node exactly as
JavaScript is (:mod:`execir.execute.runtimes.js`, :mod:`execir.execute.runtimes.js_split`).

MBXP's harness (mxeval) writes ``prompt + solution + tests`` to one file, runs ``tsc f.ts --target
es5 --lib es2016`` and counts exit status 0 and 2 (type errors, output written) as compiled, then
``node f.js``. Here the program and the tests are never one file (a program that leaves a brace open
swallows mxeval's tests into a function nobody calls, and the file then "passes"), and the tests
never run in the candidate's process:

* **the candidate** (``program.ts``) is transpiled inside the sandbox as the plan's compile step
  (no candidate code has run yet, so the report is trusted) by the native ``tsc`` with
  :data:`TSC_FLAGS`: ``--noCheck`` (types never block, as in mxeval; type checking is also most of
  tsc's time), ``--noLib --noResolve`` (no ``lib.*.d.ts`` or imported file is read: emit does not
  depend on types), CommonJS output (``import``/``export`` become ``require``/``exports``, as
  mxeval's es5 target emitted), and TypeScript's always-strict emit (the concatenated file of
  mxeval is a module, so strict). With ``--noLib`` tsc always reports the ten "Cannot find global
  type" diagnostics (TS2318) and exits 2; the trusted compile script (:data:`COMPILE_SCRIPT`) drops
  those and fails the step (ERROR) when any other diagnostic is left (a syntax error: only those
  are reported under ``--noCheck``) or no ``program.js`` was written. ``--target es5`` is gone
  from TypeScript 7 (error TS5108): :data:`TARGET` is the oldest target it accepts, which keeps
  mxeval's assign semantics for class fields; native iteration replaces es5's array-only
  down-levelling (``[...new Set(xs)]`` is the set's elements, not ``[]``).
* **the reference and the tests** (trusted task data) are transpiled once per text, here on the
  host (:func:`transpile`, same binary and flags), and the record, calls and judge runs are
  JavaScript's: ``import * as assert from 'assert'`` is ``require("assert")`` in the record and
  judge runs (and the deep-frozen trusted module in the in-process runner).

Speed (measured here, MBTSP/1, 30 runs each, native tsc 7.0.2): ``tsc --noCheck --noLib`` 4.6 ms
CPU; with ``--lib es2016`` 15 ms; with type checking 38 ms; the npm ``tsc`` shim (a node process
that starts the native binary) adds about 70 ms to any of them. The record and judge runs go to
JavaScript's warm trusted runner (:func:`execir.execute.runtimes.js_split.trusted_spec`: a fresh V8
context per run, about 3 ms of CPU instead of a node start of about 29 ms in the sandbox), so a
check is the candidate's transpile and its calls run; tsc 7 has no server that emits JavaScript
(``--lsp`` answers editor requests), and the transpile stays the sandbox's compile step.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import threading
from collections import OrderedDict
from dataclasses import replace

from execir.execute.runtimes import js, js_split
from execir.execute.runtimes.base import Plan, Profile, Runtime, Toolchain, ToolchainMissing
from execir.execute.sandbox.trusted_runner import TrustedSpec

SOURCE = "program.ts"
OUTPUT = "program.js"
TARGET = "es2016"
TSC_FLAGS = ("--noCheck", "--noLib", "--noResolve", "--target", TARGET, "--module", "commonjs", "--pretty", "false", "--singleThreaded")
"""Flags of every transpile (candidate, reference, tests): see the module docstring."""
ALWAYS_REPORTED = "error TS2318: Cannot find global type"
"""The diagnostics ``--noLib`` always reports (the global types tsc would take from the lib files)."""

COMPILE_SCRIPT = (
    'log=$("$0" "$@" 2>&1)\n'
    "bad=0\n"
    "while IFS= read -r line; do\n"
    '  case $line in\n    *"' + ALWAYS_REPORTED + '"*|"") ;;\n    *) printf "%s\\n" "$line"; bad=1 ;;\n  esac\n'
    "done <<EOF\n$log\nEOF\n"
    '[ "$bad" = 0 ] && [ -f ' + OUTPUT + " ]\n"
)
"""``sh -c`` compile step (``$0`` is tsc, ``"$@"`` its flags and ``program.ts``): tsc's output minus
the always-reported lines is the log; the step succeeds only when nothing else was reported and
``program.js`` exists. Shell built-ins only (no other process than tsc)."""

GLOBAL_MODULES = ("/usr/lib/node_modules", "/usr/local/lib/node_modules")
"""Where ``npm install -g typescript`` puts the package (npm's global folder under /usr, bound
read-only into the sandbox)."""


def native_tsc() -> str | None:
    """The native compiler of the global ``typescript`` package (TypeScript 7: a Go binary in the
    platform package ``@typescript/typescript-<os>-<arch>``), not the npm shim (a node process that
    starts it: about 70 ms more per compile)."""
    for root in GLOBAL_MODULES:
        patterns = (
            os.path.join(root, "typescript", "node_modules", "@typescript", "typescript-linux-*", "lib", "tsc"),
            os.path.join(root, "@typescript", "typescript-linux-*", "lib", "tsc"),
        )
        for pattern in patterns:
            for found in sorted(glob.glob(pattern)):
                if os.access(found, os.X_OK):
                    return found
    return None


class TranspileCache:
    """The host's transpiles of trusted texts (references, tests), by (tsc, text); bounded."""

    def __init__(self, size: int = 512) -> None:
        self._lock = threading.Lock()
        self._found: OrderedDict[tuple[str, str], tuple[str, str]] = OrderedDict()
        self._size = size

    def get(self, tsc: str, source: str) -> tuple[str, str]:
        key = (tsc, source)
        with self._lock:
            if key in self._found:
                self._found.move_to_end(key)
                return self._found[key]
        found = _transpile(tsc, source)
        with self._lock:
            self._found[key] = found
            while len(self._found) > self._size:
                self._found.popitem(last=False)
        return found


def _transpile(tsc: str, source: str) -> tuple[str, str]:
    with tempfile.TemporaryDirectory(prefix="execir-ts-") as work:
        with open(os.path.join(work, SOURCE), "w", encoding="utf-8", errors="surrogateescape") as handle:
            handle.write(source)
        done = subprocess.run([tsc, *TSC_FLAGS, SOURCE], cwd=work, env={"LANG": "C.UTF-8"}, capture_output=True, timeout=120)
        log = (done.stdout + done.stderr).decode("utf-8", "replace")
        errors = "\n".join(line for line in log.splitlines() if line.strip() and ALWAYS_REPORTED not in line)
        output = os.path.join(work, OUTPUT)
        if not os.path.exists(output):
            return "", errors or f"tsc wrote no output (exit status {done.returncode})"
        with open(output, encoding="utf-8", errors="surrogateescape") as handle:
            return handle.read(), errors


CACHE = TranspileCache()


def transpile(toolchain: Toolchain, source: str) -> tuple[str, str]:
    """``source`` (trusted: a reference or tests) as JavaScript, with tsc's diagnostics ("" when
    none besides the always-reported ones); the JavaScript is tsc's output even when it reported
    a syntax error ("" when it wrote none)."""
    return CACHE.get(toolchain.paths["tsc"], source)


class TsRuntime(Runtime):
    def discover(self) -> Toolchain:
        base = js.RUNTIME.discover()
        tsc = native_tsc() or shutil.which("tsc", path="/usr/local/bin:/usr/bin:/bin")
        if tsc is None:
            raise ToolchainMissing(f"{self.name}: tsc not found; install it with `npm install -g typescript` (make does this when run as root)")
        version = self.version_of([tsc, "--version"])
        return Toolchain(self.name, f"{version}; node {base.version}", dict(base.paths, tsc=tsc))

    def _compile(self, toolchain: Toolchain) -> tuple[str, ...]:
        return (toolchain.paths["sh"], "-c", COMPILE_SCRIPT, toolchain.paths["tsc"], *TSC_FLAGS, SOURCE)

    def _env(self, toolchain: Toolchain) -> dict[str, str]:
        env = {"LANG": "C.UTF-8", "GOMAXPROCS": "1"}
        if toolchain.paths.get("node_path"):
            env["NODE_PATH"] = toolchain.paths["node_path"]
        return env

    def _candidate(self, toolchain: Toolchain, plan: Plan, program: str) -> Plan:
        """``plan`` (JavaScript's) with ``program`` as TypeScript, transpiled by the compile step."""
        files = {name: text for name, text in plan.files.items() if name != OUTPUT}
        files[SOURCE] = program
        return replace(plan, files=files, compile=self._compile(toolchain), env=dict(plan.env, **self._env(toolchain)))

    def native_plan(self, toolchain: Toolchain, program: str, tests: str) -> Plan:
        tests_js, _ = transpile(toolchain, tests)
        return self._candidate(toolchain, js.RUNTIME.native_plan(toolchain, "", tests_js), program)

    def stdio_plan(self, toolchain: Toolchain, program: str) -> Plan:
        return self._candidate(toolchain, js.RUNTIME.stdio_plan(toolchain, ""), program)

    # judged outside: JavaScript's three runs over the transpiled reference and tests
    def record_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str) -> Plan | None:
        reference_js, errors = transpile(toolchain, reference)
        tests_js, test_errors = transpile(toolchain, tests)
        if errors or test_errors or not reference_js or not tests_js:
            return None
        return js_split.record_plan(toolchain.paths["node"], self._env(toolchain), reference_js, tests_js, entry_point)

    def call_plan(self, toolchain: Toolchain, program: str, entry_point: str, reference: str) -> Plan:
        reference_js, _ = transpile(toolchain, reference)
        plan = js_split.call_plan(toolchain.paths["node"], self._env(toolchain), "", entry_point, reference_js)
        return self._candidate(toolchain, plan, program)

    def judge_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
        reference_js, _ = transpile(toolchain, reference)
        tests_js, _ = transpile(toolchain, tests)
        return js_split.judge_plan(toolchain.paths["node"], self._env(toolchain), reference_js, tests_js, entry_point, calls, results)

    def trusted_specs(self, toolchain: Toolchain) -> tuple[TrustedSpec, ...]:
        """JavaScript's warm runner (the record and judge runs are JavaScript's)."""
        return (js_split.trusted_spec(toolchain.paths["node"]),)


RUNTIME = TsRuntime("typescript", (".ts", ".mts", ".cts"), ("nodejs",), Profile(address_space=False, nproc=64), mounts=(js.SNAPSHOT_ROOT,))
