# frozen_string_literal: true
# ExecIR's trusted runs judged outside (record, judge): where the tests' `entry(...)` lands, and
# replacing it (see execir/execute/runtimes/ruby_split.py).
module ExecIREntry
  PROGRAM = "program.rb"
  TESTS = "tests.rb"

  def self.stop(message, status = 1)
    begin
      $stdout.flush
      STDERR.write("execir: #{message}\n")
    rescue Exception
      nil
    end
    Process.exit!(status)
  end

  def self.describe(error)
    "#{error.class}: #{error.message}\n#{(error.backtrace || []).first(8).join("\n")}"
  rescue Exception
    "an exception"
  end

  # Loads one of the work dir's files at top level (self is main, its own local scope), as
  # `ruby program.rb` would; any exception stops the run with ``status``.
  def self.run(name, status = 1)
    load(File.expand_path(name))
  rescue Exception => e
    stop("#{name} raised: #{describe(e)}", status)
  end

  # Replaces the method a top-level call `name(...)` reaches (defined by the program on Object or on
  # main's singleton class) by ``body``, keeping its visibility; the original, or nil when the
  # program defines no such method.
  def self.replace(name, &body)
    main = TOPLEVEL_BINDING.receiver
    owner = main.singleton_class.instance_method(name).owner
    return nil unless owner.equal?(Object) || owner.equal?(main.singleton_class)

    original = owner.instance_method(name)
    hidden = owner.private_method_defined?(name)
    owner.send(:define_method, name, &body)
    owner.send(:private, name) if hidden
    original
  rescue NameError
    nil
  end

  def self.nonce
    found = ENV.fetch("EXECIR_NONCE", "")
    stop("no nonce") if found.length < 2
    found
  end
end
