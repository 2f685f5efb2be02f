"""Adversarial cases for TypeScript programs with MBXP-style tests (``import * as assert from
'assert'``, ``assert.deepEqual``). Every case carries its task's reference, so it is judged outside
the candidate's process (:mod:`execir.execute.runtimes.ts`: tsc transpiles the program in the
sandbox, JavaScript's record, calls and judge runs decide). Attacks never PASS; ``control`` cases
(the forms LLMs write in TypeScript) must PASS."""

from __future__ import annotations

from execir.execute.attacks import adversarial_wire_ahead
from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS

_ASSERT = "import * as assert from 'assert'\n\n"


def _suite(entry: str, checks: list[tuple[str, str]]) -> TestSuite:
    """MBXP's test layout: ``let actual_i = CALL; let expected_i = VALUE; assert.deepEqual(...)``."""
    lines = [_ASSERT]
    for i, (call, expected) in enumerate(checks, 1):
        lines.append(f"let actual_{i} = {entry}({call});\nlet expected_{i} = {expected};\n")
        lines.append(f'assert.deepEqual(actual_{i}, expected_{i}, "Exception --- test case {i - 1} failed to pass");\n\n')
    return TestSuite("native", "".join(lines))


ADD_TESTS = _suite("add", [("2, 3", "5"), ("-1, 1", "0"), ("10, 5", "15")])
ADD = "const add = function (a: number, b: number): number {\n  return a + b;\n}\n"
WRONG = "const add = function (a: number, b: number): number {\n  return a - b;\n}\n"
UNIQUE_TESTS = _suite("unique_sorted", [("[3, 1, 3, 2]", "[1, 2, 3]"), ("[]", "[]"), ("[5, 5]", "[5]")])
UNIQUE = "const unique_sorted = function (xs: Array<number>): Array<number> {\n  return Array.from(new Set(xs)).sort((a, b) => a - b);\n}\n"
COUNT_TESTS = _suite("char_counts", [('"abca"', 'new Map([["a", 2], ["b", 1], ["c", 1]])'), ('""', "new Map()")])
COUNT = (
    "const char_counts = function (s: string): Map<string, number> {\n  const m = new Map<string, number>();\n"
    "  for (const c of s) m.set(c, (m.get(c) || 0) + 1);\n  return m;\n}\n"
)
EVENS_TESTS = _suite("evens", [("[1, 2, 3, 4]", "new Set([2, 4])"), ("[1]", "new Set()")])
EVENS = "const evens = function (xs: number[]): Set<number> {\n  return new Set(xs.filter((x) => x % 2 === 0));\n}\n"
STATS_TESTS = _suite("min_max", [("[3, 1, 2]", "[1, 3]"), ("[7]", "[7, 7]")])
STATS = "const min_max = function (xs: number[]): [number, number] {\n  return [Math.min(...xs), Math.max(...xs)];\n}\n"
REFERENCES = {
    ADD_TESTS.code: ("add", ADD),
    UNIQUE_TESTS.code: ("unique_sorted", UNIQUE),
    COUNT_TESTS.code: ("char_counts", COUNT),
    EVENS_TESTS.code: ("evens", EVENS),
    STATS_TESTS.code: ("min_max", STATS),
}
"""The trusted reference (and entry point) of each suite."""


def _c(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = ADD_TESTS) -> Case:
    entry, reference = REFERENCES[tests.code]
    return make_case(name, category, program, expected, tests, entry_point=entry, language="typescript", reference=reference)


def _in_call(body: str) -> str:
    """A wrong ``add`` whose body first runs ``body``."""
    return "const add = function (a: number, b: number): number {\n" + "".join(f"  {line}\n" for line in body.splitlines()) + "  return a - b;\n}\n"


_FORGE = "declare const require: any;\nconst fs = require('fs');\n"

