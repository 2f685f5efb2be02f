# frozen_string_literal: true
# ExecIR's trusted Ruby runner: a warm interpreter, outside the candidate's sandbox, that runs the
# record and judge plans of Ruby tasks (the task's reference, its tests and ExecIR's harness: never
# candidate code; the candidate's values reach a judge only as wire text its codec decodes into core
# classes) in a forked child each, so a trusted run costs a fork instead of an interpreter start.
#
# Requests and replies are frames (a 4-byte big-endian length, then JSON) on the socket whose
# descriptor is ARGV[0]. A request names the run's files, its script and arguments, its environment,
# the nonce, its CPU, wall and memory budgets and the cap on what it may write to fd 3. The child
# starts a session of its own, gets a fresh private directory with those files, fd 3 as a pipe to
# this process, /dev/null as stdin/stdout/stderr and its rlimits, then runs the script at top level
# as `ruby script args` would (its text compiled once in this process: the drivers are the same
# harness text run after run). The reply carries the child's exit status or signal, what it wrote to
# fd 3 (base64), its CPU time, and whether a budget or the cap stopped it.
require "json"
require "tmpdir"
require "fileutils"
require "base64"
require "set" # what every harness requires, loaded once here (a child's require is then a no-op)
require "bigdecimal"

module ExecIRTrusted
  COMPILED = {} # script text -> its instruction sequence, compiled once here (the harness drivers)
  KEEP = 32

  def self.read_frame(sock)
    header = sock.read(4)
    return nil if header.nil? || header.bytesize < 4
    body = sock.read(header.unpack1("N"))
    JSON.parse(body)
  end

  def self.write_frame(sock, obj)
    body = JSON.generate(obj).b
    sock.write([body.bytesize].pack("N") + body)
  end

  def self.compiled(req)
    text = req["files"][req["script"]]
    return nil unless text.is_a?(String)
    COMPILED.clear if COMPILED.size >= KEEP && !COMPILED.key?(text)
    COMPILED[text] ||= RubyVM::InstructionSequence.compile(text, req["script"], req["script"])
  rescue SyntaxError
    nil
  end

  def self.child(req, dir, writer, ctrl, iseq)
    Process.setsid
    req["files"].each do |name, text|
      path = File.join(dir, name)
      FileUtils.mkdir_p(File.dirname(path))
      File.binwrite(path, text)
    end
    Dir.chdir(dir)
    IO.for_fd(3, autoclose: false).reopen(writer) # fd 3 is the runner's /dev/null, opened before the VM started
    ctrl.close unless ctrl.closed? || ctrl.fileno == 3
    $stdin.reopen(File::NULL)
    $stdout.reopen(File::NULL, "w")
    $stderr.reopen(File::NULL, "w")
    ENV.replace(req["env"].merge("EXECIR_NONCE" => req["nonce"]))
    cpu = req["cpu"].ceil
    Process.setrlimit(:CPU, cpu, cpu + 1)
    memory = req["memory_mb"] << 20
    Process.setrlimit(:AS, memory, memory)
    ARGV.replace(req["args"])
    $0 = req["script"]
    iseq ? iseq.eval : load(File.expand_path(req["script"]))
    Process.exit!(0)
  rescue SystemExit => e
    Process.exit!(e.status)
  rescue Exception # rubocop:disable Lint/RescueException
    Process.exit!(1)
  end

  def self.run(req, ctrl)
    dir = Dir.mktmpdir("execir-trusted-")
    reader, writer = IO.pipe
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    before = Process.times
    iseq = compiled(req)
    pid = fork { reader.close; child(req, dir, writer, ctrl, iseq) }
    writer.close
    data = +"".b
    cap = req["cap"]
    deadline = started + req["wall"]
    stopped = nil
    loop do
      left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
      if left <= 0
        stopped = "wall"
        break
      end
      next unless IO.select([reader], nil, nil, left)
      begin
        data << reader.read_nonblock(65_536)
      rescue IO::WaitReadable
        next
      rescue EOFError
        break
      end
      if data.bytesize > cap
        stopped = "cap"
        break
      end
    end
    if stopped
      begin
        Process.kill(:KILL, -pid)
      rescue Errno::ESRCH
        nil
      end
    end
    _, status = Process.wait2(pid)
    begin
      Process.kill(:KILL, -pid) # anything the child left in its session
    rescue Errno::ESRCH, Errno::EPERM
      nil
    end
    reader.close
    after = Process.times
    cpu = (after.cutime - before.cutime) + (after.cstime - before.cstime)
    timeout = stopped == "wall" ? "wall" : nil
    timeout = "cpu" if timeout.nil? && (cpu > req["cpu"] || status.termsig == Signal.list["XCPU"])
    {
      "status" => status.exited? ? status.exitstatus : nil,
      "signal" => status.signaled? ? status.termsig : nil,
      "data" => Base64.strict_encode64(data.byteslice(0, cap + 1)),
      "timeout" => timeout,
      "capped" => stopped == "cap",
      "cpu" => cpu,
      "wall" => Process.clock_gettime(Process::CLOCK_MONOTONIC) - started,
    }
  ensure
    FileUtils.rm_rf(dir) if dir
  end

  def self.main
    ctrl = IO.for_fd(Integer(ARGV.fetch(0)), autoclose: false)
    ctrl.binmode
    write_frame(ctrl, { "op" => "hello", "ruby" => RUBY_VERSION })
    while (req = read_frame(ctrl))
      write_frame(ctrl, run(req, ctrl))
    end
  end
end

ExecIRTrusted.main
