# frozen_string_literal: true
# ExecIR's trusted judge run (judged outside): the reference program (its helpers) with the task's
# tests, its entry point replaced by a replayer that returns the candidate's values, decoded into
# core Ruby values (or raises the exception the candidate's call raised); the tests' own checks
# decide. The contract (need/missing/malformed lines, exit statuses) is Runtime.judge_plan's.
module ExecIRJudge
  CALLS = "execir_calls.jsonl"
  RESULTS = "execir_results.jsonl"
  NEED = 3
  NAME = /\A[A-Z]\w*(?:::[A-Z]\w*)*\z/.freeze

  def self.main
    out = IO.for_fd(3, autoclose: false)
    nonce = ExecIREntry.nonce
    entry = ARGV.fetch(0).to_sym
    calls = File.binread(CALLS).force_encoding(Encoding::UTF_8).split("\n")
    results = File.binread(RESULTS).split("\n")
    Kernel.srand(0)
    ExecIREntry.run(ExecIREntry::PROGRAM)
    index = [0]
    replayed = ExecIREntry.replace(entry) do |*args, **kw|
      at = index[0]
      index[0] += 1
      ExecIRJudge.replay(out, at, calls, results, args, kw)
    end
    ExecIREntry.stop("the reference defines no top-level #{entry}") unless replayed
    ExecIREntry.run(ExecIREntry::TESTS)
    out.syswrite("#{nonce}\n")
    Process.exit!(0)
  end

  def self.report(out, key, index, why)
    out.syswrite("{\"#{key}\":#{index}}\n")
    ExecIREntry.stop("call #{index}: #{why}")
  end

  def self.replay(out, index, calls, results, args, kw)
    text = begin
      ExecIRWire.encode_call(args, kw, true)
    rescue ExecIRWire::Unencodable => e
      report(out, "unencodable", index, e.message)
    end
    unless calls[index] == text
      out.syswrite("{\"need\":#{index}}\n#{text}\n")
      Process.exit!(NEED)
    end
    report(out, "missing", index, "no result") unless index < results.size
    answer(out, index, results[index], args)
  end

  def self.answer(out, index, line, args)
    tree = ExecIRWire.parse(line)
    raise ExecIRWire::Malformed, "not a result" unless tree.is_a?(Hash)

    if tree.key?("ok") && (tree.keys - %w[ok args]).empty?
      value = ExecIRWire.build(tree["ok"])
      mutate(args, ExecIRWire.build(tree["args"])) if tree.key?("args")
      return value
    end
    raise ExecIRWire::Malformed, "not a result" unless tree["raised"].is_a?(String) && (tree.keys - %w[raised ancestors message]).empty?

    raise exception(tree)
  rescue ExecIRWire::Malformed => e
    report(out, "malformed", index, e.message)
  end

  # The exception a call raised: the first of its class and ancestors (by name) that names an
  # exception class here (the reference's or Ruby's), with its message.
  def self.exception(tree)
    names = [tree["raised"]] + (tree["ancestors"].is_a?(Array) ? tree["ancestors"] : [])
    message = tree.key?("message") ? ExecIRWire.build(tree["message"]) : ""
    message = "" unless message.is_a?(String)
    names.each do |name|
      next unless name.is_a?(String) && NAME.match?(name)

      klass = begin
        Object.const_get(name)
      rescue NameError
        nil
      end
      next unless klass.is_a?(Class) && klass <= Exception

      begin
        return klass.new(message)
      rescue StandardError
        next
      end
    end
    StandardError.new(message)
  end

  # The candidate's call changed its arguments: the judge's arguments take their new contents.
  def self.mutate(args, after)
    raise ExecIRWire::Malformed, "arguments after the call are not a list" unless after.is_a?(Array)

    args.zip(after).each do |arg, now|
      next if arg.frozen?

      [Array, Hash, String, Set].each do |kind|
        next unless arg.instance_of?(kind) && now.instance_of?(kind)

        arg.replace(now)
        arg.default = now.default if kind.equal?(Hash)
      end
    end
  end
end
ExecIRJudge.main
