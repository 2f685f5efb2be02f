"""Adversarial cases for PHP programs with MBXP style native tests (top-level code after the program
that throws when the tests' ``compare`` helper rejects a result). Every case carries its task's
reference, so the tests are judged outside the candidate's process
(:mod:`execir.execute.runtimes.php_split`); the in-process runner stays covered by
``tests/execute/test_lang_php.py``. Attacks never PASS; ``control`` cases (forms programs are
ordinarily written in, each passing with ``php f.php`` as mxeval runs it) must PASS."""

from __future__ import annotations

from execir.execute.attacks import adversarial_random_draws, adversarial_wire_ahead
from execir.execute.attacks.adversarial import Case, make_case
from execir.execute.attacks.adversarial_php_forms import COMPARE, mbxp_tests
from execir.types import StdioCase, TestSuite, Verdict

F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS

TESTS = TestSuite("native", mbxp_tests("add", [("2, 3", "5"), ("-1, 1", "0"), ("10, 5", "15")]))
OK = "<?php\nfunction add($a, $b) {\n    return $a + $b;\n}\n"
WRONG = "<?php\nfunction add($a, $b) {\n    return $a - $b;\n}\n"
WRONG_BODY = "function add($a, $b) {\n    return $a - $b;\n}\n"
CANARIES = ("/tmp/execir-canary-php", "/root/execir-canary-php", "/work/execir-canary-php")


def _c(name: str, category: str, program: str, expected: set[Verdict] | Verdict) -> Case:
    return make_case(name, category, program, expected, TESTS, entry_point="add", language="php", reference=OK)


def _t(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: str, entry: str, reference: str) -> Case:
    """A case with tests of its own (``entry`` and ``reference``: the task's)."""
    return make_case(name, category, program, expected, TestSuite("native", tests), entry_point=entry, language="php", reference=reference)


def _prefixed(code: str) -> str:
    """A wrong ``add`` after ``code`` run at load."""
    return "<?php\n" + code + "\n" + WRONG_BODY


def _in_call(body: str) -> str:
    """A wrong ``add`` whose body first runs ``body``."""
    return "<?php\nfunction add($a, $b) {\n" + "".join(f"    {line}\n" for line in body.splitlines()) + "    return $a - $b;\n}\n"


_FD3 = "$o = @fopen('php://fd/3', 'w');"
_FORGE = _FD3 + ' if ($o) { for ($i = 0; $i < 3; $i++) { fwrite($o, "{\\"ok\\":5}\\n"); } }'
_HUNT_FILES = (
    "foreach (glob('*') ?: [] as $f) { $t = @file_get_contents($f); if ($t !== false && preg_match_all('/\\$v\\d+ = (-?\\d+);/', $t, $m)) "
    "{ static $k = -1; $k++; return (int) $m[1][$k]; } }"
)
_HUNT_BACKTRACE = (
    "foreach (debug_backtrace() as $frame) { foreach ($frame['args'] ?? [] as $arg) { if (is_string($arg) && preg_match('/\\$v0 = (-?\\d+);/', $arg, $m)) "
    "{ return (int) $m[1]; } } }"
)
_WRITE_CANARIES = "".join(f"@file_put_contents('{path}', 'x');\n" for path in CANARIES)

