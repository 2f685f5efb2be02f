"""The execution reranker: planning and scoring (pure), the judge's comparison, real oracle runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from execir.dataset.spec import get_spec
from execir.execute import ExecResult, OracleConfig
from execir.execute.decide import failed_by_tests
from execir.rerank.base import Reranker, RerankRequest
from execir.rerank.execution.agreement import agreement_scores, plan_probes
from execir.rerank.execution.examples import extract_examples
from execir.rerank.execution.exec_plan import SAME, call_suite, main_function, names_entry_point, plan_runs
from execir.rerank.execution.reranker import ExecReranker, scores_from
from execir.types import Verdict

ADD = "Add two numbers.\n>>> add(2, 3)\n5\n>>> add(0.1, 0.2)\n0.3\n>>> pair(1)\n(1, 1)\n>>> pair(2)\n(2, 2)\n"
"""Two functions: ``pair`` is named twice, like ``add``; the first one (``add``) wins the tie."""

PROGRAMS = {
    "correct": "def add(a, b):\n    return a + b\n",
    "off_by_one": "def add(a, b):\n    return a + b + 1\n",
    "magic_eq": "class Anything:\n    def __eq__(self, other):\n        return True\n\n\ndef add(a, b):\n    return Anything()\n",
    "exit_0": "import os\n\n\ndef add(a, b):\n    os._exit(0)\n",
    "sys_exit": "import sys\n\n\ndef add(a, b):\n    sys.exit(0)\n",
    "prints_true": "def add(a, b):\n    print(True)\n",
    "patches_builtins": (
        "import builtins\n\nbuiltins.isinstance = lambda *a: True\nbuiltins.AssertionError = type('Never', (Exception,), {})\n\n\n"
        "def add(a, b):\n    return 0\n"
    ),
    "no_entry_point": "def plus(a, b):\n    return a + b\n",
    "syntax_error": "def add(a, b)\n    return a + b\n",
}
SUM = "Print the sum of A and B.\n\nSample Input 1\n\n1 2\n\nSample Output 1\n\n3\n\nSample Input 2\n\n2 5\n\nSample Output 2\n\n7\n"
STDIO = {
    "stdio_correct": "a, b = map(int, input().split())\nprint(a + b, end='  \\n')\n",
    "stdio_float": "a, b = map(int, input().split())\nprint(float(a + b))\n",
    "stdio_wrong": "a, b = map(int, input().split())\nprint(a * b - 1)\n",
}
FORMATS = "Stats.\n>>> stats([1.0, 2.0])\n(1.5, {'b': 2, 'a': 1}, [0.1, 0.3])\n"
FORMAT_PROGRAMS = {
    "format_ok": "def stats(xs):\n    return (sum(xs) / len(xs), {'a': 1, 'b': 2}, [0.1, 0.1 + 0.2])\n",
    "format_list": "def stats(xs):\n    return [sum(xs) / len(xs), {'a': 1, 'b': 2}, [0.1, 0.1 + 0.2]]\n",
}


def request(**extra: object) -> RerankRequest:
    documents = {**PROGRAMS, **STDIO, **FORMAT_PROGRAMS}
    return RerankRequest(
        queries={"add": ADD, "sum": SUM, "formats": FORMATS, "none": "Reverse a string."},
        candidates={"add": tuple(PROGRAMS), "sum": tuple(STDIO), "formats": tuple(FORMAT_PROGRAMS), "none": ("correct",)},
        documents=documents,
        **extra,  # type: ignore[arg-type]
    )


# ---- pure ---------------------------------------------------------------------------------------


def judge_same(got: object, expected: object) -> bool:
    namespace: dict[str, object] = {}
    exec(SAME, namespace)  # the helper the judge runs, on plain values
    return bool(namespace["_execir_same"](got, expected))  # type: ignore[operator]


@pytest.mark.parametrize(
    ("got", "expected", "same"),
    [
        (0.1 + 0.2, 0.3, True),
        (1e-12, 0.0, True),
        (1.0001, 1.0, False),
        (3, 3.0, True),
        ((1, 2), (1, 2), True),
        ([1, 2], (1, 2), False),  # as Python ==
        ((1, 2), [1, 2], False),
        ([0.30000000000000004, [0.1]], [0.3, [0.1]], True),
        ({"a": [0.1 + 0.2]}, {"a": [0.3]}, True),
        ({"a": 1}, {"a": 1, "b": 2}, False),
        ({1, 2}, {2, 1}, True),
        ("abc", "abc ", False),
        (None, None, True),
        (True, 1, True),
        ([1], [1, 2], False),
    ],
)
def test_judge_comparison(got: object, expected: object, same: bool) -> None:
    assert judge_same(got, expected) is same


def test_call_suite_is_judged_outside() -> None:
    suite = call_suite(extract_examples(ADD))
    assert suite.kind == "asserts"
    assert suite.asserts == ("assert _execir_same(add(2, 3), 5)", "assert _execir_same(add(0.1, 0.2), 0.3)")


def test_plan_skips_text_documents_and_languages_without_runner() -> None:
    req = request(doc_language={"correct": "js"})
    examples = {q: extract_examples(t) for q, t in req.queries.items()}
    plan = plan_runs(req, examples)
    assert plan.no_runner == {"js": 1}  # examples read as Python run Python candidates only
    assert ("add", "correct") not in {(r.query_id, r.doc_id) for r in plan.runs}
    assert ("none", "correct") not in {(r.query_id, r.doc_id) for r in plan.runs}  # no examples: not run
    text_plan = plan_runs(req, examples, programs=False)
    assert text_plan.runs == ()
    assert text_plan.not_programs == sum(len(c) for c in req.candidates.values())


@pytest.mark.parametrize(
    ("program", "named"),
    [
        ("def add(a, b):\n    return a + b\n", True),
        ("add = lambda a, b: a + b\n", True),
        ("def add_one(x):\n    return x + 1\n", False),  # a longer identifier is not the name
        ("def subtract(a, b):\n    return a - b  # adds nothing\n", False),
    ],
)
def test_entry_point_must_be_named(program: str, named: bool) -> None:
    assert names_entry_point(program, "add") is named


def test_plan_does_not_run_programs_that_never_name_the_entry_point() -> None:
    req = RerankRequest(
        queries={"q": ">>> add(1, 2)\n3"},
        candidates={"q": ("defines", "other")},
        documents={"defines": "def add(a, b):\n    return a + b\n", "other": "def mul(a, b):\n    return a * b\n"},
    )
    plan = plan_runs(req, {"q": extract_examples(req.queries["q"])})
    assert [r.doc_id for r in plan.runs] == ["defines"]
    assert plan.without_entry_point == 1
    assert scores_from(req, (), ()) == {"q": {"defines": 0.0, "other": 0.0}}


def test_misnamed_examples_run_each_candidate_under_its_own_function() -> None:
    """No candidate names the function the examples call: the examples misname it."""
    req = RerankRequest(
        queries={"q": "assert list_sort([3, 1]) => [1, 3]"},
        candidates={"q": ("helper_last", "other", "text")},
        documents={
            "helper_last": "def key(x):\n    return x\n\n\ndef sorted_list(xs):\n    return sorted(xs, key=key)\n",
            "other": "def reverse(xs):\n    return xs[::-1]\n",
            "text": "not a program (",
        },
    )
    plan = plan_runs(req, {"q": extract_examples(req.queries["q"])})
    assert {r.doc_id: r.job.entry_point for r in plan.runs} == {"helper_last": "sorted_list", "other": "reverse"}
    assert plan.runs[0].job.tests.asserts == ("assert _execir_same(sorted_list([3, 1]), [1, 3])",)
    assert (plan.renamed, plan.without_entry_point) == (2, 1)


@pytest.mark.parametrize(
    ("program", "name"),
    [
        ("def a():\n    pass\n\n\ndef b():\n    pass\n", "b"),
        ("class C:\n    def m(self):\n        pass\n", None),
        ("async def go():\n    pass\n", "go"),
        ("def f(:\n", None),
        ("def _execir_same(x):\n    pass\n", None),
    ],
)
def test_main_function(program: str, name: str | None) -> None:
    assert main_function(program) == name


@pytest.mark.parametrize(
    ("program", "language", "name"),
    [
        (
            "#include<string>\nusing namespace std;\nbool helper(int x){\n  return x;\n}\nstring filp_case(string str){\n  if (str.empty()) {\n"
            "    return str;\n  }\n  while (true) {\n  }\n}\n",
            "cpp",
            "filp_case",
        ),
        ("const helper = (x) => x\nfunction sortedSum(lst) {\n  for (const x of lst) {\n  }\n  return lst\n}\n", "js", "sortedSum"),
        ("const sortedSum = (lst) => {\n  if (lst) {\n    return 1\n  }\n}\n", "js", "sortedSum"),
        ("int x = 1;\n", "cpp", None),
    ],
)
def test_main_function_of_native_programs(program: str, language: str, name: str | None) -> None:
    assert main_function(program, language) == name


def result(verdict: Verdict, detail: str, per_test: tuple[bool, ...] | None) -> ExecResult:
    return ExecResult(verdict, 0.01, 0.01, per_test, detail, "", "none")


@pytest.mark.parametrize(
    ("verdict", "detail", "decided"),
    [
        (Verdict.FAIL, "proxy judge: 1/2 tests failed: AssertionError: ", True),
        (Verdict.FAIL, "stdio: case 2: wrong answer", True),
        (Verdict.FAIL, "cpp stdio: case 1: exit status 1", True),
        (Verdict.FAIL, "proxy judge: protocol violation: candidate wrote to the channel before being called", False),
        (Verdict.FAIL, "proxy judge: exit status 3", False),
        (Verdict.TIMEOUT, "stdio: case 2: timeout", False),
        (Verdict.PASS, "proxy judge: 2 tests passed, 2 calls", False),
    ],
)
def test_failed_by_tests(verdict: Verdict, detail: str, decided: bool) -> None:
    assert failed_by_tests(verdict, detail) is decided


def test_partial_credit_only_for_failures_the_tests_decided() -> None:
    req = RerankRequest(
        queries={"q": ">>> add(1, 2)\n3\n>>> add(2, 2)\n4"},
        candidates={"q": ("a", "b", "c", "d")},
        documents=dict.fromkeys("abcd", "def add(a, b):\n    pass\n"),
    )
    runs = plan_runs(req, {"q": extract_examples(req.queries["q"])}).runs
    results = [
        result(Verdict.PASS, "proxy judge: 2 tests passed, 2 calls", (True, True)),
        result(Verdict.FAIL, "proxy judge: 1/2 tests failed: AssertionError: ", (True, False)),
        result(Verdict.FAIL, "proxy judge: protocol violation: forged record", (True, True)),
        result(Verdict.TIMEOUT, "proxy judge: timeout", None),
    ]
    assert scores_from(req, runs, results, partial=True) == {"q": {"a": 1.0, "b": 0.5, "c": 0.0, "d": 0.0}}
    assert scores_from(req, runs, results) == {"q": {"a": 1.0, "b": 0.0, "c": 0.0, "d": 0.0}}


def test_agreement_puts_the_largest_group_first() -> None:
    req = RerankRequest(
        queries={"q": ">>> add(1, 2)\n3", "alone": ">>> neg(1)\n-1"},
        candidates={"q": ("m1", "c1", "c2", "m2", "bad", "fails"), "alone": ("n",)},
        documents={**dict.fromkeys(("m1", "c1", "c2", "m2", "bad", "fails"), "def add(a, b):\n    pass\n"), "n": "def neg(x):\n    pass\n"},
    )
    examples = {q: extract_examples(t) for q, t in req.queries.items()}
    runs = plan_runs(req, examples).runs
    passed = result(Verdict.PASS, "proxy judge: 1 tests passed, 1 calls", (True,))
    results = [passed] * 5 + [result(Verdict.FAIL, "proxy judge: 1/1 tests failed: ", (False,)), passed]
    probes = plan_probes(runs, results, examples)
    assert [p.doc_id for p in probes] == ["m1", "c1", "c2", "m2", "bad"]  # one passing candidate: nothing to agree on
    width = len(probes[0].job.tests.asserts)
    right, wrong = (True,) * width, (False,) * width
    probed = [
        result(Verdict.FAIL, f"proxy judge: {width}/{width} tests failed: ", wrong),
        result(Verdict.PASS, "", right),
        result(Verdict.PASS, "", right),
        result(Verdict.FAIL, "proxy judge: 1/2 tests failed: ", right[:-1] + (False,)),
        result(Verdict.FAIL, "proxy judge: protocol violation: forged", right),
    ]
    scores = agreement_scores(probes, probed)["q"]
    assert scores == {"c1": 1 + 2 / 6, "c2": 1 + 2 / 6, "m1": 1 + 1 / 6, "m2": 1 + 1 / 6, "bad": 1 + 1 / 6}  # "bad" agrees with nobody


def test_scores_cover_every_candidate_without_runs() -> None:
    req = request()
    scores = scores_from(req, (), ())
    assert {q: set(s) for q, s in scores.items()} == {q: set(c) for q, c in req.candidates.items()}
    assert all(v == 0.0 for s in scores.values() for v in s.values())


def test_c2t_documents_are_never_run() -> None:
    reranker = ExecReranker(OracleConfig(progress=False), progress=False)
    assert isinstance(reranker, Reranker)
    reranker.use_task(get_spec("c2t"))
    scores = reranker.score(request())
    assert all(v == 0.0 for s in scores.values() for v in s.values())
    extra = reranker.stats().extra
    assert extra["candidates_executed"] == 0
    assert extra["candidates_not_programs"] == len(PROGRAMS) + len(STDIO) + len(FORMAT_PROGRAMS) + 1


# ---- real oracle --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, dict[str, float]], ExecReranker]:
    cache = tmp_path_factory.mktemp("exec") / "verdicts.sqlite"
    reranker = ExecReranker(OracleConfig(workers=2, cache_path=cache, progress=False), progress=False)
    reranker.use_task(get_spec("t2c-full"))
    return reranker.score(request()), reranker


def test_correct_passes_and_mutant_fails(scored: tuple[dict[str, dict[str, float]], ExecReranker]) -> None:
    scores, _ = scored
    assert scores["add"]["correct"] == 1.0
    assert scores["add"]["off_by_one"] == 0.0
    assert scores["none"] == {"correct": 0.0}


@pytest.mark.parametrize("cheat", ["magic_eq", "exit_0", "sys_exit", "prints_true", "patches_builtins", "no_entry_point", "syntax_error"])
def test_adversarial_candidates_do_not_pass(scored: tuple[dict[str, dict[str, float]], ExecReranker], cheat: str) -> None:
    assert scored[0]["add"][cheat] == 0.0


def test_formatting_does_not_fail_a_correct_program(scored: tuple[dict[str, dict[str, float]], ExecReranker]) -> None:
    scores, _ = scored
    assert scores["formats"] == {"format_ok": 1.0, "format_list": 0.0}  # a list never equals the expected tuple
    assert scores["sum"] == {"stdio_correct": 1.0, "stdio_float": 1.0, "stdio_wrong": 0.0}  # tokens: 3.0 answers 3


DIFF = "Distance between two numbers.\n>>> dist(5, 3)\n2\n"
DIFF_PROGRAMS = {
    "minus_first": "def dist(a, b):\n    return a - b\n",  # passes the example, wrong when b > a
    "abs": "def dist(a, b):\n    return abs(a - b)\n",
    "max_min": "def dist(a, b):\n    return max(a, b) - min(a, b)\n",
    "plus_one": "def dist(a, b):\n    return abs(a - b) + 1\n",
}
WRONG_EXAMPLE = "Median.\n>>> median([3, 1, 2])\n2\n>>> median([1, 2, 3, 4])\n9\n"
"""The second example is wrong: the correct program passes half the examples."""
MEDIAN_PROGRAMS = {
    "first": "def median(xs):\n    return xs[0]\n",
    "correct": "def median(xs):\n    s = sorted(xs)\n    n = len(s)\n    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2\n",
}


@pytest.mark.parametrize("plain", [False, True])
def test_agreement_and_partial_credit_on_real_runs(tmp_path: Path, plain: bool) -> None:
    req = RerankRequest(
        queries={"dist": DIFF, "median": WRONG_EXAMPLE},
        candidates={"dist": tuple(DIFF_PROGRAMS), "median": tuple(MEDIAN_PROGRAMS)},
        documents={**DIFF_PROGRAMS, **MEDIAN_PROGRAMS},
    )
    reranker = ExecReranker(OracleConfig(workers=2, cache_path=tmp_path / "v.sqlite", progress=False), progress=False, plain=plain)
    scores = reranker.score(req)
    if plain:
        assert scores == {"dist": {"minus_first": 1.0, "abs": 1.0, "max_min": 1.0, "plus_one": 0.0}, "median": {"first": 0.0, "correct": 0.0}}
        assert reranker.stats().extra["candidates_probed"] == 0
        return
    dist = scores["dist"]
    assert dist["abs"] == dist["max_min"] > dist["minus_first"] > 1.0 > dist["plus_one"] == 0.0
    assert scores["median"] == {"first": 0.0, "correct": 0.5}
    extra = reranker.stats().extra
    assert (extra["queries_probed"], extra["candidates_probed"], extra["probes_unclean"], extra["queries_split_by_probes"]) == (1, 3, 0, 1)


def test_stats_count_the_work(scored: tuple[dict[str, dict[str, float]], ExecReranker]) -> None:
    stats = scored[1].stats()
    assert (stats.queries, stats.pairs) == (4, len(PROGRAMS) + len(STDIO) + len(FORMAT_PROGRAMS) + 1)
    extra = stats.extra
    assert extra["queries_with_examples"] == 3
    assert extra["examples"] == 2 + 2 + 1
    assert extra["candidates_executed"] == len(PROGRAMS) + len(STDIO) + len(FORMAT_PROGRAMS) - 1
    assert extra["candidates_without_entry_point"] == 1  # no_entry_point never names add: not run
    assert extra["candidates_passing"] == 4
    assert extra["executed_python"] == extra["candidates_executed"]
    assert extra["cache_hits"] == 0


@pytest.mark.slow
def test_cache_and_other_languages(scored: tuple[dict[str, dict[str, float]], ExecReranker], tmp_path: Path) -> None:
    """A second call is answered from the verdict cache; a C++ candidate runs on stdio samples."""
    first, reranker = scored
    assert reranker.score(request()) == first
    extra = reranker.stats().extra
    assert extra["cache_hits"] == extra["candidates_executed"] - extra.get("verdict_undecided", 0)  # UNDECIDED is never cached
    cpp = "#include <iostream>\nint main() { long a, b; std::cin >> a >> b; std::cout << a + b << std::endl; }\n"
    req = RerankRequest({"sum": SUM}, {"sum": ("cpp",)}, {"cpp": cpp}, doc_language={"cpp": "cpp"})
    other = ExecReranker(OracleConfig(workers=1, cache_path=tmp_path / "v.sqlite", progress=False), progress=False)
    scores = other.score(req)
    if other.stats().extra.get("no_runner_cpp"):
        pytest.skip("no C++ toolchain")
    assert scores == {"sum": {"cpp": 1.0}}
