"""JavaScript values whose shape the tests can observe, judged outside: Array subclasses, arrays with
own properties beyond their indexes, class instances and null-prototype objects (node's
``deepStrictEqual`` compares prototypes and own properties), and frozen, sealed or non-extensible
values both ways (a result the tests try to change; an argument the candidate tries to change).
Attacks rely on the shape being lost; controls rely on it being kept.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, P = Verdict.FAIL, Verdict.PASS
HEAD = "'use strict';\nconst assert = require('node:assert');\n"

EVENS_REF = "function evens(xs) {\n  return xs.filter((x) => x % 2 === 0);\n}\n"
EVENS_STRICT = TestSuite("native", HEAD + "assert.deepStrictEqual(evens([1, 2, 4]), [2, 4]);\nassert.deepStrictEqual(evens([3]), []);\n")
EVENS_LOOSE = TestSuite("native", HEAD + "assert.deepEqual(evens([1, 2, 4]), [2, 4]);\nassert.deepEqual(evens([3]), []);\n")
EVENS_GROW = TestSuite("native", HEAD + "const r = evens([1, 2, 4]);\nr.push(6);\nassert.deepStrictEqual(r, [2, 4, 6]);\n")
EVENS_READ = TestSuite("native", HEAD + "const r = evens([1, 2, 4]);\nassert.strictEqual(r.length, 2);\nassert.strictEqual(r[1], 4);\n")
POINT_REF = "function point(x) {\n  return { x };\n}\n"
POINT_STRICT = TestSuite("native", HEAD + "assert.deepStrictEqual(point(1), { x: 1 });\n")
POINT_LOOSE = TestSuite("native", HEAD + "assert.deepEqual(point(1), { x: 1 });\nassert.strictEqual(point(2).x, 2);\n")
POINT_SET = TestSuite("native", HEAD + "const p = point(1);\np.x = 5;\nassert.strictEqual(p.x, 5);\n")
SORTED_REF = "function sorted(xs) {\n  return [...xs].sort((p, q) => p - q);\n}\n"
SORTED_FROZEN = TestSuite("native", HEAD + "const a = Object.freeze([3, 1, 2]);\nassert.deepStrictEqual(sorted(a), [1, 2, 3]);\n")
TOTAL_REF = "function withTotal(xs) {\n  const out = xs.slice();\n  out.total = xs.reduce((s, x) => s + x, 0);\n  return out;\n}\n"
TOTAL_TESTS = TestSuite("native", HEAD + "const r = withTotal([1, 2]);\nassert.strictEqual(r.total, 3);\nassert.deepStrictEqual([...r], [1, 2]);\n")

REFERENCES = {
    EVENS_STRICT.code: ("evens", EVENS_REF),
    EVENS_LOOSE.code: ("evens", EVENS_REF),
    EVENS_GROW.code: ("evens", EVENS_REF),
    EVENS_READ.code: ("evens", EVENS_REF),
    POINT_STRICT.code: ("point", POINT_REF),
    POINT_LOOSE.code: ("point", POINT_REF),
    POINT_SET.code: ("point", POINT_REF),
    SORTED_FROZEN.code: ("sorted", SORTED_REF),
    TOTAL_TESTS.code: ("withTotal", TOTAL_REF),
}


def _case(name: str, category: str, program: str, expected: Verdict, tests: TestSuite) -> Case:
    entry, reference = REFERENCES[tests.code]
    return make_case(f"js_shape_{name}", category, program, expected, tests, entry_point=entry, language="js", reference=reference)


SUBCLASS = "class Evens extends Array {}\nfunction evens(xs) {\n  return Evens.from(xs.filter((x) => x % 2 === 0));\n}\n"
EXTRA = "function evens(xs) {\n  const r = xs.filter((x) => x % 2 === 0);\n  r.count = r.length;\n  return r;\n}\n"
FROZEN = "function evens(xs) {\n  return Object.freeze(xs.filter((x) => x % 2 === 0));\n}\n"
INSTANCE = "class Point {\n  constructor(x) {\n    this.x = x;\n  }\n}\nfunction point(x) {\n  return new Point(x);\n}\n"
BARE = "function point(x) {\n  const p = Object.create(null);\n  p.x = x;\n  return p;\n}\n"

CASES: tuple[Case, ...] = (
    _case("array_subclass_strict", "split", SUBCLASS, F, EVENS_STRICT),
    _case("array_extra_property_strict", "split", EXTRA, F, EVENS_STRICT),
    _case("frozen_result_grown", "split", FROZEN, F, EVENS_GROW),
    _case("class_instance_strict", "split", INSTANCE, F, POINT_STRICT),
    _case("null_prototype_strict", "split", BARE, F, POINT_STRICT),
    _case("frozen_point_set", "split", "function point(x) {\n  return Object.freeze({ x });\n}\n", F, POINT_SET),
    _case("sorts_a_frozen_argument", "split", "function sorted(xs) {\n  return xs.sort((p, q) => p - q);\n}\n", F, SORTED_FROZEN),
    _case("control_array_subclass_loose", "control", SUBCLASS, P, EVENS_LOOSE),
    _case("control_class_instance_loose", "control", INSTANCE, P, POINT_LOOSE),
    _case("control_frozen_result_read", "control", FROZEN, P, EVENS_READ),
    _case("control_sealed_point_set", "control", "function point(x) {\n  return Object.seal({ x });\n}\n", P, POINT_SET),
    _case("control_copies_a_frozen_argument", "control", "function sorted(xs) {\n  return xs.slice().sort((p, q) => p - q);\n}\n", P, SORTED_FROZEN),
    _case("control_array_with_its_total", "control", TOTAL_REF.replace("const out", "let out"), P, TOTAL_TESTS),
)
"""7 attacks and 6 controls, every one judged outside."""
