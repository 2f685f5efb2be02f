"""C++ cases against the judged-outside design (see runtimes/cpp_split.py): attacks on the calls run
and the judge's decoding (wrong programs that must not PASS), and controls (correct programs in the
forms LLMs write, which the reference way, program and tests compiled as one file, passes).

Every suite here carries its task's reference, so these cases run judged outside unless the tests
cannot be split (one control checks that fallback).
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS


def _suite(header: str, body: str) -> TestSuite:
    """HumanEval-X's test form: prototypes, then ``main`` with its asserts."""
    return TestSuite("native", f"{header}\n#undef NDEBUG\n#include<assert.h>\nint main(){{\n{body}}}\n")


ADD_TESTS = _suite(
    "#include<stdio.h>\nusing namespace std;\nint add(int a, int b);\n",
    "    assert (add(2, 3) == 5);\n    assert (add(-1, 1) == 0);\n    assert (add(10, 5) == 15);\n",
)
GREET_TESTS = TestSuite(
    "native",
    "#include<string>\n#include<vector>\nusing namespace std;\nstring greet(string name);\n\n"
    '#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (greet("ann") == "hello ann");\n'
    '    vector<int> a = {1}, b = {2};\n    assert (a == b || greet("bo") == string("hello bo"));\n}\n',
)
APPENDED_TESTS = TestSuite(
    "native",
    "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (add(2, 3) == 5);\n    assert (add(-1, 1) == 0);\n    assert (add(10, 5) == 15);\n}\n",
)
EVEN_TESTS = TestSuite(
    "native",
    "bool even(int x);\n#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (even(4));\n    assert (!even(3));\n    assert (even(0));\n}\n",
)
MEAN_TESTS = _suite(
    "#include<vector>\n#include<math.h>\nusing namespace std;\nfloat mean(vector<float> v);\n",
    "    assert (fabs(mean({1.0, 2.0, 3.0}) - 2.0) < 1e-4);\n    vector<float> a = {0.5, 0.25};\n"
    "    assert (fabs(mean(a) - 0.375) < 1e-4);\n    assert (mean({-1.0, 1.0}) == 0);\n",
)
HELPER_TESTS = _suite(
    "#include<math.h>\ndouble square(double x);\ndouble root(double a);\n",
    "    for (int i = 1; i < 6; i++) {\n        double a = i;\n        assert (fabs(square(root(a)) - a) < 1e-6);\n    }\n",
)
"""The tests check the entry point (``root``) with a helper of the task (``square``), as HumanEval-X's
``poly``/``find_zero`` and ``encode_cyclic``/``decode_cyclic`` do."""
CYCLIC_TESTS = _suite(
    "#include<string>\nusing namespace std;\nstring encode(string s);\nstring decode(string s);\n",
    '    string words[] = {"abc", "hello", "xy"};\n    for (string w : words) assert (decode(encode(w)) == w);\n',
)
SORT_TESTS = _suite(
    "#include<vector>\n#include<algorithm>\nusing namespace std;\nvoid sort_in_place(vector<int> &v);\n",
    "    vector<int> v = {3, 1, 2};\n    sort_in_place(v);\n    assert (v == vector<int>({1, 2, 3}));\n"
    "    vector<int> w = {5, 4};\n    sort_in_place(w);\n    assert (w[0] == 4);\n",
)
"""A void entry point that changes its argument: the tests look at the argument after the call."""
NEXT_TESTS = _suite("int next_of(int x);\n", "    assert (next_of(next_of(3)) == 5);\n    assert (next_of(next_of(next_of(0))) == 3);\n")
"""Calls whose arguments are earlier results (the judge meets calls nobody recorded)."""
RAND_TESTS = _suite(
    "#include<stdlib.h>\nint twice(int x);\n", "    for (int i = 0; i < 20; i++) {\n        int x = rand() % 100;\n        assert (twice(x) == 2 * x);\n    }\n"
)
THROW_TESTS = _suite(
    "#include<stdexcept>\nint checked(int x);\n",
    "    assert (checked(2) == 4);\n    bool thrown = false;\n"
    "    try { checked(-1); } catch (const std::invalid_argument &) { thrown = true; }\n    assert (thrown);\n",
)
NDEBUG_TESTS = TestSuite(
    "native",
    "int add(int a, int b);\n#define NDEBUG\n#include<assert.h>\nint main(){\n    assert (add(2, 3) == 5);\n    assert (add(10, 5) == 15);\n}\n",
)
"""Tests that switch their own asserts off: trusted code must switch them on again."""
POINTER_TESTS = _suite("int add(int a, int b);\n", "    int (*f)(int, int) = add;\n    assert (f(2, 3) == 5);\n    assert (f(10, 5) == 15);\n")
"""The entry point's address taken (the judge's entry point is a function of the reference's type)."""
STRUCT_TESTS = _suite(
    "#include<stdlib.h>\nstruct Point { int x, y; };\nint manhattan(Point p);\n",
    "    assert (manhattan({1, -2}) == 3);\n    assert (manhattan({0, 0}) == 0);\n",
)
"""A parameter of the task's own type: the wire cannot carry it, so these tests stay in-process."""
LAMBDA_TESTS = _suite(
    "#include<functional>\nint add(int a, int b);\n",
    "    auto inc = [](int a) { return add(a, 1); };\n    std::function<int(int, int)> g = add;\n    assert (inc(4) == 5);\n    assert (g(10, 5) == 15);\n",
)
BYTES_TESTS = TestSuite(
    "native",
    "#include<string>\nusing namespace std;\nstring greet(string name);\n#include<assert.h>\nint main(){\n"
    '    assert (greet("\\xff\\xfe") == "hello \\xff\\xfe");\n    assert (greet(string("a\\0b", 3)) == string("hello a\\0b", 9));\n}\n',
)

