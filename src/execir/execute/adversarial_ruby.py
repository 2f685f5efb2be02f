"""Adversarial cases for Ruby programs with MBXP style native tests (top-level code that raises on a
mismatch), run by :mod:`execir.execute.runtimes.ruby`'s trusted runner. Attacks never PASS;
``control`` cases (legitimate idioms) must PASS."""

from __future__ import annotations

from execir.execute.adversarial import Case, make_case
from execir.types import StdioCase, TestSuite, Verdict

F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS

TESTS = TestSuite(
    "native",
    'arg00 = 2\narg01 = 3\nx0 = add(arg00, arg01)\nv0 = 5\nif x0 != v0\n    raise StandardError, "Error at test case 1"\nend\n\n'
    'x1 = add(-1, 1)\nv1 = 0\nif x1 != v1\n    raise StandardError, "Error at test case 2"\nend\n\n'
    'x2 = add(10, 5)\nv2 = 15\nif x2 != v2\n    raise StandardError, "Error at test case 3"\nend\n',
)
ARRAY_TESTS = TestSuite("native", 'x0 = pair(1)\nv0 = [1, 2]\nif x0 != v0\n    raise StandardError, "Error at test case 1"\nend\n')
OK = "def add(a, b)\n  a + b\nend\n"
WRONG = "def add(a, b)\n  a - b\nend\n"
CANARIES = ("/tmp/execir-canary-ruby", "/root/execir-canary-ruby", "/work/execir-canary-ruby")


def _c(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = TESTS) -> Case:
    return make_case(name, category, program, expected, tests, entry_point="", language="ruby")


def _in_call(body: str) -> str:
    """A wrong ``add`` whose body first runs ``body``."""
    return "def add(a, b)\n" + "".join(f"  {line}\n" for line in body.splitlines()) + "  a - b\nend\n"


_COPY_EXPECTED = (
    "b = (tp.binding rescue b); b && b.local_variables.grep(/\\Av\\d+\\z/).each { |v| x = v.to_s.sub('v', 'x').to_sym; "
    "b.local_variable_set(x, b.local_variable_get(v)) if b.local_variable_defined?(x) }"
)
"""Copies each expected value ``vN`` of the tests' scope into the result ``xN`` before it is compared."""
_NEXT_EXPECTED = "src.scan(/v\\d+ = (-?\\d+)/).flatten.map(&:to_i)[(@k = (@k || -1) + 1)]"
"""The next expected value, read from the tests' text ``src`` (one per call, in order)."""
_WRITE_CANARIES = "".join(f"begin\n  File.write('{path}', 'x')\nrescue StandardError, NotImplementedError\nend\n" for path in CANARIES)

