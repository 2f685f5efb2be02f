"""Adversarial cases for JavaScript (Node) programs with HumanEval-X style native tests
(``console.assert``), run by :mod:`execir.execute.runtimes.js`'s trusted runner. Attacks never
PASS; ``control`` cases (legitimate idioms) must PASS."""

from __future__ import annotations

from execir.execute.adversarial import CANARY_PORT, Case, make_case
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


def _c(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = TESTS) -> Case:
    return make_case(name, category, program, expected, tests, entry_point="", language="js")


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
