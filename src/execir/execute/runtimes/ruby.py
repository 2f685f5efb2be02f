"""Ruby (MRI): MBXP style tests (top-level code that ``raise``\\ s on a mismatch) run by a trusted runner.

The run is ``ruby --disable-gems runner.rb`` (no RubyGems: ~8 ms of CPU per start instead of ~45;
the bundled gems' ``lib`` directories, e.g. ``prime`` and ``matrix``, are put on ``RUBYLIB`` so
``require`` finds them as RubyGems would). The compile step is ``ruby -c program.rb``: a syntax
error is an ERROR, like a compile error. The trusted runner (:data:`RUNNER`):

1. reads ``program.rb`` and ``tests.rb`` into memory and takes the nonce out of ``ENV`` before any
   candidate code runs, requires ``set`` (Ruby >= 3.2 has ``Set`` without a ``require``; MBXP's
   canonicals rely on that, ruby here is 3.1), freezes ``Module``, ``Class``, ``Method``,
   ``UnboundMethod`` (nothing legitimate patches them) and the class the tests run in;
2. records every method of the core classes the tests compare with (``Object``, ``Kernel``,
   ``BasicObject``, ``Array``, ``Hash``, ``String``, ``Integer``, ``Float``, ``Set``, ``Math``, ...);
3. ``load``\\ s the program; any exception (``exit`` raises ``SystemExit``) is a FAIL;
4. refuses the run (FAIL) when the program changed one of those methods, overrode an inherited one
   (``class Array; def !=(o) false end end``, ``class Object; def ==(o) true end end``) or changed
   an ancestor chain (``prepend``/``include``); new helper methods (``class Integer; def prime?``)
   and top-level functions are fine, except top-level ``raise``/``fail``/comparison operators;
5. freezes those classes but ``Object`` and ``Kernel`` (a nested ``def`` inside a function defines
   a method on ``Object`` when called; a lazy ``require 'json'`` adds to ``Kernel``), so the candidate
   cannot patch them while the tests call it. Each value class (``Array``, ``Integer``, ...) got its
   own copy of the comparison methods it inherits (``!=``, ``==``, ``equal?``, ...) before the
   program ran, so a method added to ``Object`` or ``Kernel`` during the tests cannot shadow them;
6. evaluates the tests as a top-level script in an instance of its own frozen class whose
   ``raise``/``fail`` are copies of the original ``Kernel#raise``: a candidate's ``def raise(*)``
   on ``Object`` or ``Kernel`` does not reach them;
7. writes the nonce to fd 3 only when the tests returned, then ``exit!(0)``: ``at_exit`` hooks never
   run; ``exit!(0)`` from the candidate leaves no record (FAIL).

Limits of this in-process protocol: a program written against this runner can forge the record
(read the nonce from ``/proc/self/environ`` or the runner's objects through ``ObjectSpace``, or patch
the core methods the runner's own checks call, e.g. ``Array#each``). A candidate's *own* class whose
``!=``/``==`` lies is not stopped: the tests compare with the candidate's object as the receiver
(``x0 != v0``). A test file that defines methods (``def``) fails (the tests' class is frozen);
MBXP's tests define none. A library ``require``\\ d lazily inside a function that reopens a frozen core
class (``require 'prime'`` inside the method) raises FrozenError (a top-level ``require`` works).
"""

from __future__ import annotations

import glob
import os

from execir.execute.runtimes.base import Plan, Profile, Runtime, Toolchain, harness_source

PROGRAM = "program.rb"
TESTS = "tests.rb"
RUNNER_NAME = "execir_runner.rb"
BUNDLED_GEMS = ("prime", "matrix", "rexml", "rss", "minitest", "test-unit", "power_assert", "rake", "net-ftp", "net-imap", "net-pop", "net-smtp")
"""Bundled gems (not default gems) whose ``lib`` directories go on ``RUBYLIB`` (RubyGems is off)."""

RUNNER = harness_source("ruby_runner.rb")


class RubyRuntime(Runtime):
    def discover(self) -> Toolchain:
        paths = self.require("ruby")
        found = []
        for name in BUNDLED_GEMS:
            found += sorted(glob.glob(f"/usr/lib/ruby/gems/*/gems/{name}-*/lib"))[-1:]
        paths = dict(paths, rubylib=os.pathsep.join(found))
        return Toolchain(self.name, self.version_of([paths["ruby"], "--version"]), paths)

    def _env(self, toolchain: Toolchain) -> dict[str, str]:
        env = {"LANG": "C.UTF-8"}
        if toolchain.paths.get("rubylib"):
            env["RUBYLIB"] = toolchain.paths["rubylib"]
        return env

    def native_plan(self, toolchain: Toolchain, program: str, tests: str) -> Plan:
        ruby = toolchain.paths["ruby"]
        files = {PROGRAM: program, TESTS: tests, RUNNER_NAME: RUNNER}
        return Plan(files, (ruby, "--disable-gems", RUNNER_NAME), (ruby, "--disable-gems", "-c", PROGRAM), self._env(toolchain))

    def stdio_plan(self, toolchain: Toolchain, program: str) -> Plan:
        ruby = toolchain.paths["ruby"]
        return Plan({PROGRAM: program}, (ruby, "--disable-gems", "-rset", PROGRAM), (ruby, "--disable-gems", "-c", PROGRAM), self._env(toolchain))


RUNTIME = RubyRuntime("ruby", (".rb",), ("ruby",), Profile(address_space=True, nproc=64, compile_cpu_seconds=10.0, compile_wall_seconds=60.0))
