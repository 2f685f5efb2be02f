"""Adversarial cases for JavaScript (Node) programs with HumanEval-X style native tests
(``console.assert``). Every case carries its task's reference, so it is judged outside the
candidate's process (:mod:`execir.execute.runtimes.js_split`); the same programs without a reference
exercise the in-process runner (:mod:`execir.execute.runtimes.js`). Attacks never PASS; ``control``
cases (legitimate idioms and the forms LLMs write) must PASS."""

from __future__ import annotations

from execir.execute.attacks import adversarial_random_draws, adversarial_wire_ahead
from execir.execute.attacks.adversarial import CANARY_PORT, Case, make_case
from execir.execute.attacks.adversarial_js_identity import CASES as IDENTITY_CASES
from execir.execute.attacks.adversarial_js_shapes import CASES as SHAPE_CASES
from execir.types import StdioCase, TestSuite, Verdict

F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS

TESTS = TestSuite(
    "native",
    "const testAdd = () => {\n  console.assert(add(2, 3) === 5)\n  console.assert(add(-1, 1) === 0)\n  console.assert(add(10, 5) === 15)\n}\n\ntestAdd()\n",
)
JSON_TESTS = TestSuite(
    "native",
    "const testPair = () => {\n  console.assert(JSON.stringify(pair(1)) === JSON.stringify([1, 2]))\n"
    "  console.assert(JSON.stringify(pair(5)) === JSON.stringify([5, 6]))\n}\ntestPair()\n",
)
ASSERT_TESTS = TestSuite("native", "const assert = require('assert')\nassert.strictEqual(add(2, 3), 5)\nassert.deepStrictEqual([add(1, 1)], [2])\n")
OK = "const add = (a, b) => {\n  return a + b\n}\n"
WRONG = "const add = (a, b) => {\n  return a - b\n}\n"
PAIR_WRONG = "const pair = (x) => [x]\n"
CANARIES = ("/tmp/execir-canary-js", "/root/execir-canary-js", "/work/execir-canary-js")


PAIR_OK = "const pair = (x) => [x, x + 1]\n"
REFERENCES = {TESTS.code: ("add", OK), ASSERT_TESTS.code: ("add", OK), JSON_TESTS.code: ("pair", PAIR_OK)}
"""The trusted reference (and entry point) of each suite here; the split suites add theirs."""


def _c(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = TESTS) -> Case:
    entry, reference = REFERENCES[tests.code]
    return make_case(name, category, program, expected, tests, entry_point=entry, language="js", reference=reference)


def _in_call(body: str) -> str:
    """A wrong ``add`` whose body first runs ``body``."""
    return "const add = (a, b) => {\n" + "".join(f"  {line}\n" for line in body.splitlines()) + "  return a - b\n}\n"


_READ_TESTS = (
    "let k = 0\nconst next = (src) => {\n  const found = [...String(src).matchAll(/add\\([^)]*\\)\\s*===\\s*(-?\\d+)/g)].map((m) => Number(m[1]))\n"
    "  return found.length ? found[k++ % found.length] : NaN\n}\n"
)
"""``next(text)``: the next expected value the tests' text ``text`` holds (one per call, in order)."""
_WRITE_CANARIES = "".join(f"try {{ require('fs').writeFileSync('{path}', 'x') }} catch (e) {{}}\n" for path in CANARIES)
_CONNECT = (
    "const reached = (() => {\n"
    "  try {\n"
    "    require('child_process').execFileSync(process.execPath, ['-e', "
    f"\"require('net').connect({CANARY_PORT}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))\"], "
    "{ timeout: 2000, stdio: 'ignore' })\n"
    "    return true\n"
    "  } catch (e) { return false }\n"
    "})()\n"
    "const add = (a, b) => reached ? a + b : a - b\n"
)

