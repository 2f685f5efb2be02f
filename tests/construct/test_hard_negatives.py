"""Hard negatives compile and fail at run time: an ERROR candidate is rejected and counted per
operator, a C++ failure whose run reaches undefined behaviour is rejected, and the build report
carries both, through the real oracle and the real compiler."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from execir.construct import verify as verify_module
from execir.construct.commands import _hard_negative_lines
from execir.construct.config import BuildConfig
from execir.construct.pipeline import hard_negative_report, judged_outside
from execir.construct.undefined_behaviour import REACHED, instrument_cpp, probe_job
from execir.construct.verify import verify
from execir.edits import SpanEdit, to_edit
from execir.execute import Limits, Oracle, OracleConfig
from execir.types import Mutant, Task, TestSuite, Verdict

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")

CANONICAL = "int scaled(int n){\n    return n * 1000 + 7;\n}\n"
TESTS = TestSuite(
    "native", "int scaled(int n);\n#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (scaled(5) == 5007);\n    assert (scaled(-2) == -1993);\n}\n"
)
STUBS = {
    "stub_no_compile": "int scaled(int n){\n    return n * 1000 + ;\n}\n",
    "stub_wrong": "int scaled(int n){\n    return n * 1000 + 8;\n}\n",
    # flows off the end of a non-void function for n >= 0: what it returns is whatever eax holds
    "stub_flow_off": "int scaled(int n){\n    if (n < 0) return n * 1000 + 7;\n}\n",
    # one past the end of a vector: reads whatever the heap holds
    "stub_past_end": "#include<vector>\nint scaled(int n){\n    std::vector<int> v(2, 7);\n    return n * 1000 + v[2];\n}\n",
}


def _stub_mutants(task_id: str, source: str, language: str = "python", operators: object = None) -> list[Mutant]:
    """What the stub operators produce for the toy task (one mutant each)."""
    return [Mutant(task_id, name, to_edit(source, SpanEdit(0, len(source), text)), text, 1) for name, text in STUBS.items()]


def _task() -> Task:
    return Task("CPP/toy", "scale by a thousand and add seven", CANONICAL, "scaled", TESTS, "humaneval-x", language="cpp")


@needs_gxx
def test_error_and_undefined_behaviour_are_rejected_and_counted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(verify_module, "generate_mutants", _stub_mutants)
    config = BuildConfig(source="humaneval-x", path=None, out=tmp_path, language="cpp", max_mutants=4, canonical_repeats=1)
    with Oracle(OracleConfig(workers=2, progress=False, cache_path=tmp_path / "cache.sqlite")) as oracle:
        outcome = verify([_task()], oracle, config)
    (item,) = outcome.verified
    assert [k.mutant.operator for k in item.mutants] == ["stub_wrong"]
    assert judged_outside(outcome.verified) == {"tasks": 1, "of": 1, "share": 1.0, "in_process": []}
    assert outcome.rejected == Counter({"does_not_compile": 1, "undefined_behaviour": 2})
    assert outcome.operators["stub_no_compile"] == Counter(generated=1, executed=1, compiled=0, does_not_compile=1, undefined_behaviour=0, kept=0)
    assert outcome.operators["stub_flow_off"]["undefined_behaviour"] == 1 and outcome.operators["stub_flow_off"]["compiled"] == 1
    assert outcome.operators["stub_past_end"]["undefined_behaviour"] == 1
    assert outcome.operators["stub_wrong"]["kept"] == 1
    probes = outcome.undefined_behaviour
    assert probes["canonicals_reaching"] == [] and probes["probes_run"] == 4  # three failing mutants, then the canonical
    report = hard_negative_report(outcome)
    assert report["totals"]["executed"] == 4 and report["totals"]["compile_rate"] == 0.75
    assert report["operators"]["stub_no_compile"]["compile_rate"] == 0.0
    lines = "\n".join(_hard_negative_lines(report))
    assert "1 rejected as not compiling, 2 for undefined behaviour" in lines


@needs_gxx
def test_probe_passes_only_where_undefined_behaviour_is_reached() -> None:
    task, limits = _task(), Limits(2.0, 8.0)
    jobs = [probe_job(task, limits, text) for text in (CANONICAL, STUBS["stub_wrong"], STUBS["stub_flow_off"], STUBS["stub_past_end"])]
    assert all(job is not None for job in jobs)
    with Oracle(OracleConfig(workers=2, progress=False)) as oracle:
        verdicts = [r.verdict for r in oracle.run([job for job in jobs if job is not None])]
    assert verdicts == [Verdict.FAIL, Verdict.FAIL, Verdict.PASS, Verdict.PASS]


def test_instrumentation_marks_the_end_of_every_non_void_function() -> None:
    program = (
        "struct Box {\n    int v;\n    Box(int x) : v(x) {}\n    int get() const { return v; }\n};\n"
        "void noop() {}\n"
        "void* where(int* p) { return p; }\n"
        "template <typename T> T same(T x) { if (x) return x; }\n"
        "int main() { return 0; }\n"
    )
    text = instrument_cpp(program)
    assert text is not None
    assert "int get() const { return v; " + REACHED + "}" in text
    assert "void* where(int* p) { return p; " + REACHED + "}" in text
    assert "T same(T x) { if (x) return x; " + REACHED + "}" in text
    assert "void noop() {}" in text and "int main() { return 0; }" in text and "Box(int x) : v(x) {}" in text
    assert text.count(REACHED) == 3


def test_languages_without_undefined_behaviour_are_not_probed() -> None:
    task = Task("Java/0", "", "class Solution {}", "f", TestSuite("native", "class Main {}"), "humaneval-x", language="java")
    assert probe_job(task, Limits(1.0, 2.0), "class Solution {}") is None
