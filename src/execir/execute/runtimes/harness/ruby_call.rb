# frozen_string_literal: true
# ExecIR's caller (judged outside): the candidate's run. Loads the program, then reads the calls
# from fd 3 one line at a time (the host writes call k + 1 only once result k is written, and ends
# the calls by shutting the channel), calls its entry point once per line, in order, and writes
# to fd 3 one line per call: {"ok":VALUE} (with "args":[...] when the call changed its arguments),
# or {"raised":"Class","ancestors":[...],"message":STRING}. No test code and no expected value is in
# this process; nothing it writes is trusted.
module ExecIRCall
  OUT = IO.for_fd(3, autoclose: false)
  SEND = BasicObject.instance_method(:__send__)
  WRITE = IO.instance_method(:syswrite)
  READ = IO.instance_method(:sysread)
  FIND = String.instance_method(:index)
  SLICE = String.instance_method(:byteslice)
  SIZE = String.instance_method(:bytesize)
  FORCE = String.instance_method(:force_encoding)
  REPLACE = String.instance_method(:replace)
  DECODE = ExecIRWire.method(:decode_call)
  LOAD = Kernel.instance_method(:load)
  CLASS_OF = Kernel.instance_method(:class)
  ANCESTORS = Module.instance_method(:ancestors)
  IS_CLASS = Kernel.instance_method(:instance_of?)
  NAME = Module.instance_method(:name)
  MESSAGE = Exception.instance_method(:message)
  SAME = String.instance_method(:==)
  APPEND = String.instance_method(:<<)
  EACH = Array.instance_method(:each)
  MATCH = Regexp.instance_method(:match?)
  CONSTANT = /\A[A-Z]\w*(?:::[A-Z]\w*)*\z/.freeze
  EXIT = Process.method(:exit!)

  def self.main
    entry = ARGV.fetch(0).to_sym
    main = TOPLEVEL_BINDING.receiver
    begin
      LOAD.bind_call(main, File.expand_path("program.rb"))
    rescue Exception => e
      ExecIREntry.stop("the program raised while loading: #{ExecIREntry.describe(e)}")
    end
    pending = String.new(encoding: Encoding::BINARY)
    while (line = next_call(pending))
      args, kw = DECODE.call(line)
      WRITE.bind_call(OUT, answer(main, entry, args, kw, line))
    end
    begin
      $stdout.flush
    rescue Exception
      nil
    end
    EXIT.call(0)
  end

  # The next call line of fd 3 (UTF-8, without its newline); nil at the end of the calls.
  def self.next_call(pending)
    while true # rubocop:disable Style/InfiniteLoop (Kernel#loop is the program's to redefine)
      stop = FIND.bind_call(pending, "\n")
      if stop
        line = SLICE.bind_call(pending, 0, stop)
        REPLACE.bind_call(pending, SLICE.bind_call(pending, stop + 1, SIZE.bind_call(pending)))
        return FORCE.bind_call(line, Encoding::UTF_8)
      end
      begin
        APPEND.bind_call(pending, READ.bind_call(OUT, 65_536))
      rescue EOFError, SystemCallError, IOError
        return nil
      end
    end
  end

  def self.answer(main, entry, args, kw, line)
    value = SEND.bind_call(main, entry, *args, **kw)
    text = +'{"ok":'
    APPEND.bind_call(text, encoded { ExecIRWire.encode(value, false) })
    after = encoded { ExecIRWire.encode_call(args, kw, false) }
    APPEND.bind_call(APPEND.bind_call(text, ',"args":'), encoded { ExecIRWire.encode_call(args, {}, false) }) unless SAME.bind_call(after, line)
    APPEND.bind_call(text, "}\n")
  rescue Exception => e
    raised(e)
  end

  def self.encoded
    yield
  rescue Exception
    '{"o":1}'
  end

  def self.raised(error)
    names = []
    EACH.bind_call(ANCESTORS.bind_call(CLASS_OF.bind_call(error))) do |mod|
      name = IS_CLASS.bind_call(mod, Class) ? NAME.bind_call(mod) : nil
      names << name if name.is_a?(String) && MATCH.bind_call(CONSTANT, name)
    end
    names << "Exception" if names.empty?
    message = encoded { ExecIRWire.encode(MESSAGE.bind_call(error), false) }
    "{\"raised\":\"#{names[0]}\",\"ancestors\":[#{names.drop(1).map { |n| "\"#{n}\"" }.join(',')}],\"message\":#{message}}\n"
  rescue Exception
    "{\"raised\":\"Exception\"}\n"
  end
end
ExecIRCall.main
