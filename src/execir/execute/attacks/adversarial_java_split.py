"""Java cases against the judged-outside protocol (:mod:`execir.execute.runtimes.java_split`): every
case carries the task's reference, so its tests run in a trusted judge and the program only answers
calls. Attacks aim at that design (forged result lines, fd 3 tricks, exits and hooks mid-calls,
values that break the decoder, candidate classes posing as JDK values, reflection into the caller,
state and threads across calls) and must never PASS; controls are the ordinary forms LLMs write
(comparators, streams, ``var``, records, helper and nested classes, imports, boxed and wider
returns, read-only lists) and must PASS, as they do when the tests are compiled with the program.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, T, P, E = Verdict.FAIL, Verdict.TIMEOUT, Verdict.PASS, Verdict.ERROR
IMPORTS = "import java.util.*;\nimport java.util.stream.*;\n"


def _solution(members: str, header: str = IMPORTS, after: str = "") -> str:
    return f"{header}\nclass Solution {{\n{members}}}\n{after}"


def _main(body: str) -> TestSuite:
    """HumanEval-X's test form: ``Main.main`` with a ``Solution s`` and throwing checks."""
    lines = "".join(f"        {line}\n" for line in body.splitlines())
    return TestSuite(
        "native", f"public class Main {{\n    public static void main(String[] args) {{\n        Solution s = new Solution();\n{lines}    }}\n}}\n"
    )


RIGHT_ADD = "    public int add(int a, int b) { return a + b; }\n"
WRONG_ADD = "    public int add(int a, int b) { return a - b; }\n"
ADD = _main(
    "if (s.add(2, 3) != 5 || s.add(-1, 1) != 0 || s.add(10, 5) != 15) throw new AssertionError();\n"
    "Random r = new Random(7);\nfor (int i = 0; i < 20; i++) { int a = r.nextInt(100), b = r.nextInt(100); if (s.add(a, b) != a + b) throw new "
    "AssertionError(); }"
)
ASSERTS = _main('assert s.add(2, 3) == 5;\nassert s.add(-4, 1) == -3 : "negative";')
EVENS_REF = (
    "    public List<Integer> evens(List<Integer> xs) {\n        List<Integer> out = new ArrayList<>();\n        for (int x : xs) if (x % 2 "
    "== 0) out.add(x);\n        return out;\n    }\n"
)
EVENS = _main(
    "if (!s.evens(new ArrayList<>(Arrays.asList(1, 2, 3, 4))).equals(Arrays.asList(2, 4))) throw new AssertionError();\n"
    "if (!s.evens(new ArrayList<>(List.of(7, 8))).equals(List.of(8)) || !s.evens(new ArrayList<>()).isEmpty()) throw new AssertionError();"
)
TOP_REF = (
    "    public PriorityQueue<Integer> top(List<Integer> xs) { PriorityQueue<Integer> q = new PriorityQueue<>(Collections.reverseOrder()); "
    "q.addAll(xs); return q; }\n"
)
TOP = _main(
    "PriorityQueue<Integer> q = s.top(Arrays.asList(3, 1, 4, 1, 5));\n"
    "if (q.size() != 5 || q.poll() != 5 || q.poll() != 4 || q.poll() != 3 || q.peek() != 1) throw new AssertionError();"
)
"""A priority queue returned with its order (HumanEval-X style): the tests poll it."""
LENGTHS_REF = (
    "    public TreeMap<String, Integer> lengths(List<String> words) {\n"
    "        TreeMap<String, Integer> m = new TreeMap<>(Comparator.comparing(String::length).thenComparing(Comparator.reverseOrder()));\n"
    "        for (String w : words) m.put(w, w.length());\n        return m;\n    }\n"
)
LENGTHS = _main(
    'TreeMap<String, Integer> m = s.lengths(Arrays.asList("ccc", "a", "bb", "b"));\n'
    'if (!m.firstKey().equals("b") || !m.lastKey().equals("ccc") || !new ArrayList<>(m.keySet()).equals(List.of("b", "a", "bb", "ccc"))) throw new '
    "AssertionError();\n"
    'if (!m.equals(Map.of("a", 1, "b", 1, "bb", 2, "ccc", 3))) throw new AssertionError();'
)
"""A sorted map with the program's own comparator: the tests read its order and its contents."""
ROOT_REF = '    public int root(int x) { if (x < 0) throw new IllegalArgumentException("negative"); return (int) Math.sqrt(x); }\n'
ROOT = _main(
    "if (s.root(16) != 4 || s.root(10) != 3) throw new AssertionError();\ntry { s.root(-1); throw new AssertionError(); } catch "
    "(IllegalArgumentException e) { }"
)
SORT_REF = "    public void sortInPlace(int[] a) { Arrays.sort(a); }\n"
SORT = _main("int[] a = {3, 1, 2};\ns.sortInPlace(a);\nif (!Arrays.equals(a, new int[] {1, 2, 3})) throw new AssertionError();")
MEAN_REF = "    public double mean(List<Double> xs) { double t = 0; for (double x : xs) t += x; return t / xs.size(); }\n"
MEAN = _main("double m = s.mean(Arrays.asList(1.0, 2.0, 4.5));\nif (!(Math.abs(m - 2.5) < 1e-9)) throw new AssertionError();")
"""Tests that reject NaN (``!(|x - want| < eps)``)."""

