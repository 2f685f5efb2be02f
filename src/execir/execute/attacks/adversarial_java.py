"""Adversarial cases for Java programs with HumanEval-X style tests (``public class Main`` checking
a ``class Solution``; see :mod:`execir.execute.runtimes.java`).

Every attack is paired with a wrong answer (or none at all): only a broken oracle could label it
PASS. Controls are correct programs using ordinary Java idioms; they must PASS. Canary paths end in
``-java`` (the selftest looks for ``/tmp/execir-canary*``, ``/root/execir-canary*``,
``/work/execir-canary*`` on the host afterwards).
"""

from __future__ import annotations

from execir.execute.attacks import adversarial_wire_ahead
from execir.execute.attacks.adversarial import CANARY_ENV, CANARY_PORT, Case, make_case
from execir.execute.attacks.adversarial_java_instances import CASES as INSTANCE_CASES
from execir.execute.attacks.adversarial_java_kinds import CASES as KIND_CASES
from execir.execute.attacks.adversarial_java_readonly import CASES as READONLY_CASES
from execir.execute.attacks.adversarial_java_split import CASES as SPLIT_CASES
from execir.types import StdioCase, TestSuite, Verdict

F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS

IMPORTS = "import java.util.*;\nimport java.lang.*;\n"


def _checks(*checks: str, setup: str = "", imports: str = IMPORTS) -> TestSuite:
    """HumanEval-X's Java test form: ``Main.main`` builds a ``Solution``, runs ``setup`` (statements),
    collects the boolean ``checks`` and throws if any is false."""
    body = "".join(f"        {line}\n" for line in setup.splitlines())
    listed = ",\n".join("                " + check.replace("\n", "\n" + " " * 16) for check in checks)
    return TestSuite(
        "native",
        f"{imports}\npublic class Main {{\n    public static void main(String[] args) {{\n        Solution s = new Solution();\n{body}"
        f"        List<Boolean> correct = Arrays.asList(\n{listed}\n        );\n"
        "        if (correct.contains(false)) {\n            throw new AssertionError();\n        }\n    }\n}\n",
    )


