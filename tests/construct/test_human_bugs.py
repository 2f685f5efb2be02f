"""HumanEvalPack's human-written bugs: run once, kept as ``kind: human`` when verified to fail,
rejected and counted when the tests do not catch them, never counted against ``max_mutants``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execir.construct.commands import format_summary
from execir.construct.config import BuildConfig
from execir.construct.pipeline import build
from execir.construct.verify import human_mutant
from execir.errors import ExecIRError
from execir.execute import OracleConfig
from execir.types import Task, TestSuite, Verdict
from tests.construct.test_build import TASKS
from tests.construct.test_unlabelled import ScriptedOracle

BUGS = {
    "toy/max": "    best = xs[0]\n    for x in xs[1:]:\n        if x < best:\n            best = x\n    return best\n",
    "toy/count": "    total = 0\n    for x in xs:\n        if x <= limit:\n            total += 1\n    return total\n",
}


def _pack(tmp_path: Path) -> Path:
    folder = tmp_path / "data" / "humanevalpack"
    folder.mkdir(parents=True)
    rows = [{**t, "buggy_solution": BUGS[t["task_id"]]} for t in TASKS[:2]]
    (folder / "humanevalpack_python.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return tmp_path / "data"


def test_human_bugs_are_kept_when_failing_and_rejected_when_passing(tmp_path: Path) -> None:
    # first run() call is the human-bug batch, in task order: toy/max's bug "passes", toy/count's fails
    oracle = ScriptedOracle({}, [Verdict.PASS, Verdict.FAIL])
    config = BuildConfig(source="humanevalpack", path=_pack(tmp_path), out=tmp_path / "out", max_mutants=1, tasks="t2c-description", rewrites=0)
    summary = build(config, OracleConfig(progress=False), oracle_factory=lambda _: oracle)  # type: ignore[arg-type,return-value]
    counts = summary.manifest["build"]["languages"]["python"]["counts"]
    assert counts["human"] == 1 and counts["human_bugs_run"] == 2
    assert counts["human_bugs_rejected"] == {"passes_tests": 1}
    assert counts["mutant"] == 2  # max_mutants=1 per task, human bugs not counted against it
    folder = tmp_path / "out" / "t2c-description"
    corpus = [json.loads(line) for line in (folder / "corpus.jsonl").read_text().splitlines()]
    human = [d for d in corpus if d["metadata"]["kind"] == "human"]
    assert len(human) == 1 and human[0]["metadata"]["task_id"] == "toy/count"
    assert human[0]["metadata"]["operator"] == "human"
    assert human[0]["metadata"]["edit"]["before"] == "<" and human[0]["metadata"]["edit"]["after"] == "<="
    qrels = "".join((folder / "qrels" / f"{split}.tsv").read_text() for split in ("train", "dev", "test"))
    assert f"toy/count\t{human[0]['_id']}\t1" in qrels
    assert "human-written bugs: 1 verified failing of 2 run; rejected: passes_tests=1" in format_summary(summary)
    assert summary.manifest["build"]["source"]["name"] == "humanevalpack"
    assert "tasks_sha256" in summary.manifest["build"]["source"]


def test_humaneval_x_source_has_no_human_bugs(tmp_path: Path) -> None:
    oracle = ScriptedOracle({}, [])
    config = BuildConfig(source="humaneval-x", path=_pack(tmp_path), out=tmp_path / "out", max_mutants=1, tasks="t2c-description", rewrites=0)
    summary = build(config, OracleConfig(progress=False), oracle_factory=lambda _: oracle)  # type: ignore[arg-type,return-value]
    counts = summary.manifest["build"]["languages"]["python"]["counts"]
    assert counts["human"] == 0 and counts["human_bugs_run"] == 0


def test_manifest_records_operators_families_and_weights(tmp_path: Path) -> None:
    oracle = ScriptedOracle({}, [])
    config = BuildConfig(
        source="humaneval-x", path=_pack(tmp_path), out=tmp_path / "out", max_mutants=1, operators="operator,-compare_flip", tasks="t2c-description", rewrites=0
    )
    manifest = build(config, OracleConfig(progress=False), oracle_factory=lambda _: oracle).manifest  # type: ignore[arg-type,return-value]
    mutation = manifest["build"]["languages"]["python"]["mutation"]
    assert set(mutation["operators"].values()) == {"operator"} and "compare_flip" not in mutation["operators"]
    assert mutation["family_weights"]["value"] > mutation["family_weights"]["function"]


def test_bad_multilingual_requests_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ExecIRError, match="mbxp has no cpp tasks"):
        build(BuildConfig(source="mbxp", path=tmp_path, out=tmp_path / "o", language="cpp"), OracleConfig(progress=False))
    with pytest.raises(ExecIRError, match="not a directory"):
        build(BuildConfig(source="humanevalpack", path=tmp_path / "nope", out=tmp_path / "o"), OracleConfig(progress=False))
    with pytest.raises(ExecIRError, match="Python only"):
        build(BuildConfig(source="jsonl", path=tmp_path, out=tmp_path / "o", language="go"), OracleConfig(progress=False))


def test_human_mutant_edit_spans_the_changed_characters() -> None:
    task = Task("t", "d", "def f(a):\n    return a + 1\n", "f", TestSuite("check", "def check(c): pass"), "s")
    bug = human_mutant(task, "def f(a):\n    return a - 2\n")
    assert (bug.edit.line, bug.edit.col, bug.edit.before, bug.edit.after) == (2, 13, "+ 1", "- 2")
    assert bug.kind == "human" and bug.edit_distance == 2


def test_a_canonical_the_mutator_cannot_parse_keeps_its_task_without_mutants(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from execir.construct import verify as verify_module
    from execir.languages import ParseError

    def unparsable(task_id: str, *args: object) -> list[object]:
        raise ParseError("python: the program does not parse (first error at line 1, column 1)")

    monkeypatch.setattr(verify_module, "generate_mutants", unparsable)
    oracle = ScriptedOracle({}, [Verdict.FAIL, Verdict.FAIL])
    config = BuildConfig(source="humanevalpack", path=_pack(tmp_path), out=tmp_path / "out", max_mutants=1, tasks="t2c-description", rewrites=0)
    manifest = build(config, OracleConfig(progress=False), oracle_factory=lambda _: oracle).manifest  # type: ignore[arg-type,return-value]
    counts = manifest["build"]["languages"]["python"]["counts"]
    assert counts["tasks_kept"] == 2 and counts["mutant"] == 0 and counts["human"] == 2
    assert len(counts["not_mutated"]) == 2 and "does not parse" in counts["not_mutated"][0]