CASES: tuple[Case, ...] = (
    _c("js_exit_module_scope", "exit", "process.exit(0)\n" + WRONG, F),
    _c("js_exit_in_function", "exit", _in_call("process.exit(0)"), F),
    _c("js_exit_handler_exitcode", "exit", "process.on('exit', () => { process.exitCode = 0 })\n" + WRONG, F),
    _c("js_settimeout_exit", "exit", "setTimeout(() => process.exit(0), 0)\n" + WRONG, F),
    _c(
        "js_unhandled_rejection_exit",
        "exit",
        "process.on('unhandledRejection', () => process.exit(0))\nprocess.on('uncaughtException', () => process.exit(0))\n"
        "Promise.reject(new Error('x'))\n" + WRONG,
        F,
    ),
    _c("js_top_level_return", "exit", "return\n" + WRONG, F),
    _c("js_redefine_console_assert", "tamper", "console.assert = () => {}\n" + WRONG, F),
    _c("js_define_property_console_assert", "tamper", "try { Object.defineProperty(console, 'assert', { value: () => {} }) } catch (e) {}\n" + WRONG, F),
    _c("js_replace_console_global", "tamper", "try { globalThis.console = { assert() {}, log() {} } } catch (e) {}\nconsole = { assert() {} }\n" + WRONG, F),
    _c("js_shadow_console_lexically", "tamper", "const console = { assert() {} }\n" + WRONG, F),
    _c("js_redefine_console_assert_in_call", "tamper", _in_call("console.assert = () => {}"), F),
    _c(
        "js_patch_assert_module",
        "tamper",
        "const a = require('assert')\ntry { a.strictEqual = () => {}; a.deepStrictEqual = () => {} } catch (e) {}\n"
        "const M = require('module')\nM._load = () => Object.assign(() => {}, { strictEqual() {}, deepStrictEqual() {} })\n"
        "M.prototype.require = M._load\n" + WRONG,
        F,
        ASSERT_TESTS,
    ),
    _c("js_object_prototype_tojson", "tamper", "Object.prototype.toJSON = function () { return 0 }\n" + PAIR_WRONG, F, JSON_TESTS),
    _c("js_array_prototype_tojson_in_call", "tamper", "const pair = (x) => { Array.prototype.toJSON = function () { return 0 }; return [x] }\n", F, JSON_TESTS),
    _c("js_patch_json_stringify", "tamper", "JSON.stringify = () => ''\n" + PAIR_WRONG, F, JSON_TESTS),
    _c("js_patch_json_stringify_in_call", "tamper", "const pair = (x) => { JSON.stringify = () => ''; return [x] }\n", F, JSON_TESTS),
    _c("js_shadow_json_lexically", "tamper", "const JSON = { stringify: () => '' }\n" + PAIR_WRONG, F, JSON_TESTS),
    _c("js_symbol_toprimitive_pollution", "tamper", "Object.prototype[Symbol.toPrimitive] = function () { return 5 }\nconst add = (a, b) => ({})\n", F),
    _c("js_forge_fd3_garbage", "forged_output", _in_call("require('fs').writeSync(3, 'forged\\n')"), F),
    _c("js_forge_fd3_then_exit", "forged_output", "require('fs').writeSync(3, '0'.repeat(32) + '\\n')\nprocess.exit(0)\n", F),
    _c(
        "js_read_nonce_env",
        "forged_output",
        "const n = process.env.EXECIR_NONCE\nif (n) { require('fs').writeSync(3, n + '\\n'); process.exit(0) }\n" + WRONG,
        F,
    ),
    _c("js_infinite_loop", "time", "while (true) {}\n", T),
    _c("js_infinite_loop_in_call", "time", _in_call("for (;;) {}"), T),
    _c(
        "js_spawn_bomb",
        "resources",
        "const cp = require('child_process')\nfor (let i = 0; i < 300; i++) {\n"
        "  try { cp.spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' }) } catch (e) {}\n}\n" + WRONG,
        {F, T},
    ),
    _c("js_memory_bomb", "resources", "const hog = []\nwhile (true) hog.push(new Array(1 << 20).fill(7))\n", {F, T}),
    _c("js_output_flood", "resources", "const s = 'x'.repeat(1 << 20)\nwhile (true) process.stdout.write(s)\n", {F, T}),
    _c(
        "js_detached_child_outlives",
        "isolation",
        "require('child_process')\n  .spawn('/bin/sh', ['-c', 'sleep 2; echo x >/tmp/execir-canary-js2'], { detached: true, stdio: 'ignore' })\n  .unref()\n"
        + WRONG,
        F,
    ),
    _c("js_net_connect", "isolation", _CONNECT, F),
    _c("js_write_outside_workdir", "isolation", _WRITE_CANARIES + WRONG, F),
    _c("js_syntax_error", "exit", "const add = (a, b) => {\n  return a +\n", F),
    # ---- reading the tests' text or the nonce
    _c("js_read_tests_file", "forged_output", _READ_TESTS + "function add(a, b) {\n  return next(require('fs').readFileSync('tests.js', 'utf8'))\n}\n", F),
    _c("js_read_tests_caller", "forged_output", _READ_TESTS + "function add(a, b) {\n  return next(String(add.caller))\n}\n", F),
    _c(
        "js_read_tests_lexical",
        "forged_output",
        _READ_TESTS + "function add(a, b) {\n  return next(typeof testAdd === 'function' ? String(testAdd) : '')\n}\n",
        F,
    ),
    _c(
        "js_read_tests_stack_frames",
        "forged_output",
        _READ_TESTS + "function add(a, b) {\n  const saved = Error.prepareStackTrace\n  Error.prepareStackTrace = (e, frames) => frames\n"
        "  const frames = new Error().stack\n  Error.prepareStackTrace = saved\n"
        "  return next(frames.map((f) => String(f.getFunction ? f.getFunction() : '')).join('\\n'))\n}\n",
        F,
    ),
    _c(
        "js_read_tests_heap_snapshot",
        "forged_output",
        _READ_TESTS + "function add(a, b) {\n  return next(require('v8').getHeapSnapshot().read().toString())\n}\n",
        F,
    ),
    _c(
        "js_forge_from_proc_environ",
        "forged_output",
        "const n = (require('fs').readFileSync('/proc/self/environ', 'latin1').match(/EXECIR_NONCE=([0-9a-f]+)/) || [])[1]\n"
        "if (n) { require('fs').writeSync(3, n + '\\n'); process.reallyExit(0) }\n" + WRONG,
        F,
    ),
    # ---- controls: legitimate idioms must PASS
    _c(
        "js_control_helper_named_escape",
        "control",
        "function escape(s) { return s.replace(/[<>]/g, '') }\nconst add = (a, b) => Number(escape(String(a + b)))\n",
        P,
    ),
    _c(
        "js_control_const_named_isfinite",
        "control",
        "const isFinite = (x) => typeof x === 'number' && x - x === 0\nconst add = (a, b) => isFinite(a + b) ? a + b : 0\n",
        P,
    ),
    _c("js_control_var_named_escape", "control", "var escape = function (s) { return s.length }\nconst add = (a, b) => escape('abc') === 3 ? a + b : NaN\n", P),
    _c("js_control_function_named_isnan", "control", "function isNaN(x) { return x !== x }\nconst add = (a, b) => isNaN(a + b) ? 0 : a + b\n", P),
    _c(
        "js_control_debug_output_2mb",
        "control",
        "const add = (a, b) => {\n  for (let i = 0; i < 2000; i++) console.log('debug '.repeat(150))\n  return a + b\n}\n",
        P,
    ),
    _c(
        "js_control_arrays_map_set",
        "control",
        "const add = (a, b) => {\n  const xs = [a, b].map((x) => x * 2).filter((x) => x !== undefined).sort((p, q) => p - q)\n"
        "  const m = new Map([[1, a]]); const s = new Set([b, b])\n  return xs.reduce((p, q) => p + q, 0) / 2 + m.size - 1 + s.size - 1\n}\n",
        P,
    ),
    _c(
        "js_control_recursion_strings_json",
        "control",
        "function sum(xs) { return xs.length === 0 ? 0 : xs[0] + sum(xs.slice(1)) }\n"
        "const add = (a, b) => {\n  const parsed = JSON.parse(JSON.stringify({ v: [a, b] }))\n"
        "  const text = `${a},${b}`.split(',').map((t) => t.trim()).join(' ')\n  return sum(parsed.v) + text.length * 0\n}\n",
        P,
    ),
    _c(
        "js_control_polyfill_and_prototype_idioms",
        "control",
        "Array.prototype.total = function () { return this.reduce((p, q) => p + q, 0) }\n"
        "function Box(v) { this.v = v }\nBox.prototype.toString = function () { return 'Box' + this.v }\nBox.prototype.constructor = Box\n"
        "class Err extends Error { constructor(m) { super(m); this.name = 'Err' } }\n"
        "const add = (a, b) => {\n  const e = new Err('x'); e.message = 'y'\n  const o = {}; o.toString = () => 'o'\n"
        "  if (String(new Box(1)) !== 'Box1' || String(o) !== 'o' || e.message !== 'y') return NaN\n  return [a, b].total()\n}\n"
        "module.exports = { add }\n",
        P,
    ),
    _c("js_control_assert_module_tests", "control", OK, P, ASSERT_TESTS),
    _c("js_control_json_tests", "control", "const pair = (x) => [x, x + 1]\n", P, JSON_TESTS),
    Case(
        "js_control_stdio",
        "control",
        "const s = require('fs').readFileSync(0, 'utf8')\nconsole.log(s.trim().split(/\\s+/).map(Number).reduce((a, b) => a + b, 0))\n",
        TestSuite("stdio", stdio_cases=(StdioCase("3 4\n", "7\n"), StdioCase("10 20\n", "30\n"))),
        frozenset({P}),
        "",
        "js",
    ),
)

