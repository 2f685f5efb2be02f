"""JavaScript (Node): HumanEval-X style tests (``console.assert`` calls after the program) run by a
trusted runner.

``node`` prints a failed ``console.assert`` and carries on, so a harness that trusts the exit status
passes every wrong program (and hides wrong canonicals). Here the run is ``node execir_runner.js``;
the trusted runner (:data:`RUNNER`):

1. reads ``program.js`` and ``tests.js`` into memory, captures ``fs.writeSync`` and
   ``process.reallyExit`` and deletes the nonce from ``process.env`` before any candidate code runs;
2. replaces ``console.assert`` with a version that throws, as a non-writable, non-configurable
   property of a ``console`` that is itself a non-writable, non-configurable global; the ECMAScript
   globals (``JSON``, ``Math``, ``Object``, ``Array``, ...) and ``require`` become non-writable,
   non-configurable too, so ``console = {...}`` does nothing and a top-level ``const console`` or
   ``const JSON`` in the program is a SyntaxError (a script may not shadow a restricted global);
3. loads every module the tests ``require`` (and ``assert``) itself, deep-freezes it, and serves it to
   ``require`` (a trusted wrapper) before Node's loader: patching ``require('assert')`` or
   ``Module._load`` cannot disarm the tests;
4. records every property of the intrinsics (reachable from those globals), runs the program as a
   *script* in this context (``vm.Script#runInThisContext``: top-level ``return`` is a SyntaxError,
   not an early exit as in a CommonJS module), then refuses the run (FAIL) when it changed or deleted
   an existing property, changed a prototype, or added ``toJSON``, a symbol (``Symbol.toPrimitive``)
   or an index property to an intrinsic. New helper methods (``Array.prototype.sum = ...``) are fine;
5. freezes the intrinsics (with SES-style setters for ``constructor``/``toString``/``valueOf``/
   ``message``/``name`` so assigning them on ordinary objects still works), so the candidate cannot
   patch them while the tests call it;
6. runs the tests as a second script in the same context (they see the program's top-level
   declarations as a concatenated file would), and only if they return without an exception writes
   the nonce to fd 3 and exits at once (``process.reallyExit(0)``): timers, promises, ``exit``
   handlers, ``process.exitCode`` of the candidate never run or never matter; ``process.exit(0)``
   anywhere before leaves no record (FAIL).

The program and the tests are two scripts rather than one concatenated file so that the program's
text cannot change how the tests parse (an unclosed comment, a dangling expression) and so that the
runner can check and freeze the intrinsics between them. The tests must finish synchronously (all of
HumanEval-X's do); promises they create are never awaited. A syntax error in the program is a FAIL,
not an ERROR (there is no compile step: ``node --check`` would double the cost of every check).

Limits of this in-process protocol: a program written against this runner can forge the record (the
nonce is still in ``/proc/self/environ``). A candidate's own object can satisfy only loose (``==``)
comparisons whose expected value it already knows.
"""

from __future__ import annotations

import json
import os

from execir.execute.runtimes.base import Plan, Profile, Runtime, Toolchain, harness_source

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
"""Globals made non-writable and non-configurable before the program runs; all but ``console``,
``globalThis`` and ``structuredClone`` are also walked, checked and frozen as intrinsics."""

RUNNER = harness_source("js_runner.js")


GLOBAL_MODULES = "/usr/lib/node_modules"
"""npm's global folder (``npm install -g js-md5``: HumanEval-X JS/162 requires it); on ``NODE_PATH``."""


class JsRuntime(Runtime):
    def discover(self) -> Toolchain:
        paths = self.require("node")
        if os.path.isdir(GLOBAL_MODULES):
            paths = dict(paths, node_path=GLOBAL_MODULES)
        return Toolchain(self.name, self.version_of([paths["node"], "--version"]), paths)

    def _env(self, toolchain: Toolchain) -> dict[str, str]:
        env = {"LANG": "C.UTF-8"}
        if toolchain.paths.get("node_path"):
            env["NODE_PATH"] = toolchain.paths["node_path"]
        return env

    def native_plan(self, toolchain: Toolchain, program: str, tests: str) -> Plan:
        files = {PROGRAM: program, TESTS: tests, RUNNER_NAME: RUNNER.replace("__INTRINSICS__", json.dumps(INTRINSICS))}
        return Plan(files, (toolchain.paths["node"], RUNNER_NAME), env=self._env(toolchain))

    def stdio_plan(self, toolchain: Toolchain, program: str) -> Plan:
        return Plan({PROGRAM: program}, (toolchain.paths["node"], PROGRAM), env=self._env(toolchain))


RUNTIME = JsRuntime("js", (".js", ".mjs"), ("nodejs",), Profile(address_space=False, nproc=64))
