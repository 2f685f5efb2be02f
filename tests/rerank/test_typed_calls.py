"""Call examples of Go and Java queries: reading their value syntax, candidates' signatures, writing
typed native tests, and real runs (go, javac)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from execir.dataset.spec import get_spec
from execir.execute import OracleConfig
from execir.rerank.base import RerankRequest
from execir.rerank.execution.examples import extract_examples
from execir.rerank.execution.exec_plan import main_function, plan_runs
from execir.rerank.execution.reranker import ExecReranker
from execir.rerank.execution.source_values import go_values, java_values
from execir.rerank.execution.typed_calls import Signature, signature, typed_suite

GO_QUERY = """// Check if any two numbers are closer to each other than the threshold.
// >>> HasCloseElements([]float64{1.0, 2.0, 3.0}, 0.5)
// false
// >>> HasCloseElements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)
// true
func HasCloseElements(numbers []float64, threshold float64) bool {
"""
JAVA_QUERY = """import java.util.*;

class Solution {
    /**
    Out of a list of strings, return the longest one (empty when the list is).
    >>> longest(List.of())
    Optional.empty
    >>> longest(Arrays.asList("a", "bb", "ccc"))
    Optional[ccc]
     */
    public Optional<String> longest(List<String> strings) {
"""


# ---- reading ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("F([]float64{1.0, 2.0}, 0.5)", "F([1.0, 2.0], 0.5)"),
        ("F([][]int{{1, 2}, {3}}, [2]int{4, 5})", "F([[1, 2], [3]], [4, 5])"),
        ('F(map[string]int{"a": 1}, []interface{}{1, "x{"})', 'F({"a": 1}, [1, "x{"])'),
        ("F(['a', 'b'], []string{})", "F(['a', 'b'], [])"),
    ],
)
def test_go_values_drop_composite_literal_types(text: str, expected: str) -> None:
    assert go_values(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f(Arrays.asList(1.0, 2.0), 0.5)", "f([1.0, 2.0], 0.5)"),
        ("f(new ArrayList<>(List.of()), new ArrayList<>(Arrays.asList(3L, 4)))", "f([], [3, 4])"),
        ('f(new int[][]{{1, 2}, {3}}, "a(b")', 'f([[1, 2], [3]], "a(b")'),
        ("f(Optional.of(2.5f), Optional.empty())", "f(2.5, None)"),
        ("Optional[ccc]", "'ccc'"),
        ("Optional[3]", "3"),
        ("Optional.empty", "None"),
    ],
)
def test_java_values_drop_collection_syntax(text: str, expected: str) -> None:
    assert java_values(text) == expected


def test_go_examples_are_read_from_line_comments_only() -> None:
    found = extract_examples(GO_QUERY, "go")
    assert [(e.call, e.expected) for e in found.calls] == [
        ("HasCloseElements([1.0, 2.0, 3.0], 0.5)", "False"),
        ("HasCloseElements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)", "True"),
    ]


def test_go_documentation_without_comment_markers_reads_as_is() -> None:
    query = "Sort the numbers.\n>>> SortArray([]int{3, 1})\n[1, 3]\n"  # a dataset's query: the prompt's comment text
    assert [(e.call, e.expected) for e in extract_examples(query, "go").calls] == [("SortArray([3, 1])", "[1, 3]")]


def test_java_last_example_stops_at_the_end_of_the_comment() -> None:
    found = extract_examples(JAVA_QUERY, "java")
    assert [(e.call, e.expected) for e in found.calls] == [("longest([])", "None"), ("longest(['a', 'bb', 'ccc'])", "'ccc'")]
    assert found.skipped == 0


def test_a_doctest_before_a_closing_comment_keeps_its_expected_value() -> None:
    js = "/* Sum.\n  >>> add(1, 2)\n  3\n  */\nconst add = (a, b) => {\n"
    assert [(e.call, e.expected) for e in extract_examples(js, "js").calls] == [("add(1, 2)", "3")]


# ---- signatures ---------------------------------------------------------------------------------


def test_go_signatures() -> None:
    program = "package main\n\nfunc helper(x int) int { return x }\n\nfunc F(a, b int, s []string, m map[string] []int, rest ...float64) (int, interface{}) {\n"
    assert signature(program, "go", "F") == Signature(("int", "int", "[]string", "map[string][]int", "float64"), ("int", "interface{}"), True, "main")
    assert signature("func G(f func(int) int) int {\n", "go", "G") is None
    assert signature("func H() {\n", "go", "H") == Signature((), (), False, "main")
    assert signature(program, "go", "Missing") is None


def test_java_signatures() -> None:
    program = (
        "class Solution {\n    private int helper(int x) { return longest(null) == null ? 0 : x; }\n"
        "    public Map<String, Integer> histogram(final List<List<Integer>> grid, String... words) throws Exception {\n"
        "        return histogram(grid);\n    }\n}\n"
    )
    assert signature(program, "java", "histogram") == Signature(("List<List<Integer>>", "String"), ("Map<String,Integer>",), True)
    assert signature(program, "java", "longest") is None  # only called here, never declared


# ---- writing ------------------------------------------------------------------------------------


def _code(text: str, language: str, declared: Signature, read: str = "python") -> str:
    """The suite of ``text``'s examples (read in ``read``'s syntax) for a ``language`` candidate."""
    suite = typed_suite(extract_examples(text, read).calls, language, declared)
    assert suite is not None
    return suite.suite.code


def test_go_arguments_follow_the_declared_types() -> None:
    code = _code(GO_QUERY, "go", Signature(("[]float64", "float64"), ("bool",)), read="go")
    assert "HasCloseElements([]float64{1.0, 2.0, 3.0}, 0.5), false)" in code
    assert code.startswith("package main\n") and "func TestExecirExamples(t *testing.T)" in code
    ints = _code(">>> F([1, 2], 'ab')\n{'a': 1, 'a': 2}\n", "go", Signature(("[]int", "string"), ("map[string]int",)))
    assert 'F([]int{1, 2}, "ab"), map[interface{}]interface{}{"a": int64(2)})' in ints  # a repeated key keeps its last value


def test_go_several_results_compare_as_a_list() -> None:
    code = _code(">>> F(3)\n(1, 2)\n", "go", Signature(("int",), ("int", "int")))
    assert "func() interface{} { r0, r1 := F(3); return []interface{}{r0, r1} }()" in code


def test_java_map_arguments_are_typed_maps() -> None:
    code = _code(">>> f({'a': 1, 8: 'x'})\nTrue\n", "java", Signature(("Map<Object,Object>",), ("boolean",)))
    assert 's.f(Main.<Object, Object>execirTyped(new Object[]{"a", 1, 8, "x"})), Boolean.TRUE)' in code


def test_java_arguments_follow_the_declared_types() -> None:
    code = _code(">>> f([1, 2], 3, 'x', 2)\n[1.5, 'a']\n", "java", Signature(("List<Long>", "double", "char", "int"), ("List<Object>",)))
    assert (
        "s.f(new java.util.ArrayList<Long>(java.util.Arrays.<Long>asList(1L, 2L)), 3.0, 'x', 2), execirList(new Object[]{Double.valueOf(1.5), \"a\"})"
    ) in code


@pytest.mark.parametrize(
    ("example", "declared"),
    [
        (">>> F(2.5)\n1\n", Signature(("int",), ("int",))),  # a float for an int
        (">>> F('a')\n1\n", Signature(("[]int",), ("int",))),  # a string for a slice
        (">>> F(1, 2)\n1\n", Signature(("int",), ("int",))),  # argument count
        (">>> F(-1)\n1\n", Signature(("uint",), ("int",))),
        (">>> F(1)\n1\n", Signature(("Point",), ("int",))),  # a struct
        (">>> F(1)\n1\n", Signature(("int",), ())),  # no result
    ],
)
def test_go_unwritable_examples_are_dropped(example: str, declared: Signature) -> None:
    assert typed_suite(extract_examples(example).calls, "go", declared) is None


@pytest.mark.parametrize(
    ("example", "declared"),
    [
        (">>> f(2.5)\n1\n", Signature(("long",), ("int",))),
        (">>> f({'a': 1.5})\n1\n", Signature(("Map<String,Integer>",), ("int",))),  # a float for an Integer value
        (">>> f([1])\n1\n", Signature(("List<? extends Number>",), ("int",))),
        (">>> f(3000000000)\n1\n", Signature(("int",), ("int",))),  # out of range
        (">>> f(1)\n1\n", Signature(("int",), ("void",))),
    ],
)
def test_java_unwritable_examples_are_dropped(example: str, declared: Signature) -> None:
    assert typed_suite(extract_examples(example).calls, "java", declared) is None


def test_plan_counts_examples_no_candidate_can_type() -> None:
    query = "// >>> F(2.5)\n// 1\n// >>> F(2)\n// 1\nfunc F(x int) int {\n"
    request = RerankRequest(
        queries={"q": query},
        candidates={"q": ("a", "b")},
        documents={"a": "package main\nfunc F(x int) int { return 1 }\n", "b": "package main\nfunc Other() {}\n"},
        doc_language={"a": "go", "b": "go"},
        query_language={"q": "go"},
    )
    plan = plan_runs(request, {"q": extract_examples(query, "go")})
    assert [run.doc_id for run in plan.runs] == ["a"] and plan.unwritten == 1 and plan.without_entry_point == 1
    misnamed = query.replace("F(", "old_name(")  # no candidate names the examples' function: each runs them under its own
    plan = plan_runs(request, {"q": extract_examples(misnamed, "go")})
    assert [run.doc_id for run in plan.runs] == ["a"] and plan.renamed == 2 and plan.unwritten == 1  # Other() takes no argument


def test_examples_misnamed_in_a_comment_run_under_the_declared_function() -> None:
    query = "// >>> grade_equation([4.0, 3])\n// ['A+', 'B']\nfunc NumericalLetterGrade(grades []float64) []string {\n"
    program = "package main\n\n" + query + "\treturn nil\n}\n"  # the prompt's comment names grade_equation
    request = RerankRequest(queries={"q": query}, candidates={"q": ("a",)}, documents={"a": program}, doc_language={"a": "go"}, query_language={"q": "go"})
    plan = plan_runs(request, {"q": extract_examples(query, "go")})
    assert plan.renamed == 1 and "NumericalLetterGrade([]float64{4.0, 3.0})" in plan.runs[0].job.tests.code


def test_main_function_of_go_java_and_ruby() -> None:
    assert main_function("package main\nfunc helper() int { return 1 }\nfunc Solve(x int) int {\n\treturn helper()\n}\n", "go") == "Solve"
    java = "class Solution {\n    int helper(int x) { return x; }\n    public int solve(int x) {\n        return helper(x);\n    }\n}\n"
    assert main_function(java, "java") == "solve"
    # a method whose last block opens like a method (HumanEval-X's filenameCheck ends in `if (t > 3) {`)
    ends_in_if = (
        "class Solution {\n    public String check(String s) {\n        int t = s.length();\n"
        '        if (t > 3) {\n            return "No";\n        }\n        return "Yes";\n    }\n}\n'
    )
    assert main_function(ends_in_if, "java") == "check"
    assert main_function(ends_in_if.replace("if (t > 3)", "while (t > 3)"), "java") == "check"
    unindented_cpp = "int f(int x) {\nif (x > 3) {\nreturn 1;\n}\nreturn 0;\n}\n"  # every line opens at column 0
    assert main_function(unindented_cpp, "cpp") == "f"
    ruby = "def helper(x)\n  x\nend\n\ndef valid?(s)\n  def inner() 1 end\n  helper(s)\nend\n"
    assert main_function(ruby, "ruby") == "valid?"


# ---- real runs ----------------------------------------------------------------------------------


def _score(tmp_path: Path, query: str, programs: dict[str, str], language: str) -> dict[str, float]:
    request = RerankRequest(
        queries={"q": query},
        candidates={"q": tuple(programs)},
        documents=programs,
        doc_language=dict.fromkeys(programs, language),
        query_language={"q": language},
    )
    reranker = ExecReranker(OracleConfig(workers=2, cache_path=tmp_path / "v.sqlite", progress=False), progress=False)
    reranker.use_task(get_spec("t2c-full"))
    return reranker.score(request)["q"]


GO_PROGRAMS = {
    "correct": (
        'package main\n\nimport "math"\n\nfunc HasCloseElements(numbers []float64, threshold float64) bool {\n'
        "\tfor i := range numbers {\n\t\tfor j := range numbers {\n"
        "\t\t\tif i != j && math.Abs(numbers[i]-numbers[j]) < threshold {\n\t\t\t\treturn true\n\t\t\t}\n\t\t}\n\t}\n\treturn false\n}\n"
    ),
    "flipped": (
        'package main\n\nimport "math"\n\nfunc HasCloseElements(numbers []float64, threshold float64) bool {\n'
        "\tfor i := range numbers {\n\t\tfor j := range numbers {\n"
        "\t\t\tif i != j && math.Abs(numbers[i]-numbers[j]) > threshold {\n\t\t\t\treturn true\n\t\t\t}\n\t\t}\n\t}\n\treturn false\n}\n"
    ),
    "exits": 'package main\n\nimport "os"\n\nfunc HasCloseElements(numbers []float64, threshold float64) bool {\n\tos.Exit(0)\n\treturn false\n}\n',
}


HISTOGRAM = (
    "package main\n\nfunc Histogram(s string) map[rune]int {\n\tout := map[rune]int{}\n"
    "\tfor _, r := range s {\n\t\tif r != ' ' {\n\t\t\t%s\n\t\t}\n\t}\n\treturn out\n}\n"
)


@pytest.mark.skipif(shutil.which("go") is None, reason="go not installed")
def test_go_candidates_run_on_their_query_examples(tmp_path: Path) -> None:
    assert _score(tmp_path, GO_QUERY, GO_PROGRAMS, "go") == {"correct": 1.0, "flipped": 0.0, "exits": 0.0}
    histogram = "// >>> Histogram('a b b')\n// {'a': 1, 'b': 2}\n// >>> Mean([1, 2, 4])\n// 2.3333333\nfunc Histogram(s string) map[rune]int {\n"
    programs = {
        "runes": HISTOGRAM % "out[r]++",
        "ones": HISTOGRAM % "out[r] = 1",
    }
    assert _score(tmp_path, histogram, programs, "go") == {"runes": 1.0, "ones": 0.0}  # a rune key equals a one-letter string
    mean = "// >>> Mean([1, 2, 4])\n// 2.3333333\nfunc Mean(v []int) float64 {\n"
    means = {
        "float": "package main\n\nfunc Mean(v []int) float64 {\n\ts := 0\n\tfor _, x := range v {\n\t\ts += x\n\t}\n\treturn float64(s) / float64(len(v))\n}\n",
        "int": "package main\n\nfunc Mean(v []int) float64 {\n\ts := 0\n\tfor _, x := range v {\n\t\ts += x\n\t}\n\treturn float64(s / len(v))\n}\n",
    }
    assert _score(tmp_path, mean, means, "go") == {"float": 1.0, "int": 0.0}


JAVA_PROGRAMS = {
    "correct": (
        "import java.util.*;\n\nclass Solution {\n    public Optional<String> longest(List<String> strings) {\n"
        "        String best = null;\n        for (String s : strings) if (best == null || s.length() > best.length()) best = s;\n"
        "        return Optional.ofNullable(best);\n    }\n}\n"
    ),
    "shortest": (
        "import java.util.*;\n\nclass Solution {\n    public Optional<String> longest(List<String> strings) {\n"
        "        String best = null;\n        for (String s : strings) if (best == null || s.length() < best.length()) best = s;\n"
        "        return Optional.ofNullable(best);\n    }\n}\n"
    ),
    "exits": (
        "import java.util.*;\n\nclass Solution {\n    public Optional<String> longest(List<String> strings) {\n"
        "        System.exit(0);\n        return Optional.empty();\n    }\n}\n"
    ),
}


@pytest.mark.skipif(shutil.which("javac") is None, reason="javac not installed")
def test_java_candidates_run_on_their_query_examples(tmp_path: Path) -> None:
    assert _score(tmp_path, JAVA_QUERY, JAVA_PROGRAMS, "java") == {"correct": 1.0, "shortest": 0.0, "exits": 0.0}
    query = "/**\n >>> evenOdd(12)\n (4, 6)\n >>> mean(Arrays.asList(1, 2, 4))\n 2.3333333\n */\n"
    programs = {
        "array": "class Solution {\n    public int[] evenOdd(int n) {\n        return new int[]{4, n / 2};\n    }\n}\n",
        "wrong": "import java.util.*;\nclass Solution {\n    public List<Integer> evenOdd(int n) {\n        return Arrays.asList(4, 5);\n    }\n}\n",
    }
    assert _score(tmp_path, query, programs, "java") == {"array": 1.0, "wrong": 0.0}  # a tuple equals an int[] element by element
    keys = "/**\n >>> allKeysShort({'a': 'apple', 8: 'b'})\n false\n >>> allKeysShort({'a': 1})\n true\n */\n"
    maps = {
        "correct": (
            "import java.util.*;\nclass Solution {\n    public boolean allKeysShort(Map<Object, Object> dict) {\n"
            "        for (Object k : dict.keySet()) if (!(k instanceof String) || ((String) k).length() > 1) return false;\n"
            "        return true;\n    }\n}\n"
        ),
        "always": "import java.util.*;\nclass Solution {\n    public boolean allKeysShort(Map<Object, Object> dict) {\n        return true;\n    }\n}\n",
    }
    assert _score(tmp_path, keys, maps, "java") == {"correct": 1.0, "always": 0.0}
