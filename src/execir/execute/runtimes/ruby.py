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

from execir.execute.runtimes.base import Plan, Profile, Runtime, Toolchain

PROGRAM = "program.rb"
TESTS = "tests.rb"
RUNNER_NAME = "execir_runner.rb"
BUNDLED_GEMS = ("prime", "matrix", "rexml", "rss", "minitest", "test-unit", "power_assert", "rake", "net-ftp", "net-imap", "net-pop", "net-smtp")
"""Bundled gems (not default gems) whose ``lib`` directories go on ``RUBYLIB`` (RubyGems is off)."""

RUNNER = r"""# frozen_string_literal: true
# ExecIR's trusted runner: see execir/execute/runtimes/ruby.py.
module ExecIRRunner
  NONCE = ENV.delete("EXECIR_NONCE")
  PROGRAM_PATH = File.expand_path("program.rb")
  TESTS_SOURCE = File.binread("tests.rb").force_encoding(Encoding::UTF_8)
  COMPLETION = IO.for_fd(3, autoclose: false)
  EXIT = Process.method(:exit!)
  ERR = STDERR
  OUT = STDOUT
  require "set"
  VALUES = [Array, Hash, String, Symbol, Integer, Float, Rational, Complex, NilClass, TrueClass, FalseClass, Range, Set].freeze
  COPIED = %i[== != ! equal? eql? === =~ <=> hash nil? class is_a? kind_of? instance_of? respond_to? to_s inspect].freeze
  # inherited from Object/Kernel/BasicObject: each value class gets its own copy, so that a method the
  # candidate adds to Object or Kernel cannot shadow them
  VALUES.each do |klass|
    COPIED.each do |name|
      next unless klass.method_defined?(name) || klass.private_method_defined?(name)
      meth = klass.instance_method(name)
      klass.send(:define_method, name, meth) unless meth.owner.equal?(klass)
    end
  end
  FROZEN = [BasicObject, Comparable, Enumerable, Math].freeze
  # frozen once the program has loaded
  CHECKED = ([Object, Kernel, Math.singleton_class] + FROZEN).freeze
  # compared before and after the program loads
  GUARDED = %i[raise fail == != ! equal? eql? === =~ <=> hash instance_of? is_a? kind_of? nil? class].freeze
  # names a top-level function of the program may not take (the tests' comparisons and raise)
  HOOKS = %i[method_added method_removed method_undefined singleton_method_added singleton_method_removed singleton_method_undefined].freeze

  def self.fail(message)
    begin
      OUT.flush
      ERR.write("execir: #{message}\n")
    rescue Exception
      nil
    end
    EXIT.call(1)
  end

  def self.describe(error)
    "#{error.class}: #{error.message}\n#{(error.backtrace || []).first(8).join("\n")}"
  rescue Exception
    "an exception"
  end

  def self.names(mod)
    table = {}
    mod.instance_methods.each { |n| table[n] = true }
    mod.private_instance_methods.each { |n| table[n] = true }
    table
  end

  def self.own(mod)
    table = {}
    mod.instance_methods(false).each { |n| table[n] = mod.instance_method(n) }
    mod.protected_instance_methods(false).each { |n| table[n] = mod.instance_method(n) }
    mod.private_instance_methods(false).each { |n| table[n] = mod.instance_method(n) }
    table
  end

  def self.prepended(mod)
    mod.ancestors.take_while { |m| !m.equal?(mod) }
  end

  # The value classes are not frozen (a lazy require 'prime' adds Integer#prime?): a hook stops the
  # run as soon as the candidate redefines, overrides or removes one of their existing methods.
  def self.watch(klass)
    instance = names(klass)
    singleton = names(klass.singleton_class)
    armed = [false]
    hook = ->(kind, name, known) { fail("the program redefines #{klass}#{kind}#{name}") if armed[0] && (known.key?(name) || HOOKS.include?(name)) }
    klass.define_singleton_method(:method_added) { |name| hook.call("#", name, instance) }
    klass.define_singleton_method(:method_removed) { |name| hook.call("#", name, instance) }
    klass.define_singleton_method(:method_undefined) { |name| hook.call("#", name, instance) }
    klass.define_singleton_method(:singleton_method_removed) { |name| hook.call(".", name, singleton) }
    klass.define_singleton_method(:singleton_method_undefined) { |name| hook.call(".", name, singleton) }
    klass.define_singleton_method(:singleton_method_added) { |name| hook.call(".", name, singleton) }
    armed[0] = true
    armed.freeze
  end

  def self.snapshot
    CHECKED.map { |mod| [mod, own(mod), prepended(mod), names(mod)] }
  end

  def self.changes(saved, prepends)
    found = []
    saved.each do |mod, methods, before, seen|
      found << "#{mod}: a module was prepended" unless prepended(mod) == before
      now = own(mod)
      methods.each do |name, meth|
        found << "#{mod}##{name} redefined or removed" unless now.key?(name) && now[name] == meth
      end
      now.each_key do |name|
        next if methods.key?(name) || !seen.key?(name)
        next if mod.equal?(Object) && !GUARDED.include?(name) && !Object.public_method_defined?(name)
        found << "#{mod}##{name} overrides an inherited method"
      end
    end
    prepends.each { |klass, before| found << "#{klass}: a module was prepended" unless prepended(klass) == before }
    found
  end

  SAVED = snapshot.freeze
  PREPENDS = VALUES.map { |klass| [klass, prepended(klass)] }.freeze
  VALUES.each { |klass| watch(klass) }
end
ExecIRRunner.freeze

class ExecIRTests
  define_method(:raise, Kernel.instance_method(:raise))
  define_method(:fail, Kernel.instance_method(:fail))
  private :raise, :fail
  def __execir_scope
    binding
  end
end
ExecIRTests.freeze

begin
  load ExecIRRunner::PROGRAM_PATH
rescue Exception => e
  ExecIRRunner.fail("the program raised while loading: #{ExecIRRunner.describe(e)}")
end
execir_changes = ExecIRRunner.changes(ExecIRRunner::SAVED, ExecIRRunner::PREPENDS)
ExecIRRunner.fail("the program changes core methods the tests rely on: #{execir_changes.first(5).join('; ')}") unless execir_changes.empty?
ExecIRRunner::FROZEN.each(&:freeze)
begin
  eval(ExecIRRunner::TESTS_SOURCE, ExecIRTests.new.send(:__execir_scope), "tests.rb", 1)
rescue Exception => e
  ExecIRRunner.fail("test failed: #{ExecIRRunner.describe(e)}")
end
execir_changes = ExecIRRunner.changes([], ExecIRRunner::PREPENDS)
ExecIRRunner.fail("the program changed core classes during the tests: #{execir_changes.first(5).join('; ')}") unless execir_changes.empty?
begin
  STDOUT.flush
rescue Exception
  nil
end
ExecIRRunner::COMPLETION.syswrite("#{ExecIRRunner::NONCE}\n")
ExecIRRunner::EXIT.call(0)
"""


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