LONGER_REF = "    public String longer(String a, String b) { return a.length() >= b.length() ? a : b; }\n"
LONGER = _main('if (s.longer("ab", "c") != "ab" || s.longer("x", "yz") != "yz") throw new AssertionError();')
"""Strings compared by identity with literals (as HumanEval-X Java/137 does): an argument returned."""

INDIRECT = _main(
    "java.util.function.BinaryOperator<Integer> f = s::add;\n"
    "List<Integer> sums = Stream.of(1, 2, 3).map(x -> f.apply(x, x)).collect(Collectors.toList());\n"
    "Runnable check = () -> { if (!sums.equals(List.of(2, 4, 6))) throw new AssertionError(); };\n"
    "check.run();\nif (IntStream.range(0, 5).map(i -> s.add(i, 1)).sum() != 15) throw new AssertionError();"
)
"""The entry point called through a method reference, a lambda and a stream."""

REFERENCES = {
    INDIRECT.code: ("add", RIGHT_ADD),
    LONGER.code: ("longer", LONGER_REF),
    ADD.code: ("add", RIGHT_ADD),
    ASSERTS.code: ("add", RIGHT_ADD),
    EVENS.code: ("evens", EVENS_REF),
    TOP.code: ("top", TOP_REF),
    LENGTHS.code: ("lengths", LENGTHS_REF),
    ROOT.code: ("root", ROOT_REF),
    SORT.code: ("sortInPlace", SORT_REF),
    MEAN.code: ("mean", MEAN_REF),
}


def _case(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = ADD) -> Case:
    entry, members = REFERENCES[tests.code]
    return make_case(f"java_split_{name}", category, program, expected, tests, entry_point=entry, language="java", reference=_solution(members))


FD3 = """    static void forge(String... lines) {
        try {
            java.lang.reflect.Field u = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            u.setAccessible(true);
            sun.misc.Unsafe unsafe = (sun.misc.Unsafe) u.get(null);
            java.io.FileDescriptor fd = new java.io.FileDescriptor();
            unsafe.putInt(fd, unsafe.objectFieldOffset(java.io.FileDescriptor.class.getDeclaredField("fd")), 3);
            java.io.FileOutputStream out = new java.io.FileOutputStream(fd);
            for (String line : lines) out.write((line + "\\n").getBytes("UTF-8"));
            out.flush();
        } catch (Throwable t) { }
    }
"""
"""Writes lines to the run's fd 3 (where the caller writes the results)."""
FORGED_OK = '"{\\"ok\\":5}", "{\\"ok\\":0}", "{\\"ok\\":15}"'
"""The first three right answers of :data:`ADD`, forged without the call's arguments (the rest are wrong)."""

