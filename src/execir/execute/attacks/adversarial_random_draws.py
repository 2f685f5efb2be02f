"""Tests that draw their arguments at random (JavaScript's ``crypto``, PHP's ``random_int``), judged
outside: the record run and every judge run must draw the same arguments, or the judge meets calls
nobody recorded and the task ends UNDECIDED. Controls are correct programs (they must PASS);
attacks are wrong ones (they must FAIL, never UNDECIDED or PASS).
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, cases_of, make_case
from execir.types import TestSuite, Verdict

F, P = Verdict.FAIL, Verdict.PASS

JS_ADD = "function add(a, b) {\n  return a + b;\n}\n"
JS_WRONG = "function add(a, b) {\n  return a >= 50 ? a - b : a + b;\n}\n"
_JS_HEAD = "const assert = require('node:assert');\nconst crypto = require('crypto');\n"
JS_DRAWS = {
    "random_int_range": "const a = crypto.randomInt(0, 100), b = crypto.randomInt(-50, 50);",
    "random_int_max": "const a = crypto.randomInt(100), b = crypto.randomInt(7);",
    "random_bytes": "const r = crypto.randomBytes(2); const a = r[0] % 100, b = r[1];",
    "get_random_values": "const r = crypto.getRandomValues(new Uint8Array(2)); const a = r[0] % 100, b = r[1];",
    "global_crypto": "const r = globalThis.crypto.getRandomValues(new Uint32Array(2)); const a = r[0] % 100, b = r[1] % 1000;",
    "random_uuid": "const u = crypto.randomUUID(); const a = parseInt(u.slice(0, 2), 16) % 100, b = parseInt(u.slice(2, 4), 16);",
}


def _js_tests(draw: str) -> TestSuite:
    return TestSuite("native", f"{_JS_HEAD}for (let i = 0; i < 40; i++) {{\n  {draw}\n  assert.strictEqual(add(a, b), a + b);\n}}\n")


PHP_ADD = "<?php\nfunction add($a, $b) {\n    return $a + $b;\n}\n"
PHP_WRONG = "<?php\nfunction add($a, $b) {\n    return $a >= 50 ? $a - $b : $a + $b;\n}\n"
PHP_DRAWS = {
    "random_int": "$a = random_int(0, 100); $b = random_int(-50, 50);",
    "qualified": "$a = \\random_int(0, 100); $b = \\random_int(0, 9);",
    "upper_case": "$a = RANDOM_INT(0, 100); $b = Random_Int(1, 3);",
    "in_a_helper": "$a = draw(); $b = draw();",
    "mixed_with_mt_rand": "$a = random_int(0, 100); $b = mt_rand(0, 10);",
}
_PHP_HELPER = "function draw() {\n    return random_int(0, 99);\n}\n"


def _php_tests(draw: str) -> TestSuite:
    return TestSuite(
        "native",
        f"{_PHP_HELPER}for ($i = 0; $i < 40; $i++) {{\n    {draw}\n"
        "    if (add($a, $b) !== $a + $b) {\n        throw new Exception('random_int');\n    }\n}\n",
    )


def _cases() -> tuple[Case, ...]:
    cases: list[Case] = []
    for name, draw in JS_DRAWS.items():
        tests = _js_tests(draw)
        cases.append(make_case(f"js_random_control_{name}", "control", JS_ADD, P, tests, language="js", reference=JS_ADD))
        cases.append(make_case(f"js_random_wrong_{name}", "split", JS_WRONG, F, tests, language="js", reference=JS_ADD))
    for name, draw in PHP_DRAWS.items():
        tests = _php_tests(draw)
        cases.append(make_case(f"php_random_control_{name}", "control", PHP_ADD, P, tests, language="php", reference=PHP_ADD))
        cases.append(make_case(f"php_random_wrong_{name}", "split", PHP_WRONG, F, tests, language="php", reference=PHP_ADD))
    return tuple(cases)


CASES: tuple[Case, ...] = _cases()
"""11 controls and 11 attacks (6 and 6 in JavaScript, 5 and 5 in PHP), every one judged outside."""


def of_language(language: str) -> tuple[Case, ...]:
    """The cases of one language (each language's selftest module takes its own)."""
    return cases_of(CASES, language)