ADD_TESTS = _checks(
    "s.add(2, 3) == 5",
    "s.add(-1, 1) == 0",
    "s.add(10, 5) == 15",
)
LIST_TESTS = _checks(
    "Objects.equals(s.evens(new ArrayList<>(Arrays.asList(1, 2, 3, 4))), Arrays.asList(2, 4))",
    "s.evens(new ArrayList<>(List.of(7, 8))).equals(List.of(8))",
    "Objects.equals(s.evens(new ArrayList<>(List.of(5))), List.of())",
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
CLOSE_TESTS = _checks(
    "s.hasCloseElements(new ArrayList<>(Arrays.asList(11.0, 2.0, 3.9, 4.0, 5.0, 2.2)), 0.3)",
    "!s.hasCloseElements(new ArrayList<>(Arrays.asList(1.0, 2.0, 3.9, 4.0, 5.0, 2.2)), 0.05)",
    "s.hasCloseElements(new ArrayList<>(Arrays.asList(1.0, 2.0, 5.9, 4.0, 5.0)), 0.95)",
    "!s.hasCloseElements(new ArrayList<>(Arrays.asList(1.0, 2.0, 5.9, 4.0, 5.0)), 0.8)",
    "s.hasCloseElements(new ArrayList<>(Arrays.asList(1.0, 2.0, 3.0, 4.0, 5.0, 2.0)), 0.1)",
    "s.hasCloseElements(new ArrayList<>(Arrays.asList(1.1, 2.2, 3.1, 4.1, 5.1)), 1.0)",
    "!s.hasCloseElements(new ArrayList<>(Arrays.asList(1.1, 2.2, 3.1, 4.1, 5.1)), 0.5)",
)
"""HumanEval-X's Java/0 (true/false answers: a program that learns them without computing can pass)."""
PREFIX_TESTS = _checks(
    's.filterByPrefix(new ArrayList<>(List.of()), "john").equals(List.of())',
    's.filterByPrefix(new ArrayList<>(Arrays.asList("xxx", "asd", "xxy", "john doe", "xxxAAA", "xxx")), "xxx")\n'
    '        .equals(Arrays.asList("xxx", "xxxAAA", "xxx"))',
)
"""HumanEval-X's Java/29 (a list of strings)."""
KINDS_TESTS = _checks(
    "vector.equals(List.of(0, 1))",
    "stack.peek() == 1 && stack.size() == 2",
    "deque.peekLast() == 1 && deque.size() == 2",
    "queue.poll() == 0 && queue.poll() == 1 && queue.isEmpty()",
    "descending.first() == 1 && descending.equals(Set.of(0, 1))",
    "sorted.firstKey() == 0 && sorted.equals(Map.of(0, 0, 1, 1))",
    "table.equals(Map.of(0, 0, 1, 1))",
    "concurrent.equals(Map.of(0, 0, 1, 1))",
    "cowSet.equals(Set.of(0, 1))",
    "new ArrayList<>(linked).equals(List.of(1, 0))",
    "nested.get(1).equals(List.of(0, 1))",
    setup=(
        "Vector<Integer> vector = s.vector(2);\n"
        "Stack<Integer> stack = s.stack(2);\n"
        "ArrayDeque<Integer> deque = s.deque(2);\n"
        "PriorityQueue<Integer> queue = s.queue(2);\n"
        "TreeSet<Integer> descending = s.descending(2);\n"
        "TreeMap<Integer, Integer> sorted = s.sorted(2);\n"
        "Hashtable<Integer, Integer> table = s.table(2);\n"
        "ConcurrentHashMap<Integer, Integer> concurrent = s.concurrent(2);\n"
        "CopyOnWriteArraySet<Integer> cowSet = s.cowSet(2);\n"
        "LinkedHashSet<Integer> linked = s.linked(2);\n"
        "HashMap<Integer, List<Integer>> nested = s.nested(2);\n"
    ),
    imports=IMPORTS + "import java.util.concurrent.*;\n",
)
"""Methods declared to return JDK collections narrower than ``List``/``Set``/``Map``: the boundary's
copy must keep a class the declaration accepts."""
KINDS = """    public Vector<Integer> vector(int n) { Vector<Integer> v = new Vector<>(); for (int i = 0; i < n; i++) v.add(i); return v; }
    public Stack<Integer> stack(int n) { Stack<Integer> v = new Stack<>(); for (int i = 0; i < n; i++) v.push(i); return v; }
    public ArrayDeque<Integer> deque(int n) { ArrayDeque<Integer> v = new ArrayDeque<>(); for (int i = 0; i < n; i++) v.addLast(i); return v; }
    public PriorityQueue<Integer> queue(int n) { PriorityQueue<Integer> v = new PriorityQueue<>(); for (int i = n - 1; i >= 0; i--) v.add(i); return v; }
    public TreeSet<Integer> descending(int n) { TreeSet<Integer> v = new TreeSet<>(Comparator.reverseOrder()); for (int i = 0; i < n; i++) v.add(i); return v; }
    public TreeMap<Integer, Integer> sorted(int n) { TreeMap<Integer, Integer> v = new TreeMap<>(); for (int i = n - 1; i >= 0; i--) v.put(i, i); return v; }
    public Hashtable<Integer, Integer> table(int n) { Hashtable<Integer, Integer> v = new Hashtable<>(); for (int i = 0; i < n; i++) v.put(i, i); return v; }
    public ConcurrentHashMap<Integer, Integer> concurrent(int n) { ConcurrentHashMap<Integer, Integer> v = new ConcurrentHashMap<>();
        for (int i = 0; i < n; i++) v.put(i, i); return v; }
    public CopyOnWriteArraySet<Integer> cowSet(int n) { CopyOnWriteArraySet<Integer> v = new CopyOnWriteArraySet<>();
        for (int i = 0; i < n; i++) v.add(i); return v; }
    public LinkedHashSet<Integer> linked(int n) { LinkedHashSet<Integer> v = new LinkedHashSet<>(); for (int i = n - 1; i >= 0; i--) v.add(i); return v; }
    public HashMap<Integer, List<Integer>> nested(int n) { HashMap<Integer, List<Integer>> v = new HashMap<>();
        v.put(1, new Vector<>(List.of(0, 1))); return v; }
"""
"""A correct Solution for :data:`KINDS_TESTS`."""
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


SUM_CASES = TestSuite("stdio", stdio_cases=(StdioCase("3\n1 2 3\n", "6\n"), StdioCase("2\n-5 5\n", "0\n")))
SUM_BODY = """    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int n = in.nextInt();
        long s = 0;
        for (int i = 0; i < n; i++) s += in.nextLong();
        System.out.println(s);
    }
"""
STDIO_CONTROLS = {
    # the red team's programs: the class to run is the top-level one declaring main, the file is named
    # after the top-level public class
    "nonpublic_solution_class": "import java.util.*;\n\nclass Solution {\n" + SUM_BODY + "}\n",
    "nonpublic_main_nested_public": "import java.util.*;\n\nclass Main {\n    public class Total {\n        long value;\n    }\n" + SUM_BODY + "}\n",
    "nested_public_class_first": "import java.util.*;\n\nclass Summer {\n    public class Total {\n        long value;\n    }\n}\n\n"
    "public class Main {\n" + SUM_BODY + "}\n",
    "public_helper_main_elsewhere": 'import java.util.*;\n\n/* public class Fake { */\npublic class Helper {\n    static String s = "class X {";\n}\n\n'
    "class Runner {\n" + SUM_BODY + "}\n",
    "main_in_comment": "import java.util.*;\n\n/* usage: the judge runs\n   public class Helper  (old name, kept for reference) */\npublic class Main {\n"
    + SUM_BODY
    + "}\n",
}
"""stdio programs whose main class is not simply the first ``public class`` line."""


REFERENCES: dict[str, tuple[str, str]] = {
    suite.code: (entry, _solution(members))
    for suite, entry, members in (
        (ADD_TESTS, "add", RIGHT_ADD),
        (QUALIFIED_TESTS, "add", RIGHT_ADD),
        (
            LIST_TESTS,
            "evens",
            "    public List<Integer> evens(List<Integer> xs) {\n"
            "        List<Integer> out = new ArrayList<>();\n        for (int x : xs) if (x % 2 == 0) out.add(x);\n        return out;\n    }\n",
        ),
        (SET_TESTS, "unique", "    public Set<Integer> unique(List<Integer> xs) { return new HashSet<>(xs); }\n"),
        (OBJECT_TESTS, "larger", "    public Optional<Integer> larger(int a, int b) { return a == b ? Optional.empty() : Optional.of(Math.max(a, b)); }\n"),
        (
            CLOSE_TESTS,
            "hasCloseElements",
            "    public boolean hasCloseElements(List<Double> numbers, double threshold) {\n"
            "        for (int i = 0; i < numbers.size(); i++)\n            for (int j = i + 1; j < numbers.size(); j++)\n"
            "                if (Math.abs(numbers.get(i) - numbers.get(j)) < threshold) return true;\n        return false;\n    }\n",
        ),
        (
            PREFIX_TESTS,
            "filterByPrefix",
            "    public List<String> filterByPrefix(List<String> strings, String prefix) {\n"
            "        List<String> out = new ArrayList<>();\n"
            "        for (String s : strings) if (s.startsWith(prefix)) out.add(s);\n        return out;\n    }\n",
        ),
    )
}
"""The task's trusted program and entry point per suite: cases with these tests are judged outside
the candidate's process. Suites that call several of the program's methods (:data:`KINDS_TESTS`)
have none and stay in-process."""


def _case(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = ADD_TESTS) -> Case:
    entry, reference = REFERENCES.get(tests.code, ("", ""))
    return make_case(f"java_{name}", category, program, expected, tests, entry_point=entry, language="java", reference=reference)


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
    # judged outside, the program compiles alone (its class is then not the tests' Solution: FAIL)
    _case("package_execir", "tamper", "package execir;\n" + _solution(WRONG_ADD), {F, E}),
    _case(
        "read_tests_source",
        "tamper",
        # the red team's program: the expected answers parsed out of the tests' source ('!' = false)
        IMPORTS.replace("import java.lang.*;\n", "") + "import java.nio.file.*;\nimport java.util.regex.*;\n\n"
        "class Solution {\n"
        "    static List<Boolean> answers = new ArrayList<>();\n"
        "    static int next = 0;\n"
        "    static {\n"
        "        try {\n"
        '            String src = new String(Files.readAllBytes(Paths.get("Main.java")));\n'
        '            Matcher m = Pattern.compile("(!?)(?:execirValue\\\\()?s\\\\.hasCloseElements").matcher(src);\n'
        "            while (m.find()) answers.add(m.group(1).isEmpty());\n"
        "        } catch (Exception e) { }\n"
        "    }\n"
        "    public boolean hasCloseElements(List<Double> numbers, double threshold) {\n"
        "        return answers.get(next++ % answers.size());\n"
        "    }\n"
        "}\n",
        {F, E},
        CLOSE_TESTS,
    ),
    _case(
        "tests_files_visible",
        "tamper",
        _right_if(
            'Files.exists(Paths.get("Main.java")) || Files.exists(Paths.get("Main.class"))'
            ' || ClassLoader.getSystemResource("Main.class") != null || Main.class.getResourceAsStream("Main.class") != null'
        ),
        F,
    ),
    _case(
        "rerun_main_search",
        "tamper",
        # the red team's program: Main.main re-run with every answer vector until one does not throw
        _solution(
            "    static boolean[] answers = new boolean[64];\n"
            "    static int calls = 0;\n"
            "    static boolean searching = false;\n"
            "    public boolean hasCloseElements(List<Double> numbers, double threshold) {\n"
            "        if (!searching && calls == 0) {\n"
            "            searching = true;\n"
            "            for (long mask = 0; mask < (1L << 20); mask++) {\n"
            "                for (int i = 0; i < 20; i++) answers[i] = ((mask >> i) & 1) == 1;\n"
            "                calls = 0;\n"
            "                try { Main.main(new String[0]); break; } catch (Throwable t) { }\n"
            "            }\n"
            "            searching = false;\n"
            "            calls = 0;\n"
            "        }\n"
            "        return answers[calls++];\n"
            "    }\n"
        ),
        {F, T},
        CLOSE_TESTS,
    ),
    _case(
        "rerun_main_from_static_init",
        "tamper",
        _wrong_with("    static { try { Main.main(new String[0]); } catch (Throwable t) { } }\n"),
        F,
    ),
    _case(
        "rerun_main_by_reflection",
        "tamper",
        _right_if(
            "rerun()",
            "    static boolean inner = false;\n"
            "    static boolean rerun() throws Exception {\n"
            "        if (inner) return true;\n"
            "        inner = true;\n"
            '        try { Class.forName("Main").getMethod("main", String[].class).invoke(null, (Object) new String[0]); } catch (Throwable t) { }\n'
            "        return true;\n"
            "    }\n",
        ),
        F,
    ),
    _case(
        "rerun_main_on_jdk_thread",
        "tamper",
        # Main.main run by a thread whose Runnable is a JDK proxy of a method handle: no candidate frame
        # on that thread's stack; the thread's outcome says whether this answer vector passes
        _solution(
            "    static boolean[] answers = new boolean[64];\n"
            "    static int calls = 0;\n"
            "    static boolean searching = false;\n"
            "    static boolean run() throws Throwable {\n"
            '        java.lang.invoke.MethodHandle mh = java.lang.invoke.MethodHandles.lookup().findStatic(Main.class, "main",\n'
            "            java.lang.invoke.MethodType.methodType(void.class, String[].class)).bindTo(new String[0]);\n"
            "        Runnable r = java.lang.invoke.MethodHandleProxies.asInterfaceInstance(Runnable.class, mh);\n"
            "        boolean[] failed = {false};\n"
            "        Thread t = new Thread(r);\n"
            "        t.setUncaughtExceptionHandler((th, e) -> failed[0] = true);\n"
            "        t.start(); t.join();\n"
            "        return !failed[0];\n"
            "    }\n"
            "    public boolean hasCloseElements(List<Double> numbers, double threshold) {\n"
            "        if (!searching && calls == 0) {\n"
            "            searching = true;\n"
            "            for (long mask = 0; mask < 128; mask++) {\n"
            "                for (int i = 0; i < 7; i++) answers[i] = ((mask >> i) & 1) == 1;\n"
            "                calls = 0;\n"
            "                try { if (run()) break; } catch (Throwable t) { }\n"
            "            }\n"
            "            calls = 0;\n"
            "        }\n"
            "        return answers[calls++ % 7];\n"
            "    }\n"
        ),
        {F, T},
        CLOSE_TESTS,
    ),
    _case(
        "vector_subclass_equals",
        "tamper",
        _solution(
            "    public Vector<String> filterByPrefix(List<String> strings, String prefix) { return new Liar(); }\n",
            after="class Liar extends Vector<String> { public boolean equals(Object o) { return true; } public int hashCode() { return 0; } }\n",
        ),
        F,
        PREFIX_TESTS,
    ),
    _case(
        "treeset_comparator_declared",
        "tamper",
        _solution(
            "    public TreeSet<Integer> unique(List<Integer> xs) {\n"
            "        boolean[] lie = {false};\n"
            "        TreeSet<Integer> s = new TreeSet<>((x, y) -> lie[0] ? 0 : Integer.compare(x, y));\n"
            "        for (int i = 0; i < new HashSet<>(xs).size(); i++) s.add(100 + i);\n"
            "        lie[0] = true;\n"
            "        return s;\n"
            "    }\n"
        ),
        F,
        SET_TESTS,
    ),
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
    _case(
        "control_vector_return",
        "control",
        _solution(
            "    public Vector<String> filterByPrefix(List<String> strings, String prefix) {\n"
            "        Vector<String> out = new Vector<>();\n"
            "        for (String s : strings) if (s.startsWith(prefix)) out.add(s);\n"
            "        return out;\n"
            "    }\n"
        ),
        P,
        PREFIX_TESTS,
    ),
    _case(
        "control_cow_list_return",
        "control",
        _solution(
            "    public CopyOnWriteArrayList<String> filterByPrefix(List<String> strings, String prefix) {\n"
            "        CopyOnWriteArrayList<String> out = new CopyOnWriteArrayList<>();\n"
            "        for (String s : strings) if (s.startsWith(prefix)) out.add(s);\n"
            "        return out;\n"
            "    }\n",
            header=IMPORTS + "import java.util.concurrent.CopyOnWriteArrayList;\n",
        ),
        P,
        PREFIX_TESTS,
    ),
    _case("control_narrow_collection_types", "control", _solution(KINDS, header=IMPORTS + "import java.util.concurrent.*;\n"), P, KINDS_TESTS),
    _case(
        "control_close_elements",
        "control",
        _solution(
            "    public boolean hasCloseElements(List<Double> numbers, double threshold) {\n"
            "        for (int i = 0; i < numbers.size(); i++)\n"
            "            for (int j = i + 1; j < numbers.size(); j++)\n"
            "                if (Math.abs(numbers.get(i) - numbers.get(j)) < threshold) return true;\n"
            "        return false;\n"
            "    }\n"
        ),
        P,
        CLOSE_TESTS,
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
    *(Case(f"java_stdio_{name}", "control", program, SUM_CASES, frozenset({P}), entry_point="", language="java") for name, program in STDIO_CONTROLS.items()),
    *SPLIT_CASES,
    *INSTANCE_CASES,
    *READONLY_CASES,
    *KIND_CASES,
)
"""Java attacks (never PASS) and controls (always PASS)."""
CASES += adversarial_wire_ahead.of_language("java")  # the wire's look-ahead cases
