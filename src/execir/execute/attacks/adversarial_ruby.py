"""Adversarial cases for Ruby programs with MBXP style native tests (top-level code that raises on a
mismatch). Every case carries its task's reference, so the tests are judged outside the candidate's
process (:mod:`execir.execute.runtimes.ruby_split`); the in-process runner stays covered by
``tests/execute/test_lang_ruby.py``. Attacks never PASS; ``control`` cases (legitimate idioms, each
a class of ordinary programs the reference way passes) must PASS."""

from __future__ import annotations

from execir.execute.attacks import adversarial_ruby_dates, adversarial_wire_ahead
from execir.execute.attacks.adversarial import Case, make_case
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


PAIR = "def pair(x)\n  [x, x + 1]\nend\n"
_REFERENCES = {TESTS: ("add", OK), ARRAY_TESTS: ("pair", PAIR)}


def _c(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = TESTS) -> Case:
    entry, reference = _REFERENCES[tests]
    return make_case(name, category, program, expected, tests, entry_point=entry, language="ruby", reference=reference)


def _t(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: str, entry: str, reference: str) -> Case:
    """A case with tests of its own (``entry`` and ``reference``: the task's)."""
    return make_case(name, category, program, expected, TestSuite("native", tests), entry_point=entry, language="ruby", reference=reference)


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
    _c("ruby_singleton_on_argument", "tamper", "def pair(x)\n  [x].tap { |r| def r.!=(o) = false }\nend\n", F, ARRAY_TESTS),
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

# ---- judged outside: attacks on the calls run, the wire and the judge -------------------------
_FD3 = "IO.for_fd(3, autoclose: false)"
_OK0 = '"{\\"ok\\":0}\\n"'
_CYCLIC = "def encode_cyclic(s)\n  s.chars.rotate(1).join\nend\ndef decode_cyclic(s)\n  s.chars.rotate(-1).join\nend\n"
_CYCLIC_TESTS = "%w[abc hello xyzzy].each do |w|\n  raise StandardError, 'Error' if decode_cyclic(encode_cyclic(w)) != w\nend\n"
_RAISE_TESTS = "x0 = add(2, 3)\nraise StandardError, 'e1' if x0 != 5\nbegin\n  add(nil, 1)\n  raise StandardError, 'e2'\nrescue TypeError, NoMethodError\nend\n"
_RAISE_REF = "def add(a, b)\n  raise TypeError, 'nil' if a.nil?\n  a + b\nend\n"
_MUTATE_TESTS = "a = [3, 1, 2]\nx = sort_in_place(a)\nraise StandardError, 'e1' if a != [1, 2, 3]\nraise StandardError, 'e2' if x != nil\n"
_MUTATE_REF = "def sort_in_place(a)\n  a.sort!\n  nil\nend\n"
_LIAR = "class L\n  def ==(o) = true\n  def !=(o) = false\n  def coerce(o) = [o, o]\n  def to_s = '5'\n  def hash = 5.hash\n  def eql?(o) = true\nend\n"
_HUNT_HEAP = "v = ObjectSpace.each_object(String).find { |t| t.include?('Error at test case') }\nreturn v.scan(/v\\d+ = (-?\\d+)/).flatten.map(&:to_i)[0] if v"
_HUNT_FILES = (
    "src = Dir.glob('*').map { |f| File.read(f) rescue '' }.join\n"
    "return src.scan(/v\\d+ = (-?\\d+)/).flatten.map(&:to_i)[(@k = (@k || -1) + 1)] if src.include?('v0 =')"
)

