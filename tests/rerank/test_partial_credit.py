"""Partial credit for native candidates: one-example runs where no candidate passes every example."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from execir.dataset.spec import get_spec
from execir.execute import ExecResult, OracleConfig
from execir.rerank.base import RerankRequest
from execir.rerank.execution.examples import extract_examples
from execir.rerank.execution.exec_plan import plan_runs
from execir.rerank.execution.planned import PlannedRun
from execir.rerank.execution.reranker import ExecReranker, partial_scores, plan_partial
from execir.types import Verdict

# The last example is wrong, as some prompts' are: no program passes all three.
WRONG_LAST = """Return the sum of the list.
>>> total([1, 2])
3
>>> total([])
0
>>> total([5])
6
"""
JS_PROGRAMS = {
    "correct": "function total(xs) {\n  return xs.reduce((a, b) => a + b, 0);\n}\n",
    "plus_one": "function total(xs) {\n  return xs.reduce((a, b) => a + b, 1);\n}\n",
    "exits": "function total(xs) {\n  process.exit(0);\n}\n",
    "broken": "function total(xs) {\n  return xs.reduce((a, b) => a + b, 0)\n",
}


def _result(verdict: Verdict, detail: str = "exit status 1") -> ExecResult:
    return ExecResult(verdict, 0.01, 0.01, None, detail, "", "none")


def _request(queries: dict[str, str], programs: dict[str, dict[str, str]], language: str) -> RerankRequest:
    documents = {f"{q}/{name}": text for q, group in programs.items() for name, text in group.items()}
    return RerankRequest(
        queries=queries,
        candidates={q: tuple(f"{q}/{name}" for name in group) for q, group in programs.items()},
        documents=documents,
        doc_language=dict.fromkeys(documents, language),
        query_language=dict.fromkeys(queries, language),
    )


def _planned(language: str = "js") -> tuple[PlannedRun, ...]:
    req = _request({"q": WRONG_LAST}, {"q": JS_PROGRAMS}, language)
    examples = {"q": extract_examples(WRONG_LAST, language)}
    return plan_runs(req, examples).runs


# ---- planning and scoring (pure) ------------------------------------------------------------------


def test_only_failures_of_queries_nobody_passed_are_split() -> None:
    runs = _planned()
    assert [run.doc_id for run in runs] == ["q/correct", "q/plus_one", "q/exits", "q/broken"]
    results = [_result(Verdict.FAIL), _result(Verdict.FAIL), _result(Verdict.FAIL), _result(Verdict.ERROR, "does not compile: x")]
    split = plan_partial(runs, results, "humaneval-x")
    assert [run.doc_id for run in split] == ["q/correct"] * 3 + ["q/plus_one"] * 3 + ["q/exits"] * 3  # no split of what does not compile
    assert all(run.job.tests.kind == "native" and len(run.examples.calls) == 1 for run in split)
    assert len({run.job.tests.code for run in split}) == 3  # one program per example, shared by the candidates
    assert plan_partial(runs, [_result(Verdict.PASS), *results[1:]], "humaneval-x") == ()  # someone passed: the order stands


def test_a_single_example_has_nothing_to_split() -> None:
    query = "Sum.\n>>> total([1, 2])\n4\n"
    req = _request({"q": query}, {"q": JS_PROGRAMS}, "js")
    runs = plan_runs(req, {"q": extract_examples(query, "js")}).runs
    assert plan_partial(runs, [_result(Verdict.FAIL)] * len(runs), "humaneval-x") == ()


def test_python_candidates_keep_their_judge_share() -> None:
    query = "Sum.\n>>> total([1, 2])\n3\n>>> total([5])\n6\n"
    programs = {"correct": "def total(xs):\n    return sum(xs)\n"}
    runs = plan_runs(_request({"q": query}, {"q": programs}, "python"), {"q": extract_examples(query)}).runs
    assert runs[0].job.tests.kind == "asserts"
    assert plan_partial(runs, [_result(Verdict.FAIL, "1/2 tests failed: x")], "humaneval") == ()


def test_share_of_one_example_runs_passed() -> None:
    split = plan_partial(_planned(), [_result(Verdict.FAIL)] * 4, "humaneval-x")
    verdicts = {
        "q/correct": [Verdict.PASS, Verdict.PASS, Verdict.FAIL],
        "q/plus_one": [Verdict.FAIL, Verdict.FAIL, Verdict.PASS],
        "q/exits": [Verdict.FAIL] * 3,
        "q/broken": [Verdict.FAIL] * 3,
    }
    seen: dict[str, int] = {}
    results = []
    for run in split:
        index = seen.get(run.doc_id, 0)
        seen[run.doc_id] = index + 1
        results.append(_result(verdicts[run.doc_id][index]))
    assert partial_scores(split, results) == {"q": {"q/correct": pytest.approx(2 / 3), "q/plus_one": pytest.approx(1 / 3)}}
    assert partial_scores(split[:3], [_result(Verdict.PASS)] * 3) == {"q": {"q/correct": 0.99}}  # never ties a full pass


# ---- real runs ------------------------------------------------------------------------------------


def _score(tmp_path: Path, req: RerankRequest, *, plain: bool = False) -> tuple[dict[str, float], dict[str, float]]:
    reranker = ExecReranker(OracleConfig(workers=2, cache_path=tmp_path / "v.sqlite", progress=False), progress=False, plain=plain)
    reranker.use_task(get_spec("t2c-full"))
    scores = reranker.score(req)
    return {d.split("/", 1)[1]: s for d, s in scores["q"].items()}, reranker.stats().extra


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_js_correct_program_outranks_its_clone_on_a_wrong_example(tmp_path: Path) -> None:
    scores, extra = _score(tmp_path, _request({"q": WRONG_LAST}, {"q": JS_PROGRAMS}, "js"))
    assert scores["correct"] == pytest.approx(2 / 3) and scores["plus_one"] == pytest.approx(1 / 3)
    assert scores["exits"] == 0.0 and scores["broken"] == 0.0  # an exit, or a syntax error (JavaScript's is a FAIL), passes no example alone
    assert extra["queries_partial"] == 1 and extra["candidates_partial"] == 4 and extra["partial_runs"] == 12
    plain, plain_extra = _score(tmp_path, _request({"q": WRONG_LAST}, {"q": JS_PROGRAMS}, "js"), plain=True)
    assert set(plain.values()) == {0.0} and plain_extra["partial_runs"] == 0


RUBY_WRONG_LAST = """Write a function to sum a list.
irb> total([1, 2])
=> 3
irb> total([])
=> 0
irb> total([5])
=> 6
"""
RUBY_PROGRAMS = {
    "correct": "def total(xs)\n  xs.sum\nend\n",
    "plus_one": "def total(xs)\n  xs.sum + 1\nend\n",
    "counts": "$calls = 0\ndef total(xs)\n  $calls += 1\n  $calls == 1 ? xs.sum : -1\nend\n",
}


@pytest.mark.skipif(shutil.which("ruby") is None, reason="ruby not installed")
def test_ruby_one_example_runs_do_not_share_state(tmp_path: Path) -> None:
    scores, extra = _score(tmp_path, _request({"q": RUBY_WRONG_LAST}, {"q": RUBY_PROGRAMS}, "ruby"))
    assert scores["correct"] == pytest.approx(2 / 3) and scores["plus_one"] == pytest.approx(1 / 3)
    assert scores["counts"] == pytest.approx(2 / 3)  # right on its first call of each fresh run; together it failed: below 1.0
    assert extra["partial_runs"] == 9