ATTACKS: tuple[Case, ...] = (
    _case("forge_results_static_init", "split", _solution(FD3 + f"    static {{ forge({FORGED_OK}); }}\n" + WRONG_ADD), F),
    _case(
        "forge_results_then_halt",
        "split",
        _solution(FD3 + f"    public int add(int a, int b) {{ forge({FORGED_OK}); Runtime.getRuntime().halt(0); return 0; }}\n"),
        F,
    ),
    _case(
        "forge_need_and_nonce_lines",
        "split",
        _solution(FD3 + '    static { forge("{\\"need\\":99}", "[1,2]", "00000000000000000000000000000000"); }\n' + WRONG_ADD),
        F,
    ),
    _case("forge_garbage_bytes_fd3", "split", _solution(FD3 + '    static { forge("\\u00ff\\ud800{\\"ok\\":"); }\n' + RIGHT_ADD.replace("a + b", "a * b")), F),
    _case(
        "exit0_after_first_call",
        "split",
        _solution("    static int n = 0;\n    public int add(int a, int b) { if (n++ == 1) System.exit(0); return a + b + (n > 3 ? 1 : 0); }\n"),
        F,
    ),
    _case(
        "halt0_mid_calls",
        "split",
        _solution("    static int n = 0;\n    public int add(int a, int b) { if (++n == 4) Runtime.getRuntime().halt(0); return a + b; }\n"),
        F,
    ),
    _case(
        "shutdown_hook_forges_rest",
        "split",
        _solution(
            FD3 + '    static int n = 0;\n    static { Runtime.getRuntime().addShutdownHook(new Thread(() -> forge("{\\"ok\\":1}"))); }\n'
            "    public int add(int a, int b) { if (++n == 3) System.exit(0); return a + b; }\n"
        ),
        F,
    ),
    _case(
        "thread_writes_fd3_during_calls",
        "split",
        _solution(
            FD3 + "    static { Thread t = new Thread(() -> { for (int i = 0; i < 200; i++) "
            'forge("{\\"ok\\":0}"); }); t.setDaemon(true); t.start(); }\n' + WRONG_ADD
        ),
        F,
    ),
    _case(
        "counter_right_only_first_calls", "split", _solution("    static int n = 0;\n    public int add(int a, int b) { return ++n <= 3 ? a + b : 0; }\n"), F
    ),
    _case(
        "non_daemon_thread_left_running",
        "split",
        _solution(
            "    static { new Thread(() -> { while (true) { try { Thread.sleep(1000); } catch (InterruptedException e) { } } }).start(); }\n" + WRONG_ADD
        ),
        F,
    ),
    _case(
        "huge_list_value",
        "split",
        _solution("    public List<Integer> evens(List<Integer> xs) { return new ArrayList<>(Collections.nCopies(30_000_000, 2)); }\n"),
        {F, T},
        EVENS,
    ),
    _case(
        "deep_nested_value",
        "split",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) { List<Object> l = new ArrayList<>(); for (int i = 0; i < 5000; i++) { List<Object> n = new "
            "ArrayList<>(); n.add(l); l = n; }\n"
            '        @SuppressWarnings("unchecked") List<Integer> out = (List<Integer>) (List<?>) l; return out; }\n'
        ),
        F,
        EVENS,
    ),
    _case(
        "cyclic_list_value",
        "split",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) { List<Object> l = new ArrayList<>(); l.add(l);\n"
            '        @SuppressWarnings("unchecked") List<Integer> out = (List<Integer>) (List<?>) l; return out; }\n'
        ),
        F,
        EVENS,
    ),
    _case(
        "list_subclass_equals_always",
        "split",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) { return new Liar(); }\n",
            after="class Liar extends ArrayList<Integer> { public boolean equals(Object o) { return true; } public int hashCode() { return 0; } public "
            'String toString() { return "[2, 4]"; } }\n',
        ),
        F,
        EVENS,
    ),
    _case(
        "infinite_lazy_list",
        "split",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) { return new AbstractList<Integer>() { public Integer get(int i) { return 2; } public int "
            "size() { return Integer.MAX_VALUE; } }; }\n"
        ),
        {F, T},
        EVENS,
    ),
    _case(
        "elements_of_own_class",
        "split",
        _solution(
            '    public List<Integer> evens(List<Integer> xs) { @SuppressWarnings("unchecked") List<Integer> l = (List<Integer>) (List<?>) new '
            "ArrayList<>(List.of(new Fake())); return l; }\n",
            after="class Fake { public boolean equals(Object o) { return true; } public int hashCode() { return 2; } public String toString() { return "
            '"2"; } }\n',
        ),
        F,
        EVENS,
    ),
    _case("nan_for_double", "split", _solution("    public double mean(List<Double> xs) { return Double.NaN; }\n"), F, MEAN),
    _case(
        "iterator_lies_after_encode",
        "split",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) { return new ArrayList<Integer>(List.of(-1)) { int reads = 0;\n"
            "        public Object[] toArray() { return reads++ == 0 ? new Object[] {-1} : super.toArray(); } }; }\n"
        ),
        F,
        EVENS,
    ),
    _case(
        "reflection_into_caller",
        "split",
        _solution(
            '    static { try { Class<?> c = Class.forName("execir.Channel"); Object ch = c.getMethod("open").invoke(null);\n'
            '        for (String l : new String[] {"{\\"ok\\":5}", "{\\"ok\\":0}"}) c.getMethod("line", String.class).invoke(ch, l);\n'
            '        java.lang.reflect.Field f = Class.forName("execir.Wire").getDeclaredField("MAX_DEPTH"); f.setAccessible(true); } catch '
            "(Throwable t) { } }\n" + WRONG_ADD
        ),
        F,
    ),
    _case(
        "shadow_jdk_exception_name",
        "split",
        _solution(
            "    public int root(int x) { if (x < 0) throw new IllegalArgumentException(); return x / 4; }\n",
            after="class IllegalArgumentException extends RuntimeException { }\n",
        ),
        F,
        ROOT,
    ),
    _case("throws_expected_everywhere", "split", _solution("    public int root(int x) { throw new IllegalArgumentException(); }\n"), F, ROOT),
    _case(
        "own_exception_not_jdk",
        "split",
        _solution(
            "    static class Boom extends RuntimeException { }\n    public int root(int x) { if (x < 0) throw new Boom(); return (int) Math.sqrt(x); }\n"
        ),
        F,
        ROOT,
    ),
    _case("null_for_int", "split", _solution("    public Integer add(int a, int b) { return a == 2 ? null : a + b; }\n"), F),
    _case(
        "files_for_the_judge",
        "split",
        _solution(
            '    static { for (String d : new String[] {".", "/tmp", "/dev/shm"}) try { java.nio.file.Files.writeString(java.nio.file.Paths.get(d, '
            '"execir_results.jsonl"),\n'
            '        "{\\"ok\\":5}\\n{\\"ok\\":0}\\n{\\"ok\\":15}\\n"); } catch (Throwable t) { } }\n' + WRONG_ADD
        ),
        F,
    ),
    _case(
        "rerun_caller_main",
        "split",
        _solution(
            "    static boolean again = true;\n    public int add(int a, int b) { if (again) { again = false; try { "
            'Class.forName("execir.Caller").getMethod("main", String[].class)'
            '.invoke(null, (Object) new String[] {"Solution", "add"}); } catch (Throwable t) { } } return a - b; }\n'
        ),
        {F, T},  # the second caller waits on the channel for a call the first has not answered
    ),
    _case("mutates_argument_not_result", "split", _solution("    public void sortInPlace(int[] a) { int[] c = a.clone(); Arrays.sort(c); }\n"), F, SORT),
    _case("mutates_argument_wrongly", "split", _solution("    public void sortInPlace(int[] a) { Arrays.sort(a); a[0] = 0; }\n"), F, SORT),
    _case("asserts_off_wrong_add", "split", _solution(WRONG_ADD), F, ASSERTS),
    _case("called_through_method_reference_wrong", "split", _solution(WRONG_ADD), F, INDIRECT),
    _case("overload_right_only_for_wider_types", "split", _solution(WRONG_ADD + "    public long add(long a, long b) { return a + b; }\n"), F),
)
"""Attacks on the judged-outside protocol (never PASS)."""