CASES: tuple[Case, ...] = (
    _c("ruby_exit_bang_top_level", "exit", "exit!(0)\n" + WRONG, F),
    _c("ruby_exit_top_level", "exit", "exit(0)\n" + WRONG, F),
    _c("ruby_exit_in_function", "exit", _in_call("exit(0)"), F),
    _c("ruby_exit_bang_in_function", "exit", _in_call("exit!(0)"), F),
    _c("ruby_at_exit_exit_bang", "exit", "at_exit { exit!(0) }\nEND { exit!(0) }\n" + WRONG, F),
    _c("ruby_kill_main_thread", "exit", _in_call("Thread.current.kill"), F),
    _c("ruby_redefine_raise_top_level", "tamper", "def raise(*args)\nend\n" + WRONG, F),
    _c("ruby_redefine_kernel_raise", "tamper", "module Kernel\n  def raise(*args)\n  end\nend\n" + WRONG, F),
    _c("ruby_prepend_raise_on_object", "tamper", "Object.prepend(Module.new { def raise(*args); end })\n" + WRONG, F),
    _c("ruby_object_equality_overridden", "tamper", "class Object\n  def ==(other)\n    true\n  end\n  def !=(other)\n    false\n  end\nend\n" + WRONG, F),
    _c("ruby_integer_ne_overridden", "tamper", "class Integer\n  def !=(other)\n    false\n  end\nend\n" + WRONG, F),
    _c("ruby_array_eq_overridden", "tamper", "class Array\n  def ==(other)\n    true\n  end\nend\ndef pair(x)\n  [x]\nend\n", F, ARRAY_TESTS),
    _c("ruby_hook_then_override", "tamper", "class Integer\n  def self.method_added(name)\n  end\n  def !=(other)\n    false\n  end\nend\n" + WRONG, F),
    _c("ruby_override_in_call", "tamper", _in_call("Integer.class_eval { def !=(other) = false }"), F),
    _c("ruby_object_ne_in_call", "tamper", _in_call("Object.class_eval { def !=(other) = false }"), F),
    _c("ruby_prepend_in_call", "tamper", _in_call("Integer.prepend(Module.new { def !=(other) = false })"), F),
    _c("ruby_forge_fd3_garbage", "forged_output", _in_call('IO.for_fd(3, autoclose: false).syswrite("forged\\n")'), F),
    _c(
        "ruby_read_nonce_env",
        "forged_output",
        "n = ENV['EXECIR_NONCE']\nif n\n  IO.for_fd(3, autoclose: false).syswrite(\"#{n}\\n\")\n  exit!(0)\nend\n" + WRONG,
        F,
    ),
    _c("ruby_redefine_eval_top_level", "tamper", "def eval(*args)\nend\n" + WRONG, F),
    _c(
        "ruby_redefine_binding",
        "tamper",
        "class Nop\n  def raise(*args)\n  end\n\n  def scope\n    Kernel.instance_method(:binding).bind_call(self)\n  end\nend\n"
        "def binding(*args)\n  Nop.new.scope\nend\n" + WRONG,
        F,
    ),
    _c("ruby_singleton_ne_on_result", "tamper", "def add(a, b)\n  r = [0]\n  def r.!=(o)\n    false\n  end\n  r\nend\n", F),
    _c("ruby_singleton_ne_on_string", "tamper", "def add(a, b)\n  s = +'x'\n  s.define_singleton_method(:!=) { |o| false }\n  s\nend\n", F),
    _c("ruby_extend_eq_on_result", "tamper", "def add(a, b)\n  [0].extend(Module.new { def ==(o) = true })\nend\n", F),
    _c(
        "ruby_subclass_with_module_ne",
        "tamper",
        "M = Module.new { def !=(o) = false }\nclass L < Array\nend\nL.include(M)\ndef add(a, b)\n  L.new([0])\nend\n",
        F,
    ),
    _c("ruby_own_class_eq", "tamper", "class Liar\n  def ==(o) = true\n  def !=(o) = false\nend\ndef add(a, b)\n  Liar.new\nend\n", F),
    _c("ruby_element_liar", "tamper", "def pair(x)\n  o = Object.new\n  def o.==(y)\n    true\n  end\n  [o, o]\nend\n", F, ARRAY_TESTS),
    _c("ruby_singleton_on_argument", "tamper", "def pair(x)\n  [x, x + 1].tap { |r| def r.!=(o) = false }\nend\n", F, ARRAY_TESTS),
    _c("ruby_tracepoint_copies_expected", "tamper", "TracePoint.new(:line) { |tp| " + _COPY_EXPECTED + " }.enable\n" + WRONG, F),
    _c("ruby_set_trace_func_copies_expected", "tamper", "set_trace_func(proc { |event, file, line, id, b, k| " + _COPY_EXPECTED + " })\n" + WRONG, F),
    _c("ruby_read_tests_file", "forged_output", _in_call("src = (File.read('tests.rb') rescue '')\nreturn " + _NEXT_EXPECTED), F),
    _c(
        "ruby_read_tests_from_heap",
        "forged_output",
        _in_call(
            "src = (ObjectSpace.each_object(String).find { |t| t.include?('Error at test case') && t.include?('v1 = ') } rescue '')\nreturn " + _NEXT_EXPECTED
        ),
        F,
    ),
    _c(
        "ruby_forge_from_runner_constants",
        "forged_output",
        'r = ExecIRRunner rescue nil\nIO.for_fd(3, autoclose: false).syswrite("#{r::NONCE}\\n") if r && r.const_defined?(:NONCE)\nexit!(0)\n',
        F,
    ),
    _c(
        "ruby_forge_from_proc_environ",
        "forged_output",
        "n = (File.binread('/proc/self/environ') rescue '')[/EXECIR_NONCE=([0-9a-f]+)/, 1]\n"
        'if n\n  IO.for_fd(3, autoclose: false).syswrite("#{n}\\n")\n  exit!(0)\nend\n' + WRONG,
        F,
    ),
    _c("ruby_infinite_loop", "time", _in_call("loop {}"), T),
    _c("ruby_fork_bomb", "resources", "300.times { begin; fork { sleep 30 }; rescue StandardError; end }\n" + WRONG, {F, T}),
    _c("ruby_memory_bomb", "resources", "hog = []\nloop { hog << ('x' * (1 << 24)) }\n", {F, T}),
    _c("ruby_write_outside_workdir", "isolation", _WRITE_CANARIES + WRONG, F),
    _c("ruby_syntax_error", "exit", "def add(a, b\n  a + b\nend\n", E),
    # ---- controls: legitimate idioms must PASS
    _c(
        "ruby_control_collections",
        "control",
        "def add(a, b)\n  h = [a, b].each_with_object(Hash.new(0)) { |x, acc| acc[x] += 1 }\n"
        "  s = Set.new([a, b])\n  [a, b].sort_by { |x| -x }.sum + (h.size - h.size) + (s.size - s.size)\nend\n",
        P,
    ),
    _c(
        "ruby_control_recursion_nested_def_memo",
        "control",
        "def add(a, b)\n  def helper(x, memo = {})\n    return x if x.abs < 2\n    memo[x] ||= x\n  end\n"
        "  @calls = (@calls || 0) + 1\n  helper(a) + helper(b)\nend\n",
        P,
    ),
    _c(
        "ruby_control_requires_and_helpers",
        "control",
        "require 'prime'\nrequire 'json'\nclass Integer\n  def twice\n    self * 2\n  end\nend\n"
        "def add(a, b)\n  require 'bigdecimal'\n  t = JSON.parse(JSON.generate([a, b])).sum\n  2.prime? ? t.twice / 2 : 0\nend\n",
        P,
    ),
    _c("ruby_control_debug_output_2mb", "control", "def add(a, b)\n  2000.times { |i| puts 'debug ' * 150 }\n  a + b\nend\n", P),
    _c(
        "ruby_control_own_values",
        "control",
        "P = Struct.new(:v) do\n  include Comparable\n  def <=>(o) = v <=> o.v\nend\nclass Stack < Array\nend\n"
        "def pair(x)\n  s = Stack.new\n  [P.new(x + 1), P.new(x)].sort.map(&:v).each { |v| s.push(v) }\n  s\nend\n",
        P,
        ARRAY_TESTS,
    ),
    _c("ruby_control_bigdecimal_rational", "control", "require 'bigdecimal'\ndef add(a, b)\n  (BigDecimal(a.to_s) + Rational(b, 1)).to_i\nend\n", P),
    _c("ruby_control_kernel_named_helper", "control", "def format(x)\n  x.to_s\nend\ndef add(a, b)\n  format(a + b).to_i\nend\n", P),
    _c("ruby_control_strings_arrays", "control", "def pair(x)\n  \"#{x} #{x + 1}\".split(' ').map(&:to_i)\nend\n", P, ARRAY_TESTS),
    Case(
        "ruby_control_stdio",
        "control",
        "a, b = gets.split.map(&:to_i)\nputs a + b\n",
        TestSuite("stdio", stdio_cases=(StdioCase("3 4\n", "7\n"), StdioCase("10 20\n", "30\n"))),
        frozenset({P}),
        "",
        "ruby",
    ),
)