ATTACKS: tuple[Case, ...] = (
    _c("php_exit_top_level", "exit", _prefixed("exit(0);"), F),
    _c("php_die_in_function", "exit", _in_call("die();"), F),
    _c("php_exit_second_call", "exit", "<?php\nfunction add($a, $b) {\n    if ($a == -1) { exit(0); }\n    return $a + $b;\n}\n", F),
    _c("php_shutdown_forges_results", "forged_output", _prefixed("register_shutdown_function(function () { " + _FORGE + " });"), F),
    _c(
        "php_shutdown_after_exit_in_call",
        "exit",
        _prefixed("register_shutdown_function(function () { " + _FORGE + " });").replace("return $a - $b;", "exit(0);"),
        F,
    ),
    _c("php_forged_results_at_load", "forged_output", _prefixed(_FORGE + " exit(0);"), F),
    _c("php_forged_partial_line", "forged_output", _prefixed(_FD3 + " if ($o) { fwrite($o, '{\"ok\":'); }"), F),
    _c("php_ob_start_callback_exit", "exit", _prefixed("ob_start(function ($buf) { return ''; });").replace("return $a - $b;", "echo 'x'; exit(0);"), F),
    _c("php_redefine_compare_lies", "tamper", _prefixed("function compare($x, $y) {\n    return true;\n}"), F),
    _c("php_error_and_exception_handlers", "tamper", _prefixed("set_error_handler(fn() => true);\nset_exception_handler(function ($e) { exit(0); });"), F),
    _c("php_read_tests_and_calls_files", "forged_output", _in_call(_HUNT_FILES), F),
    _c("php_debug_backtrace_hunt", "forged_output", _in_call(_HUNT_BACKTRACE), F),
    _c(
        "php_globals_expected_values",
        "forged_output",
        _in_call("if (isset($GLOBALS['v0'])) { return $GLOBALS['v' . count(array_filter(array_keys($GLOBALS), fn($k) => str_starts_with($k, 'x')))]; }"),
        F,
    ),
    _c(
        "php_read_nonce_env",
        "forged_output",
        _prefixed(
            "$n = getenv('EXECIR_NONCE') ?: (preg_match('/EXECIR_NONCE=([0-9a-f]+)/', (string) @file_get_contents('/proc/self/environ'), $m) ? $m[1] : '');\n"
            + _FD3
            + ' if ($n && $o) { fwrite($o, "$n\\n"); exit(0); }'
        ),
        F,
    ),
    _c("php_declare_harness_class", "tamper", "<?php\nfinal class ExecIRWire { public static function encode($v, $s) { return '5'; } }\n" + WRONG_BODY, F),
    _c("php_declare_harness_function", "tamper", "<?php\nfunction execir_invoke($name, &$args) { return 5; }\n" + WRONG_BODY, F),
    _c("php_process_functions", "isolation", _in_call("if (function_exists('pcntl_fork')) { pcntl_fork(); }\n@exec('true');"), F),
    _c("php_write_outside_workdir", "isolation", _prefixed(_WRITE_CANARIES), F),
    _c(
        "php_tostring_liar",
        "tamper",
        "<?php\nclass L {\n    public function __toString(): string { return '5'; }\n}\nfunction add($a, $b) {\n    return new L();\n}\n",
        F,
    ),
    _c("php_nan_result", "decoder", "<?php\nfunction add($a, $b) {\n    return NAN;\n}\n", F),
    _c("php_json_injection_string", "decoder", '<?php\nfunction add($a, $b) {\n    return ($a + $b) . "}\\n{\\"ok\\":" . ($a + $b);\n}\n', F),
    _c("php_invalid_utf8", "decoder", '<?php\nfunction add($a, $b) {\n    return "\\xff" . ($a + $b);\n}\n', F),
    _c("php_deep_array", "decoder", "<?php\nfunction add($a, $b) {\n    $r = [];\n    for ($i = 0; $i < 100000; $i++) { $r = [$r]; }\n    return $r;\n}\n", F),
    _c("php_closure_result", "decoder", "<?php\nfunction add($a, $b) {\n    return fn() => $a + $b;\n}\n", F),
    _c(
        "php_global_state_across_calls",
        "tamper",
        "<?php\n$n = 0;\nfunction add($a, $b) {\n    global $n;\n    $n++;\n    return $n == 1 ? $a + $b : 99;\n}\n",
        F,
    ),
    _c("php_strict_types_wrong", "tamper", "<?php\ndeclare(strict_types=1);\nfunction add(int $a, int $b): int {\n    return $a * $b;\n}\n", F),
    _c("php_infinite_loop", "time", _in_call("while (true) {}"), T),
    _c("php_memory_bomb", "resources", _in_call("$hog = [];\nwhile (true) { $hog[] = str_repeat('x', 1 << 24); }"), {F, T}),
    _c("php_huge_string", "resources", "<?php\nfunction add($a, $b) {\n    return str_repeat('x', 64 << 20);\n}\n", {F, T}),
    _c("php_syntax_error", "exit", "<?php\nfunction add($a, $b {\n    return $a + $b;\n}\n", E),
)

# ---- tests of their own: a helper of the task, an expected exception, an argument by reference
_CYCLIC = (
    "<?php\nfunction encodeCyclic($s) {\n    return substr($s, 1) . substr($s, 0, 1);\n}\n"
    "function decodeCyclic($s) {\n    return substr($s, -1) . substr($s, 0, -1);\n}\n"
)
_CYCLIC_TESTS = (
    COMPARE
    + "foreach (['abc', 'hello', 'xyzzy'] as $w) {\n    if (!compare(decodeCyclic(encodeCyclic($w)), $w)) {\n        throw new Exception('e');\n    }\n}\n"
)
_RAISE_REF = (
    "<?php\nfunction safeDiv($a, $b) {\n    if ($b == 0) {\n        throw new InvalidArgumentException('zero');\n    }\n    return intdiv($a, $b);\n}\n"
)
_RAISE_TESTS = (
    mbxp_tests("safeDiv", [("7, 2", "3")]) + "try {\n    safeDiv(1, 0);\n    throw new Exception('no throw');\n} catch (InvalidArgumentException $e) {\n}\n"
)
_MUTATE_REF = "<?php\nfunction sortInPlace(&$a) {\n    sort($a);\n    return count($a);\n}\n"
_MUTATE_TESTS = COMPARE + "$a = [3, 1, 2];\n$x0 = sortInPlace($a);\nif (!compare($a, [1, 2, 3]) || !compare($x0, 3)) {\n    throw new Exception('e');\n}\n"

