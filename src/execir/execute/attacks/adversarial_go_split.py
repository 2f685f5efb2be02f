"""Go cases against the judged-outside protocol (runtimes/go_split.py): attacks on the candidate's
run, its result lines and the wire, and controls written the way LLMs write Go.

Attacks are wrong programs; controls are correct ones and must PASS. Every case carries its
task's reference, so the oracle judges it outside the candidate's process.
"""

from __future__ import annotations

import json

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS
HEADER = 'package main\n\nimport (\n    "testing"\n    "github.com/stretchr/testify/assert"\n)\n\n'


def _suite(body: str) -> TestSuite:
    return TestSuite("native", HEADER + body)


ADD = _suite("func TestAdd(t *testing.T) {\n    assert.Equal(t, 5, Add(2, 3))\n    assert.Equal(t, 0, Add(-1, 1))\n    assert.Equal(t, 15, Add(10, 5))\n}\n")
ADD_REF = "package main\n\nfunc Add(a, b int) int {\n    return a + b\n}\n"
HALF = _suite("func TestHalf(t *testing.T) {\n    assert.Equal(t, 2.5, Half(5))\n    assert.Equal(t, 0.0, Half(0))\n    assert.Equal(t, -1.5, Half(-3))\n}\n")
HALF_REF = "package main\n\nfunc Half(x float64) float64 {\n    return x / 2\n}\n"
MARK = _suite('func TestMark(t *testing.T) {\n    assert.Equal(t, "a\\ufffd", Mark("a"))\n    assert.Equal(t, "\\ufffd", Mark(""))\n}\n')
MARK_REF = 'package main\n\nfunc Mark(s string) string {\n    return s + "\\ufffd"\n}\n'
FIRST = _suite(
    "func TestFirst(t *testing.T) {\n    assert.Equal(t, nil, First([]int{}))\n"
    "    assert.Equal(t, 3, First([]int{3, 4}))\n    assert.Equal(t, nil, First(nil))\n}\n"
)
FIRST_REF = "package main\n\nfunc First(xs []int) interface{} {\n    if len(xs) == 0 {\n        return nil\n    }\n    return xs[0]\n}\n"
CYCLIC = _suite(
    'func TestDecode(t *testing.T) {\n    for _, s := range []string{"abc", "hello", "zz", ""} {\n        assert.Equal(t, s, Decode(Encode(s)))\n    }\n}\n'
)
CYCLIC_REF = (
    "package main\n\n// Encode shifts every letter by one.\nfunc Encode(s string) string {\n    out := []rune{}\n"
    "    for _, r := range s {\n        out = append(out, (r-'a'+1)%26+'a')\n    }\n    return string(out)\n}\n\n"
    "func Decode(s string) string {\n    out := []rune{}\n    for _, r := range s {\n        out = append(out, (r-'a'+25)%26+'a')\n"
    "    }\n    return string(out)\n}\n"
)
SORT = _suite(
    "func TestSortInPlace(t *testing.T) {\n    xs := []int{3, 1, 2}\n    SortInPlace(xs)\n    assert.Equal(t, []int{1, 2, 3}, xs)\n"
    "    ys := []int{9, -1}\n    SortInPlace(ys)\n    assert.Equal(t, []int{-1, 9}, ys)\n}\n"
)
SORT_REF = 'package main\n\nimport "sort"\n\nfunc SortInPlace(xs []int) {\n    sort.Ints(xs)\n}\n'
DIVIDE = _suite(
    "func TestDivide(t *testing.T) {\n    q, err := Divide(7, 2)\n    assert.Nil(t, err)\n    assert.Equal(t, 3, q)\n"
    "    _, err = Divide(1, 0)\n    assert.NotNil(t, err)\n}\n"
)
DIVIDE_REF = (
    'package main\n\nimport "errors"\n\nfunc Divide(a, b int) (int, error) {\n    if b == 0 {\n        return 0, errors.New("division by zero")\n'
    "    }\n    return a / b, nil\n}\n"
)
SUM = _suite("func TestSum(t *testing.T) {\n    assert.Equal(t, 6, Sum(1, 2, 3))\n    assert.Equal(t, 0, Sum())\n    assert.Equal(t, 4, Sum([]int{4}...))\n}\n")
SUM_REF = "package main\n\nfunc Sum(xs ...int) int {\n    s := 0\n    for _, x := range xs {\n        s += x\n    }\n    return s\n}\n"

