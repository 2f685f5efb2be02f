"""Adversarial cases for Java programs with HumanEval-X style tests (``public class Main`` checking
a ``class Solution``; see :mod:`execir.execute.runtimes.java`).

Every attack is paired with a wrong answer (or none at all): only a broken oracle could label it
PASS. Controls are correct programs using ordinary Java idioms; they must PASS. Canary paths end in
``-java`` (the selftest looks for ``/tmp/execir-canary*``, ``/root/execir-canary*``,
``/work/execir-canary*`` on the host afterwards).
"""

from __future__ import annotations

from execir.execute.adversarial import CANARY_ENV, CANARY_PORT, Case, make_case
from execir.types import StdioCase, TestSuite, Verdict

F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS

IMPORTS = "import java.util.*;\nimport java.lang.*;\n"
ADD_TESTS = TestSuite(
    "native",
    IMPORTS
    + """
public class Main {
    public static void main(String[] args) {
        Solution s = new Solution();
        List<Boolean> correct = Arrays.asList(
                s.add(2, 3) == 5,
                s.add(-1, 1) == 0,
                s.add(10, 5) == 15
        );
        if (correct.contains(false)) {
            throw new AssertionError();
        }
    }
}
""",
)
LIST_TESTS = TestSuite(
    "native",
    IMPORTS
    + """
public class Main {
    public static void main(String[] args) {
        Solution s = new Solution();
        List<Boolean> correct = Arrays.asList(
                Objects.equals(s.evens(new ArrayList<>(Arrays.asList(1, 2, 3, 4))), Arrays.asList(2, 4)),
                s.evens(new ArrayList<>(List.of(7, 8))).equals(List.of(8)),
                Objects.equals(s.evens(new ArrayList<>(List.of(5))), List.of())
        );
        if (correct.contains(false)) {
            throw new AssertionError();
        }
    }
}
""",
)
SET_TESTS = TestSuite(
    "native",
    IMPORTS
    + """
public class Main {
    public static void main(String[] args) {
        Solution s = new Solution();
        if (!s.unique(Arrays.asList(3, 1, 3, 2)).equals(Set.of(1, 2, 3))) {
            throw new AssertionError();
        }
        if (!s.unique(Arrays.asList(5, 5)).equals(Set.of(5))) {
            throw new AssertionError();
        }
    }
}
""",
)
OBJECT_TESTS = TestSuite(
    "native",
    IMPORTS
    + """
public class Main {
    public static void main(String[] args) {
        Solution s = new Solution();
        if (!Objects.equals(s.larger(1, 2), Optional.of(2))) {
            throw new AssertionError();
        }
        if (!Objects.equals(s.larger(3, 3), Optional.empty())) {
            throw new AssertionError();
        }
    }
}
""",
)
QUALIFIED_TESTS = TestSuite(
    "native",
    """
public class Main {
    public static void main(String[] args) {
        Solution s = new Solution();
        if (!java.util.Objects.equals(s.add(2, 3), 5)) {
            throw new java.lang.AssertionError();
        }
    }
}
""",
)
WRONG_ADD = "    public int add(int a, int b) { return a - b; }\n"
RIGHT_ADD = "    public int add(int a, int b) { return a + b; }\n"


def _solution(members: str, header: str = IMPORTS, after: str = "") -> str:
    return f"{header}\nclass Solution {{\n{members}}}\n{after}"


def _wrong_with(members: str, after: str = "") -> str:
    """A wrong ``add`` beside attack code (members of ``Solution``; ``after``: more top-level types)."""
    return _solution(members + WRONG_ADD, after=after)


def _right_if(condition: str, helpers: str = "") -> str:
    """``add`` is right only if ``condition`` (the attack succeeded) holds: a PASS means it did."""
    return _solution(
        helpers + "    public int add(int a, int b) {\n"
        "        boolean ok = false;\n"
        f"        try {{ ok = {condition}; }} catch (Throwable t) {{ ok = false; }}\n"
        "        return ok ? a + b : a - b;\n"
        "    }\n",
        header=IMPORTS + "import java.io.*;\nimport java.net.*;\nimport java.nio.file.*;\n",
    )


def _case(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = ADD_TESTS) -> Case:
    return make_case(f"java_{name}", category, program, expected, tests, entry_point="", language="java")