ORDER_TESTS = _suite(
    "#include<vector>\n#include<unordered_set>\nusing namespace std;\nvector<int> items(unordered_set<int> s);\n",
    "    unordered_set<int> s = {1, 2, 3, 40, 7};\n    assert (items(s) == vector<int>(s.begin(), s.end()));\n",
)
"""Tests whose expected value follows an unordered container's iteration order (MBXP's setToTuple)."""

ADD = "int add(int a, int b){\n    return a + b;\n}\n"
REFERENCES: dict[str, tuple[str, str]] = {
    ADD_TESTS.code: ("add", ADD),
    APPENDED_TESTS.code: ("add", ADD),
    NDEBUG_TESTS.code: ("add", ADD),
    POINTER_TESTS.code: ("add", ADD),
    LAMBDA_TESTS.code: ("add", ADD),
    GREET_TESTS.code: ("greet", '#include<string>\nusing namespace std;\nstring greet(string name){\n    return "hello " + name;\n}\n'),
    BYTES_TESTS.code: ("greet", '#include<string>\nusing namespace std;\nstring greet(string name){\n    return "hello " + name;\n}\n'),
    EVEN_TESTS.code: ("even", "bool even(int x){\n    return x % 2 == 0;\n}\n"),
    MEAN_TESTS.code: (
        "mean",
        "#include<vector>\nusing namespace std;\nfloat mean(vector<float> v){\n    float s = 0;\n    for (float x : v) s += x;\n    return s / v.size();\n}\n",
    ),
    HELPER_TESTS.code: ("root", "#include<math.h>\ndouble square(double x){\n    return x * x;\n}\ndouble root(double a){\n    return sqrt(a);\n}\n"),
    CYCLIC_TESTS.code: (
        "decode",
        "#include<string>\nusing namespace std;\nstring encode(string s){\n    return s.substr(1) + s[0];\n}\n"
        "string decode(string s){\n    return s.back() + s.substr(0, s.size() - 1);\n}\n",
    ),
    SORT_TESTS.code: (
        "sort_in_place",
        "#include<vector>\n#include<algorithm>\nusing namespace std;\nvoid sort_in_place(vector<int> &v){\n    sort(v.begin(), v.end());\n}\n",
    ),
    NEXT_TESTS.code: ("next_of", "int next_of(int x){\n    return x + 1;\n}\n"),
    RAND_TESTS.code: ("twice", "int twice(int x){\n    return 2 * x;\n}\n"),
    STRUCT_TESTS.code: ("manhattan", "#include<stdlib.h>\nstruct Point { int x, y; };\nint manhattan(Point p){\n    return abs(p.x) + abs(p.y);\n}\n"),
    ORDER_TESTS.code: (
        "items",
        "#include<vector>\n#include<unordered_set>\nusing namespace std;\n"
        "vector<int> items(unordered_set<int> s){\n    return vector<int>(s.begin(), s.end());\n}\n",
    ),
    THROW_TESTS.code: (
        "checked",
        '#include<stdexcept>\nint checked(int x){\n    if (x < 0) throw std::invalid_argument("negative");\n    return 2 * x;\n}\n',
    ),
}
"""Each suite's entry point and reference program (the task's canonical solution)."""


