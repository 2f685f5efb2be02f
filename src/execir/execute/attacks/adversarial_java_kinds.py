"""Java maps and sets rebuilt as the JDK class the candidate returned (the wire's ``"cls"``) where
the declared type admits it, and sorted ones with a case-insensitive comparator kept so: the tests'
``toString``, iteration order and lookups see what they would in one process.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, P = Verdict.FAIL, Verdict.PASS
IMPORTS = "import java.util.*;\n"


def _solution(members: str) -> str:
    return f"{IMPORTS}\nclass Solution {{\n{members}}}\n"


def _tests(body: str) -> TestSuite:
    lines = "".join(f"        {line}\n" for line in body.splitlines())
    return TestSuite(
        "native", f"{IMPORTS}\npublic class Main {{\n    public static void main(String[] args) {{\n        Solution s = new Solution();\n{lines}    }}\n}}\n"
    )


COUNTS_REF = _solution(
    "    public HashMap<String, Integer> counts(List<String> words) {\n        HashMap<String, Integer> m = new HashMap<>();\n"
    "        for (String w : words) m.merge(w, 1, Integer::sum);\n        return m;\n    }\n"
)
COUNTS_TESTS = _tests(
    'HashMap<String, Integer> m = s.counts(Arrays.asList("pear", "fig", "apple", "fig"));\n'
    'if (!m.toString().equals("{apple=1, pear=1, fig=2}")) throw new AssertionError(m.toString());'
)
WORDS_REF = _solution("    public HashSet<String> words(List<String> xs) {\n        return new HashSet<>(xs);\n    }\n")
WORDS_TESTS = _tests('if (!s.words(Arrays.asList("pear", "fig", "apple")).toString().equals("[apple, pear, fig]")) throw new AssertionError();')
INDEX_REF = _solution(
    "    public TreeMap<String, Integer> index(List<String> xs) {\n        TreeMap<String, Integer> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);\n"
    "        for (int i = 0; i < xs.size(); i++) m.putIfAbsent(xs.get(i), i);\n        return m;\n    }\n"
)
INDEX_TESTS = _tests(
    'TreeMap<String, Integer> m = s.index(Arrays.asList("Apple", "banana", "APPLE"));\n'
    'if (m.size() != 2 || m.get("APPLE") != 0 || m.get("BANANA") != 1 || !m.containsKey("apple")) throw new AssertionError();'
)
REFERENCES = {COUNTS_TESTS.code: ("counts", COUNTS_REF), WORDS_TESTS.code: ("words", WORDS_REF), INDEX_TESTS.code: ("index", INDEX_REF)}


def _case(name: str, category: str, program: str, expected: Verdict, tests: TestSuite) -> Case:
    entry, reference = REFERENCES[tests.code]
    return make_case(f"java_kind_{name}", category, program, expected, tests, entry_point=entry, language="java", reference=reference)


LINKED_COUNTS = COUNTS_REF.replace("HashMap<String, Integer> m = new HashMap<>()", "HashMap<String, Integer> m = new LinkedHashMap<>()")
LINKED_WORDS = WORDS_REF.replace("return new HashSet<>(xs);", "return new LinkedHashSet<>(xs);")
CASES: tuple[Case, ...] = (
    _case("linked_map_for_hash_map_to_string", "split", LINKED_COUNTS, F, COUNTS_TESTS),
    _case("linked_set_for_hash_set_to_string", "split", LINKED_WORDS, F, WORDS_TESTS),
    _case(
        "tree_map_for_hash_map_to_string",
        "split",
        COUNTS_REF.replace("m = new HashMap<>()", "m = new HashMap<>(new TreeMap<>())").replace(
            "return m;",
            "TreeMap<String, Integer> t = new TreeMap<>(Comparator.reverseOrder());\n        t.putAll(m);\n"
            "        HashMap<String, Integer> r = new LinkedHashMap<>(t);\n        return r;",
        ),
        F,
        COUNTS_TESTS,
    ),
    _case("case_sensitive_index", "split", INDEX_REF.replace("new TreeMap<>(String.CASE_INSENSITIVE_ORDER)", "new TreeMap<>()"), F, INDEX_TESTS),
    _case("case_insensitive_keeps_last", "split", INDEX_REF.replace("m.putIfAbsent(xs.get(i), i)", "m.put(xs.get(i), i)"), F, INDEX_TESTS),
    _case("control_hash_map", "control", COUNTS_REF, P, COUNTS_TESTS),
    _case(
        "control_hash_map_built_by_stream",
        "control",
        _solution(
            "    public HashMap<String, Integer> counts(List<String> words) {\n        HashMap<String, Integer> m = new HashMap<>();\n"
            "        words.stream().forEach(w -> m.put(w, m.getOrDefault(w, 0) + 1));\n        return m;\n    }\n"
        ),
        P,
        COUNTS_TESTS,
    ),
    _case("control_hash_set", "control", WORDS_REF, P, WORDS_TESTS),
    _case("control_case_insensitive_index", "control", INDEX_REF, P, INDEX_TESTS),
    _case(
        "control_case_insensitive_index_by_loop",
        "control",
        INDEX_REF.replace("m.putIfAbsent(xs.get(i), i)", "if (!m.containsKey(xs.get(i))) m.put(xs.get(i), i)"),
        P,
        INDEX_TESTS,
    ),
)
"""5 attacks and 5 controls, every one judged outside."""