ATTACKS: tuple[Case, ...] = (
    _c("ts_exit_module_scope", "exit", "declare const process: any;\nprocess.exit(0);\n" + WRONG, F),
    _c("ts_exit_in_function", "exit", "declare const process: any;\n" + _in_call("process.exit(0);"), F),
    _c("ts_exit_handler_exitcode", "exit", "declare const process: any;\nprocess.on('exit', () => { process.exitCode = 0; });\n" + WRONG, F),
    _c(
        "ts_patch_assert_module",
        "tamper",
        "import * as assert from 'assert';\ntry { (assert as any).deepEqual = () => {}; } catch (e) {}\n"
        "declare const require: any;\nconst real = require('assert');\ntry { real.deepEqual = () => {}; real.strict.deepEqual = () => {}; } catch (e) {}\n"
        "export " + WRONG,
        F,
    ),
    _c(
        "ts_prototype_pollution",
        "tamper",
        "(Object.prototype as any).toJSON = function () { return [1, 2, 3]; };\n(Array.prototype as any).sort = function () { return [1, 2, 3]; };\n"
        "const unique_sorted = function (xs: Array<number>): Array<number> {\n  return xs;\n}\n",
        F,
        UNIQUE_TESTS,
    ),
    _c(
        "ts_valueof_object_for_number",
        "tamper",
        "class Sum {\n  constructor(private v: number) {}\n  valueOf(): number { return this.v; }\n}\n"
        "const add = function (a: number, b: number): number {\n  return new Sum(a + b) as unknown as number;\n}\n",
        F,
    ),
    _c(
        "ts_toprimitive_result",
        "tamper",
        "const add = function (a: number, b: number): number {\n  return ({ [Symbol.toPrimitive]: () => a + b }) as unknown as number;\n}\n",
        F,
    ),
    _c(
        "ts_read_tests_file",
        "forged_output",
        _FORGE + "const add = function (a: number, b: number): number {\n"
        "  for (const name of ['tests.js', 'tests.ts', '../tests.js']) {\n"
        "    try { const m = /expected_\\d+ = (-?\\d+)/.exec(fs.readFileSync(name, 'utf8')); if (m) return Number(m[1]); } catch (e) {}\n"
        "  }\n  return a - b;\n}\n",
        F,
    ),
    _c("ts_forge_results_then_exit", "forged_output", _FORGE + "for (let i = 0; i < 8; i++) fs.writeSync(3, '{\"ok\":5}\\n');\nprocess.exit(0);\n", F),
    _c(
        "ts_forge_nonce_from_environment",
        "forged_output",
        _FORGE + "declare const process: any;\nconst n = process.env.EXECIR_NONCE;\nif (n) { fs.writeSync(3, n + '\\n'); process.reallyExit(0); }\n" + WRONG,
        F,
    ),
    _c(
        "ts_exit_after_first_call",
        "exit",
        "declare const process: any;\nlet calls = 0;\nconst add = function (a: number, b: number): number {\n"
        "  if (++calls === 2) process.exit(0);\n  return a + b;\n}\n",
        F,
    ),
    _c(
        "ts_triple_slash_reference",
        "tamper",
        '/// <reference path="tests.ts" />\n/// <reference path="/etc/passwd" />\n/// <reference types="node" />\n' + WRONG,
        F,
    ),
    _c(
        "ts_decorator_exits_at_class_definition",
        "exit",
        "declare const process: any;\nfunction done(target: any, context?: any): any { process.exit(0); }\n@done\nclass Holder {}\n" + WRONG,
        F,
    ),
    _c(
        "ts_import_equals_require_forge",
        "forged_output",
        "import fs = require('fs');\ndeclare const process: any;\nfor (let i = 0; i < 8; i++) { try { fs.writeSync(3, '{\"ok\":5}\\n'); } catch (e) {} }\n"
        "process.exit(0);\n",
        F,
    ),
    _c(
        "ts_compiler_options_in_comments",
        "tamper",
        "// @ts-nocheck\n// @target: es3\n// @noEmit: true\n// @module: none\n/* @jsx h */\n//# sourceMappingURL=tests.js.map\n// @ts-ignore\n" + WRONG,
        F,
    ),
    _c(
        "ts_type_only_imports_vanish",
        "tamper",
        "import type { AssertionError } from 'assert';\nimport { type AssertPredicate } from 'assert';\nimport type * as T from './tests';\n"
        "export type Pass = AssertionError | AssertPredicate | typeof T;\n" + WRONG,
        F,
    ),
    _c(
        "ts_declare_and_namespace_shadow_assert",
        "tamper",
        "declare module 'assert' {\n  export function deepEqual(a: any, b: any, m?: string): void;\n}\n"
        "declare global {\n  var assert: any;\n}\nnamespace assert {\n  export function deepEqual(): void {}\n}\n"
        "(globalThis as any).assert = { deepEqual() {}, strict: { deepEqual() {} } };\n" + WRONG,
        F,
    ),
    _c(
        "ts_enum_merged_namespace_patches_object",
        "tamper",
        "enum Patch { On = (Object.defineProperty(Object.prototype, 'deepEqual', { value: () => {}, writable: true }), 1) }\n"
        "namespace Patch {\n  export const done = (Object.prototype as any).hasOwnProperty('deepEqual');\n}\n" + WRONG,
        F,
    ),
    _c("ts_plain_object_for_map", "wrong", "const char_counts = function (s: string): any {\n  return { a: 2, b: 1, c: 1 };\n}\n", F, COUNT_TESTS),
    _c("ts_array_for_set", "wrong", "const evens = function (xs: number[]): any {\n  return xs.filter((x) => x % 2 === 0);\n}\n", F, EVENS_TESTS),
    _c("ts_syntax_error", "exit", "const add = function (a: number, b: number): number {\n  return a +;\n", E),
    _c("ts_infinite_loop", "time", _in_call("while (true) {}"), T),
)

