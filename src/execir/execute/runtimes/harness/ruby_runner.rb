# frozen_string_literal: true
# ExecIR's trusted runner: see execir/execute/runtimes/ruby.py.
module ExecIRRunner
  EXIT = Process.method(:exit!)
  ERR = STDERR
  OUT = STDOUT
  require "set"
  require "bigdecimal"
  require "objspace" # loaded now so that its heap walks can be removed below (a later require is a no-op)
  VALUES = [Array, Hash, String, Symbol, Integer, Float, Rational, Complex, BigDecimal, NilClass, TrueClass, FalseClass, Range, Set].freeze
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
  CHECKED = ([Object, Kernel, Module, Class, Math.singleton_class] + FROZEN).freeze
  # compared before and after the program loads
  GUARDED = %i[raise fail == != ! equal? eql? === =~ <=> hash instance_of? is_a? kind_of? nil? class].freeze
  # names a top-level function of the program may not take (the tests' comparisons and raise)
  HOOKS = %i[method_added method_removed method_undefined singleton_method_added singleton_method_removed singleton_method_undefined].freeze
  COMPARED = %i[== != ! equal? eql? === =~ <=> hash].freeze
  # what the tests' comparisons may call on a value the program returned
  CONTAINERS = [Array, Hash, Set, Range, Complex].freeze
  IMMEDIATE = [Integer, Float, Symbol, NilClass, TrueClass, FalseClass].freeze
  # values that cannot have singleton methods
  CLASS_OF = Kernel.instance_method(:class)
  KIND_OF = Kernel.instance_method(:kind_of?)
  METHOD_OF = Kernel.instance_method(:method)
  SINGLETONS = Kernel.instance_method(:singleton_methods)
  IVAR = Kernel.instance_method(:instance_variable_get)
  SAME = BasicObject.instance_method(:equal?)
  OWNER = Method.instance_method(:owner)
  EACH = Array.instance_method(:each)
  EACH_PAIR = Hash.instance_method(:each_pair)
  FIRST = Range.instance_method(:begin)
  LAST = Range.instance_method(:end)
  REAL = Complex.instance_method(:real)
  IMAGINARY = Complex.instance_method(:imaginary)
  DEFINE = Module.instance_method(:define_method)
  R2K = Module.instance_method(:ruby2_keywords)
  KERNEL_RAISE = Kernel.instance_method(:raise)
  KERNEL_FAIL = Kernel.instance_method(:fail)
  BINDING = Kernel.instance_method(:binding)
  EVAL = Kernel.instance_method(:eval)
  LOAD = Kernel.instance_method(:load)
  NEW = Class.instance_method(:new)
  INSTANCE_EXEC = BasicObject.instance_method(:instance_exec)

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

  def self.table(list)
    found = {}.compare_by_identity
    list.each { |item| found[item] = true }
    found.freeze
  end

  # Every module that exists before the program loads: the only owners a returned value's
  # comparison methods may have.
  TRUSTED = table(ObjectSpace.each_object(Module).to_a)
  PLAIN = table(VALUES)
  PLAIN_IMMEDIATE = table(IMMEDIATE)

  # Why a value the program hands the tests cannot be trusted to compare honestly, or nil. Walks the
  # value and what its containers hold (arrays, hashes, sets, ranges, complex numbers, and
  # subclasses of them) with methods captured before the program ran: nothing in it may have
  # singleton methods (`def x.!=`, `extend`), and an object of any class but the core value classes
  # must take every comparison method from a module that existed before the program loaded (a
  # program's own class, or a subclass with a module of its own, that defines `==` is refused).
  def self.untrusted(value)
    seen = {}.compare_by_identity
    stack = [value]
    until stack.empty?
      item = stack.pop
      next if seen.key?(item)
      seen[item] = true
      klass = CLASS_OF.bind_call(item)
      next if PLAIN_IMMEDIATE.key?(klass)
      return "a #{klass} with singleton methods" unless SINGLETONS.bind_call(item, true).empty?
      unless PLAIN.key?(klass)
        COMPARED.each do |name|
          owner = OWNER.bind_call(METHOD_OF.bind_call(item, name))
          return "a #{klass} whose #{name} comes from #{owner}, defined by the program" unless TRUSTED.key?(owner)
        end
        return "a subclass of Set (#{klass})" if KIND_OF.bind_call(item, Set)
      end
      if KIND_OF.bind_call(item, Array)
        EACH.bind_call(item) { |element| stack << element }
      elsif KIND_OF.bind_call(item, Hash)
        EACH_PAIR.bind_call(item) { |key, element| stack << key << element }
      elsif SAME.bind_call(klass, Set)
        stack << IVAR.bind_call(item, :@hash)
      elsif KIND_OF.bind_call(item, Range)
        stack << FIRST.bind_call(item) << LAST.bind_call(item)
      elsif KIND_OF.bind_call(item, Complex)
        stack << REAL.bind_call(item) << IMAGINARY.bind_call(item)
      end
    end
    nil
  rescue Exception => e
    "a value that cannot be inspected (#{e.class})"
  end

  def self.check(value, what)
    why = untrusted(value)
    fail("the program returned to the tests #{why} (#{what})") if why
    value
  end

  # No candidate code may watch or walk the tests: no trace hooks (they see every frame's locals),
  # no heap walks (they find the tests' text and the nonce).
  def self.disarm
    TracePoint.singleton_class.send(:undef_method, :new, :trace)
    TracePoint.freeze
    TracePoint.singleton_class.freeze
    Kernel.send(:undef_method, :set_trace_func)
    Kernel.singleton_class.send(:undef_method, :set_trace_func)
    Thread.send(:undef_method, :set_trace_func, :add_trace_func)
    kept = %i[count_objects define_finalizer undefine_finalizer garbage_collect]
    (ObjectSpace.singleton_methods - kept).each { |name| ObjectSpace.singleton_class.send(:undef_method, name) }
    (ObjectSpace.private_instance_methods(false) - kept).each { |name| ObjectSpace.send(:undef_method, name) }
    ObjectSpace.freeze
    ObjectSpace.singleton_class.freeze
    [Method, UnboundMethod, Method.singleton_class, UnboundMethod.singleton_class].each(&:freeze)
  end

  # The scope the tests run in: an instance of a class made after the program loaded (anonymous:
  # the program cannot reopen it) whose raise/fail are the original Kernel's, and through which each
  # function the program defined is reached by a wrapper that checks what the call returned and the
  # arguments it was given.
  def self.tests_class(functions)
    klass = NEW.bind_call(Class)
    DEFINE.bind_call(klass, :raise, KERNEL_RAISE)
    DEFINE.bind_call(klass, :fail, KERNEL_FAIL)
    functions.each do |name|
      DEFINE.bind_call(klass, name) do |*args, &block|
        result = super(*args, &block)
        ExecIRRunner.check(args, "in the arguments of #{name}")
        ExecIRRunner.check(result, "from #{name}")
      end
      R2K.bind_call(klass, name)
    end
    klass.send(:private, :raise, :fail)
    klass.freeze
    INSTANCE_EXEC.bind_call(NEW.bind_call(klass)) { BINDING.bind_call(self) }
  end

  def self.take(path)
    text = File.binread(path)
    File.delete(path)
    text
  end

  def self.main
    completion = IO.for_fd(3, autoclose: false)
    nonce = take(".execir-nonce").chomp
    fail("no nonce") if nonce.length < 2
    tests_source = take("tests.rb").force_encoding(Encoding::UTF_8)
    disarm
    saved = snapshot.freeze
    prepends = VALUES.map { |klass| [klass, prepended(klass)] }.freeze
    before = own(Object)
    VALUES.each { |klass| watch(klass) }
    begin
      LOAD.bind_call(self, File.expand_path("program.rb"))
    rescue Exception => e
      fail("the program raised while loading: #{describe(e)}")
    end
    found = changes(saved, prepends)
    fail("the program changes core methods the tests rely on: #{found.first(5).join('; ')}") unless found.empty?
    FROZEN.each(&:freeze)
    functions = own(Object).reject { |name, meth| GUARDED.include?(name) || (before.key?(name) && before[name] == meth) }.keys
    scope = tests_class(functions)
    begin
      EVAL.bind_call(self, tests_source, scope, "tests.rb", 1)
    rescue Exception => e
      fail("test failed: #{describe(e)}")
    end
    found = changes([], prepends)
    fail("the program changed core classes during the tests: #{found.first(5).join('; ')}") unless found.empty?
    begin
      STDOUT.flush
    rescue Exception
      nil
    end
    completion.syswrite("#{nonce}\n")
    EXIT.call(0)
  end
end
ExecIRRunner.freeze
ExecIRRunner.main
