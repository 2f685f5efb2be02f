"""JavaScript results and arguments as the one objects they are in one process, judged outside: a
result that is an object the tests already hold (an earlier result, an argument) is that object in
the judge, and an object the tests hold that a later call changes changes there too. Attacks keep
one object and overwrite it, or keep an argument and change it later; controls return the same
cached object, or their argument, where the tests check identity.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, P = Verdict.FAIL, Verdict.PASS
HEAD = "const assert = require('node:assert');\n"

UPTO_REF = "function upTo(n) {\n  const out = [];\n  for (let i = 0; i < n; i++) out.push(i);\n  return out;\n}\n"
UPTO_TESTS = TestSuite("native", HEAD + "const a = upTo(2);\nconst b = upTo(3);\nassert.deepStrictEqual(a, [0, 1]);\nassert.deepStrictEqual(b, [0, 1, 2]);\n")
UPTO_TWICE = TestSuite("native", HEAD + "const a = upTo(2);\nconst b = upTo(2);\nassert.deepStrictEqual(a, [0, 1]);\nassert.deepStrictEqual(a, b);\n")
COUNT_REF = "function count(xs) {\n  return xs.length;\n}\n"
COUNT_TESTS = TestSuite(
    "native", HEAD + "const a = [1, 2];\nassert.strictEqual(count(a), 2);\nassert.strictEqual(count([3]), 1);\nassert.deepStrictEqual(a, [1, 2]);\n"
)
SORTED_REF = "function sorted(xs) {\n  return [...xs].sort((p, q) => p - q);\n}\n"
SORTED_TESTS = TestSuite(
    "native",
    HEAD
    + "const a = [3, 1, 2];\nconst b = sorted(a);\nassert.deepStrictEqual(b, [1, 2, 3]);\n"
    + "assert.notStrictEqual(a, b);\nassert.deepStrictEqual(a, [3, 1, 2]);\n",
)
INPLACE_REF = "function sortInPlace(xs) {\n  xs.sort((p, q) => p - q);\n  return xs;\n}\n"
INPLACE_TESTS = TestSuite(
    "native", HEAD + "const a = [3, 1, 2];\nconst b = sortInPlace(a);\nassert.strictEqual(a, b);\nassert.deepStrictEqual(a, [1, 2, 3]);\n"
)
TABLE_REF = "function doubled(k) {\n  const out = {};\n  out[k] = 2 * k;\n  return out;\n}\n"
TABLE_TESTS = TestSuite("native", HEAD + "const m = doubled(1);\ndoubled(2);\nassert.deepStrictEqual(m, { 1: 2 });\n")
LIST_MAP_REF = "function squares(n) {\n  const m = new Map();\n  for (let i = 0; i < n; i++) m.set(i, i * i);\n  return m;\n}\n"
LIST_MAP_TESTS = TestSuite("native", HEAD + "const m = squares(2);\nconst n = squares(3);\nassert.strictEqual(m.size, 2);\nassert.strictEqual(n.get(2), 4);\n")

REFERENCES = {
    UPTO_TESTS.code: ("upTo", UPTO_REF),
    UPTO_TWICE.code: ("upTo", UPTO_REF),
    COUNT_TESTS.code: ("count", COUNT_REF),
    SORTED_TESTS.code: ("sorted", SORTED_REF),
    INPLACE_TESTS.code: ("sortInPlace", INPLACE_REF),
    TABLE_TESTS.code: ("doubled", TABLE_REF),
    LIST_MAP_TESTS.code: ("squares", LIST_MAP_REF),
}


def _case(name: str, category: str, program: str, expected: Verdict, tests: TestSuite) -> Case:
    entry, reference = REFERENCES[tests.code]
    return make_case(f"js_identity_{name}", category, program, expected, tests, entry_point=entry, language="js", reference=reference)


SHARED = "const out = [];\nfunction upTo(n) {\n  out.length = 0;\n  for (let i = 0; i < n; i++) out.push(i);\n  return out;\n}\n"
CACHED = "const cache = new Map();\nfunction upTo(n) {\n  if (!cache.has(n)) cache.set(n, Array.from({ length: n }, (_, i) => i));\n  return cache.get(n);\n}\n"

CASES: tuple[Case, ...] = (
    _case("shared_array_overwritten", "split", SHARED, F, UPTO_TESTS),
    _case(
        "kept_argument_changed_later",
        "split",
        "let kept = null;\nfunction count(xs) {\n  if (kept) kept.push(99);\n  kept = xs;\n  return xs.length;\n}\n",
        F,
        COUNT_TESTS,
    ),
    _case(
        "returns_its_argument_sorted",
        "split",
        "function sorted(xs) {\n  const c = [...xs].sort((p, q) => p - q);\n  xs.length = 0;\n  xs.push(...c);\n  return xs;\n}\n",
        F,
        SORTED_TESTS,
    ),
    _case("returns_its_argument_unsorted_copy_check", "split", "function sorted(xs) {\n  return xs.sort((p, q) => p - q);\n}\n", F, SORTED_TESTS),
    _case("shared_table_grows", "split", "const memo = {};\nfunction doubled(k) {\n  memo[k] = 2 * k;\n  return memo;\n}\n", F, TABLE_TESTS),
    _case(
        "shared_map_grows",
        "split",
        "const m = new Map();\nfunction squares(n) {\n  for (let i = 0; i < n; i++) m.set(i, i * i);\n  return m;\n}\n",
        F,
        LIST_MAP_TESTS,
    ),
    _case("control_fresh_arrays", "control", UPTO_REF, P, UPTO_TESTS),
    _case("control_cached_array_reused", "control", CACHED, P, UPTO_TWICE),
    _case("control_cached_array_distinct_inputs", "control", CACHED, P, UPTO_TESTS),
    _case("control_in_place_returns_its_argument", "control", "function sortInPlace(xs) {\n  return xs.sort((p, q) => p - q);\n}\n", P, INPLACE_TESTS),
    _case("control_copy_then_sort", "control", "function sorted(xs) {\n  return xs.slice().sort((p, q) => p - q);\n}\n", P, SORTED_TESTS),
    _case("control_fresh_table", "control", "function doubled(k) {\n  return { [k]: k * 2 };\n}\n", P, TABLE_TESTS),
)
"""6 attacks and 6 controls, every one judged outside."""
