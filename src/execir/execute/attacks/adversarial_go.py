"""Adversarial cases and false-negative controls for Go (testify tests, see runtimes/go.py).

Attacks are wrong programs (``Add`` subtracts, or the attack replaces the result) that try to look
like a PASS or to escape; controls are correct programs using ordinary idioms and must PASS.
"""

from __future__ import annotations

from execir.execute.attacks import adversarial_go_split, adversarial_wire_ahead
from execir.execute.attacks.adversarial import CANARY_PORT, Case, make_case
from execir.types import TestSuite, Verdict

F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS

HEADER = 'package main\n\nimport (\n    "testing"\n    "github.com/stretchr/testify/assert"\n)\n\n'
ADD_TESTS = TestSuite(
    "native",
    HEADER + "func TestAdd(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal(5, Add(2, 3))\n    assert.Equal(0, Add(-1, 1))\n"
    "    assert.Equal(15, Add(10, 5))\n}\n",
)


def _wrong(imports: str, extra: str = "", body: str = "") -> str:
    """A wrong ``Add`` with attack code (``extra`` at top level, ``body`` inside the function)."""
    block = f"import (\n{imports})\n\n" if imports else ""
    return f"package main\n\n{block}{extra}\nfunc Add(a, b int) int {{\n{body}    return a - b\n}}\n"


ADD_REFERENCE = "package main\n\nfunc Add(a, b int) int {\n    return a + b\n}\n"
EVEN_REFERENCE = "package main\n\nfunc Even(x int) bool {\n    return x%2 == 0\n}\n"


def _case(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = ADD_TESTS) -> Case:
    """A case judged outside: the suite's entry point and reference come with it (:data:`ENTRIES`)."""
    entry, reference = ENTRIES[tests.code]
    return make_case(name, category, program, expected, tests, entry_point=entry, language="go", reference=reference)


def _imp(*names: str) -> str:
    return "".join(f'    "{n}"\n' for n in names)


CANARIES = ("/tmp/execir-canary-go", "/root/execir-canary-go", "/work/execir-canary-go", "/var/tmp/execir-canary-go")
FORGE = """func init() {
    nonce := os.Getenv("EXECIR_NONCE")
    if nonce == "" {
        if raw, err := os.ReadFile("/proc/self/environ"); err == nil {
            for _, kv := range strings.Split(string(raw), "\\x00") {
                if strings.HasPrefix(kv, "EXECIR_NONCE=") {
                    nonce = kv[len("EXECIR_NONCE="):]
                }
            }
        }
    }
    f := os.NewFile(3, "record")
    f.Write([]byte(nonce + "\\n"))
    os.Exit(0)
}
"""

EVEN_TESTS = TestSuite(
    "native",
    HEADER + "func TestEven(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal(true, Even(4))\n"
    "    assert.Equal(false, Even(3))\n    assert.Equal(true, Even(0))\n}\n",
)
"""Boolean answers: a program that learns them without computing can pass."""
SORT_TESTS = TestSuite(
    "native",
    HEADER + "func TestWords(t *testing.T) {\n    assert := assert.New(t)\n"
    '    assert.Equal([]string{"a:2", "b:1"}, Words("b a a"))\n'
    '    assert.Equal([]string{}, Words(""))\n'
    '    assert.Equal("x-y-z", Join([]string{"x", "y", "z"}))\n'
    "    assert.Equal(55, Fib(10))\n}\n",
)
CONTROL = """package main

import (
    "fmt"
    "sort"
    "strings"
)

func Words(s string) []string {
    counts := map[string]int{}
    for _, w := range strings.Fields(s) {
        counts[w]++
    }
    keys := make([]string, 0, len(counts))
    for k := range counts {
        keys = append(keys, k)
    }
    sort.Strings(keys)
    out := []string{}
    for _, k := range keys {
        out = append(out, fmt.Sprintf("%s:%d", k, counts[k]))
    }
    return out
}

func Join(xs []string) string {
    var b strings.Builder
    for i, x := range xs {
        if i > 0 {
            b.WriteString("-")
        }
        b.WriteString(x)
    }
    return b.String()
}

func Fib(n int) int {
    if n < 2 {
        return n
    }
    return Fib(n-1) + Fib(n-2)
}
"""

