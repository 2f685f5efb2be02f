"""Ruby (MRI): MBXP style tests (top-level code that ``raise``\\ s on a mismatch).

With the task's reference they are judged outside the candidate's process
(:mod:`execir.execute.runtimes.ruby_split`); without one, or when they cannot be split, they run
in-process under the trusted runner described here.

The run is ``ruby --disable-gems runner.rb`` (no RubyGems: ~8 ms of CPU per start instead of ~45;
the bundled gems' ``lib`` directories, e.g. ``prime`` and ``matrix``, are put on ``RUBYLIB`` so
``require`` finds them as RubyGems would). The compile step is ``ruby -c program.rb``: a syntax
error is an ERROR, like a compile error. The trusted runner (:data:`RUNNER`):

1. is started by ``/bin/sh`` (:data:`~execir.execute.runtimes.base.HIDE_NONCE`), which moves the
   nonce from the environment into ``.execir-nonce`` and ``exec``\\ s ruby, so ``/proc/self/environ``
   never shows it; reads and deletes ``.execir-nonce`` and ``tests.rb`` before any candidate code
   runs (the nonce and the tests' text are locals of the runner's ``main``, not constants), requires
   ``set`` (Ruby >= 3.2 has ``Set`` without a ``require``; MBXP's canonicals rely on that, ruby here
   is 3.1), ``bigdecimal`` and ``objspace``;
2. disarms introspection: ``TracePoint.new``/``trace``, ``set_trace_func`` (they see every frame's
   locals: a hook could copy each expected ``vN`` into ``xN``) and every heap walk of
   ``ObjectSpace`` (``each_object``, ``dump_all``, ``reachable_objects_from``, ... : they find the
   tests' text) are removed, and ``TracePoint``, ``ObjectSpace``, ``Method`` and ``UnboundMethod``
   frozen;
3. records every method of the core classes the tests compare with (``Object``, ``Kernel``,
   ``Module``, ``Class``, ``BasicObject``, ``Array``, ``Hash``, ``String``, ``Integer``, ``Float``,
   ``BigDecimal``, ``Set``, ``Math``, ...), then ``load``\\ s the program (through a ``Kernel#load``
   captured before it; its own ``def eval`` or ``def binding`` never reaches the runner); any
   exception (``exit`` raises ``SystemExit``) is a FAIL;
4. refuses the run (FAIL) when the program changed one of those methods, overrode an inherited one
   (``class Array; def !=(o) false end end``, ``class Object; def ==(o) true end end``) or changed
   an ancestor chain (``prepend``/``include``); new helper methods (``class Integer; def prime?``)
   and top-level functions are fine, except top-level ``raise``/``fail``/comparison operators;
5. freezes those classes but ``Object``, ``Kernel``, ``Module`` and ``Class`` (a nested ``def``
   inside a function defines a method on ``Object`` when called; a lazy ``require 'json'`` adds to
   ``Kernel`` and ``Class``), so the candidate cannot patch them while the tests call it. Each value
   class (``Array``, ``Integer``, ...) got its own copy of the comparison methods it inherits
   (``!=``, ``==``, ``equal?``, ...) before the program ran, so a method added to ``Object`` or
   ``Kernel`` during the tests cannot shadow them;
6. evaluates the tests (``Kernel#eval`` captured before the program) in an instance of an anonymous
   class made after the program loaded, whose ``raise``/``fail`` are copies of the original
   ``Kernel#raise``, and through which each function the program defined is reached by a wrapper:
   after every call from the tests the returned value and the arguments are walked (through arrays,
   hashes, sets, ranges, complex numbers) with methods captured before the program ran, and the run
   is refused (FAIL) when anything in them has singleton methods (``def r.!=``, ``extend``) or is an
   object whose comparison methods (``==``, ``!=``, ``eql?``, ``hash``, ``<=>``, ...) come from a
   module the program made (its own class with a lying ``==``, a subclass of ``Array`` including such
   a module). The program's own objects without comparisons of their own, ``Struct``\\ s and
   subclasses of the core classes that only inherit pass;
7. writes the nonce to fd 3 only when the tests returned, then ``exit!(0)``: ``at_exit`` hooks never
   run; ``exit!(0)`` from the candidate leaves no record (FAIL).

Limits of this in-process protocol: a program written against this runner could still look for
the nonce or the tests' text in its own memory (``/proc/self/mem``) and forge the record. A test
file that defines methods (``def``) fails (the tests' class is frozen); MBXP's tests define none. A
library ``require``\\ d lazily inside a function that reopens a frozen core class (adding to
``Enumerable`` inside the method) raises FrozenError (a top-level ``require`` works); redefining an
existing core method, even compatibly, is refused.
"""

from __future__ import annotations

import glob
import os
import re

from execir.execute.runtimes import ruby_split
from execir.execute.runtimes.base import HIDE_NONCE, Plan, Profile, Runtime, Toolchain, harness_source, pick_entry
from execir.execute.sandbox.trusted_runner import TrustedSpec

PROGRAM = "program.rb"
TESTS = "tests.rb"
RUNNER_NAME = "execir_runner.rb"
BUNDLED_GEMS = ("prime", "matrix", "rexml", "rss", "minitest", "test-unit", "power_assert", "rake", "net-ftp", "net-imap", "net-pop", "net-smtp")
"""Bundled gems (not default gems) whose ``lib`` directories go on ``RUBYLIB`` (RubyGems is off)."""

RUNNER = harness_source("ruby_runner.rb")


_RUBY_DEF = re.compile(r"^def\s+(?:self\.)?([A-Za-z_]\w*[?!]?)", re.MULTILINE)
"""A top-level method of Ruby source (column 0)."""


class RubyRuntime(Runtime):
    def entry_name(self, reference: str, tests: str, hint: str) -> str:
        return pick_entry(_RUBY_DEF.findall(reference), tests, hint, parens=False)

    def discover(self) -> Toolchain:
        paths = self.require("ruby", "sh")
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
        run = (toolchain.paths["sh"], "-c", HIDE_NONCE, ruby, "--disable-gems", RUNNER_NAME)
        return Plan(files, run, (ruby, "--disable-gems", "-c", PROGRAM), self._env(toolchain))

    def stdio_plan(self, toolchain: Toolchain, program: str) -> Plan:
        ruby = toolchain.paths["ruby"]
        return Plan({PROGRAM: program}, (ruby, "--disable-gems", "-rset", PROGRAM), (ruby, "--disable-gems", "-c", PROGRAM), self._env(toolchain))

    # ---- judged outside: see :mod:`execir.execute.runtimes.ruby_split` ---------------------
    def record_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str) -> Plan | None:
        return ruby_split.record_plan(toolchain, self._env(toolchain), reference, tests, entry_point)

    def call_plan(self, toolchain: Toolchain, program: str, entry_point: str, reference: str) -> Plan:
        return ruby_split.call_plan(toolchain, self._env(toolchain), program, entry_point)

    def judge_plan(self, toolchain: Toolchain, reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
        return ruby_split.judge_plan(toolchain, self._env(toolchain), reference, tests, entry_point, calls, results)

    def syntax_plan(self, toolchain: Toolchain, program: str) -> Plan:
        return ruby_split.syntax_plan(toolchain, self._env(toolchain), program)

    def trusted_specs(self, toolchain: Toolchain) -> tuple[TrustedSpec, ...]:
        return (ruby_split.trusted_spec(toolchain),)


RUNTIME = RubyRuntime("ruby", (".rb",), ("ruby",), Profile(address_space=True, nproc=64, compile_cpu_seconds=10.0, compile_wall_seconds=60.0))