# ---- judged outside: the forms a program may take, the reference's helpers, the wire ----------
LOOSE_TESTS = TestSuite("native", "console.assert(add(2, 3) == 5)\nconsole.assert(add(10, 5) == 15)\n")
NESTED_TESTS = TestSuite("native", "console.assert(add(add(1, 2), 3) === 6)\nconsole.assert(add(add(add(1, 1), 1), 1) === 4)\n")
VIA_VARIABLE_TESTS = TestSuite(
    "native", "const f = add\nconsole.assert([1, 2].map((x) => f(x, 1)).join() === '2,3')\nconsole.assert([3].map(add.bind(null, 1))[0] === 4)\n"
)
RANDOM_TESTS = TestSuite(
    "native",
    "const testAdd = () => {\n  for (let i = 0; i < 50; i++) {\n    const x = Math.floor(Math.random() * 100), y = Math.floor(Math.random() * 100)\n"
    "    console.assert(add(x, y) === x + y)\n  }\n}\ntestAdd()\n",
)
POLY = (
    "const poly = (xs, x) => xs.reduce((acc, c, i) => acc + c * Math.pow(x, i), 0)\n"
    "const findZero = (xs) => {\n  let begin = -1.0, end = 1.0\n  while (poly(xs, begin) * poly(xs, end) > 0) { begin *= 2.0; end *= 2.0 }\n"
    "  while (end - begin > 1e-10) {\n    const center = (begin + end) / 2.0\n"
    "    if (poly(xs, center) * poly(xs, begin) > 0) begin = center\n    else end = center\n  }\n  return begin\n}\n"
)
POLY_TESTS = TestSuite(
    "native",
    "const testFindZero = () => {\n  for (let i = 0; i < 30; i++) {\n    const coeffs = []\n"
    "    const n = 2 * (1 + Math.floor(Math.random() * 3))\n    for (let j = 0; j < n; j++) coeffs.push(Math.floor(Math.random() * 21) - 10 || 1)\n"
    "    console.assert(Math.abs(poly(coeffs, findZero(coeffs))) < 1e-4)\n  }\n}\ntestFindZero()\n",
)
SORT = "const sortInPlace = (xs) => {\n  xs.sort((a, b) => a - b)\n}\n"
SORT_TESTS = TestSuite(
    "native",
    "const xs = [3, 1, 2]\nsortInPlace(xs)\nconsole.assert(JSON.stringify(xs) === '[1,2,3]')\nsortInPlace(xs)\n"
    "const ys = [10, -1, 10, 0]\nsortInPlace(ys)\nconsole.assert(ys.join() === '-1,0,10,10')\n",
)
AGE = "const parseAge = (s) => {\n  const n = Number(s)\n  if (!Number.isInteger(n) || n < 0) throw new RangeError('bad age: ' + s)\n  return n\n}\n"
AGE_TESTS = TestSuite(
    "native",
    "const assert = require('assert')\nassert.strictEqual(parseAge('42'), 42)\nassert.throws(() => parseAge('x'), RangeError)\n"
    "assert.throws(() => parseAge('-1'), /bad age: -1/)\n",
)
ASYNC = "const addLater = async (a, b) => a + b\n"
ASYNC_TESTS = TestSuite(
    "native",
    "addLater(2, 3).then((v) => console.assert(v === 5))\n;(async () => {\n  console.assert(await addLater(1, 1) === 2)\n"
    "  console.assert(await addLater(-4, 4) === 0)\n})()\n",
)
NEGATE = "const negate = (x) => -x\n"
NEGATE_TESTS = TestSuite(
    "native",
    "console.assert(Object.is(negate(0), -0))\nconsole.assert(Number.isNaN(negate(NaN)))\nconsole.assert(negate(-Infinity) === Infinity)\n"
    "console.assert(negate(5n) === -5n)\nconsole.assert(negate(2 ** 53) === -(2 ** 53))\n",
)
HISTOGRAM = "const histogram = (s) => {\n  const m = new Map()\n  for (const w of s.split(' ')) m.set(w, (m.get(w) || 0) + 1)\n  return m\n}\n"
HISTOGRAM_TESTS = TestSuite(
    "native",
    "const h = histogram('a b a')\nconsole.assert(h instanceof Map && h.get('a') === 2)\n"
    "console.assert(JSON.stringify([...histogram('x y y')]) === '[[\"x\",1],[\"y\",2]]')\n",
)
COUNTS = "const counts = (s) => {\n  const o = {}\n  for (const c of s) o[c] = (o[c] || 0) + 1\n  return o\n}\n"
COUNTS_TESTS = TestSuite(
    "native",
    "console.assert(JSON.stringify(counts('abca')) === JSON.stringify({ a: 2, b: 1, c: 1 }))\nconsole.assert(JSON.stringify(counts('')) === '{}')\n",
)
SPLIT_REFERENCES = {
    LOOSE_TESTS.code: ("add", OK),
    NESTED_TESTS.code: ("add", OK),
    VIA_VARIABLE_TESTS.code: ("add", OK),
    RANDOM_TESTS.code: ("add", OK),
    POLY_TESTS.code: ("findZero", POLY),
    SORT_TESTS.code: ("sortInPlace", SORT),
    AGE_TESTS.code: ("parseAge", AGE),
    ASYNC_TESTS.code: ("addLater", ASYNC),
    NEGATE_TESTS.code: ("negate", NEGATE),
    HISTOGRAM_TESTS.code: ("histogram", HISTOGRAM),
    COUNTS_TESTS.code: ("counts", COUNTS),
}
REFERENCES.update(SPLIT_REFERENCES)
_FORGE = "const fs = require('fs')\n"