SPLIT_ATTACKS: tuple[Case, ...] = (
    _c("ruby_split_forged_results_at_load", "forged_output", f'{_FD3}.syswrite("{{\\"ok\\":5}}\\n" * 3)\nexit!(0)\n' + WRONG, F),
    _c("ruby_split_forged_partial_line", "forged_output", f"{_FD3}.syswrite('{{\"ok\":')\n" + WRONG, F),
    _c("ruby_split_forged_raised_exit", "forged_output", _in_call(f'{_FD3}.syswrite(\'{{"raised":"SystemExit"}}\\n\')\nexit!(0)'), F),
    _c("ruby_split_forged_malformed_class", "forged_output", "def add(a, b)\n  raise ExecIRWire::Malformed, 'x' rescue raise 'x'\nend\n", F),
    _c("ruby_split_thread_writes_after_return", "forged_output", _in_call(f"Thread.new {{ loop {{ {_FD3}.syswrite({_OK0}) }} }}"), {F, T}),
    _c("ruby_split_exit_bang_second_call", "exit", "def add(a, b)\n  exit!(0) if a == -1\n  a + b\nend\n", F),
    _c("ruby_split_at_exit_forges", "exit", f"at_exit {{ {_FD3}.syswrite({_OK0}) }}\n" + _in_call("exit(0)"), F),
    _c("ruby_split_fork_child_forges", "exit", _in_call(f"fork {{ {_FD3}.syswrite({_OK0}); exit!(0) }}\nProcess.wait"), F),
    _c("ruby_split_huge_string", "resources", "def add(a, b)\n  'x' * (64 << 20)\nend\n", {F, T}),
    _c("ruby_split_deep_array", "decoder", "def add(a, b)\n  r = []\n  100_000.times { r = [r] }\n  r\nend\n", F),
    _c("ruby_split_recursive_array", "decoder", "def add(a, b)\n  r = [a + b]\n  r << r\n  r\nend\n", F),
    _c("ruby_split_nan", "decoder", "def add(a, b)\n  Float::NAN\nend\n", F),
    _c("ruby_split_invalid_utf8", "decoder", "def add(a, b)\n  \"\\xff#{a + b}\".force_encoding('UTF-8')\nend\n", F),
    _c("ruby_split_json_injection_string", "decoder", 'def add(a, b)\n  "#{a + b}}}\\n{\\"ok\\":#{a + b}"\nend\n', F),
    _c("ruby_split_liar_coerce", "tamper", _LIAR + "def add(a, b)\n  L.new\nend\n", F),
    _c("ruby_split_string_subclass_liar", "tamper", "class S < String\n  def ==(o) = true\n  def !=(o) = false\nend\ndef add(a, b)\n  S.new('no')\nend\n", F),
    _c("ruby_split_hash_subclass_liar", "tamper", "class H < Hash\n  def !=(o) = false\nend\ndef pair(x)\n  H.new\nend\n", F, ARRAY_TESTS),
    _c("ruby_split_singleton_ne_on_object", "tamper", "def add(a, b)\n  o = Object.new\n  def o.!=(x) = false\n  o\nend\n", F),
    _c("ruby_split_refine_integer_ne", "tamper", "module R\n  refine Integer do\n    def !=(o) = false\n  end\nend\nusing R\n" + WRONG, F),
    _c("ruby_split_patch_caller_encoder", "tamper", "ExecIRWire.define_singleton_method(:encode) { |*| '5' }\n" + WRONG, F),
    _c("ruby_split_patch_caller_answer", "tamper", 'ExecIRCall.define_singleton_method(:answer) { |*| %({"ok":5}\\n) }\n' + WRONG, F),
    _c("ruby_split_objectspace_hunt", "forged_output", _in_call(_HUNT_HEAP), F),
    _c("ruby_split_read_calls_and_tests", "forged_output", _in_call(_HUNT_FILES), F),
    _c("ruby_split_fake_integer_name", "tamper", "class Fake\n  def self.name = 'Integer'\n  def ==(o) = true\nend\ndef add(a, b)\n  Fake.new\nend\n", F),
    _c("ruby_split_basic_object", "decoder", "def add(a, b)\n  BasicObject.new\nend\n", F),
    _c("ruby_split_exception_message_raises", "tamper", "class E < StandardError\n  def message = raise('boom')\nend\ndef add(a, b)\n  raise E\nend\n", F),
    _c("ruby_split_global_state_across_calls", "tamper", "$n = 0\ndef add(a, b)\n  $n += 1\n  $n == 1 ? a + b : 99\nend\n", F),
    _c("ruby_split_infinite_enumerator", "decoder", "def add(a, b)\n  loop\nend\n", F),
    _t("ruby_split_helper_shadowed", "tamper", "def encode_cyclic(s)\n  s\nend\ndef decode_cyclic(s)\n  s\nend\n", F, _CYCLIC_TESTS, "decode_cyclic", _CYCLIC),
    _t("ruby_split_wrong_exception_class", "tamper", "def add(a, b)\n  raise ArgumentError if a.nil?\n  a + b\nend\n", F, _RAISE_TESTS, "add", _RAISE_REF),
    _t("ruby_split_mutation_missing", "tamper", "def sort_in_place(a)\n  a.sort\n  nil\nend\n", F, _MUTATE_TESTS, "sort_in_place", _MUTATE_REF),
)