def case(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = ADD_TESTS) -> Case:
    """A C++ case with its suite's reference."""
    entry, reference = REFERENCES[tests.code]
    return make_case(name, category, program, expected, tests, entry_point=entry, language="cpp", reference=reference)


def _wrong(prefix: str, body: str = "") -> str:
    return f"{prefix}\nint add(int a, int b){{\n{body}    return a - b;\n}}\n"


_RESULT_LINES = "#include<unistd.h>\nstatic int forged = (write(3, {text}, sizeof({text}) - 1), _exit(0), 0);\n"

ATTACKS: tuple[Case, ...] = (
    # ---- the calls run's fd 3: forged, shifted or broken result lines ------------------------
    case("cpp_split_forge_result_lines", "forged_output", _wrong(_RESULT_LINES.format(text='"{\\"ok\\":true}\\n{\\"ok\\":true}\\n{\\"ok\\":true}\\n"')), F),
    case("cpp_split_forge_judge_lines", "forged_output", _wrong(_RESULT_LINES.format(text='"0123456789abcdef0123456789abcdef\\n{\\"need\\": 9}\\n[]\\n"')), F),
    case("cpp_split_extra_line_each_call", "forged_output", _wrong("#include<unistd.h>\n", '    write(3, "{\\"ok\\":0}\\n", 9);\n'), F),
    case("cpp_split_wrong_json_types", "forged_output", _wrong(_RESULT_LINES.format(text='"{\\"ok\\":\\"5\\"}\\n{\\"ok\\":[0]}\\n{\\"ok\\":null}\\n"')), F),
    case("cpp_split_extra_keys", "forged_output", _wrong(_RESULT_LINES.format(text='"{\\"ok\\":5,\\"pass\\":true}\\n{\\"ok\\":0}\\n{\\"ok\\":15}\\n"')), F),
    case(
        "cpp_split_deep_nested_result",
        "forged_output",
        _wrong(
            "#include<string>\n#include<unistd.h>\n",
            '    std::string s = "{\\"ok\\":" + std::string(1 << 20, \'[\') + "\\n";\n    write(3, s.data(), s.size());\n    _exit(0);\n',
        ),
        F,
    ),
    case("cpp_split_close_fd3", "forged_output", _wrong("#include<unistd.h>\nstatic int gone = (close(3), dup2(1, 3), 0);\n"), F),
    # ---- ending or breaking the calls -------------------------------------------------------
    case(
        "cpp_split_exit0_mid_calls",
        "exit",
        "#include<cstdlib>\nstatic int calls = 0;\nint add(int a, int b){\n    if (++calls == 2) std::exit(0);\n    return a + b;\n}\n",
        F,
    ),
    case(
        "cpp_split_abort_mid_calls",
        "exit",
        "#include<cstdlib>\nstatic int calls = 0;\nint add(int a, int b){\n    if (++calls == 3) std::abort();\n    return a + b;\n}\n",
        F,
    ),
    case(
        "cpp_split_segv_handler_exit0",
        "exit",
        '#include<csignal>\n#include<unistd.h>\nstatic void h(int) { write(3, "{\\"ok\\":1}\\n", 9); _exit(0); }\n'
        "static int reg = (std::signal(SIGSEGV, h), 0);\nint add(int a, int b){\n    if (a == 2) *(volatile int *)0 = 1;\n    return a + b;\n}\n",
        {F},
    ),
    case("cpp_split_first_call_right", "state", "static int calls = 0;\nint add(int a, int b){\n    return calls++ == 0 ? a + b : a - b;\n}\n", F),
    case(
        "cpp_split_rewrite_calls_file",
        "tamper",
        # the calls file rewritten before main reads it: the results answer other arguments
        _wrong(
            '#include<cstdio>\nstatic int rewrote = [] {\n    FILE *f = std::fopen("execir_calls.jsonl", "w");\n'
            '    if (f) { std::fputs("[2,0]\\n[-1,0]\\n[10,0]\\n", f); std::fclose(f); }\n    return 0;\n}();\n'
        ),
        F,
    ),
    case(
        "cpp_split_plant_judge_files",
        "tamper",
        _wrong(
            '#include<cstdio>\nstatic int planted = [] {\n    const char *names[] = {"execir_results.jsonl", "execir_judge", "/tmp/execir_results.jsonl"};\n'
            '    for (const char *n : names) { FILE *f = std::fopen(n, "w"); if (f) { std::fputs("{\\"ok\\":5}\\n", f); std::fclose(f); } }\n'
            "    return 0;\n}();\n"
        ),
        F,
    ),
    case(
        "cpp_split_daemon_outlives_calls",
        "isolation",
        _wrong(
            "#include<unistd.h>\n#include<cstdio>\nstatic int spawned = [] {\n    if (fork() == 0) { setsid(); for (int i = 0; i < 50; i++) {"
            ' FILE *f = std::fopen("execir_results.jsonl", "w"); if (f) { std::fputs("{\\"ok\\":5}\\n", f); std::fclose(f); } usleep(100000); } _exit(0); }\n'
            "    return 0;\n}();\n"
        ),
        {F, T},
    ),
    # ---- values that break or bend the judge's decoding ---------------------------------------
    case(
        "cpp_split_huge_string",
        "resources",
        "#include<string>\nusing namespace std;\nstring greet(string name){\n    return string(64 << 20, 'x');\n}\n",
        {F, T},
        GREET_TESTS,
    ),
    case(
        "cpp_split_json_injection",
        "forged_output",
        '#include<string>\nusing namespace std;\nstring greet(string name){\n    return "hello " + name + "\\"}\\n{\\"ok\\":\\"hello bo";\n}\n',
        F,
        GREET_TESTS,
    ),
    case(
        "cpp_split_invalid_utf8",
        "forged_output",
        '#include<string>\nusing namespace std;\nstring greet(string name){\n    return "hello \\xff" + name;\n}\n',
        F,
        GREET_TESTS,
    ),
    case(
        "cpp_split_nan_result",
        "values",
        "#include<vector>\n#include<cmath>\nusing namespace std;\nfloat mean(vector<float> v){\n    return NAN;\n}\n",
        F,
        MEAN_TESTS,
    ),
    case("cpp_split_long_long_overflow", "values", "long long add(int a, int b){\n    return a + b + (1LL << 32);\n}\n", F),
    case(
        "cpp_split_overload_trap",
        "values",
        # the template is right, but the tests' call add(2, 3) picks the non-template (as here)
        "template<class T> T add(T a, T b){ return a + b; }\nint add(int a, int b){\n    return a - b;\n}\n",
        F,
    ),
    # ---- the task's helpers are the reference's, never the candidate's -----------------------
    case("cpp_split_helper_mutant", "tamper", "double square(double x){\n    return x;\n}\ndouble root(double a){\n    return a;\n}\n", F, HELPER_TESTS),
    case(
        "cpp_split_string_helper_mutant",
        "tamper",
        "#include<string>\nusing namespace std;\nstring encode(string s){\n    return s;\n}\nstring decode(string s){\n    return s;\n}\n",
        F,
        CYCLIC_TESTS,
    ),
    # ---- mutation, rounds, random inputs, exceptions, NDEBUG ---------------------------------
    case("cpp_split_no_mutation", "values", "#include<vector>\nusing namespace std;\nvoid sort_in_place(vector<int> &v){\n}\n", F, SORT_TESTS),
    case("cpp_split_rounds_wrong", "values", "int next_of(int x){\n    return x + 2;\n}\n", F, NEXT_TESTS),
    case("cpp_split_random_inputs_wrong", "values", "int twice(int x){\n    return x > 50 ? x : 2 * x;\n}\n", F, RAND_TESTS),
    case(
        "cpp_split_wrong_exception",
        "values",
        '#include<stdexcept>\nint checked(int x){\n    if (x < 0) throw std::runtime_error("negative");\n    return 2 * x;\n}\n',
        F,
        THROW_TESTS,
    ),
    case("cpp_split_no_exception", "values", "int checked(int x){\n    return 2 * x;\n}\n", F, THROW_TESTS),
    case("cpp_split_ndebug_in_tests", "tamper", "int add(int a, int b){\n    return a - b;\n}\n", F, NDEBUG_TESTS),
    case("cpp_split_ndebug_in_program", "tamper", "#define NDEBUG\n#include<assert.h>\nint add(int a, int b){\n    return a - b;\n}\n", F, APPENDED_TESTS),
)

