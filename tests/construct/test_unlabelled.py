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

    def reliability(self) -> dict[str, object]:
        return {"isolation": "fake", "runs_executed": self.executed, "runs_cached": 0}


def _tasks_file(tmp_path: Path) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in TASKS[:2]), encoding="utf-8")
    return path


def test_undecided_and_flaky_mutants_are_rejected_counted_and_shown(tmp_path: Path) -> None:
    oracle = ScriptedOracle({}, [Verdict.UNDECIDED, Verdict.FLAKY, Verdict.UNDECIDED])
    config = BuildConfig(source="jsonl", path=_tasks_file(tmp_path), out=tmp_path / "out", max_mutants=2)
    summary = build(config, OracleConfig(progress=False), oracle_factory=lambda _: oracle)  # type: ignore[arg-type,return-value]
    manifest = summary.manifest
    assert manifest["counts"]["rejected"]["undecided"] == 2 and manifest["counts"]["rejected"]["flaky"] == 1
    assert len(manifest["oracle"]["undecided"]) == 2 and len(manifest["oracle"]["flaky"]) == 1
    corpus = [json.loads(line) for line in (tmp_path / "out" / "corpus.jsonl").read_text().splitlines()]
    assert {d["metadata"]["verdict"] for d in corpus if d["metadata"]["kind"] == "mutant"} == {"FAIL"}
    assert manifest["counts"]["mutant"] == 4  # two per task, all from later FAIL verdicts
    text = format_summary(summary)
    assert "undecided=2" in text and "flaky=1, undecided=2" in text


def test_undecided_canonical_is_not_admitted_and_named(tmp_path: Path) -> None:
    oracle = ScriptedOracle({"count_below": Verdict.UNDECIDED}, [])
    config = BuildConfig(source="jsonl", path=_tasks_file(tmp_path), out=tmp_path / "out", max_mutants=1)
    summary = build(config, OracleConfig(progress=False), oracle_factory=lambda _: oracle)  # type: ignore[arg-type,return-value]
    (excluded,) = summary.manifest["excluded"]
    assert excluded["task_id"] == "toy/count" and excluded["reason"].startswith("undecided: ")
    assert summary.manifest["counts"]["tasks_kept"] == 1
    assert "  excluded toy/count: undecided: " in format_summary(summary)