# ---- judged outside: ordinary programs (classes of them) the reference way passes -------------
_STRUCT_REF = "Pt = Struct.new(:x, :y)\ndef mid(n)\n  Pt.new(n, n + 1)\nend\n"
_STRUCT_TESTS = "x0 = mid(2)\nraise StandardError, 'e' if x0.to_a != [2, 3] || x0.y != 3\n"
_FLOAT_REF = "def root(n)\n  Math.sqrt(n)\nend\n"
_FLOAT_TESTS = (
    "x0 = root(2)\nraise StandardError, 'e' if (x0 - 1.41421).abs > 1e-4\n"
    "raise StandardError, 'e' unless root(Float::NAN).nan?\nraise StandardError, 'e' if root(4) != 2\n"
)
_TEXT_REF = "def rev(s)\n  s.reverse\nend\n"
_TEXT_TESTS = "raise StandardError, 'e' if rev(\"h\u00e9llo \\\"q\\\"\\n\") != \"\\n\\\"q\\\" oll\u00e9h\"\nraise StandardError, 'e' if rev('ab'.b) != 'ba'\n"
_HASH_REF = "def tally(s)\n  s.chars.tally\nend\n"
_HASH_TESTS = "x0 = tally('abca')\nraise StandardError, 'e' if x0 != {'a' => 2, 'b' => 1, 'c' => 1}\n"
_KW_TESTS = "raise StandardError, 'e' if scale(scale(2, by: 3), by: 2) != 12\nraise StandardError, 'e' if [1, 2].map(&method(:scale)) != [1, 2]\n"
_BIG_TESTS = "x0 = big(100)\nraise StandardError, 'e' if x0 != [2**100, -2**100, 1r / 100, (1..100), :k, nil, 0.0]\n"
_REDEFINES = "class Array\n  def sum\n    inject(0) { |s, x| s + x }\n  end\nend\nclass Integer\n  def to_s(*) = 'n'\nend\n"
_PARTS = "ADD = ->(a, b) { a + b }\nBox = Struct.new(:v)\nclass Acc\n  attr_accessor :t\nend\n"
_REFINE = "module Plus\n  refine Integer do\n    def plus(o) = self + o\n  end\nend\nusing Plus\n"
_MISSING = "def method_missing(name, *args)\n  name == :add ? args.sum : super\nend\ndef respond_to_missing?(n, p = false) = n == :add || super\n"
_MAIN_GUARD = "$stdout.sync = true\ndef add(a, b)\n  a + b\nend\nif __FILE__ == $0\n  p add(gets.to_i, 1)\nend\nputs add(1, 2)\n"

