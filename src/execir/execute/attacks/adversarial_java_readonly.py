"""Java collections that refuse changes, judged outside, both ways: a result the candidate returns
unmodifiable (``List.of``, ``Collections.unmodifiableList``, ``stream().toList()``) or fixed-size
(``Arrays.asList``) stays so for the tests, and an argument the tests pass that way stays so for the
candidate (the wire's ``"ro"``). Attacks change what one process would refuse to change; controls
read it, copy it, or change only what a fixed-size list allows.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, P = Verdict.FAIL, Verdict.PASS
IMPORTS = "import java.util.*;\nimport java.util.stream.*;\n"


def _solution(members: str) -> str:
    return f"{IMPORTS}\nclass Solution {{\n{members}}}\n"


def _tests(body: str) -> TestSuite:
    lines = "".join(f"        {line}\n" for line in body.splitlines())
    return TestSuite(
        "native", f"{IMPORTS}\npublic class Main {{\n    public static void main(String[] args) {{\n        Solution s = new Solution();\n{lines}    }}\n}}\n"
    )


EVENS_REF = _solution(
    "    public List<Integer> evens(List<Integer> xs) {\n        List<Integer> out = new ArrayList<>();\n"
    "        for (int x : xs) if (x % 2 == 0) out.add(x);\n        return out;\n    }\n"
)
EVENS_GROW = _tests("List<Integer> r = s.evens(new ArrayList<>(List.of(1, 2, 4)));\nr.add(6);\nif (!r.equals(List.of(2, 4, 6))) throw new AssertionError();")
EVENS_READ = _tests(
    "List<Integer> r = s.evens(new ArrayList<>(List.of(1, 2, 4)));\nif (!r.equals(Arrays.asList(2, 4)) || r.get(1) != 4) throw new AssertionError();"
)
SORTED_REF = _solution(
    "    public List<Integer> sorted(List<Integer> xs) {\n        List<Integer> c = new ArrayList<>(xs);\n"
    "        Collections.sort(c);\n        return c;\n    }\n"
)
SORTED_OF = _tests("if (!s.sorted(List.of(3, 1, 2)).equals(List.of(1, 2, 3))) throw new AssertionError();")
SORTED_AS_LIST = _tests("if (!s.sorted(Arrays.asList(3, 1, 2)).equals(List.of(1, 2, 3))) throw new AssertionError();")

REFERENCES = {EVENS_GROW.code: EVENS_REF, EVENS_READ.code: EVENS_REF, SORTED_OF.code: SORTED_REF, SORTED_AS_LIST.code: SORTED_REF}


def _case(name: str, category: str, program: str, expected: Verdict, tests: TestSuite) -> Case:
    entry = "evens" if REFERENCES[tests.code] is EVENS_REF else "sorted"
    return make_case(f"java_readonly_{name}", category, program, expected, tests, entry_point=entry, language="java", reference=REFERENCES[tests.code])


def _evens(result: str) -> str:
    return _solution(f"    public List<Integer> evens(List<Integer> xs) {{\n        return {result};\n    }}\n")


def _sorted(body: str) -> str:
    return _solution(f"    public List<Integer> sorted(List<Integer> xs) {{\n{body}    }}\n")


FILTERED = "xs.stream().filter(x -> x % 2 == 0)"
CASES: tuple[Case, ...] = (
    _case("list_of_result_grown", "split", _evens(f"List.copyOf({FILTERED}.collect(Collectors.toList()))"), F, EVENS_GROW),
    _case("stream_to_list_result_grown", "split", _evens(f"{FILTERED}.toList()"), F, EVENS_GROW),
    _case("unmodifiable_result_grown", "split", _evens(f"Collections.unmodifiableList({FILTERED}.collect(Collectors.toList()))"), F, EVENS_GROW),
    _case("as_list_result_grown", "split", _evens(f"Arrays.asList({FILTERED}.toArray(Integer[]::new))"), F, EVENS_GROW),
    _case("sorts_a_list_of_argument", "split", _sorted("        Collections.sort(xs);\n        return xs;\n"), F, SORTED_OF),
    _case(
        "grows_an_as_list_argument",
        "split",
        _sorted("        xs.add(0);\n        xs.remove(Integer.valueOf(0));\n        Collections.sort(xs);\n        return xs;\n"),
        F,
        SORTED_AS_LIST,
    ),
    _case("control_list_of_result_read", "control", _evens(f"List.copyOf({FILTERED}.collect(Collectors.toList()))"), P, EVENS_READ),
    _case("control_stream_to_list_read", "control", _evens(f"{FILTERED}.toList()"), P, EVENS_READ),
    _case(
        "control_copies_a_list_of_argument",
        "control",
        _sorted("        List<Integer> c = new ArrayList<>(xs);\n        c.sort(null);\n        return c;\n"),
        P,
        SORTED_OF,
    ),
    _case("control_sorts_an_as_list_argument_in_place", "control", _sorted("        Collections.sort(xs);\n        return xs;\n"), P, SORTED_AS_LIST),
    _case("control_modifiable_result_grown", "control", _evens(f"{FILTERED}.collect(Collectors.toCollection(ArrayList::new))"), P, EVENS_GROW),
)
"""6 attacks and 5 controls, every one judged outside."""
