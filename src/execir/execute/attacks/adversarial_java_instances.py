"""Java entry methods on instances, judged outside: the candidate's run calls a fresh instance of its
own wherever the tests made one (the recorder names the instance each call was made on), so a
``Solution`` with instance fields behaves as in one process. Controls keep state per instance and
are right when the tests make one instance per call, or use a memo that is right either way;
attacks keep state the tests can see (one shared instance, a static field, an instance used twice).
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, P = Verdict.FAIL, Verdict.PASS
IMPORTS = "import java.util.*;\n"
REFERENCE = (
    f"{IMPORTS}\nclass Solution {{\n    public List<Integer> upTo(int n) {{\n        List<Integer> out = new ArrayList<>();\n"
    "        for (int i = 0; i < n; i++) out.add(i);\n        return out;\n    }\n}\n"
)


def _tests(body: str) -> TestSuite:
    lines = "".join(f"        {line}\n" for line in body.splitlines())
    return TestSuite("native", f"public class Main {{\n    public static void main(String[] args) {{\n{lines}    }}\n}}\n")


def _check(receiver: str, n: int) -> str:
    return f"if (!{receiver}.upTo({n}).equals(Arrays.asList({', '.join(str(i) for i in range(n))}))) throw new AssertionError();"


FRESH = _tests("\n".join(_check("new Solution()", n) for n in (3, 2, 4, 1)))
SHARED = _tests("Solution s = new Solution();\n" + "\n".join(_check("s", n) for n in (3, 2, 4)))
PAIR_ONCE = _tests("Solution a = new Solution();\nSolution b = new Solution();\n" + _check("a", 2) + "\n" + _check("b", 3))
PAIR_TWICE = _tests("Solution a = new Solution();\nSolution b = new Solution();\n" + "\n".join((_check("a", 2), _check("b", 3), _check("a", 1))))
FRESH_THEN_TWICE = _tests(_check("new Solution()", 2) + "\nSolution s = new Solution();\n" + _check("s", 3) + "\n" + _check("s", 2))


def _solution(members: str) -> str:
    return f"{IMPORTS}\nclass Solution {{\n{members}}}\n"


ACCUMULATES = _solution(
    "    private final List<Integer> out = new ArrayList<>();\n    public List<Integer> upTo(int n) {\n"
    "        for (int i = 0; i < n; i++) out.add(i);\n        return out;\n    }\n"
)
ONCE = _solution(
    "    private int calls = 0;\n    public List<Integer> upTo(int n) {\n        List<Integer> out = new ArrayList<>();\n"
    "        for (int i = 0; i < n + calls; i++) out.add(i);\n        calls++;\n        return out;\n    }\n"
)
STATIC = _solution(
    "    private static final List<Integer> out = new ArrayList<>();\n    public List<Integer> upTo(int n) {\n"
    "        for (int i = 0; i < n; i++) out.add(i);\n        return new ArrayList<>(out);\n    }\n"
)
MEMO = _solution(
    "    private final Map<Integer, List<Integer>> memo = new HashMap<>();\n    public List<Integer> upTo(int n) {\n"
    "        return memo.computeIfAbsent(n, k -> { List<Integer> out = new ArrayList<>(); for (int i = 0; i < k; i++) out.add(i); return out; });\n"
    "    }\n"
)


def _case(name: str, category: str, program: str, expected: Verdict, tests: TestSuite) -> Case:
    return make_case(f"java_instance_{name}", category, program, expected, tests, entry_point="upTo", language="java", reference=REFERENCE)


CASES: tuple[Case, ...] = (
    _case("control_accumulates_fresh_instances", "control", ACCUMULATES, P, FRESH),
    _case("control_counts_calls_fresh_instances", "control", ONCE, P, FRESH),
    _case("control_counts_calls_two_instances_once_each", "control", ONCE, P, PAIR_ONCE),
    _case("control_memo_fresh_instances", "control", MEMO, P, FRESH),
    _case("control_memo_shared_instance", "control", MEMO, P, SHARED),
    _case("accumulates_shared_instance", "split", ACCUMULATES, F, SHARED),
    _case("counts_calls_shared_instance", "split", ONCE, F, SHARED),
    _case("counts_calls_instance_used_twice", "split", ONCE, F, PAIR_TWICE),
    _case("static_state_fresh_instances", "split", STATIC, F, FRESH),
    _case("accumulates_fresh_then_shared", "split", ACCUMULATES, F, FRESH_THEN_TWICE),
)
"""5 controls and 5 attacks, every one judged outside."""