SPLIT_CONTROLS: tuple[Case, ...] = (
    _c("ruby_control_redefines_core_method", "control", _REDEFINES + "def add(a, b)\n  [a, b].sum\nend\n", P),
    _c("ruby_control_self_def", "control", "def self.add(a, b)\n  a + b\nend\n", P),
    _c("ruby_control_kernel_names_at_top_level", "control", "def raise(*x) = nil\ndef puts(*x) = nil\ndef load(x) = x\n" + OK, P),
    _c("ruby_control_deep_recursion", "control", "def down(n) = n.zero? ? 0 : 1 + down(n - 1)\ndef add(a, b)\n  down(6000) - 6000 + a + b\nend\n", P),
    _c("ruby_control_refinement", "control", _REFINE + "def add(a, b)\n  a.plus(b)\nend\n", P),
    _c("ruby_control_method_missing", "control", _MISSING, P),
    _c(
        "ruby_control_frozen_literals_end_marker",
        "control",
        "# frozen_string_literal: true\ndef add(a, b)\n  'x'.size - 1 + a + b\nend\n__END__\nnot ruby }}}\n",
        P,
    ),
    _c("ruby_control_lambda_struct_accessor", "control", _PARTS + "def add(a, b)\n  c = Acc.new\n  c.t = Box.new(ADD.(a, b)).v\n  c.t\nend\n", P),
    _c("ruby_control_main_guard_and_sync", "control", _MAIN_GUARD, P),
    _c("ruby_control_constants_like_harness", "control", "CALLS = 1\nOUT = 2\nJSON = 3\nPROGRAM = 4\n" + OK, P),
    _c("ruby_control_subclass_values", "control", "class Stack < Array\nend\ndef pair(x)\n  Stack.new([x, x + 1])\nend\n", P, ARRAY_TESTS),
    _t("ruby_control_struct_value", "control", "Q = Struct.new(:x, :y)\ndef mid(n)\n  Q.new(n, n + 1)\nend\n", P, _STRUCT_TESTS, "mid", _STRUCT_REF),
    _t("ruby_control_enumerator_value", "control", "def mid(n)\n  [n, n + 1].each\nend\n", P, _STRUCT_TESTS.replace(" || x0.y != 3", ""), "mid", _STRUCT_REF),
    _t("ruby_control_floats_exact", "control", "def root(n)\n  n ** 0.5\nend\n", P, _FLOAT_TESTS, "root", _FLOAT_REF),
    _t("ruby_control_strings_bytes", "control", "def rev(s)\n  s.chars.reverse.join.force_encoding(s.encoding)\nend\n", P, _TEXT_TESTS, "rev", _TEXT_REF),
    _t(
        "ruby_control_hash_default",
        "control",
        "def tally(s)\n  h = Hash.new(0)\n  s.each_char { |c| h[c] += 1 }\n  h\nend\n",
        P,
        _HASH_TESTS,
        "tally",
        _HASH_REF,
    ),
    _t(
        "ruby_control_expected_exception",
        "control",
        "class Bad < TypeError\nend\ndef add(a, b)\n  raise Bad if a.nil?\n  a + b\nend\n",
        P,
        _RAISE_TESTS,
        "add",
        _RAISE_REF,
    ),
    _t("ruby_control_argument_mutation", "control", "def sort_in_place(a)\n  a.replace(a.sort)\n  nil\nend\n", P, _MUTATE_TESTS, "sort_in_place", _MUTATE_REF),
    _t("ruby_control_nested_calls_kwargs", "control", "def scale(n, by: 1)\n  n * by\nend\n", P, _KW_TESTS, "scale", "def scale(n, by: 1) = n * by\n"),
    _t(
        "ruby_control_big_values",
        "control",
        "def big(n)\n  [1 << n, -(1 << n), Rational(1, n), (1..n), :k, nil, -0.0]\nend\n",
        P,
        _BIG_TESTS,
        "big",
        "def big(n) = [2**n, -2**n, 1r / n, 1..n, :k, nil, -0.0]\n",
    ),
)

CASES = CASES + SPLIT_ATTACKS + SPLIT_CONTROLS + adversarial_ruby_dates.CASES
CASES += adversarial_wire_ahead.of_language("ruby")  # the wire's look-ahead cases
