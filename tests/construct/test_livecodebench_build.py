"""LiveCodeBench-style tasks (no reference solution) get their pools from ``--candidates``: each
candidate is executed, passing ones are correct (2), failing ones hard negatives (1); stdin outputs
are compared as LiveCodeBench's judge does. Real oracle, synthetic problems (no ../shared needed)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from execir.construct.commands import format_summary
from execir.construct.config import BuildConfig
from execir.construct.pipeline import build
from execir.dataset import load_dataset
from execir.execute import ExecResult, Job, OracleConfig
from execir.types import Verdict
from tests.construct.test_unlabelled import ScriptedOracle

PROBLEMS = [
    {
        "question_title": "Add",
        "question_content": "Read two integers a and b and print their sum.",
        "platform": "atcoder",
        "question_id": "t_add",
        "contest_id": "t",
        "contest_date": "2024-01-01",
        "starter_code": "",
        "difficulty": "easy",
        "public_test_cases": json.dumps([{"input": "1 2\n", "output": "3\n", "testtype": "stdin"}, {"input": "5 7\n", "output": "12\n", "testtype": "stdin"}]),
        "metadata": "{}",
    },
    {
        "question_title": "Max",
        "question_content": "Given a list of integers nums, return the largest one.",
        "platform": "leetcode",
        "question_id": "t_max",
        "contest_id": "t",
        "contest_date": "2024-01-01",
        "starter_code": "class Solution:\n    def largest(self, nums: List[int]) -> int:\n        ",
        "difficulty": "easy",
        "public_test_cases": json.dumps(
            [{"input": "[3, 1, 2]", "output": "3", "testtype": "functional"}, {"input": "[-5, -2]", "output": "-2", "testtype": "functional"}]
        ),
        "metadata": json.dumps({"func_name": "largest"}),
    },
]

CANDIDATES = [
    ("lcb/atcoder/t_add", "a, b = map(int, input().split())\nprint(a + b)\n", "right"),
    ("lcb/atcoder/t_add", "a, b = map(int, input().split())\nprint(float(a + b))\n", "right-as-float"),  # LCB accepts 3.0 for 3
    ("lcb/atcoder/t_add", "a, b = map(int, input().split())\nprint(a - b)\n", "wrong"),
    ("lcb/leetcode/t_max", "class Solution:\n    def largest(self, nums: List[int]) -> int:\n        return max(nums)\n", "right"),
    ("lcb/leetcode/t_max", "class Solution:\n    def largest(self, nums: List[int]) -> int:\n        return sorted(nums)[0]\n", "wrong"),
    ("lcb/leetcode/t_max", "class Solution:\n    def largest(self, nums):\n        return max(nums, key=abs)\n", "wrong-abs"),
]


def _files(tmp_path: Path) -> tuple[Path, Path]:
    problems = tmp_path / "lcb.jsonl"
    problems.write_text("".join(json.dumps(p) + "\n" for p in PROBLEMS), encoding="utf-8")
    candidates = tmp_path / "cands.jsonl"
    rows = [{"task_id": t, "language": "python", "code": c, "source": s} for t, c, s in CANDIDATES]
    candidates.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return problems, candidates


@pytest.mark.slow
def test_livecodebench_pools_come_from_executed_candidates(tmp_path: Path) -> None:
    problems, candidates = _files(tmp_path)
    config = BuildConfig(source="livecodebench", path=problems, out=tmp_path / "out", candidates=candidates, tasks="t2c-description", splits=(0.0, 0.0, 1.0))
    summary = build(config, OracleConfig(progress=False, cache_path=tmp_path / "v.sqlite"))
    extras = summary.manifest["build"]["extras"]["candidates"]
    assert (extras["loaded"], extras["passed"], extras["failed"]) == (6, 3, 3)
    dataset = load_dataset(tmp_path / "out" / "t2c-description", "test")
    grades = {dataset.doc_meta[d]["operator"] + "@" + q: g for q, judged in dataset.qrels.items() for d, g in judged.items()}
    assert grades == {
        "right@lcb/atcoder/t_add": 2,
        "right-as-float@lcb/atcoder/t_add": 2,
        "wrong@lcb/atcoder/t_add": 1,
        "right@lcb/leetcode/t_max": 2,
        "wrong@lcb/leetcode/t_max": 1,
        "wrong-abs@lcb/leetcode/t_max": 1,
    }
    assert all(dataset.doc_meta[d]["kind"] == "candidate" for d in dataset.corpus)
    assert "c2c" not in summary.manifest["folders"]  # no canonical: no anchor


class _PassingOracle(ScriptedOracle):
    """Every candidate passes every run."""

    def run_repeated(self, jobs: Sequence[Job], repeats: int, desc: str = "") -> list[tuple[ExecResult, ...]]:
        return [tuple(self.run([job] * repeats)) for job in jobs]


def test_candidates_for_unknown_tasks_are_counted_not_silently_dropped(tmp_path: Path) -> None:
    problems, candidates = _files(tmp_path)
    with candidates.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"task_id": "lcb/atcoder/nope", "language": "python", "code": "print(1)\n"}) + "\n")
    oracle = _PassingOracle({}, [Verdict.PASS] * 100)
    config = BuildConfig(source="livecodebench", path=problems, out=tmp_path / "out", candidates=candidates, tasks="t2c-description")
    summary = build(config, OracleConfig(progress=False), oracle_factory=lambda _: oracle)  # type: ignore[arg-type,return-value]
    extras = summary.manifest["build"]["extras"]["candidates"]
    assert extras["rejected"] == {"task_not_in_build": 1}
    assert (extras["loaded"], extras["run"], extras["passed"]) == (7, 6, 6)
    assert "task_not_in_build=1" in format_summary(summary)