OWN_TESTS_ATTACKS: tuple[Case, ...] = (
    _t(
        "php_helper_shadowed",
        "tamper",
        "<?php\nfunction encodeCyclic($s) {\n    return $s;\n}\nfunction decodeCyclic($s) {\n    return $s;\n}\n",
        F,
        _CYCLIC_TESTS,
        "decodeCyclic",
        _CYCLIC,
    ),
    _t(
        "php_wrong_exception_class",
        "tamper",
        "<?php\nfunction safeDiv($a, $b) {\n    return $b == 0 ? throw new RuntimeException('x') : intdiv($a, $b);\n}\n",
        F,
        _RAISE_TESTS,
        "safeDiv",
        _RAISE_REF,
    ),
    _t(
        "php_mutation_missing",
        "tamper",
        "<?php\nfunction sortInPlace($a) {\n    sort($a);\n    return count($a);\n}\n",
        F,
        _MUTATE_TESTS,
        "sortInPlace",
        _MUTATE_REF,
    ),
)

# ---- controls: forms programs are written in, each passing with `php f.php`
_MAP_REF = "<?php\nfunction squares($xs) {\n    $out = [];\n    foreach ($xs as $x) {\n        $out[] = $x * $x;\n    }\n    return $out;\n}\n"
_MAP_TESTS = mbxp_tests("squares", [("[1, 2, 3]", "[1, 4, 9]"), ("[]", "[]"), ("[-2]", "[4]")])
_SORT_REF = (
    "<?php\nfunction byLength($words) {\n    $w = $words;\n    usort($w, function ($a, $b) { return strlen($a) - strlen($b) ?: strcmp($a, $b); });\n"
    "    return $w;\n}\n"
)
_SORT_TESTS = mbxp_tests("byLength", [('["ccc", "a", "bb", "ab"]', '["a", "ab", "bb", "ccc"]')])
_COUNT_REF = (
    "<?php\nfunction charCount($s) {\n    $h = [];\n    foreach (str_split($s) as $c) {\n        $h[$c] = ($h[$c] ?? 0) + 1;\n    }\n    return $h;\n}\n"
)
_COUNT_TESTS = mbxp_tests("charCount", [('"abca"', '["a" => 2, "b" => 1, "c" => 1]'), ('"zz"', '["z" => 2]')])
_TEXT_REF = "<?php\nfunction shout($s, $n) {\n    return strtoupper(str_repeat($s, $n));\n}\n"
_TEXT_TESTS = mbxp_tests("shout", [('"ab", 2', '"ABAB"'), ('"x", 0', '""')])
_FLOAT_REF = "<?php\nfunction hyp($a, $b) {\n    return sqrt($a * $a + $b * $b);\n}\n"
_FLOAT_TESTS = mbxp_tests("hyp", [("3, 4", "5.0"), ("1, 1", "1.4142135623730951"), ("0.1, 0.2", "0.223606797749979")])
_OBJ_REF = "<?php\nfunction point($x, $y) {\n    $p = new stdClass();\n    $p->x = $x;\n    $p->y = $y;\n    return $p;\n}\n"
_OBJ_TESTS = (
    COMPARE
    + "$x0 = point(1, 2);\n$v0 = new stdClass();\n$v0->x = 1;\n$v0->y = 2;\nif (!compare($x0, $v0) || $x0->y !== 2) {\n    throw new Exception('e');\n}\n"
)
_STRICT = "<?php\ndeclare(strict_types=1);\n\nfunction add(int $a, int $b): int\n{\n    return $a + $b;\n}\n"
_STATIC = (
    "<?php\nclass Solution {\n    public static function sum(int ...$xs): int {\n        return array_sum($xs);\n"
    "    }\n}\nfunction add($a, $b) {\n    return Solution::sum($a, $b);\n}\n"
)
_MEMO = (
    "<?php\n$memo = [];\nfunction fib($n) {\n    global $memo;\n    if ($n < 2) {\n        return $n;\n    }\n"
    "    return $memo[$n] ??= fib($n - 1) + fib($n - 2);\n}\nfunction add($a, $b) {\n    static $calls = 0;\n"
    "    $calls++;\n    return $a + $b + fib(10) - 55;\n}\n"
)