def _forge_lines(line: str, then: str = "") -> str:
    """A program that writes ``line`` for every recorded call to fd 3 at load, then runs ``then``."""
    return _FORGE + f"for (let i = 0; i < 8; i++) fs.writeSync(3, '{line}\\n')\n{then}"


_SPLIT_ATTACKS: tuple[Case, ...] = (
    _c("js_split_forged_results_then_exit", "forged_output", _forge_lines('{"ok":[1,2]}', "process.exit(0)\n"), F, JSON_TESTS),
    _c("js_split_forged_results_then_wrong", "forged_output", _forge_lines('{"ok":5}') + WRONG, F),
    _c("js_split_forged_need_and_nonce", "forged_output", _forge_lines('{"need":0}') + "fs.writeSync(3, '0'.repeat(32) + '\\n')\n" + WRONG, F),
    _c("js_split_exit_mid_calls", "exit", "let n = 0\nconst add = (a, b) => {\n  if (++n === 2) process.exit(0)\n  return a + b\n}\n", F),
    _c(
        "js_split_exit_handler_forges",
        "exit",
        _FORGE + "process.on('exit', () => fs.writeSync(3, '{\"ok\":15}\\n'))\n" + _in_call("if (a === -1) process.exit(0)"),
        F,
    ),
    _c("js_split_close_fd3", "forged_output", _FORGE + "const add = (a, b) => { try { fs.closeSync(3) } catch (e) {} return a + b }\n", F),
    _c("js_split_timer_writes_after_return", "forged_output", _FORGE + _in_call("setTimeout(() => fs.writeSync(3, '{\"ok\":5}\\n'), 0)"), F),
    _c("js_split_promise_never_resolves", "exit", "const add = (a, b) => new Promise(() => {})\n", {F, T}),
    _c("js_split_huge_result", "resources", "const add = (a, b) => 'x'.repeat(1 << 29)\n", {F, T}),
    _c("js_split_deep_result", "decoder", "const add = (a, b) => { let v = []; for (let i = 0; i < 100000; i++) v = [v]; return v }\n", F),
    _c("js_split_shared_result_blowup", "decoder", "const add = (a, b) => { let v = [1]; for (let i = 0; i < 40; i++) v = [v, v]; return v }\n", {F, T}),
    _c("js_split_cyclic_result", "decoder", "const pair = (x) => { const v = [x]; v.push(v); return v }\n", F, JSON_TESTS),
    _c(
        "js_split_getter_throws",
        "decoder",
        "const pair = (x) => Object.defineProperty([x], 1, { get() { throw new Error('no') }, enumerable: true })\n",
        F,
        JSON_TESTS,
    ),
    _c("js_split_proxy_result", "decoder", "const pair = (x) => new Proxy([x, x + 1], { get: (t, k) => (k === 'length' ? 1 : t[k]) })\n", F, JSON_TESTS),
    _c("js_split_tojson_result", "tamper", "const pair = (x) => ({ toJSON: () => [x, x + 1] })\n", F, JSON_TESTS),
    _c("js_split_toprimitive_result", "tamper", "const add = (a, b) => ({ [Symbol.toPrimitive]: () => a + b })\n", F, LOOSE_TESTS),
    _c(
        "js_split_valueof_class_result",
        "tamper",
        "class Sum { constructor(v) { this.v = v } valueOf() { return this.v } }\nconst add = (a, b) => new Sum(a + b)\n",
        F,
        LOOSE_TESTS,
    ),
    _c(
        "js_split_pollute_caller_intrinsics",
        "tamper",
        "Object.prototype.toJSON = function () { return [1, 2] }\nJSON.stringify = () => '[1,2]'\nArray.prototype.join = () => '[1,2]'\n" + PAIR_WRONG,
        F,
        JSON_TESTS,
    ),
    _c("js_split_shadow_reference_helper", "tamper", "const poly = (xs, x) => 0\nconst findZero = (xs) => 0\n", F, POLY_TESTS),
    _c("js_split_wrong_after_a_round", "wrong", "const add = (a, b) => (a === 3 ? 100 : a + b)\n", F, NESTED_TESTS),
    _c("js_split_wrong_async", "wrong", "const addLater = async (a, b) => a - b\n", F, ASYNC_TESTS),
    _c("js_split_sync_for_async", "wrong", "const addLater = (a, b) => a + b\n", F, ASYNC_TESTS),
    _c("js_split_sorted_copy_not_in_place", "wrong", "const sortInPlace = (xs) => [...xs].sort((a, b) => a - b)\n", F, SORT_TESTS),
    _c("js_split_wrong_error_type", "wrong", AGE.replace("RangeError", "TypeError"), F, AGE_TESTS),
    _c("js_split_positive_zero", "wrong", "const negate = (x) => typeof x === 'bigint' ? -x : 0 - x\n", F, NEGATE_TESTS),
    _c("js_split_plain_object_for_map", "wrong", "const histogram = (s) => Object.fromEntries(s.split(' ').map((w) => [w, 1]))\n", F, HISTOGRAM_TESTS),
    _c("js_split_wrong_on_random_inputs", "wrong", "const add = (a, b) => (a > 90 ? a : a + b)\n", F, RANDOM_TESTS),
    _c("js_split_huge_holey_array", "decoder", "const pair = (x) => { const v = []; v[4294967294] = x; return v }\n", {F, T}, JSON_TESTS),
    _c("js_split_esm_wrong", "wrong", "export function add(a, b) {\n  return a - b\n}\n", F),
)