CONTROLS: tuple[Case, ...] = (
    _case(
        "control_priority_queue_comparator",
        "control",
        _solution(
            "    public PriorityQueue<Integer> top(List<Integer> xs) { PriorityQueue<Integer> q = new PriorityQueue<>((a, b) -> b - a); for (int x : xs) "
            "q.offer(x); return q; }\n"
        ),
        P,
        TOP,
    ),
    _case("control_priority_queue_reverse", "control", _solution(TOP_REF), P, TOP),
    _case(
        "control_treemap_comparator",
        "control",
        _solution(
            "    public TreeMap<String, Integer> lengths(List<String> words) {\n"
            "        TreeMap<String, Integer> m = new TreeMap<>((x, y) ->\n"
            "            x.length() != y.length() ? Integer.compare(x.length(), y.length()) : y.compareTo(x));\n"
            "        words.forEach(w -> m.put(w, w.length()));\n        return m;\n    }\n"
        ),
        P,
        LENGTHS,
    ),
    _case(
        "control_streams_collect",
        "control",
        _solution("    public List<Integer> evens(List<Integer> xs) { return xs.stream().filter(x -> x % 2 == 0).collect(Collectors.toList()); }\n"),
        P,
        EVENS,
    ),
    _case(
        "control_stream_to_list",
        "control",
        _solution("    public List<Integer> evens(List<Integer> xs) { return xs.stream().filter(x -> x % 2 == 0).toList(); }\n"),
        P,
        EVENS,
    ),
    _case(
        "control_var_locals",
        "control",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) { var out = new ArrayList<Integer>(); for (var x : xs) if (x % 2 == 0) out.add(x); return "
            "out; }\n"
        ),
        P,
        EVENS,
    ),
    _case(
        "control_record_helper",
        "control",
        _solution("    public int add(int a, int b) { return new Pair(a, b).sum(); }\n", after="record Pair(int a, int b) { int sum() { return a + b; } }\n"),
        P,
    ),
    _case(
        "control_helper_class",
        "control",
        _solution(
            "    public int add(int a, int b) { return MathUtil.plus(a, b); }\n", after="class MathUtil { static int plus(int a, int b) { return a + b; } }\n"
        ),
        P,
    ),
    _case(
        "control_static_nested_class",
        "control",
        _solution(
            "    static class Acc { int total; void put(int x) { total += x; } }\n    public int add(int a, int b) { Acc c = new Acc(); c.put(a); "
            "c.put(b); return c.total; }\n"
        ),
        P,
    ),
    _case("control_explicit_imports", "control", _solution(EVENS_REF, header="import java.util.List;\nimport java.util.ArrayList;\n"), P, EVENS),
    _case("control_integer_return", "control", _solution("    public Integer add(Integer a, Integer b) { return a + b; }\n"), P),
    _case("control_long_return", "control", _solution("    public long add(long a, long b) { return a + b; }\n"), P),
    _case("control_static_entry", "control", _solution("    public static int add(int a, int b) { return Integer.sum(a, b); }\n"), P),
    _case(
        "control_list_of",
        "control",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) { if (xs.size() == 2) return List.of(8); List<Integer> o = new ArrayList<>(); for (int x : "
            "xs) if (x % 2 == 0) o.add(x); return List.copyOf(o); }\n"
        ),
        P,
        EVENS,
    ),
    _case(
        "control_unmodifiable_list",
        "control",
        _solution(
            "    public List<Integer> evens(List<Integer> xs) { List<Integer> o = new LinkedList<>(); for (int x : xs) if ((x & 1) == 0) o.add(x); return "
            "Collections.unmodifiableList(o); }\n"
        ),
        P,
        EVENS,
    ),
    _case(
        "control_arrays_as_list",
        "control",
        _solution("    public List<Integer> evens(List<Integer> xs) { return Arrays.asList(xs.stream().filter(x -> x % 2 == 0).toArray(Integer[]::new)); }\n"),
        P,
        EVENS,
    ),
    _case(
        "control_recursive_entry",
        "control",
        _solution("    public int add(int a, int b) { return b == 0 ? a : b > 0 ? add(a + 1, b - 1) : add(a - 1, b + 1); }\n"),
        P,
    ),
    _case(
        "control_demo_main_in_solution",
        "control",
        _solution(RIGHT_ADD + "    public static void main(String[] args) { System.out.println(new Solution().add(2, 3)); }\n"),
        P,
    ),
    _case("control_asserts_right_add", "control", _solution(RIGHT_ADD), P, ASSERTS),
    _case(
        "control_returns_argument_string",
        "control",
        _solution("    public String longer(String a, String b) { return b.length() > a.length() ? b : a; }\n"),
        P,
        LONGER,
    ),
    _case("control_called_through_method_reference", "control", _solution(RIGHT_ADD), P, INDIRECT),
    _case("control_overloaded_entry", "control", _solution(RIGHT_ADD + "    public long add(long a, long b) { return a - b; }\n"), P),
    _case("control_varargs_entry", "control", _solution("    public int add(int... xs) { return IntStream.of(xs).sum(); }\n"), P),
    _case(
        "control_own_exception_subclass",
        "control",
        _solution(
            '    static class Negative extends IllegalArgumentException { Negative() { super("negative"); } }\n'
            "    public int root(int x) { if (x < 0) throw new Negative(); int r = 0; while ((r + 1) * (r + 1) <= x) r++; return r; }\n"
        ),
        P,
        ROOT,
    ),
    _case(
        "control_sort_in_place",
        "control",
        _solution("    public void sortInPlace(int[] a) { int[] c = Arrays.stream(a).sorted().toArray(); System.arraycopy(c, 0, a, 0, c.length); }\n"),
        P,
        SORT,
    ),
    _case(
        "control_double_stream_mean",
        "control",
        _solution("    public double mean(List<Double> xs) { return xs.stream().mapToDouble(Double::doubleValue).average().orElse(0); }\n"),
        P,
        MEAN,
    ),
    _case(
        "control_threads_and_static_state",
        "control",
        _solution(
            "    static final Map<String, Integer> memo = new HashMap<>();\n"
            '    public int add(int a, int b) { return memo.computeIfAbsent(a + "," + b, k -> { int[] r = new int[1]; Thread t = new Thread(() -> r[0] '
            "= a + b); t.start();\n"
            "        try { t.join(); } catch (InterruptedException e) { throw new IllegalStateException(e); } return r[0]; }); }\n"
        ),
        P,
    ),
)
"""Ordinary programs (always PASS)."""

CASES: tuple[Case, ...] = ATTACKS + CONTROLS
