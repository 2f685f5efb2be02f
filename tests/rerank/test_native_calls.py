"""Call examples of JavaScript and C++ queries: reading them, writing them as native tests, real runs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from execir.dataset.spec import get_spec
from execir.execute import OracleConfig
from execir.rerank.base import RerankRequest
from execir.rerank.execution.examples import extract_examples
from execir.rerank.execution.exec_plan import plan_runs
from execir.rerank.execution.native_calls import native_suite
from execir.rerank.execution.reranker import ExecReranker

JS_QUERY = """Check if any two numbers are closer to each other than the threshold.
>>> hasCloseElements([1.0, 2.0, 3.0], 0.5)
false
>>> hasCloseElements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)
true
"""
CPP_QUERY = """Insert a number 'delimeter' between every two consecutive elements of input vector `numbers'
>>> intersperse({}, 4)
{}
>>> intersperse({1, 1, 2}, 4)
{1, 4, 1, 4, 2}
"""


# ---- reading ------------------------------------------------------------------------------------


def test_js_constants_are_read_as_values() -> None:
    found = extract_examples(JS_QUERY + ">>> longest([])\nnull\n>>> longest(['a', 'bb'])\n'bb'\n", "js")
    assert found.language == "js"
    assert [e.expected for e in found.calls if e.entry_point == "hasCloseElements"] == ["False", "True"]
    python = extract_examples(JS_QUERY)  # read as Python, `false` is a name: skipped
    assert python.calls == () and python.skipped == 2


def test_cpp_brace_lists_keep_order_and_duplicates() -> None:
    found = extract_examples(CPP_QUERY, "cpp")
    assert [(e.call, e.expected) for e in found.calls] == [("intersperse({}, 4)", "{}"), ("intersperse({1, 1, 2}, 4)", "{1, 4, 1, 4, 2}")]
    assert extract_examples(CPP_QUERY).calls[1].expected == "{1, 2, 4}"  # read as Python values: a set


def test_native_expected_values_are_literals_only() -> None:
    found = extract_examples(">>> f(1)\nround(2.5)\n>>> f(2)\nx\n>>> f(3)\n[1, -2.5, 'a']\n", "js")
    assert [e.expected for e in found.calls] == ["[1, -2.5, 'a']"]
    assert found.skipped == 2


# ---- writing ------------------------------------------------------------------------------------


def _code(text: str, language: str) -> str:
    suite = native_suite(extract_examples(text, language).calls, language)
    assert suite is not None
    assert suite.suite.kind == "native"
    return suite.suite.code


def test_js_values() -> None:
    code = _code(">>> f((1, 2), {'a': [True, None]})\n-3\n>>> f('it\\'s \"x\"')\n(0, 1)\n", "js")
    assert 'execirSame(f([1, 2], {"a": [true, null]}), -3)' in code
    assert 'execirSame(f("it\'s \\"x\\""), [0, 1])' in code
    assert code.startswith("(() => {") and code.rstrip().endswith("})();")


def test_cpp_values() -> None:
    code = _code('>>> g({"a", "b"}, -1.5)\n"a?b\\\\"\n>>> g({}, 2)\ntrue\n', "cpp")
    assert 'execir_examples::text(g({"a", "b"}, -1.5), "a\\077b\\\\")' in code
    assert "execir_examples::same(g({}, 2), decltype(g({}, 2))(true))" in code
    assert "execir_examples::number(g(1), -2)" in _code(">>> g(1)\n-2\n", "cpp")
    assert "execir_examples::same(g(1), decltype(g(1)){{1, 2}, {}})" in _code(">>> g(1)\n{{1, 2}, {}}\n", "cpp")
    assert "int main()" in code


@pytest.mark.parametrize(
    ("text", "language"),
    [
        (">>> f(x=1)\n2\n", "js"),  # keyword argument
        (">>> round(f(1), 2)\n2\n", "js"),  # a value builtin around the call
        (">>> f({1: 2})\n2\n", "js"),  # an object key that is not a string
        (">>> f(1)\n{'a': 1}\n", "cpp"),  # a map literal needs its types
        (">>> f(1e999)\n2\n", "cpp"),  # not finite
    ],
)
def test_unwritable_examples_are_dropped(text: str, language: str) -> None:
    assert native_suite(extract_examples(text, language).calls, language) is None


def test_a_suite_counts_what_it_drops() -> None:
    suite = native_suite(extract_examples(">>> f(1)\n2\n>>> f(x=1)\n2\n", "js").calls, "js")
    assert suite is not None and (suite.written, suite.dropped) == (1, 1)
    assert native_suite(extract_examples(">>> f(1)\n2\n", "go").calls, "go") is None  # no writer


def test_plan_runs_examples_in_their_own_language_only() -> None:
    req = RerankRequest(
        queries={"q": JS_QUERY},
        candidates={"q": ("js", "py", "cpp")},
        documents={
            "js": "const hasCloseElements = () => false\n",
            "py": "def hasCloseElements(n, t):\n    return False\n",
            "cpp": "bool hasCloseElements(){ return false; }\n",
        },
        doc_language={"js": "js", "py": "python", "cpp": "cpp"},
        query_language={"q": "js"},
    )
    plan = plan_runs(req, {"q": extract_examples(JS_QUERY, "js")})
    assert [r.doc_id for r in plan.runs] == ["js"]
    assert plan.no_runner == {"python": 1, "cpp": 1}


def test_misnamed_examples_call_each_candidates_own_function() -> None:
    query = '>>> flip_case("Hello")\n"hELLO"\n'
    documents = {
        "canonical": "#include<string>\nusing namespace std;\nstring filp_case(string str){\n  return str;\n}\n",
        "other": "int add(int a, int b){\n  return a + b;\n}\n",
    }
    req = RerankRequest(
        queries={"q": query}, candidates={"q": tuple(documents)}, documents=documents, doc_language=dict.fromkeys(documents, "cpp"), query_language={"q": "cpp"}
    )
    plan = plan_runs(req, {"q": extract_examples(query, "cpp")})
    assert {r.doc_id: r.job.entry_point for r in plan.runs} == {"canonical": "filp_case", "other": "add"}
    assert 'execir_examples::text(filp_case("Hello"), "hELLO")' in plan.runs[0].job.tests.code
    assert plan.renamed == 2


# ---- real runs ------------------------------------------------------------------------------------


JS_PROGRAMS = {
    "correct": (
        "const hasCloseElements = (numbers, threshold) => {\n  for (let i = 0; i < numbers.length; i++)\n"
        "    for (let j = 0; j < numbers.length; j++)\n      if (i != j && Math.abs(numbers[i] - numbers[j]) < threshold) return true;\n"
        "  return false;\n}\n"
    ),
    "flipped": (
        "const hasCloseElements = (numbers, threshold) => {\n  for (let i = 0; i < numbers.length; i++)\n"
        "    for (let j = 0; j < numbers.length; j++)\n      if (i != j && Math.abs(numbers[i] - numbers[j]) > threshold) return true;\n"
        "  return false;\n}\n"
    ),
    "truthy": "const hasCloseElements = (numbers, threshold) => numbers.length > 5 ? 1 : 0;\n",  # 1/0 are not true/false
    "shadows": "const execirSame = () => true;\nconst hasCloseElements = () => 'no';\n",
    "exits": "const hasCloseElements = () => { process.exit(0); };\n",
}
AREA = "Area rounded to 2 decimals.\n>>> area(3, 4, 5)\n6.00\n>>> area(1, 1, 10)\n-1\n"
AREA_PROGRAMS = {
    "to_fixed": (
        "const area = (a, b, c) => {\n  if (a + b <= c) return -1;\n  const s = (a + b + c) / 2;\n"
        "  return Math.sqrt(s * (s - a) * (s - b) * (s - c)).toFixed(2);\n}\n"
    ),
    "wrong_text": "const area = (a, b, c) => a + b <= c ? -1 : 'six';\n",
}
CPP_PROGRAMS = {
    "correct": (
        "#include<vector>\nusing namespace std;\nvector<int> intersperse(vector<int> numbers, int delimeter){\n"
        "  vector<int> out;\n  for (size_t i = 0; i < numbers.size(); i++) { if (i > 0) out.push_back(delimeter); out.push_back(numbers[i]); }\n"
        "  return out;\n}\n"
    ),
    "trailing": (
        "#include<vector>\nusing namespace std;\nvector<int> intersperse(vector<int> numbers, int delimeter){\n"
        "  vector<int> out;\n  for (size_t i = 0; i < numbers.size(); i++) { out.push_back(numbers[i]); out.push_back(delimeter); }\n"
        "  return out;\n}\n"
    ),
    "no_assert": (
        "#define NDEBUG\n#define assert(x) (void)0\n#include<vector>\nusing namespace std;\n"
        "vector<int> intersperse(vector<int> numbers, int delimeter){ return numbers; }\n"
    ),
}
MEAN = "Mean.\n>>> mean({1.0, 2.0, 4.0})\n2.3333333\n"
MEAN_PROGRAMS = {
    "float": "#include<vector>\nfloat mean(std::vector<float> v){ float s = 0; for (float x : v) s += x; return s / v.size(); }\n",
    "int": "#include<vector>\nint mean(std::vector<float> v){ int s = 0; for (float x : v) s += x; return s / v.size(); }\n",
}


def _score(tmp_path: Path, queries: dict[str, str], programs: dict[str, dict[str, str]], language: str) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    documents = {f"{q}/{name}": text for q, group in programs.items() for name, text in group.items()}
    req = RerankRequest(
        queries=queries,
        candidates={q: tuple(f"{q}/{name}" for name in group) for q, group in programs.items()},
        documents=documents,
        doc_language=dict.fromkeys(documents, language),
        query_language=dict.fromkeys(queries, language),
    )
    reranker = ExecReranker(OracleConfig(workers=2, cache_path=tmp_path / "v.sqlite", progress=False), progress=False)
    reranker.use_task(get_spec("t2c-full"))
    scores = reranker.score(req)
    return {q: {d.split("/", 1)[1]: s for d, s in group.items()} for q, group in scores.items()}, reranker.stats().extra


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_js_candidates_run_on_their_query_examples(tmp_path: Path) -> None:
    scores, extra = _score(tmp_path, {"close": JS_QUERY, "area": AREA}, {"close": JS_PROGRAMS, "area": AREA_PROGRAMS}, "js")
    assert scores["close"] == {"correct": 1.0, "flipped": 0.0, "truthy": 0.0, "shadows": 0.0, "exits": 0.0}
    assert scores["area"] == {"to_fixed": 1.0, "wrong_text": 0.0}  # "6.00" is the number 6, as HumanEval-X's == has it
    assert extra["executed_js"] == 7 and extra["passing_js"] == 2


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_cpp_candidates_run_on_their_query_examples(tmp_path: Path) -> None:
    scores, extra = _score(tmp_path, {"inter": CPP_QUERY, "mean": MEAN}, {"inter": CPP_PROGRAMS, "mean": MEAN_PROGRAMS}, "cpp")
    assert scores["inter"] == {"correct": 1.0, "trailing": 0.0, "no_assert": 0.0}  # the program's NDEBUG/assert never reach the tests
    assert scores["mean"] == {"float": 1.0, "int": 0.0}  # a float within tolerance; the int 2 is not 2.33
    assert extra["executed_cpp"] == 5


def test_examples_named_only_in_a_comment_are_misnamed() -> None:
    query = "Increment.\n>>> incr_vector({1, 2})\n{2, 3}\n"
    program = (
        "/*\n>>> incr_vector({1, 2})\n{2, 3}\n*/\n#include<vector>\n"
        "std::vector<int> incr_list(std::vector<int> l){\n    for (int &x : l) x++;\n    return l;\n}\n"
    )
    request = RerankRequest(queries={"q": query}, candidates={"q": ("a",)}, documents={"a": program}, doc_language={"a": "cpp"}, query_language={"q": "cpp"})
    plan = plan_runs(request, {"q": extract_examples(query, "cpp")})
    assert plan.renamed == 1 and "incr_list({1, 2})" in plan.runs[0].job.tests.code


# ---- Ruby ---------------------------------------------------------------------------------------

RUBY_QUERY = """##
# Write a function to count each word.
#
# irb> count_words("a b a")
# => {"a" => 2, "b" => 1}
# irb> mean([1, 2, 4])
# => 2.3333333
# irb> count_words("")
# => {}
def count_words(text)
"""


def test_ruby_session_examples_are_read() -> None:
    found = extract_examples(RUBY_QUERY, "ruby")
    assert [(e.call, e.expected) for e in found.calls] == [("count_words('a b a')", "{'a': 2, 'b': 1}"), ("count_words('')", "{}")]
    assert found.skipped == 1  # mean: another function
    code = _code(RUBY_QUERY, "ruby")
    assert 'unless execir_same.call(count_words("a b a"), {"a" => 2, "b" => 1})' in code
    assert native_suite(extract_examples('# irb> f("#{x}")\n# => 1\n', "ruby").calls, "ruby") is not None
    heading = "# Counting\nCount each word.\nirb> count_words('a')\n=> {'a' => 1}\n"  # a query text: one `#` line is no comment block
    assert [e.call for e in extract_examples(heading, "ruby").calls] == ["count_words('a')"]


RUBY_PROGRAMS = {
    "correct": "def count_words(text)\n  counts = {}\n  text.split.each { |w| counts[w] = (counts[w] || 0) + 1 }\n  counts\nend\n",
    "ones": "def count_words(text)\n  counts = {}\n  text.split.each { |w| counts[w] = 1 }\n  counts\nend\n",
    "forged": (
        "class Liar\n  def ==(o) true end\n  def is_a?(k) true end\n  def class() Hash end\n  def length() 2 end\nend\ndef count_words(text)\n  Liar.new\nend\n"
    ),
    "exits": "def count_words(text)\n  exit!(0)\nend\n",
}


@pytest.mark.skipif(shutil.which("ruby") is None, reason="ruby not installed")
def test_ruby_candidates_run_on_their_query_examples(tmp_path: Path) -> None:
    scores, extra = _score(tmp_path, {"count": RUBY_QUERY}, {"count": RUBY_PROGRAMS}, "ruby")
    assert scores["count"] == {"correct": 1.0, "ones": 0.0, "forged": 0.0, "exits": 0.0}  # a lying object is never asked
    assert extra["executed_ruby"] == 4