ENTRIES = {
    ADD.code: ("Add", ADD_REF),
    HALF.code: ("Half", HALF_REF),
    MARK.code: ("Mark", MARK_REF),
    FIRST.code: ("First", FIRST_REF),
    CYCLIC.code: ("Decode", CYCLIC_REF),
    SORT.code: ("SortInPlace", SORT_REF),
    DIVIDE.code: ("Divide", DIVIDE_REF),
    SUM.code: ("Sum", SUM_REF),
}


def _case(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = ADD) -> Case:
    entry, reference = ENTRIES[tests.code]
    return make_case(name, category, program, expected, tests, entry_point=entry, language="go", reference=reference)


def _add(imports: tuple[str, ...] = (), extra: str = "", body: str = "", result: str = "a - b") -> str:
    """``Add`` (wrong by default: ``a - b``) with attack or idiom code at top level and in the body."""
    block = "import (\n" + "".join(f'    "{name}"\n' for name in imports) + ")\n\n" if imports else ""
    return f"package main\n\n{block}{extra}\nfunc Add(a, b int) int {{\n{body}    return {result}\n}}\n"


def _fd3(text: str) -> str:
    """A statement writing ``text`` to fd 3 (the candidate's result channel)."""
    return f'    os.NewFile(3, "r").Write([]byte({json.dumps(text)}))\n'