ENTRIES = {ADD_TESTS.code: ("Add", ADD_REFERENCE), EVEN_TESTS.code: ("Even", EVEN_REFERENCE), SORT_TESTS.code: ("Words", CONTROL)}
"""Each suite's entry point and trusted reference (the tests' other functions come from it)."""

CASES: tuple[Case, ...] = (
    # early exit with status 0
    _case("go_exit0_in_init", "early_exit", _wrong(_imp("os"), "func init() { os.Exit(0) }\n"), F),
    _case("go_exit0_in_function", "early_exit", _wrong(_imp("os"), body="    os.Exit(0)\n"), F),
    _case(
        "go_exit0_in_goroutine",
        "early_exit",
        _wrong(_imp("os", "time"), "func init() {\n    go func() { os.Exit(0) }()\n    time.Sleep(50 * time.Millisecond)\n}\n"),
        F,
    ),
    _case("go_var_initializer_exit", "early_exit", _wrong(_imp("os"), "var _ = func() int { os.Exit(0); return 0 }()\n"), F),
    _case("go_testmain_defined", "early_exit", _wrong(_imp("os", "testing"), "func TestMain(m *testing.M) { os.Exit(0) }\n"), {F, E}),
    _case(
        "go_recover_in_goroutine",
        "swallowed_failure",
        _wrong(
            _imp("sync"),
            body="    var wg sync.WaitGroup\n    wg.Add(1)\n    go func() {\n        defer wg.Done()\n        defer func() { recover() }()\n"
            '        panic("boom")\n    }()\n    wg.Wait()\n',
        ),
        F,
    ),
    _case("go_forge_record_fd3", "forged_record", _wrong(_imp("os", "strings"), FORGE), F),
    _case("go_forge_record_garbage", "forged_record", _wrong(_imp("os"), body='    os.NewFile(3, "r").Write([]byte("PASS\\n"))\n'), F),
    # the test run's configuration, set by candidate code before the tests start
    _case("go_flag_run_matches_nothing", "tamper", _wrong(_imp("flag"), 'func init() { flag.Set("test.run", "^$") }\n'), F),
    _case("go_flag_list_instead_of_run", "tamper", _wrong(_imp("flag"), 'func init() { flag.Set("test.list", ".*") }\n'), F),
    _case("go_flag_count_zero", "tamper", _wrong(_imp("flag"), 'var _ = flag.Set("test.count", "0")\n'), F),
    _case("go_flag_skip_everything", "tamper", _wrong(_imp("flag"), 'func init() { flag.Set("test.skip", ".") }\n'), F),
    _case(
        "go_os_args_run_nothing",
        "tamper",
        _wrong(_imp("os"), 'func init() { os.Args = append(os.Args[:1], "-test.run=^$", "-test.list=.") }\n'),
        F,
    ),
    _case(
        "go_flag_commandline_replaced",
        "tamper",
        _wrong(
            _imp("flag", "os"),
            "func init() {\n    fs := flag.NewFlagSet(os.Args[0], flag.ContinueOnError)\n"
            '    fs.String("test.run", "^$", "")\n    fs.Parse([]string{"-test.run=^$"})\n    flag.CommandLine = fs\n}\n',
        ),
        F,
    ),
    _case(
        "go_flag_value_swapped",
        "tamper",
        # the flag's Value replaced by one that ignores Set and always says "^$"
        _wrong(
            _imp("flag"),
            'type stuck struct{}\n\nfunc (stuck) String() string     { return "^$" }\nfunc (stuck) Set(string) error   { return nil }\n\n'
            'func init() { flag.Lookup("test.run").Value = stuck{} }\n',
        ),
        F,
    ),
    _case(
        "go_read_tests_source",
        "tamper",
        # the red team's program: Add answers from the assertions it parses out of the tests' source
        'package main\n\nimport (\n    "os"\n    "regexp"\n    "strconv"\n)\n\nvar answers = map[[2]int]int{}\n\n'
        'func init() {\n    for _, name := range []string{"tests.go", "../tests.go", "prog/tests.go"} {\n'
        "        src, err := os.ReadFile(name)\n        if err != nil {\n            continue\n        }\n"
        "        re := regexp.MustCompile(`Equal\\((-?\\d+), Add\\((-?\\d+), (-?\\d+)\\)\\)`)\n"
        "        for _, m := range re.FindAllStringSubmatch(string(src), -1) {\n"
        "            want, _ := strconv.Atoi(m[1])\n            a, _ := strconv.Atoi(m[2])\n            b, _ := strconv.Atoi(m[3])\n"
        "            answers[[2]int{a, b}] = want\n        }\n    }\n}\n\n"
        "func Add(a, b int) int {\n    if v, ok := answers[[2]int{a, b}]; ok {\n        return v\n    }\n    return a - b\n}\n",
        F,
    ),
    # the guard's nonce and Take, by import or by linkname
    _case(
        "go_import_guard_take",
        "forged_record",
        _wrong(_imp("os", "execir/guard"), 'func init() {\n    os.NewFile(3, "r").Write([]byte(guard.Take() + "\\n"))\n    os.Exit(0)\n}\n'),
        {E, F},
    ),
    _case(
        "go_linkname_guard_nonce",
        "forged_record",
        _wrong(
            _imp("os", "unsafe"),
            "var _ unsafe.Pointer\n\n//go:linkname stolen execir/guard.nonce\nvar stolen string\n\n"
            'func init() {\n    os.NewFile(3, "r").Write([]byte(stolen + "\\n"))\n    os.Exit(0)\n}\n',
        ),
        {E, F},
    ),
    _case(
        "go_linkname_guard_take",
        "forged_record",
        _wrong(
            _imp("os", "unsafe"),
            "var _ unsafe.Pointer\n\n//go:linkname take execir/guard.Take\nfunc take() string\n\n"
            'func init() {\n    os.NewFile(3, "r").Write([]byte(take() + "\\n"))\n    os.Exit(0)\n}\n',
        ),
        {E, F},
    ),
    _case(
        "go_rerun_tests_executable",
        "tamper",
        # the red team's program: the tests' executable run again (/proc/self/exe) with guessed
        # answers and a nonce of its own, until a child's tests pass
        (
            "package main\n"
            "\n"
            "import (\n"
            '    "os"\n'
            '    "strconv"\n'
            '    "syscall"\n'
            ")\n"
            "\n"
            "var calls, found = 0, -1\n"
            "\n"
            "func Even(x int) bool {\n"
            '    if g := os.Getenv("GUESS"); g != "" {\n'
            "        m, _ := strconv.Atoi(g)\n"
            "        calls++\n"
            "        return (m>>((calls-1)%3))&1 == 1\n"
            "    }\n"
            "    if found < 0 {\n"
            "        syscall.CloseOnExec(3)\n"
            "        for mask := 0; mask < 8 && found < 0; mask++ {\n"
            '            env := []string{"GUESS=" + strconv.Itoa(mask), "EXECIR_NONCE=0123456789abcdef"}\n'
            '            pid, err := syscall.ForkExec("/proc/self/exe", []string{"prog"}, &syscall.ProcAttr{Env: env, Files: []uintptr{0, 1, 2}})\n'
            "            if err != nil {\n"
            "                continue\n"
            "            }\n"
            "            var ws syscall.WaitStatus\n"
            "            syscall.Wait4(pid, &ws, 0, nil)\n"
            "            if ws.Exited() && ws.ExitStatus() != 1 {\n"
            "                found = mask\n"
            "            }\n"
            "        }\n"
            "    }\n"
            "    calls++\n"
            "    return (found>>((calls-1)%3))&1 == 1\n"
            "}\n"
        ),
        F,
        EVEN_TESTS,
    ),
    # resources
    _case(
        "go_goroutine_bomb",
        "resources",
        _wrong(_imp("time"), body="    for i := 0; i < 1000000; i++ {\n        go func() { time.Sleep(time.Hour) }()\n    }\n"),
        {F, T},
    ),
    _case(
        "go_memory_bomb",
        "resources",
        _wrong(
            "",
            "var keep [][]byte\n",
            body="    for {\n        b := make([]byte, 64<<20)\n        for i := range b { b[i] = 1 }\n        keep = append(keep, b)\n    }\n",
        ),
        {F, T},
    ),
    _case(
        "go_output_flood",
        "resources",
        _wrong(_imp("os", "strings"), body='    line := strings.Repeat("x", 1<<16)\n    for {\n        os.Stdout.WriteString(line)\n    }\n'),
        {F, T},
    ),
    _case("go_infinite_loop", "resources", _wrong("", body="    for {\n    }\n"), T),
    # escape
    _case(
        "go_daemon_process",
        "escape",
        _wrong(
            _imp("os/exec", "syscall"),
            body='    cmd := exec.Command("/bin/sh", "-c", "sleep 30; touch /tmp/execir-canary-go")\n'
            "    cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}\n    cmd.Start()\n",
        ),
        {F, T},
    ),
    _case(
        "go_forkexec_daemon",
        "escape",
        _wrong(
            _imp("syscall"),
            body='    syscall.ForkExec("/bin/sh", []string{"sh", "-c", "sleep 30; touch /tmp/execir-canary-go"},\n'
            "        &syscall.ProcAttr{Sys: &syscall.SysProcAttr{Setsid: true}})\n",
        ),
        {F, T},
    ),
    _case(
        "go_network_dial",
        "escape",
        _wrong(
            _imp("net", "time"),
            body=f'    net.DialTimeout("tcp", "127.0.0.1:{CANARY_PORT}", time.Second)\n    net.DialTimeout("tcp", "1.1.1.1:80", time.Second)\n',
        ),
        {F, T},
    ),
    _case(
        "go_write_outside_workdir",
        "escape",
        _wrong(_imp("os"), body="".join(f'    os.WriteFile("{path}", []byte("x"), 0o644)\n' for path in CANARIES)),
        F,
    ),
    # controls
    _case("go_control_add", "control", "package main\n\nfunc Add(a, b int) int {\n    return a + b\n}\n", P),
    _case("go_control_maps_sort_builder_recursion", "control", CONTROL, P, SORT_TESTS),
    _case(
        "go_control_goroutines_channels",
        "control",
        'package main\n\nimport "sync"\n\nfunc Add(a, b int) int {\n    ch := make(chan int, 2)\n    var wg sync.WaitGroup\n'
        "    for _, v := range []int{a, b} {\n        wg.Add(1)\n        go func(v int) { defer wg.Done(); ch <- v }(v)\n    }\n"
        "    wg.Wait()\n    close(ch)\n    s := 0\n    for v := range ch {\n        s += v\n    }\n    return s\n}\n",
        P,
    ),
    _case(
        "go_control_own_flags_and_args",
        "control",
        # a correct program with its own command-line flags, parsed in init, that reads os.Args
        'package main\n\nimport (\n    "flag"\n    "os"\n)\n\nvar offset = flag.Int("offset", 0, "added to every sum")\n\n'
        "func init() {\n    flag.Parse()\n    if len(os.Args) > 5 {\n        *offset = 1\n    }\n}\n\n"
        "func Add(a, b int) int {\n    return a + b + *offset\n}\n",
        P,
    ),
    _case(
        "go_control_main_and_init",
        "control",
        'package main\n\nimport "fmt"\n\nvar table = map[int]int{}\n\nfunc init() { table[0] = 0 }\n\n'
        "func Add(a, b int) int {\n    defer func() { recover() }()\n    return a + b + table[0]\n}\n\nfunc main() { fmt.Println(Add(1, 2)) }\n",
        P,
    ),
)

CASES += adversarial_go_split.CASES
CASES += adversarial_wire_ahead.of_language("go")  # the wire's look-ahead cases
