"""FLAKY and UNDECIDED verdicts are never labels: rejected under their own reason, counted and shown."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from execir.construct.commands import format_summary
from execir.construct.config import BuildConfig
from execir.construct.pipeline import build
from execir.execute import Admission, ExecResult, Job, Limits, OracleConfig
from execir.types import TestSuite, Verdict
from tests.construct.test_build import TASKS


def _result(verdict: Verdict) -> ExecResult:
    return ExecResult(verdict, 0.01, 0.01, None, f"fake {verdict.value}", "", "fake")


class ScriptedOracle:
    """Answers canonicals by task entry point and mutants in order from a verdict script."""

    def __init__(self, canonical: dict[str, Verdict], mutants: Sequence[Verdict]) -> None:
        self.canonical = canonical
        self.script = list(mutants)
        self.executed = 0

    def __enter__(self) -> ScriptedOracle:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        return None

    def admit_canonicals(self, canonicals: Sequence[tuple[str, TestSuite, str]], repeats: int = 3, desc: str = "", language: str = "python") -> list[Admission]:
        admissions = []
        for _program, _tests, entry_point in canonicals:
            verdict = self.canonical.get(entry_point, Verdict.PASS)
            results = tuple(_result(verdict) for _ in range(repeats))
            reason = "" if verdict is Verdict.PASS else f"{verdict.value}: fake"
            admissions.append(Admission(verdict is Verdict.PASS, 0.01, Limits.from_canonical(0.01), reason, results))
        return admissions

    def run(self, jobs: Sequence[Job], desc: str = "") -> list[ExecResult]:
        out = []
        for _ in jobs:
            verdict = self.script.pop(0) if self.script else Verdict.FAIL
            out.append(_result(verdict))
            self.executed += 1
        return out

    def run_repeated(self, jobs: Sequence[Job], repeats: int, desc: str = "") -> list[tuple[ExecResult, ...]]:
        """Rewrites and candidates: each job ``repeats`` times, verdicts taken from the script in order."""
        return [tuple(self.run([job] * repeats, desc)) for job in jobs]

    def reliability(self) -> dict[str, object]:
        return {"isolation": "fake", "runs_executed": self.executed, "runs_cached": 0}


def _tasks_file(tmp_path: Path) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in TASKS[:2]), encoding="utf-8")
    return path


def test_undecided_and_flaky_mutants_are_rejected_counted_and_shown(tmp_path: Path) -> None:
    oracle = ScriptedOracle({}, [Verdict.UNDECIDED, Verdict.FLAKY, Verdict.UNDECIDED])
    config = BuildConfig(source="jsonl", path=_tasks_file(tmp_path), out=tmp_path / "out", max_mutants=2, tasks="t2c-description", rewrites=0)
    summary = build(config, OracleConfig(progress=False), oracle_factory=lambda _: oracle)  # type: ignore[arg-type,return-value]
    facts = summary.manifest["build"]["languages"]["python"]
    assert facts["counts"]["rejected"]["undecided"] == 2 and facts["counts"]["rejected"]["flaky"] == 1
    assert len(facts["oracle"]["undecided"]) == 2 and len(facts["oracle"]["flaky"]) == 1
    corpus = [json.loads(line) for line in (tmp_path / "out" / "t2c-description" / "corpus.jsonl").read_text().splitlines()]
    assert {d["metadata"]["verdict"] for d in corpus if d["metadata"]["kind"] == "mutant"} == {"FAIL"}
    assert facts["counts"]["mutant"] == 4  # two per task, all from later FAIL verdicts
    text = format_summary(summary)
    assert "undecided=2" in text and "flaky=1, undecided=2" in text


def test_undecided_canonical_is_not_admitted_and_named(tmp_path: Path) -> None:
    oracle = ScriptedOracle({"count_below": Verdict.UNDECIDED}, [])
    config = BuildConfig(source="jsonl", path=_tasks_file(tmp_path), out=tmp_path / "out", max_mutants=1, tasks="t2c-description", rewrites=0)
    summary = build(config, OracleConfig(progress=False), oracle_factory=lambda _: oracle)  # type: ignore[arg-type,return-value]
    facts = summary.manifest["build"]["languages"]["python"]
    (excluded,) = facts["excluded"]
    assert excluded["task_id"] == "toy/count" and excluded["reason"].startswith("undecided: ")
    assert facts["counts"]["tasks_kept"] == 1
    assert "  excluded toy/count: undecided: " in format_summary(summary)


def test_unlabelled_rewrite_and_candidate_verdicts_never_become_labels(tmp_path: Path) -> None:
    # no mutants are tried (max_mutants=0), so the first batch is the rewrites' (one per task, two runs
    # each), then the candidates' (two runs each), in file order
    candidates = tmp_path / "cands.jsonl"
    programs = [
        "def largest(xs):\n    return max(xs)\n",
        "def largest(xs):\n    return min(xs)\n",
        "def largest(xs):\n    return sorted(xs)[-1]\n",
        "def largest(xs):\n    return xs[0]\n",
    ]
    candidates.write_text("".join(json.dumps({"task_id": "toy/max", "language": "python", "code": c, "source": "model"}) + "\n" for c in programs))
    script = [
        Verdict.PASS,
        Verdict.UNDECIDED,  # rewrite of toy/max: passed once, then undecided
        Verdict.FLAKY,
        Verdict.PASS,  # rewrite of toy/count: flaky
        Verdict.PASS,
        Verdict.PASS,  # candidate 1: correct (2)
        Verdict.FAIL,
        Verdict.FAIL,  # candidate 2: verified failing (1)
        Verdict.UNDECIDED,
        Verdict.FAIL,  # candidate 3: undecided
        Verdict.PASS,
        Verdict.FLAKY,  # candidate 4: flaky
    ]
    oracle = ScriptedOracle({}, script)
    config = BuildConfig(
        source="jsonl", path=_tasks_file(tmp_path), out=tmp_path / "out", max_mutants=0, tasks="t2c-description", rewrites=1, candidates=candidates
    )
    summary = build(config, OracleConfig(progress=False), oracle_factory=lambda _: oracle)  # type: ignore[arg-type,return-value]
    assert not oracle.script, "every scripted verdict was used"
    extras = summary.manifest["build"]["extras"]
    assert extras["rewrites"]["run"] == 2 and extras["rewrites"]["kept"] == 0
    assert {k: v for k, v in extras["rewrites"]["rejected"].items() if k != "duplicate_text"} == {"flaky": 1, "undecided": 1}
    assert extras["candidates"]["passed"] == 1 and extras["candidates"]["failed"] == 1
    assert {k: v for k, v in extras["candidates"]["rejected"].items() if v} == {"flaky": 1, "undecided": 1}
    corpus = [json.loads(line) for line in (tmp_path / "out" / "t2c-description" / "corpus.jsonl").read_text().splitlines()]
    kept = {d["text"]: (d["metadata"]["grade"], d["metadata"]["verdict"]) for d in corpus if d["metadata"]["kind"] in ("rewrite", "candidate")}
    assert kept == {programs[0]: (2, "PASS"), programs[1]: (1, "FAIL")}
    assert "flaky=1, undecided=1" in format_summary(summary)