UNSAFE_FD3 = """
    static java.io.FileOutputStream fd3() throws Exception {
        java.lang.reflect.Field u = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        u.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) u.get(null);
        java.io.FileDescriptor fd = new java.io.FileDescriptor();
        unsafe.putInt(fd, unsafe.objectFieldOffset(java.io.FileDescriptor.class.getDeclaredField("fd")), 3);
        return new java.io.FileOutputStream(fd);
    }
"""
"""The runner's own way to write to fd 3 (the socket cannot be opened through /proc/self/fd/3)."""

CASES: tuple[Case, ...] = (
    # ---- exit: ending the JVM early with status 0 ------------------------------------------------
    _case("static_init_exit0", "exit", _wrong_with("    static { System.exit(0); }\n"), F),
    _case("halt0_in_method", "exit", _solution("    public int add(int a, int b) { Runtime.getRuntime().halt(0); return 0; }\n"), F),
    _case("exit0_in_method", "exit", _solution("    public int add(int a, int b) { System.exit(0); return 0; }\n"), F),
    _case(
        "shutdown_hook_halt0",
        "exit",
        _solution(
            "    static { Runtime.getRuntime().addShutdownHook(new Thread(() -> Runtime.getRuntime().halt(0))); }\n"
            "    public int add(int a, int b) { if (a == 10) System.exit(1); return a + b; }\n"
        ),
        F,
    ),
    _case(
        "thread_exit0_during_tests",
        "exit",
        _solution(
            "    static { new Thread(() -> { try { Thread.sleep(30); } catch (InterruptedException e) { } System.exit(0); }).start(); }\n"
            "    public int add(int a, int b) { try { Thread.sleep(40); } catch (InterruptedException e) { } return a - b; }\n"
        ),
        {F, T},
    ),
    _case(
        "uncaught_handler_halt0",
        "exit",
        _wrong_with("    static { Thread.setDefaultUncaughtExceptionHandler((t, e) -> Runtime.getRuntime().halt(0)); }\n"),
        F,
    ),
    _case(
        "daemon_thread_outlives_main",
        "exit",
        _wrong_with(
            "    static { Thread t = new Thread(() -> { try { Thread.sleep(200); } catch (InterruptedException e) { } System.exit(0); });"
            " t.setDaemon(true); t.start(); }\n"
        ),
        F,
    ),
    _case(
        "non_daemon_thread_keeps_jvm",
        "exit",
        _wrong_with("    static { new Thread(() -> { while (true) { try { Thread.sleep(1000); } catch (InterruptedException e) { } } }).start(); }\n"),
        {F, T},
    ),
    _case("security_manager", "exit", _wrong_with("    static { System.setSecurityManager(new SecurityManager()); }\n"), F),
    # ---- tamper: weakening the checks -----------------------------------------------------------
    _case(
        "shadow_assertion_error",
        "tamper",
        _solution(WRONG_ADD, after="class AssertionError extends RuntimeException { AssertionError() { super(); Runtime.getRuntime().halt(0); } }\n"),
        {F, E},
    ),
    _case(
        "shadow_arrays",
        "tamper",
        _solution(
            WRONG_ADD,
            after="class Arrays { @SafeVarargs static <T> List<T> asList(T... a) { return new ArrayList<>(); } }\n",
        ),
        {F, E},
    ),
    _case(
        "shadow_objects",
        "tamper",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) { return new Liar(); }\n",
            after="class Objects { static boolean equals(Object a, Object b) { return true; } }\n"
            "class Liar extends ArrayList<Integer> { public boolean equals(Object o) { return true; } }\n",
        ),
        {F, E},
        LIST_TESTS,
    ),
    _case(
        "obscure_java_package",
        "tamper",
        _solution(
            WRONG_ADD,
            header="",
            after="class java {\n"
            "    static class util { static class Objects { static boolean equals(Object a, Object b) { return true; } } }\n"
            "    static class lang { static class AssertionError extends RuntimeException { } }\n"
            "}\n",
        ),
        {F, E},
        QUALIFIED_TESTS,
    ),
    _case(
        "equals_override_list",
        "tamper",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) {\n"
            "        return new ArrayList<Integer>() { public boolean equals(Object o) { return true; } public int hashCode() { return 0; } };\n"
            "    }\n"
        ),
        F,
        LIST_TESTS,
    ),
    _case(
        "equals_override_custom_list",
        "tamper",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) { return new Liar(); }\n",
            after="class Liar extends AbstractList<Integer> {\n"
            "    public Integer get(int i) { return 0; }\n"
            "    public int size() { return 0; }\n"
            "    public boolean equals(Object o) { return true; }\n"
            "}\n",
        ),
        F,
        LIST_TESTS,
    ),
    _case(
        "equals_override_object",
        "tamper",
        _solution(
            "    public Optional<Object> larger(int a, int b) { return Optional.of(new Object() { public boolean equals(Object o) { return true; } }); }\n"
        ),
        F,
        OBJECT_TESTS,
    ),
    _case(
        "comparator_all_equal",
        "tamper",
        _solution(
            "    public Set<Integer> unique(List<Integer> xs) {\n"
            "        boolean[] lie = {false};\n"
            "        Set<Integer> s = new TreeSet<>((x, y) -> lie[0] ? 0 : Integer.compare(x, y));\n"
            "        for (int i = 0; i < new HashSet<>(xs).size(); i++) s.add(100 + i);\n"
            "        lie[0] = true;\n"
            "        return s;\n"
            "    }\n"
        ),
        F,
        SET_TESTS,
    ),
    _case(
        "list_mutated_by_thread",
        "tamper",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) {\n"
            "        List<Integer> out = new ArrayList<>(List.of(-1));\n"
            "        List<Integer> want = new ArrayList<>();\n"
            "        for (int x : xs) if (x % 2 == 0) want.add(x);\n"
            "        Thread t = new Thread(() -> { try { Thread.sleep(0, 1); } catch (InterruptedException e) { } out.clear(); out.addAll(want); });\n"
            "        t.setDaemon(true); t.start();\n"
            "        return out;\n"
            "    }\n"
        ),
        F,
        LIST_TESTS,
    ),
    _case(
        "reflection_boolean_false",
        "tamper",
        _right_if(
            "set(Boolean.FALSE)",
            "    static boolean set(Boolean b) throws Exception {\n"
            '        java.lang.reflect.Field f = Boolean.class.getDeclaredField("value");\n'
            "        f.setAccessible(true);\n"
            "        f.set(b, true);\n"
            "        return true;\n"
            "    }\n",
        ),
        F,
    ),
    _case(
        "reflection_on_tests_and_runner",
        "tamper",
        _wrong_with(
            "    static {\n"
            '        for (String name : new String[] {"Main", "execir.Runner", "execir.Boundary"}) {\n'
            "            try {\n"
            "                for (java.lang.reflect.Field f : Class.forName(name).getDeclaredFields()) {\n"
            "                    try { f.setAccessible(true); f.set(null, null); } catch (Throwable t) { }\n"
            "                }\n"
            "            } catch (Throwable t) { }\n"
            "        }\n"
            "    }\n"
        ),
        F,
    ),
    _case(
        "overwrite_trusted_classes",
        "tamper",
        _wrong_with(
            "    static {\n"
            '        for (String f : new String[] {"execir/Boundary.class", "execir/Runner.class", "Main.class"}) {\n'
            "            try { java.nio.file.Files.write(java.nio.file.Paths.get(f), new byte[] {1, 2, 3}); } catch (Exception e) { }\n"
            "        }\n"
            "    }\n"
        ),
        F,
    ),
    _case("defines_main", "tamper", _solution(RIGHT_ADD, after="class Main { public static void main(String[] a) { } }\n"), E),
    _case("package_execir", "tamper", "package execir;\n" + _solution(WRONG_ADD), E),
    # ---- forged_output: the completion record ---------------------------------------------------
    _case(
        "fd3_garbage_record",
        "forged_output",
        _wrong_with(UNSAFE_FD3 + '    static { try { fd3().write("PASS\\ndone\\n".getBytes()); } catch (Exception e) { } Runtime.getRuntime().halt(0); }\n'),
        F,
    ),
    _case(
        "fd3_env_nonce",
        "forged_output",
        _wrong_with(
            UNSAFE_FD3 + "    static {\n"
            "        try {\n"
            '            String n = System.getenv("EXECIR_NONCE");\n'
            '            if (n == null) n = new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(".execir-nonce"))).trim();\n'
            '            fd3().write((n + "\\n").getBytes());\n'
            "        } catch (Exception e) { }\n"
            "        Runtime.getRuntime().halt(0);\n"
            "    }\n"
        ),
        F,
    ),
    _case(
        "fd3_proc_environ",
        "forged_output",
        _wrong_with(
            UNSAFE_FD3 + "    static {\n"
            "        try {\n"
            '            for (String kv : new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("/proc/self/environ"))).split("\\0")) {\n'
            '                if (kv.startsWith("EXECIR_NONCE=")) fd3().write((kv.substring(13) + "\\n").getBytes());\n'
            "            }\n"
            "        } catch (Exception e) { }\n"
            "        Runtime.getRuntime().halt(0);\n"
            "    }\n"
        ),
        F,
    ),
    _case(
        "fd3_nonce_early_then_fail",
        "forged_output",
        _wrong_with(
            UNSAFE_FD3 + "    static {\n"
            "        try {\n"
            '            byte[] all = java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("/proc/self/cmdline"));\n'
            "            fd3().write(all);\n"
            "        } catch (Exception e) { }\n"
            "    }\n"
        ),
        F,
    ),
    # ---- resources ------------------------------------------------------------------------------
    _case(
        "thread_bomb",
        "resources",
        _wrong_with(
            "    static { bomb(); }\n"
            "    static void bomb() { while (true) { Thread t = new Thread(() -> { try { Thread.sleep(100000); } catch (InterruptedException e) { } });"
            " t.setDaemon(true); t.start(); } }\n"
        ),
        {F, T},
    ),
    _case(
        "memory_bomb",
        "resources",
        _wrong_with("    static { bomb(); }\n    static void bomb() { List<long[]> keep = new ArrayList<>(); while (true) keep.add(new long[1 << 20]); }\n"),
        {F, T},
    ),
    _case(
        "direct_memory_bomb",
        "resources",
        _wrong_with(
            "    static { bomb(); }\n"
            "    static void bomb() { List<Object> keep = new ArrayList<>(); while (true) keep.add(java.nio.ByteBuffer.allocateDirect(64 << 20)); }\n"
        ),
        {F, T},
    ),
    _case(
        "output_flood",
        "resources",
        _wrong_with('    static { bomb(); }\n    static void bomb() { String s = "x".repeat(1 << 16); while (true) System.out.print(s); }\n'),
        {F, T},
    ),
    _case("infinite_loop", "time", _solution("    public int add(int a, int b) { while (true) { } }\n"), T),
    # ---- isolation ------------------------------------------------------------------------------
    _case("network_connect", "isolation", _right_if(f'new Socket("127.0.0.1", {CANARY_PORT}).isConnected()'), F),
    _case("read_root", "isolation", _right_if('Files.list(Paths.get("/root")).count() >= 0'), F),
    _case("read_canary_env", "isolation", _right_if(f'System.getenv("{CANARY_ENV}") != null'), F),
    _case(
        "write_outside_workdir",
        "isolation",
        _right_if(
            'Files.write(Paths.get("/tmp/execir-canary-java"), new byte[] {1}) != null'
            ' & Files.write(Paths.get("/root/execir-canary-java"), new byte[] {1}) != null'
            ' & Files.write(Paths.get("/work/execir-canary-java"), new byte[] {1}) != null'
        ),
        F,
    ),
    # ---- controls: correct programs that must PASS ----------------------------------------------
    _case("control_add", "control", _solution(RIGHT_ADD), P),
    _case(
        "control_collections",
        "control",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) {\n"
            "        Map<Integer, Integer> seen = new TreeMap<>();\n"
            "        Deque<Integer> stack = new ArrayDeque<>();\n"
            "        for (int x : xs) { seen.merge(x, 1, Integer::sum); if (x % 2 == 0) stack.addLast(x); }\n"
            "        List<Integer> out = new LinkedList<>(stack);\n"
            "        return Collections.unmodifiableList(out);\n"
            "    }\n"
        ),
        P,
        LIST_TESTS,
    ),
    _case(
        "control_streams",
        "control",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) { return xs.stream().filter(x -> x % 2 == 0).collect(Collectors.toList()); }\n",
            header=IMPORTS + "import java.util.stream.*;\n",
        ),
        P,
        LIST_TESTS,
    ),
    _case(
        "control_recursion_records",
        "control",
        _solution(
            "    record Key(int a, int b) { }\n"
            "    private final Map<Key, Integer> memo = new HashMap<>();\n"
            "    public int add(int a, int b) {\n"
            "        if (b == 0) return a;\n"
            "        Key k = new Key(a, b);\n"
            "        Integer hit = memo.get(k);\n"
            "        if (hit != null) return hit;\n"
            "        int r = b > 0 ? add(a + 1, b - 1) : add(a - 1, b + 1);\n"
            "        memo.put(k, r);\n"
            "        return r;\n"
            "    }\n"
        ),
        P,
    ),
    _case(
        "control_stringbuilder_unicode",
        "control",
        _solution(
            "    public int add(int a, int b) {\n"
            '        StringBuilder sb = new StringBuilder("é✓");\n'
            "        sb.reverse();\n"
            '        System.out.println("sum " + sb + " " + (a + b));\n'
            "        return sb.length() == 2 ? a + b : 0;\n"
            "    }\n"
        ),
        P,
    ),
    _case(
        "control_helpers_comparator_threads",
        "control",
        _solution(
            "    public Set<Integer> unique(List<Integer> xs) {\n"
            "        List<Integer> sorted = new ArrayList<>(xs);\n"
            "        sorted.sort(new Comparator<Integer>() { public int compare(Integer x, Integer y) { return Integer.compare(y, x); } });\n"
            "        Set<Integer> out = new TreeSet<>(Comparator.reverseOrder());\n"
            "        Thread t = new Thread(() -> out.addAll(sorted));\n"
            "        t.start();\n"
            "        try { t.join(); } catch (InterruptedException e) { throw new IllegalStateException(e); }\n"
            "        new Thread(() -> { try { Thread.sleep(60000); } catch (InterruptedException e) { } }).start();\n"
            "        return new Pair(out, 0).first;\n"
            "    }\n",
            after="class Pair {\n"
            "    final Set<Integer> first; final int second;\n"
            "    Pair(Set<Integer> f, int s) { first = f; second = s; }\n"
            "    @Override public boolean equals(Object o) { return o instanceof Pair && ((Pair) o).first.equals(first); }\n"
            "    @Override public int hashCode() { return first.hashCode(); }\n"
            "}\n"
            "class Stack { }\n",
        ),
        P,
        SET_TESTS,
    ),
    _case(
        "control_optional_object",
        "control",
        _solution("    public Optional<Object> larger(int a, int b) { return a == b ? Optional.empty() : Optional.of(Math.max(a, b)); }\n"),
        P,
        OBJECT_TESTS,
    ),
    # ---- stdio ------------------------------------------------------------------------------------
    Case(
        "java_stdio_correct",
        "control",
        "import java.util.*;\npublic class Main {\n    public static void main(String[] args) {\n"
        "        Scanner in = new Scanner(System.in);\n        long a = in.nextLong(), b = in.nextLong();\n"
        "        System.out.print(a + b);\n        System.out.println();\n    }\n}\n",
        TestSuite("stdio", stdio_cases=(StdioCase("3 4\n", "7\n"), StdioCase("10 20\n", "30\n"))),
        frozenset({P}),
        entry_point="",
        language="java",
    ),
    Case(
        "java_stdio_wrong",
        "stdio",
        "public class Sum {\n    public static void main(String[] args) throws Exception {\n"
        "        java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));\n"
        '        String[] p = r.readLine().trim().split(" ");\n'
        "        System.out.print(Long.parseLong(p[0]) - Long.parseLong(p[1]));\n        System.out.print('\\n');\n        System.exit(0);\n    }\n}\n",
        TestSuite("stdio", stdio_cases=(StdioCase("3 4\n", "7\n"), StdioCase("10 20\n", "30\n"))),
        frozenset({F}),
        entry_point="",
        language="java",
    ),
)
"""Java attacks (never PASS) and controls (always PASS)."""