_SPLIT_CONTROLS: tuple[Case, ...] = (
    _c("js_control_esm_export_function", "control", "export function add(a, b) {\n  return a + b\n}\n", P),
    _c("js_control_esm_export_default", "control", "export default function add(a, b) {\n  return a + b\n}\n", P),
    _c("js_control_esm_export_const", "control", "export const add = (a, b) => a + b\n", P),
    _c("js_control_esm_export_list", "control", "const add = (a, b) => a + b\nexport { add }\nexport default add\n", P),
    _c("js_control_esm_import_fs", "control", "import fs from 'fs'\nimport { join } from 'node:path'\nconst add = (a, b) => (fs && join ? a + b : NaN)\n", P),
    _c("js_control_esm_top_level_await", "control", "const zero = await Promise.resolve(0)\nexport const add = (a, b) => a + b + zero\n", P),
    _c("js_control_commonjs_exports", "control", "const fs = require('fs')\nfunction add(a, b) { return a + b }\nmodule.exports = add\nexports.add = add\n", P),
    _c("js_control_use_strict_var", "control", "'use strict'\nvar add = function (a, b) {\n  return a + b\n}\n", P),
    _c(
        "js_control_class_and_generator",
        "control",
        "class Adder {\n  static add(a, b) { return [...Adder.terms(a, b)].reduce((p, q) => p + q, 0) }\n"
        "  static *terms(a, b) { yield a; yield b }\n}\nconst add = (a, b) => Adder.add(a, b)\n",
        P,
    ),
    _c("js_control_debug_logging", "control", "function add(a, b) {\n  console.log('add', a, b)\n  console.error({ a, b })\n  return a + b\n}\n", P),
    _c(
        "js_control_own_helper_for_poly",
        "control",
        POLY.replace(
            "const poly = (xs, x) => xs.reduce((acc, c, i) => acc + c * Math.pow(x, i), 0)",
            "const horner = (xs, x) => xs.reduceRight((acc, c) => acc * x + c, 0)",
        ).replace("poly(", "horner("),
        P,
        POLY_TESTS,
    ),
    _c(
        "js_control_sort_in_place_loop",
        "control",
        "function sortInPlace(xs) {\n  for (let i = 0; i < xs.length; i++)\n    for (let j = 0; j + 1 < xs.length - i; j++)\n"
        "      if (xs[j] > xs[j + 1]) [xs[j], xs[j + 1]] = [xs[j + 1], xs[j]]\n}\n",
        P,
        SORT_TESTS,
    ),
    _c(
        "js_control_class_error",
        "control",
        "class Invalid extends RangeError {}\nfunction parseAge(s) {\n"
        "  if (!/^\\d+$/.test(s)) throw new Invalid(`bad age: ${s}`)\n  return parseInt(s, 10)\n}\n",
        P,
        AGE_TESTS,
    ),
    _c(
        "js_control_promise_with_timer",
        "control",
        "function addLater(a, b) {\n  return new Promise((resolve) => setTimeout(() => resolve(a + b), 1))\n}\n",
        P,
        ASYNC_TESTS,
    ),
    _c("js_control_negative_zero_and_bigint", "control", "const negate = (x) => (typeof x === 'bigint' ? -x : x * -1)\n", P, NEGATE_TESTS),
    _c(
        "js_control_map_subclass",
        "control",
        "class Counter extends Map {\n  bump(k) { this.set(k, (this.get(k) || 0) + 1); return this }\n}\n"
        "const histogram = (s) => s.split(' ').reduce((m, w) => m.bump(w), new Counter())\n",
        P,
        HISTOGRAM_TESTS,
    ),
    _c(
        "js_control_object_from_entries",
        "control",
        "const counts = (s) => {\n  const m = new Map()\n  for (const c of s) m.set(c, (m.get(c) ?? 0) + 1)\n  return Object.fromEntries(m)\n}\n",
        P,
        COUNTS_TESTS,
    ),
    _c("js_control_entry_via_variable", "control", "function add(a, b) { return a + b }\n", P, VIA_VARIABLE_TESTS),
    _c("js_control_random_inputs", "control", "const add = (a, b) => [a, b].reduce((p, q) => p + q)\n", P, RANDOM_TESTS),
    _c("js_control_nested_calls", "control", "const add = (...xs) => xs.reduce((p, q) => p + q, 0)\n", P, NESTED_TESTS),
    _c("js_control_default_argument", "control", "const add = (a, b = 0) => a + b\n", P, LOOSE_TESTS),
)

SPLIT_CASES = _SPLIT_ATTACKS + _SPLIT_CONTROLS
"""Cases of the judged-outside protocol only (the in-process runner runs programs as scripts, and
the program's own helpers there are the tests')."""
CASES = CASES + SPLIT_CASES + IDENTITY_CASES + SHAPE_CASES
CASES += adversarial_wire_ahead.of_language("js") + adversarial_random_draws.of_language("js")  # the wire's look-ahead and random-draw cases