ATTACKS: tuple[Case, ...] = (
    # the candidate's result lines: forged, malformed, misaligned
    _case("go_split_forge_first_then_exit", "forged_record", _add(("os",), "func init() {\n" + _fd3('{"ok":5}\n') + "    os.Exit(0)\n}\n"), F),
    _case("go_split_forge_need_line", "forged_record", _add(("os",), "func init() {\n" + _fd3('{"need":0}\n[2,3]\n') + "    os.Exit(3)\n}\n"), F),
    _case("go_split_forge_extra_keys", "forged_record", _add(("os",), body=_fd3('{"ok":5,"raised":"x"}\n') + "    os.Exit(0)\n"), F),
    _case("go_split_forge_int_out_of_range", "forged_record", _add(("os",), body=_fd3('{"ok":99999999999999999999}\n') + "    os.Exit(0)\n"), F),
    _case("go_split_forge_float_for_int", "forged_record", _add(("os",), body=_fd3('{"ok":5.0}\n{"ok":0.0}\n{"ok":15.0}\n') + "    os.Exit(0)\n"), F),
    _case("go_split_forge_string_for_int", "forged_record", _add(("os",), body=_fd3('{"ok":"5"}\n{"ok":"0"}\n{"ok":"15"}\n') + "    os.Exit(0)\n"), F),
    _case(
        "go_split_goroutine_writes_after_return",
        "forged_record",
        _add(
            ("os", "time"),
            body='    go func() {\n        for {\n            os.NewFile(3, "r").Write([]byte("{\\"ok\\":0}\\n"))\n'
            "            time.Sleep(time.Millisecond)\n        }\n    }()\n    time.Sleep(5 * time.Millisecond)\n",
        ),
        {F, T},
    ),
    _case(
        "go_split_flood_fd3",
        "resources",
        _add(("os", "strings"), 'func init() {\n    line := strings.Repeat("[", 1<<16)\n    for {\n        os.NewFile(3, "r").Write([]byte(line))\n    }\n}\n'),
        {F, T},
    ),
    _case("go_split_close_fd3", "forged_record", _add(("syscall",), "func init() { syscall.Close(3) }\n", result="a + b"), F),
    _case("go_split_stdout_onto_fd3", "forged_record", _add(("fmt", "syscall"), "func init() { syscall.Dup2(1, 3) }\n", 'fmt.Println("{\\"ok\\":5}")\n'), F),
    # the calls the candidate is asked
    _case(
        "go_split_rewrite_calls_file",
        "tamper",
        # the arguments replaced by ones whose difference is each expected sum
        _add(("os",), 'func init() { os.WriteFile("execir_calls.jsonl", []byte("[5,0]\\n[0,0]\\n[15,0]\\n"), 0o644) }\n'),
        F,
    ),
    _case("go_split_delete_calls_file", "tamper", _add(("os",), 'func init() { os.Remove("execir_calls.jsonl") }\n'), F),
    # endings inside a call
    _case(
        "go_split_exit_after_first_call",
        "early_exit",
        _add(("os",), "var calls int\n", "    calls++\n    if calls == 2 {\n        os.Exit(0)\n    }\n", "a + b"),
        F,
    ),
    _case("go_split_goexit_in_call", "early_exit", _add(("runtime",), body="    if a == 10 {\n        runtime.Goexit()\n    }\n", result="a + b"), F),
    _case("go_split_panic_nil", "early_exit", _add(body="    if a == 10 {\n        panic(nil)\n    }\n", result="a + b"), F),
    _case(
        "go_split_panic_value_exits",
        "early_exit",
        _add(
            ("os",), 'type boom struct{}\n\nfunc (boom) Error() string { os.Exit(0); return "" }\n', "    if a == 10 {\n        panic(boom{})\n    }\n", "a + b"
        ),
        F,
    ),
    _case("go_split_deadlock", "resources", _add(body="    if a == 10 {\n        select {}\n    }\n", result="a + b"), {F, T}),
    # the harness's own names and the entry's type
    _case("go_split_own_execir_entry", "tamper", _add(extra="var ExecirEntry = func(a, b int) int { return a + b }\n"), {E, F}),
    _case("go_split_entry_other_type", "tamper", "package main\n\nfunc Add(a, b int64) int64 {\n    return a - b\n}\n", {E, F}),
    # values the wire must carry exactly
    _case("go_split_nan", "wire", 'package main\n\nimport "math"\n\nfunc Half(x float64) float64 {\n    return math.NaN()\n}\n', F, HALF),
    _case("go_split_next_float", "wire", 'package main\n\nimport "math"\n\nfunc Half(x float64) float64 {\n    return math.Nextafter(x/2, 1e9)\n}\n', F, HALF),
    _case("go_split_invalid_utf8_for_replacement_char", "wire", 'package main\n\nfunc Mark(s string) string {\n    return s + "\\xff"\n}\n', F, MARK),
    _case("go_split_typed_nil_in_interface", "wire", FIRST_REF.replace("return nil\n", "var p *int\n        return p\n"), F, FIRST),
    _case("go_split_int64_in_interface", "wire", FIRST_REF.replace("return xs[0]", "return int64(xs[0])"), F, FIRST),
    _case("go_split_channel_in_interface", "wire", FIRST_REF.replace("return xs[0]", "return make(chan int)"), F, FIRST),
    _case("go_split_func_in_interface", "wire", FIRST_REF.replace("return xs[0]", "return func() int { return 3 }"), F, FIRST),
    _case(
        "go_split_deep_value",
        "wire",
        FIRST_REF.replace("return xs[0]", "var v interface{} = xs[0]\n    for i := 0; i < 100000; i++ {\n        v = []interface{}{v}\n    }\n    return v"),
        F,
        FIRST,
    ),
    _case(
        "go_split_huge_value",
        "resources",
        FIRST_REF.replace("return xs[0]", 'return strings.Repeat("x", 256<<20)').replace("main\n", 'main\n\nimport "strings"\n', 1),
        {F, T},
        FIRST,
    ),
    # helpers come from the reference: identity Encode and Decode pass only against themselves
    _case(
        "go_split_mutated_helper",
        "tamper",
        "package main\n\nfunc Encode(s string) string { return s }\n\nfunc Decode(s string) string { return s }\n",
        F,
        CYCLIC,
    ),
    _case(
        "go_split_sort_copy_not_in_place",
        "wire",
        'package main\n\nimport "sort"\n\nfunc SortInPlace(xs []int) {\n    sort.Ints(append([]int{}, xs...))\n}\n',
        F,
        SORT,
    ),
    _case("go_split_error_always", "wire", DIVIDE_REF.replace("return a / b, nil", 'return a / b, errors.New("")'), F, DIVIDE),
)

