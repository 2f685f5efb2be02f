# frozen_string_literal: true
# ExecIR's Ruby syntax check of a candidate's program (what `ruby -c` decides): the program is
# compiled, never run. On fd 3: the nonce line when it compiles; else the parser's message, status 1.
out = IO.for_fd(3, autoclose: false)
begin
  RubyVM::InstructionSequence.compile_file("program.rb")
rescue SyntaxError => e
  out.syswrite(e.message.b.byteslice(0, 4000))
  Process.exit!(1)
end
out.syswrite("#{ENV.fetch('EXECIR_NONCE')}\n")
Process.exit!(0)