CONTROLS: tuple[Case, ...] = (
    _c("php_control_plain", "control", OK, P),
    _t(
        "php_control_array_map_closure",
        "control",
        "<?php\nfunction squares(array $xs): array {\n    return array_map(fn($x) => $x ** 2, $xs);\n}\n",
        P,
        _MAP_TESTS,
        "squares",
        _MAP_REF,
    ),
    _t(
        "php_control_usort_spaceship",
        "control",
        "<?php\nfunction byLength($words) {\n    usort($words, fn($a, $b) => [strlen($a), $a] <=> [strlen($b), $b]);\n    return $words;\n}\n",
        P,
        _SORT_TESTS,
        "byLength",
        _SORT_REF,
    ),
    _t(
        "php_control_assoc_array",
        "control",
        "<?php\nfunction charCount(string $s): array {\n    return array_count_values(str_split($s));\n}\n",
        P,
        _COUNT_TESTS,
        "charCount",
        _COUNT_REF,
    ),
    _t(
        "php_control_str_functions",
        "control",
        "<?php\nfunction shout($s, $n) {\n    $out = '';\n    for ($i = 0; $i < $n; $i++) {\n"
        "        $out = str_pad($out, strlen($out) + strlen($s), mb_strtoupper($s));\n    }\n"
        "    return str_contains($out, ' ') ? trim($out) : $out;\n}\n",
        P,
        _TEXT_TESTS,
        "shout",
        _TEXT_REF,
    ),
    _c("php_control_strict_types", "control", _STRICT, P),
    _c("php_control_static_method_variadic", "control", _STATIC, P),
    _c("php_control_default_arguments", "control", "<?php\nfunction add($a, $b = 0, $c = 0) {\n    return $a + $b + $c;\n}\n", P),
    _c("php_control_global_memo_static", "control", _MEMO, P),
    _c("php_control_closing_tag_and_echo", "control", '<?php\nfunction add($a, $b) {\n    echo "debug $a $b\\n";\n    return $a + $b;\n}\n?>\n', P),
    _c("php_control_returns_float", "control", "<?php\nfunction add($a, $b) {\n    return (float) ($a + $b);\n}\n", P),
    _c("php_control_numeric_string", "control", "<?php\nfunction add($a, $b) {\n    return (string) ($a + $b);\n}\n", P),
    _c(
        "php_control_ctype_and_helpers",
        "control",
        "<?php\nfunction digits($n) {\n    return ctype_digit((string) abs($n)) ? $n : 0;\n}\nfunction add($a, $b) {\n    return digits($a) + digits($b);\n}\n",
        P,
    ),
    _c(
        "php_control_closure_variable",
        "control",
        "<?php\n$plus = fn($a, $b) => $a + $b;\nfunction add($a, $b) {\n    global $plus;\n    return $plus($a, $b);\n}\n",
        P,
    ),
    _t(
        "php_control_floats_exact",
        "control",
        "<?php\nfunction hyp(float $a, float $b): float {\n    return hypot($a, $b);\n}\n",
        P,
        _FLOAT_TESTS,
        "hyp",
        _FLOAT_REF,
    ),
    _t(
        "php_control_stdclass", "control", "<?php\nfunction point($x, $y) {\n    return (object) ['x' => $x, 'y' => $y];\n}\n", P, _OBJ_TESTS, "point", _OBJ_REF
    ),
    _t(
        "php_control_expected_exception",
        "control",
        "<?php\nfunction safeDiv(int $a, int $b): int {\n    if ($b === 0) {\n        throw new class('zero') extends InvalidArgumentException {};\n"
        "    }\n    return intdiv($a, $b);\n}\n",
        P,
        _RAISE_TESTS,
        "safeDiv",
        _RAISE_REF,
    ),
    _t(
        "php_control_argument_by_reference",
        "control",
        "<?php\nfunction sortInPlace(array &$a): int {\n    $a = array_values(array_unique($a));\n    sort($a);\n    return count($a);\n}\n",
        P,
        _MUTATE_TESTS,
        "sortInPlace",
        _MUTATE_REF,
    ),
    _t(
        "php_control_helper_of_task",
        "control",
        _CYCLIC.replace("return substr($s, -1) . substr($s, 0, -1);", "return strlen($s) ? $s[-1] . substr($s, 0, -1) : $s;"),
        P,
        _CYCLIC_TESTS,
        "decodeCyclic",
        _CYCLIC,
    ),
    Case(
        "php_control_stdio",
        "control",
        "<?php\n[$a, $b] = array_map('intval', explode(' ', trim(fgets(STDIN))));\necho $a + $b, \"\\n\";\n",
        TestSuite("stdio", stdio_cases=(StdioCase("3 4\n", "7\n"), StdioCase("10 20\n", "30\n"))),
        frozenset({P}),
        "",
        "php",
    ),
)

CASES: tuple[Case, ...] = ATTACKS + OWN_TESTS_ATTACKS + CONTROLS
CASES += adversarial_wire_ahead.of_language("php") + adversarial_random_draws.of_language("php")  # the wire's look-ahead and random-draw cases