CONTROLS: tuple[Case, ...] = (
    _case("go_control_named_result", "control", "package main\n\nfunc Add(x, y int) (sum int) {\n    sum = x + y\n    return\n}\n", P),
    _case("go_control_debug_println", "control", _add(("fmt",), body='    fmt.Println("adding", a, b)\n', result="a + b"), P),
    _case("go_control_large_stdout", "control", _add(("fmt", "strings"), body='    fmt.Println(strings.Repeat("debug ", 200000))\n', result="a + b"), P),
    _case(
        "go_control_memo_package_var",
        "control",
        _add(
            extra="var memo = map[[2]int]int{}\n",
            body="    if v, ok := memo[[2]int{a, b}]; ok {\n        return v\n    }\n    memo[[2]int{a, b}] = a + b\n",
            result="memo[[2]int{a, b}]",
        ),
        P,
    ),
    _case(
        "go_control_generic_helper",
        "control",
        "package main\n\nfunc plus[T int | float64](x, y T) T {\n    return x + y\n}\n\nfunc Add(a, b int) int {\n    return plus(a, b)\n}\n",
        P,
    ),
    _case(
        "go_control_recovered_panic",
        "control",
        _add(
            extra="func risky(a, b int) (r int) {\n    defer func() {\n        if recover() != nil {\n"
            '            r = a + b\n        }\n    }()\n    panic("x")\n}\n',
            result="risky(a, b)",
        ),
        P,
    ),
    _case("go_control_entry_func_var", "control", "package main\n\nvar Add = func(a, b int) int {\n    return a + b\n}\n", P),
    _case(
        "go_control_own_tests_in_program",
        "control",
        'package main\n\nimport "testing"\n\nfunc Add(a, b int) int {\n    return a + b\n'
        '}\n\nfunc TestAdd(t *testing.T) {\n    if Add(1, 1) != 2 {\n        t.Fatal("bad")\n    }\n}\n',
        P,
    ),
    _case(
        "go_control_struct_with_methods",
        "control",
        "package main\n\ntype acc struct{ total int }\n\nfunc (a *acc) add(x int) { a.total += x }\n"
        "\nfunc Add(a, b int) int {\n    s := &acc{}\n    s.add(a)\n    s.add(b)\n    return s.total\n}\n",
        P,
    ),
    _case(
        "go_control_background_goroutine",
        "control",
        _add(("time",), "func init() {\n    go func() {\n        for {\n            time.Sleep(time.Millisecond)\n        }\n    }()\n}\n", result="a + b"),
        P,
    ),
    _case(
        "go_control_goexit_own_goroutine",
        "control",
        _add(
            ("runtime",),
            body="    done := make(chan int)\n    go func() {\n        defer close(done)\n        runtime.Goexit()\n    }()\n    <-done\n",
            result="a + b",
        ),
        P,
    ),
    _case("go_control_starts_a_process", "control", _add(("os/exec",), body='    exec.Command("/bin/true").Run()\n', result="a + b"), P),
    _case("go_control_rand_internally", "control", _add(("math/rand",), body="    r := rand.Intn(10)\n", result="a + b + r - r"), P),
    _case(
        "go_control_negative_zero",
        "control",
        "package main\n\nfunc Half(x float64) float64 {\n    if x == 0 {\n        return -0.0 * x\n    }\n    return x * 0.5\n}\n",
        P,
        HALF,
    ),
    _case("go_control_without_the_prompt_helper", "control", CYCLIC_REF[CYCLIC_REF.index("func Decode") :].join(("package main\n\n", "")), P, CYCLIC),
    _case(
        "go_control_sorts_in_place_by_hand",
        "control",
        "package main\n\nfunc SortInPlace(xs []int) {\n    for i := 1; i < len(xs); i++ {\n        for j := i; j > 0 && xs[j] < xs[j-1]; j-- {\n"
        "            xs[j], xs[j-1] = xs[j-1], xs[j]\n        }\n    }\n}\n",
        P,
        SORT,
    ),
    _case(
        "go_control_error_result",
        "control",
        'package main\n\nimport "fmt"\n\nfunc Divide(a, b int) (q int, err error) {\n    if b == 0 {\n'
        '        err = fmt.Errorf("b is %d", b)\n        return\n    }\n    return a / b, nil\n}\n',
        P,
        DIVIDE,
    ),
    _case(
        "go_control_variadic",
        "control",
        "package main\n\nfunc Sum(nums ...int) (total int) {\n    for i := range nums {\n        total += nums[i]\n    }\n    return\n}\n",
        P,
        SUM,
    ),
    _case(
        "go_control_interface_result",
        "control",
        "package main\n\nfunc First(xs []int) interface{} {\n    for _, x := range xs {\n        return x\n    }\n    return nil\n}\n",
        P,
        FIRST,
    ),
)

CASES: tuple[Case, ...] = ATTACKS + CONTROLS
