# frozen_string_literal: true
# ExecIR's trusted record run (judged outside): the reference program with the task's tests, its
# entry point wrapped by a recorder that writes to fd 3 the argument line of every call the tests
# make (taken before the call; calls the reference makes to it while running are not recorded),
# then the nonce once the tests completed. A call with a block, or arguments of a kind the wire has
# no exact form for, stops the run (the tests stay in-process).
module ExecIRRecord
  def self.main
    out = IO.for_fd(3, autoclose: false)
    nonce = ExecIREntry.nonce
    entry = ARGV.fetch(0).to_sym
    Kernel.srand(0)
    ExecIREntry.run(ExecIREntry::PROGRAM)
    depth = [0]
    original = nil
    original = ExecIREntry.replace(entry) do |*args, **kw, &block|
      next original.bind_call(self, *args, **kw, &block) if depth[0].positive?

      ExecIREntry.stop("the tests pass a block to #{entry}") if block
      out.syswrite("#{ExecIRRecord.line(args, kw)}\n")
      depth[0] += 1
      begin
        original.bind_call(self, *args, **kw)
      ensure
        depth[0] -= 1
      end
    end
    ExecIREntry.stop("the reference defines no top-level #{entry}") unless original
    ExecIREntry.run(ExecIREntry::TESTS)
    out.syswrite("#{nonce}\n")
    Process.exit!(0)
  end

  def self.line(args, kw)
    ExecIRWire.encode_call(args, kw, true)
  rescue ExecIRWire::Unencodable => e
    ExecIREntry.stop("the tests' arguments have no exact wire form: #{e.message}")
  end
end
ExecIRRecord.main