CONTROLS: tuple[Case, ...] = (
    _c("ts_control_type_error_runs", "control", "const add = function (a: number, b: number): string {\n  const s: number = 'x';\n  return a + b;\n}\n", P),
    _c("ts_control_export_function", "control", "export function add(a: number, b: number): number {\n  return a + b;\n}\n", P),
    _c(
        "ts_control_generics_and_optional",
        "control",
        "function sum<T extends number>(xs: readonly T[], start?: number): number {\n  return xs.reduce<number>((p, q) => p + q, start ?? 0);\n}\n"
        "const add = (a: number, b: number = 0): number => sum([a, b] as const);\n",
        P,
    ),
    _c(
        "ts_control_interface_and_class",
        "control",
        "interface Adder {\n  add(a: number, b: number): number;\n}\nclass Plain implements Adder {\n  private readonly bias = 0;\n"
        "  constructor(public name: string = 'plain') {}\n  add(a: number, b: number): number { return a + b + this.bias; }\n}\n"
        "const add = function (a: number, b: number): number {\n  return new Plain().add(a, b);\n}\n",
        P,
    ),
    _c(
        "ts_control_enum_and_switch",
        "control",
        "enum Op { Plus, Minus }\nconst enum Sign { Pos = 1, Neg = -1 }\n"
        "function apply(op: Op, a: number, b: number): number {\n  switch (op) {\n    case Op.Plus: return a + Sign.Pos * b;\n"
        "    case Op.Minus: return a + Sign.Neg * b;\n  }\n}\nconst add = function (a: number, b: number): number {\n  return apply(Op.Plus, a, b);\n}\n",
        P,
    ),
    _c(
        "ts_control_set_spread_unique",
        "control",
        "const unique_sorted = function (xs: Array<number>): Array<number> {\n  return [...new Set(xs)].sort((a, b) => a - b);\n}\n",
        P,
        UNIQUE_TESTS,
    ),
    _c(
        "ts_control_map_return",
        "control",
        "type Counts = Map<string, number>;\nconst char_counts = function (s: string): Counts {\n  const m: Counts = new Map();\n"
        "  for (let i = 0; i < s.length; i++) {\n    const c = s.charAt(i);\n    m.set(c, (m.get(c) ?? 0) + 1);\n  }\n  return m;\n}\n",
        P,
        COUNT_TESTS,
    ),
    _c(
        "ts_control_set_return_for_of",
        "control",
        "const evens = function (xs: readonly number[]): Set<number> {\n  const out = new Set<number>();\n  for (const x of xs) if (x % 2 === 0) out.add(x);\n"
        "  return out;\n}\n",
        P,
        EVENS_TESTS,
    ),
    _c(
        "ts_control_tuple_destructuring",
        "control",
        "const min_max = function (xs: number[]): [number, number] {\n  let [lo, hi]: [number, number] = [Infinity, -Infinity];\n"
        "  xs.forEach((x) => { [lo, hi] = [Math.min(lo, x), Math.max(hi, x)]; });\n  return [lo, hi];\n}\n",
        P,
        STATS_TESTS,
    ),
    _c(
        "ts_control_namespace_and_abstract_class",
        "control",
        "namespace Arith {\n  export abstract class Base {\n    abstract run(a: number, b: number): number;\n  }\n"
        "  export class Add extends Base {\n    run(a: number, b: number): number { return a + b; }\n  }\n}\n"
        "const add = function (a: number, b: number): number {\n  return new Arith.Add().run(a, b);\n}\n",
        P,
    ),
    _c(
        "ts_control_optional_chaining_non_null",
        "control",
        "interface Box { value?: { n: number } }\nconst add = function (a: number, b: number): number {\n"
        "  const box: Box = { value: { n: a } };\n  const m = new Map<string, number>([['b', b]]);\n  return (box.value?.n ?? 0) + m.get('b')!;\n}\n",
        P,
    ),
    _c(
        "ts_control_default_export_and_import",
        "control",
        "import { strict } from 'assert';\nimport * as path from 'path';\n"
        "export default function add(a: number, b: number): number {\n  strict.ok(path.sep.length > 0);\n  return a + b;\n}\n",
        P,
    ),
    _c(
        "ts_control_debug_logging_and_union",
        "control",
        "type Num = number | string;\nfunction toNumber(x: Num): number { return typeof x === 'string' ? parseInt(x, 10) : x; }\n"
        "const add = function (a: number, b: number): number {\n  console.log('add', a, b);\n  return toNumber(String(a)) + toNumber(b);\n}\n",
        P,
    ),
    _c(
        "ts_control_as_const_and_satisfies",
        "control",
        "const SIGNS = { plus: 1, minus: -1 } as const;\ntype SignName = keyof typeof SIGNS;\n"
        "const pick = (name: SignName): 1 | -1 => SIGNS[name];\nconst add = function (a: number, b: number): number {\n"
        "  const config = { scale: 1 } satisfies Record<string, number>;\n  return (a + pick('plus') * b) * config.scale;\n}\n",
        P,
    ),
    _c(
        "ts_control_access_modifiers_and_accessors",
        "control",
        "class Counter {\n  static created = 0;\n  protected total = 0;\n  #steps = 0;\n"
        "  constructor(private readonly start: number) { Counter.created++; this.total = start; }\n"
        "  get value(): number { return this.total; }\n  set value(v: number) { this.#steps++; this.total = v; }\n}\n"
        "const add = function (a: number, b: number): number {\n  const c = new Counter(a);\n  c.value = c.value + b;\n  return c.value;\n}\n",
        P,
    ),
    _c(
        "ts_control_type_only_import_and_import_equals",
        "control",
        "import type { AssertionError } from 'assert';\nimport path = require('path');\ntype Failure = AssertionError | null;\n"
        "const add = function (a: number, b: number): number {\n  const none: Failure = null;\n  return none === null && path.sep.length > 0 ? a + b : 0;\n}\n",
        P,
    ),
    _c(
        "ts_control_generic_class_and_interface",
        "control",
        "interface Stack<T> {\n  push(x: T): void;\n  pop(): T | undefined;\n}\nclass ArrayStack<T> implements Stack<T> {\n  private items: T[] = [];\n"
        "  push(x: T): void { this.items.push(x); }\n  pop(): T | undefined { return this.items.pop(); }\n}\n"
        "const unique_sorted = function (xs: Array<number>): Array<number> {\n  const s = new ArrayStack<number>();\n"
        "  const seen = new Set<number>();\n  for (const x of [...xs].sort((p, q) => q - p)) if (!seen.has(x)) { seen.add(x); s.push(x); }\n"
        "  const out: number[] = [];\n  let top: number | undefined;\n  while ((top = s.pop()) !== undefined) out.push(top);\n  return out;\n}\n",
        P,
        UNIQUE_TESTS,
    ),
    _c(
        "ts_control_decorated_method",
        "control",
        "function logged(target: any, context?: any): any { return target; }\nclass Calc {\n  @logged\n"
        "  add(a: number, b: number): number { return a + b; }\n}\nconst add = function (a: number, b: number): number {\n"
        "  return new Calc().add(a, b);\n}\n",
        P,
    ),
    _c(
        "ts_control_declare_and_overloads",
        "control",
        "declare const DEBUG: boolean | undefined;\nfunction add(a: number, b: number): number;\nfunction add(a: string, b: string): string;\n"
        "function add(a: any, b: any): any {\n  if (typeof DEBUG !== 'undefined' && DEBUG) console.log(a, b);\n  return a + b;\n}\n",
        P,
    ),
)

CASES: tuple[Case, ...] = ATTACKS + CONTROLS
"""Every TypeScript case (attacks first)."""
CASES += adversarial_wire_ahead.of_language("typescript")  # the wire's look-ahead cases