CONTROLS: tuple[Case, ...] = (
    case(
        "cpp_split_control_const_ref_vector",
        "control",
        "#include<vector>\nusing namespace std;\nfloat mean(const vector<float> &v){\n    float s = 0;\n    for (float x : v) s += x;\n"
        "    return s / v.size();\n}\n",
        P,
        MEAN_TESTS,
    ),
    case("cpp_split_control_inline_entry", "control", "inline int add(int a, int b){\n    return a + b;\n}\n", P),
    case("cpp_split_control_static_entry", "control", "static int add(int a, int b){\n    return a + b;\n}\n", P),
    case("cpp_split_control_long_long", "control", "long long add(long long a, long long b){\n    return a + b;\n}\n", P),
    case("cpp_split_control_double_return", "control", "double add(int a, int b){\n    return (double)a + b;\n}\n", P),
    case("cpp_split_control_size_t", "control", "#include<cstddef>\nsize_t add(size_t a, size_t b){\n    return a + b;\n}\n", P),
    case("cpp_split_control_trailing_return", "control", "auto add(int a, int b) -> int {\n    return a + b;\n}\n", P),
    case(
        "cpp_split_control_helpers_structs",
        "control",
        "#include<vector>\nstruct Acc { long total = 0; void push(int x) { total += x; } };\nstatic int twice(int x) { return 2 * x; }\n"
        "int add(int a, int b){\n    Acc acc;\n    acc.push(twice(a));\n    acc.push(b - a);\n    return (int)acc.total;\n}\n",
        P,
    ),
    case(
        "cpp_split_control_bits_stdcpp",
        "control",
        "#include <bits/stdc++.h>\nusing namespace std;\nint add(int a, int b){\n    vector<int> v{a, b};\n    return accumulate(v.begin(), v.end(), 0);\n}\n",
        P,
    ),
    case(
        "cpp_split_control_std_prefix",
        "control",
        '#include <string>\nstd::string greet(const std::string &name){\n    return std::string("hello ") + name;\n}\n',
        P,
        GREET_TESTS,
    ),
    case(
        "cpp_split_control_lambdas_templates",
        "control",
        "#include<functional>\ntemplate<class T> static T plus(T x, T y) { return x + y; }\n"
        "int add(int a, int b){\n    std::function<int(int, int)> f = [](int x, int y) { return plus(x, y); };\n    return f(a, b);\n}\n",
        P,
    ),
    case("cpp_split_control_template_entry", "control", "template<class T> T add(T a, T b){\n    return a + b;\n}\n", P),
    case(
        "cpp_split_control_overloads",
        "control",
        "int add(int a, int b, int c){\n    return a + b + c;\n}\nint add(int a, int b){\n    return add(a, b, 0);\n}\n",
        P,
    ),
    case("cpp_split_control_default_argument", "control", "int add(int a, int b, int c = 0){\n    return a + b + c;\n}\n", P),
    case("cpp_split_control_constexpr_noexcept", "control", "constexpr int add(int a, int b) noexcept {\n    return a + b;\n}\n", P),
    case("cpp_split_control_bool_as_int", "control", "int even(int x){\n    return x % 2 == 0 ? 2 : 0;\n}\n", P, EVEN_TESTS),
    case(
        "cpp_split_control_negative_zero",
        "control",
        "#include<vector>\nusing namespace std;\nfloat mean(vector<float> v){\n    float s = 0;\n    for (float x : v) s += x;\n"
        "    return s == 0 ? -0.0f : s / v.size();\n}\n",
        P,
        MEAN_TESTS,
    ),
    case(
        "cpp_split_control_mutation",
        "control",
        "#include<vector>\n#include<algorithm>\nvoid sort_in_place(std::vector<int> &v){\n    std::sort(v.begin(), v.end());\n}\n",
        P,
        SORT_TESTS,
    ),
    case("cpp_split_control_rounds", "control", "int next_of(int x){\n    return 1 + x;\n}\n", P, NEXT_TESTS),
    case("cpp_split_control_random_inputs", "control", "int twice(int x){\n    return x + x;\n}\n", P, RAND_TESTS),
    case(
        "cpp_split_control_exception",
        "control",
        '#include<stdexcept>\nint checked(int x){\n    if (x < 0) throw std::invalid_argument("x < 0");\n    return x * 2;\n}\n',
        P,
        THROW_TESTS,
    ),
    case(
        "cpp_split_control_non_utf8_bytes",
        "control",
        '#include<string>\nusing namespace std;\nstring greet(string name){\n    return "hello " + name;\n}\n',
        P,
        BYTES_TESTS,
    ),
    case("cpp_split_control_pointer_tests", "control", ADD, P, POINTER_TESTS),
    case(
        "cpp_split_control_unordered_order",
        "control",
        "#include<vector>\n#include<unordered_set>\nstd::vector<int> items(std::unordered_set<int> s){\n    std::vector<int> out;\n"
        "    for (int x : s) out.push_back(x);\n    return out;\n}\n",
        P,
        ORDER_TESTS,
    ),
    case(
        "cpp_split_control_struct_parameter_in_process",
        "control",
        "#include<cstdlib>\nstruct Point { int x, y; };\nint manhattan(Point p){\n    return std::abs(p.x) + std::abs(p.y);\n}\n",
        P,
        STRUCT_TESTS,
    ),
    case("cpp_split_control_lambda_tests", "control", ADD, P, LAMBDA_TESTS),
    case(
        "cpp_split_control_heavy_stdout",
        "control",
        '#include<cstdio>\nint add(int a, int b){\n    for (int i = 0; i < 2000; i++) std::printf("{\\"ok\\":%d}\\n", i);\n    return a + b;\n}\n',
        P,
    ),
    case(
        "cpp_split_control_helpers_of_its_own",
        "control",
        "#include<math.h>\ndouble square(double x){\n    return x * x * 1.0;\n}\ndouble root(double a){\n    return pow(a, 0.5);\n}\n",
        P,
        HELPER_TESTS,
    ),
)

SPLIT_CASES: tuple[Case, ...] = ATTACKS + CONTROLS
