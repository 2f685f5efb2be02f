# frozen_string_literal: true
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
