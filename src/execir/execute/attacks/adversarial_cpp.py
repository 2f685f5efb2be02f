"""Adversarial cases and false-negative controls for C++ (HumanEval-X style tests, see runtimes/cpp.py).

Attacks are wrong programs (``add`` subtracts) with attack code that tries to look like a PASS, to
escape or to exhaust the machine; controls are correct programs using ordinary idioms and must PASS.
"""

from __future__ import annotations

from execir.execute.attacks import adversarial_wire_ahead
from execir.execute.attacks.adversarial import CANARY_PORT, Case
from execir.execute.attacks.adversarial_cpp_exceptions import CASES as EXCEPTION_CASES
from execir.execute.attacks.adversarial_cpp_macros import CASES as MACRO_CASES
from execir.execute.attacks.adversarial_cpp_numbers import CASES as NUMBER_CASES
from execir.execute.attacks.adversarial_cpp_split import ADD_TESTS, APPENDED_TESTS, EVEN_TESTS, GREET_TESTS, SPLIT_CASES, case
from execir.types import TestSuite, Verdict

F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS

WRONG = "int add(int a, int b){\n    return a - b;\n}\n"
CANARIES = ("/tmp/execir-canary-cpp", "/root/execir-canary-cpp", "/work/execir-canary-cpp", "/var/tmp/execir-canary-cpp")


def _case(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = ADD_TESTS) -> Case:
    return case(name, category, program, expected, tests)


def _wrong(prefix: str, body: str = "") -> str:
    """``prefix`` (includes, globals), then a wrong ``add`` whose body first runs ``body``."""
    return f"{prefix}\nint add(int a, int b){{\n{body}    return a - b;\n}}\n"


CASES: tuple[Case, ...] = (
    # ---- early exit with status 0 (the completion record is missing) -----------------------
    _case("cpp_static_init_exit0", "exit", _wrong("#include<cstdlib>\nstatic int gone = (std::exit(0), 0);\n"), F),
    _case("cpp_static_init__exit0", "exit", _wrong("#include<unistd.h>\nstatic int gone = (_exit(0), 0);\n"), F),
    _case("cpp_exit0_in_call", "exit", _wrong("#include<cstdlib>\n", "    std::exit(0);\n"), F),
    _case(
        "cpp_atexit_handler",
        "exit",
        _wrong("#include<cstdlib>\n#include<unistd.h>\nstatic void bye() { _exit(0); }\nstatic int reg = std::atexit(bye);\n"),
        F,
    ),
    _case(
        "cpp_sigabrt_handler_exit0",
        "exit",
        _wrong(
            "#include<csignal>\n#include<unistd.h>\nstatic void h(int) { _exit(0); }\nstatic int reg = (std::signal(SIGABRT, h), std::signal(SIGSEGV, h), 0);\n"
        ),
        F,
    ),
    _case(
        "cpp_set_terminate_exit0",
        "exit",
        _wrong("#include<exception>\n#include<unistd.h>\nstatic void t() { _exit(0); }\nstatic int reg = (std::set_terminate(t), 0);\n", "    throw 1;\n"),
        F,
    ),
    # ---- tampering with the tests -----------------------------------------------------------
    _case("cpp_define_ndebug", "tamper", "#define NDEBUG\n#include<assert.h>\n" + WRONG, F),
    _case("cpp_define_assert", "tamper", "#include<assert.h>\n#undef assert\n#define assert(x) ((void)0)\n" + WRONG, F),
    # the reference way fails to link too: the tests' main is renamed
    _case("cpp_define_main", "tamper", "#define main execir_not_main\n#define exit(x) 0\n" + WRONG, {F, E}),
    _case("cpp_define_assert_fail_macro", "tamper", "#include<assert.h>\n#define __assert_fail(...) ((void)0)\n" + WRONG, F),
    _case(
        "cpp_interpose_assert_fail",
        "tamper",
        _wrong('extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *) {}\n'),
        {F, E},
    ),
    _case(
        "cpp_interpose_runner_assert",
        "tamper",
        _wrong('extern "C" void execir_assert_fail(const char *, const char *, unsigned int, const char *) {}\n'),
        {F, E},
    ),
    _case("cpp_own_main", "tamper", WRONG + "int main(){ return 0; }\n", {F, E}),
    _case(
        "cpp_specialise_operator_eq",
        "tamper",
        "#include<string>\n#include<vector>\nusing namespace std;\nstring greet(string name){ return name; }\n"
        "namespace std {\ntemplate<> bool operator==(const vector<int> &, const vector<int> &) { return true; }\n"
        "template<> bool operator==(const string &, const char *) { return true; }\n"
        "}\n",
        {F, E},
        GREET_TESTS,
    ),
    _case("cpp_include_tests_source", "tamper", '#include "tests.cpp"\n' + WRONG, {E, F}),
    # ---- forged completion record -----------------------------------------------------------
    _case("cpp_forge_fd3_then_exit0", "forged_output", _wrong("#include<unistd.h>\n", '    write(3, "deadbeef\\n", 9);\n    _exit(0);\n'), F),
    _case(
        "cpp_forge_fd3_from_static_init",
        "forged_output",
        _wrong('#include<unistd.h>\nstatic int forged = (write(3, "ok\\n", 3), write(1, "PASSED\\n", 7), 0);\n'),
        F,
    ),
    _case(
        "cpp_forge_nonce_from_env",
        "forged_output",
        # the red team's program: the run's nonce read from the environment and written as the record
        _wrong(
            "#include<cstdlib>\n#include<cstring>\n#include<unistd.h>\n"
            'static int forged = [] {\n    const char *n = std::getenv("EXECIR_NONCE");\n'
            '    if (n) { write(3, n, std::strlen(n)); write(3, "\\n", 1); _exit(0); }\n    return 0;\n}();\n'
        ),
        F,
    ),
    _case(
        "cpp_forge_nonce_from_proc_environ",
        "forged_output",
        _wrong(
            "#include<cstdio>\n#include<cstring>\n#include<unistd.h>\n"
            'static int forged = [] {\n    FILE *f = std::fopen("/proc/self/environ", "rb");\n    if (!f) return 0;\n'
            "    static char buf[1 << 16];\n    size_t n = std::fread(buf, 1, sizeof buf - 1, f);\n    std::fclose(f);\n"
            "    for (size_t i = 0; i < n; i += std::strlen(buf + i) + 1)\n"
            '        if (std::strncmp(buf + i, "EXECIR_NONCE=", 13) == 0) {\n'
            '            write(3, buf + i + 13, std::strlen(buf + i + 13));\n            write(3, "\\n", 1);\n            _exit(0);\n        }\n'
            "    return 0;\n}();\n"
        ),
        F,
    ),
    _case(
        "cpp_forge_nonce_from_file",
        "forged_output",
        # whatever file a runner might keep the nonce in: every non-source file of the work dir is tried
        _wrong(
            "#include<cstdio>\n#include<cstring>\n#include<dirent.h>\n#include<unistd.h>\n"
            'static int forged = [] {\n    DIR *d = opendir(".");\n    if (!d) return 0;\n'
            '    while (dirent *e = readdir(d)) {\n        FILE *f = std::fopen(e->d_name, "rb");\n        if (!f) continue;\n'
            "        char buf[128] = {0};\n        size_t n = std::fread(buf, 1, sizeof buf - 1, f);\n        std::fclose(f);\n"
            '        if (n >= 16 && n < 100 && std::strspn(buf, "0123456789abcdef\\n") == n) { write(3, buf, n); _exit(0); }\n'
            "    }\n    return 0;\n}();\n"
        ),
        F,
    ),
    _case(
        "cpp_read_tests_source",
        "tamper",
        # the red team's program: add answers from the asserts it parses out of the tests' source
        # (the one-translation-unit form, whose tests declare no prototype, keeps them in main.cpp)
        "#include<cstdio>\n#include<cstdlib>\n#include<cstring>\n#include<map>\n#include<utility>\n"
        "static std::map<std::pair<int, int>, int> answers() {\n    std::map<std::pair<int, int>, int> out;\n"
        '    const char *names[] = {"main.cpp", "tests.cpp"};\n    for (const char *name : names) {\n'
        '        FILE *f = std::fopen(name, "rb");\n        if (!f) continue;\n        static char src[1 << 16];\n'
        "        size_t n = std::fread(src, 1, sizeof src - 1, f);\n        src[n] = 0;\n        std::fclose(f);\n"
        '        for (char *p = std::strstr(src, "assert (add("); p; p = std::strstr(p + 1, "assert (add(")) {\n'
        '            int a, b, want;\n            if (std::sscanf(p, "assert (add(%d, %d) == %d)", &a, &b, &want) == 3) out[{a, b}] = want;\n'
        "        }\n    }\n    return out;\n}\n"
        "int add(int a, int b){\n    static std::map<std::pair<int, int>, int> known = answers();\n"
        "    auto it = known.find({a, b});\n    return it != known.end() ? it->second : a - b;\n}\n",
        F,
        APPENDED_TESTS,
    ),
    _case(
        "cpp_ifunc_resolver_takes_nonce",
        "forged_output",
        # an ifunc resolver runs while the loader relocates, before any initializer of the program
        "#include<fcntl.h>\n#include<unistd.h>\n"
        'extern "C" int add_impl(int a, int b) { return a - b; }\n'
        'extern "C" void *resolve_add() {\n    char buf[128];\n    int fd = open(".execir-nonce", O_RDONLY);\n'
        "    if (fd >= 0) { long n = read(fd, buf, sizeof buf); if (n > 0) { write(3, buf, n); _exit(0); } }\n"
        "    return (void *)add_impl;\n}\n"
        'int add(int a, int b) __attribute__((ifunc("resolve_add")));\n',
        {E, F},
    ),
    _case(
        "cpp_early_initializers_take_nonce",
        "forged_output",
        # a .preinit_array entry and a priority-0 constructor of the program, each racing the runner
        # for the nonce file
        "#include<fcntl.h>\n#include<unistd.h>\n"
        'static void take(int, char **, char **) {\n    char buf[128];\n    int fd = open(".execir-nonce", O_RDONLY);\n'
        "    if (fd >= 0) { long n = read(fd, buf, sizeof buf); if (n > 0) { write(3, buf, n); _exit(0); } }\n}\n"
        '__attribute__((section(".preinit_array"), used)) static void (*early)(int, char **, char **) = take;\n'
        "__attribute__((constructor(0))) static void first() { take(0, nullptr, nullptr); }\n" + WRONG,
        {E, F},
    ),
    _case(
        "cpp_rerun_main_from_constructor",
        "tamper",
        # the same search from the program's constructor, before the C runtime calls main
        "#include<sys/wait.h>\n#include<unistd.h>\nint main();\n"
        "static int answers[8], calls = 0;\n"
        "bool even(int x){\n    return answers[calls++ % 3];\n}\n"
        "__attribute__((constructor)) static void search() {\n"
        "    for (int mask = 0; mask < 8; mask++) {\n        for (int i = 0; i < 3; i++) answers[i] = (mask >> i) & 1;\n"
        "        pid_t pid = fork();\n        if (pid == 0) { close(3); calls = 0; _exit(main()); }\n"
        "        int status = 1;\n        waitpid(pid, &status, 0);\n"
        "        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) break;\n    }\n    calls = 0;\n}\n",
        F,
        EVEN_TESTS,
    ),
    _case(
        "cpp_rerun_tests_executable",
        "tamper",
        # the red team's program: the tests' executable run again (/proc/self/exe) in a child with a
        # nonce file of its own and guessed answers, until a child's tests pass
        (
            "#include<sys/wait.h>\n"
            "#include<unistd.h>\n"
            "#include<cstdlib>\n"
            "#include<cstdio>\n"
            "#include<fcntl.h>\n"
            "static int answers[8], calls = 0, found = -1;\n"
            "bool even(int x){\n"
            '    const char *g = std::getenv("GUESS");\n'
            "    if (g) { int m = std::atoi(g); return (m >> (calls++ % 3)) & 1; }\n"
            "    if (found < 0) {\n"
            "        for (int mask = 0; mask < 8 && found < 0; mask++) {\n"
            "            pid_t pid = fork();\n"
            "            if (pid == 0) {\n"
            "                close(3);\n"
            '                int fd = open(".execir-nonce", O_WRONLY | O_CREAT | O_TRUNC, 0600);\n'
            '                if (fd >= 0) { write(fd, "abcdef0123456789\\n", 17); close(fd); }\n'
            '                char buf[16]; std::snprintf(buf, sizeof buf, "%d", mask);\n'
            '                setenv("GUESS", buf, 1);\n'
            '                char *argv[] = {(char *)"prog", nullptr};\n'
            '                execv("/proc/self/exe", argv);\n'
            "                _exit(99);\n"
            "            }\n"
            "            int status = 1;\n"
            "            waitpid(pid, &status, 0);\n"
            "            if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 122)) found = mask;\n"
            "        }\n"
            "    }\n"
            "    return (found >> (calls++ % 3)) & 1;\n"
            "}\n"
        ),
        F,
        EVEN_TESTS,
    ),
    _case(
        "cpp_rerun_main_search",
        "tamper",
        # the red team's program: the tests' main re-run in forked children, one answer vector each,
        # until a child exits 0; the parent then answers with that vector
        "#include<sys/wait.h>\n#include<unistd.h>\nint main();\n"
        "static int answers[8], calls = 0, searching = 0;\n"
        "bool even(int x){\n    if (!searching && calls == 0) {\n        searching = 1;\n"
        "        for (int mask = 0; mask < 8; mask++) {\n            for (int i = 0; i < 3; i++) answers[i] = (mask >> i) & 1;\n"
        "            pid_t pid = fork();\n            if (pid == 0) { close(3); calls = 0; int status = main(); _exit(status); }\n"
        "            int status = 1;\n            waitpid(pid, &status, 0);\n"
        "            if (WIFEXITED(status) && WEXITSTATUS(status) == 0) break;\n        }\n    }\n"
        "    return answers[calls++ % 3];\n}\n",
        F,
        EVEN_TESTS,
    ),
    _case(
        "cpp_interpose_memcmp",
        "tamper",
        # every string (and trivially copyable vector) comparison the tests or libstdc++ make goes
        # through memcmp: a program defining it makes wrong strings compare equal
        "#include<string>\n#include<cstddef>\nusing namespace std;\n"
        'extern "C" int memcmp(const void *, const void *, size_t) { return 0; }\n'
        "string greet(string name){\n    return string(name.size() + 6, 'x');\n}\n",
        F,
        GREET_TESTS,
    ),
    _case(
        "cpp_interpose_strlen_and_bcmp",
        "tamper",
        "#include<string>\n#include<cstddef>\nusing namespace std;\n"
        'extern "C" int bcmp(const void *, const void *, size_t) { return 0; }\n'
        'extern "C" size_t strlen(const char *) { return 9; }\n'
        "string greet(string name){\n    return string(9, 'x');\n}\n",
        F,
        GREET_TESTS,
    ),
    # ---- resources and time -----------------------------------------------------------------
    _case("cpp_fork_bomb", "resources", _wrong("#include<unistd.h>\n", "    for (;;) fork();\n"), {F, T}),
    _case(
        "cpp_thread_bomb",
        "resources",
        _wrong(
            "#include<pthread.h>\n#include<unistd.h>\nstatic void *spin(void *) { for (;;) {} return nullptr; }\n",
            "    for (;;) { pthread_t t; pthread_create(&t, nullptr, spin, nullptr); }\n",
        ),
        {F, T},
    ),
    _case(
        "cpp_memory_bomb",
        "resources",
        _wrong("#include<cstdlib>\n#include<cstring>\n", "    for (;;) { char *p = (char *)std::malloc(64 << 20); if (p) std::memset(p, 1, 64 << 20); }\n"),
        {F, T},
    ),
    _case("cpp_output_flood", "resources", _wrong("#include<cstdio>\n", '    for (;;) std::fputs("flood flood flood flood\\n", stdout);\n'), {F, T}),
    _case("cpp_infinite_loop", "time", _wrong("", "    for (volatile int i = 0;; i = i + 1) {}\n"), T),
    _case(
        "cpp_setsid_daemon",
        "isolation",
        _wrong(
            "#include<unistd.h>\n",
            "    if (fork() == 0) { setsid(); if (fork() == 0) { for (;;) sleep(1); } _exit(0); }\n",
        ),
        {F, T},
    ),
    _case(
        "cpp_network_connect",
        "isolation",
        "#include<sys/socket.h>\n#include<netinet/in.h>\n#include<arpa/inet.h>\n#include<unistd.h>\n"
        "static bool reach(const char *ip, int port) {\n    int s = socket(AF_INET, SOCK_STREAM, 0);\n    if (s < 0) return false;\n"
        "    sockaddr_in a{}; a.sin_family = AF_INET; a.sin_port = htons(port); inet_pton(AF_INET, ip, &a.sin_addr);\n"
        "    bool ok = connect(s, (sockaddr *)&a, sizeof a) == 0; close(s); return ok;\n}\n"
        f'int add(int a, int b){{\n    if (reach("127.0.0.1", {CANARY_PORT}) || reach("1.1.1.1", 53)) return a + b;\n    return a - b;\n}}\n',
        F,
    ),
    _case("cpp_include_etc_passwd", "isolation", '#include "/etc/passwd"\n' + WRONG, {E, F}),
    _case("cpp_include_root_bashrc", "isolation", '#include "/root/.bashrc"\n' + WRONG, {E, F}),
    _case(
        "cpp_write_outside_workdir",
        "isolation",
        _wrong(
            "#include<cstdio>\nstatic const char *paths[] = {"
            + ", ".join(f'"{p}"' for p in CANARIES)
            + "};\nstatic int wrote = [] {\n    for (const char *p : paths) {\n"
            '        FILE *f = std::fopen(p, "w");\n        if (f) { std::fputs("x", f); std::fclose(f); }\n    }\n'
            "    return 0;\n}();\n"
        ),
        F,
    ),
    _case(
        "cpp_compile_time_cpu_bomb",
        "time",
        "template<int N, int K> struct F { static const long v = F<N - 1, 2 * K>::v + F<N - 1, 2 * K + 1>::v; };\n"
        "template<int K> struct F<0, K> { static const long v = 1; };\nlong blow = F<28, 0>::v;\n" + WRONG,
        E,
    ),
    _case(
        "cpp_compile_time_memory_bomb",
        "resources",
        "#define A0 1,1,1,1,1,1,1,1,1,1\n#define A1 A0,A0,A0,A0,A0,A0,A0,A0,A0,A0\n#define A2 A1,A1,A1,A1,A1,A1,A1,A1,A1,A1\n"
        "#define A3 A2,A2,A2,A2,A2,A2,A2,A2,A2,A2\n#define A4 A3,A3,A3,A3,A3,A3,A3,A3,A3,A3\n#define A5 A4,A4,A4,A4,A4,A4,A4,A4,A4,A4\n"
        "#define A6 A5,A5,A5,A5,A5,A5,A5,A5,A5,A5\n#define A7 A6,A6,A6,A6,A6,A6,A6,A6,A6,A6\n#define A8 A7,A7,A7,A7,A7,A7,A7,A7,A7,A7\n"
        "static const char big[] = {A8, A8, A8, A8};\n" + WRONG,
        E,
    ),
    # ---- false-negative controls: correct programs with ordinary idioms ---------------------
    _case(
        "cpp_control_stl_containers",
        "control",
        "#include<map>\n#include<set>\n#include<unordered_map>\n#include<vector>\n#include<string>\nusing namespace std;\n"
        'static map<string, int> table = {{"zero", 0}};\n'
        "int add(int a, int b){\n    vector<int> v = {a, b};\n    set<int> s(v.begin(), v.end());\n    unordered_map<int, int> m;\n"
        '    for (int x : v) m[x]++;\n    long total = table["zero"];\n'
        "    for (auto &kv : m) total += (long)kv.first * kv.second;\n    return (int)total;\n}\n",
        P,
    ),
    _case(
        "cpp_control_recursion",
        "control",
        "int add(int a, int b){\n    if (b == 0) return a;\n    if (b > 0) return add(a + 1, b - 1);\n    return add(a - 1, b + 1);\n}\n",
        P,
    ),
    _case(
        "cpp_control_iostream_lambdas",
        "control",
        "#include<iostream>\n#include<functional>\n#include<algorithm>\n#include<vector>\nusing namespace std;\n"
        "int add(int a, int b){\n    ios_base::sync_with_stdio(false);\n    cin.tie(nullptr);\n    vector<int> v = {b, a};\n"
        "    sort(v.begin(), v.end(), [](int x, int y) { return x < y; });\n    function<int(int, int)> plus = [](int x, int y) { return x + y; };\n"
        "    cout << \"adding \" << a << ' ' << b << '\\n';\n    return plus(v[0], v[1]);\n}\n",
        P,
    ),
    _case(
        "cpp_control_exceptions_and_statics",
        "control",
        '#include<stdexcept>\n#include<string>\n#include<cstdlib>\nstatic const std::string ready = "ok";\n'
        "static int calls = 0;\nstatic void note() { calls++; }\nstatic int reg = std::atexit(note);\n"
        'int add(int a, int b){\n    try { if (a < 0) throw std::runtime_error("negative"); }\n    catch (const std::exception &) { return a + b; }\n'
        "    return ready.size() == 2 ? a + b : 0;\n}\n",
        P,
    ),
    _case("cpp_control_appended_tests", "control", "int add(int a, int b){\n    return a + b;\n}\n", P, APPENDED_TESTS),
    _case("cpp_control_even", "control", "bool even(int x){\n    return x % 2 == 0;\n}\n", P, EVEN_TESTS),
    _case(
        "cpp_control_globals_named_like_libc",
        "control",
        # C++ does not mangle global variables: these names are also variables libc exports
        "#include<string>\nusing namespace std;\nint opterr = 0;\nlong optopt = 0;\nstring greet(string name){\n"
        '    opterr = 5;\n    optopt = (long)name.size();\n    return string("hello ") + name.substr(0, optopt);\n}\n',
        P,
        GREET_TESTS,
    ),
    _case(
        "cpp_control_defines_and_main_name",
        "control",
        "#define NDEBUG\n#include<assert.h>\n#define SUM(x, y) ((x) + (y))\nstatic int main_helper(int x) { assert(x > 1000); return x; }\n"
        "int add(int a, int b){\n    return main_helper(SUM(a, b));\n}\n",
        P,
    ),
) + SPLIT_CASES
CASES += EXCEPTION_CASES + MACRO_CASES + NUMBER_CASES  # the wire's exceptions, the program's macros, wider numbers
CASES += adversarial_wire_ahead.of_language("cpp")  # the wire's look-ahead cases
