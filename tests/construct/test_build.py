"""End-to-end builds on small task files: real mutation, real execution, real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execir.construct.config import BuildConfig
from execir.construct.pipeline import build
from execir.dataset.layout import BUILD_REPORT, COLLECTION_FORMAT, CORPUS, MANIFEST, QUERIES, qrels_file
from execir.dataset.records import SPLITS
from execir.execute import OracleConfig

TASKS = [
    {
        "task_id": "toy/max",
        "prompt": 'def largest(xs):\n    """Return the largest element of a non-empty list."""\n',
        "canonical_solution": "    best = xs[0]\n    for x in xs[1:]:\n        if x > best:\n            best = x\n    return best\n",
        "test": "def check(candidate):\n    assert candidate([1, 5, 2]) == 5\n    assert candidate([7]) == 7\n    assert candidate([-3, -1, -2]) == -1\n",
        "entry_point": "largest",
    },
    {
        "task_id": "toy/count",
        "prompt": 'def count_below(xs, limit):\n    """Count how many numbers are strictly below the limit."""\n',
        "canonical_solution": "    total = 0\n    for x in xs:\n        if x < limit:\n            total += 1\n    return total\n",
        "test": "def check(candidate):\n    assert candidate([1, 2, 3], 2) == 1\n    assert candidate([], 5) == 0\n    assert candidate([5, 5, 4], 5) == 1\n",
        "entry_point": "count_below",
    },
    {
        "task_id": "toy/broken",
        "prompt": 'def double(x):\n    """Double a number."""\n',
        "canonical_solution": "    return x * 3\n",
        "test": "def check(candidate):\n    assert candidate(2) == 4\n",
        "entry_point": "double",
    },
]


def _tasks_file(tmp_path: Path) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in TASKS), encoding="utf-8")
    return path


FOLDERS = ("t2c-description", "t2c-full", "t2c-search", "c2t", "c2c")


def _build(tmp_path: Path, out: str, cache: Path, seed: int = 1) -> dict:
    # seed 1: with the current Python operators its first picks include an equivalent mutant
    # (test_manifest_hashes_match_files checks that one is rejected); seed 0 picks none.
    # Every task (the default --tasks) and the default rewrites: the one build here that makes every folder.
    config = BuildConfig(source="jsonl", path=_tasks_file(tmp_path), out=tmp_path / out, seed=seed, max_mutants=4)
    return build(config, OracleConfig(workers=2, cache_path=cache, progress=False)).manifest


def _files(root: Path) -> dict[str, bytes]:
    """Every file of a build's output by relative path, except the build report (timing, not content)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != BUILD_REPORT}


def _qrels_rows(folder: Path) -> list[list[str]]:
    """The graded qrels rows of every split (each file starting with the BEIR header)."""
    rows: list[list[str]] = []
    for split in SPLITS:
        lines = (folder / qrels_file(split)).read_text().splitlines()
        assert lines[0] == "query-id\tcorpus-id\tscore"
        rows += [line.split("\t") for line in lines[1:]]
    return rows


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    tmp = tmp_path_factory.mktemp("build")
    return tmp, _build(tmp, "a", tmp / "cache.sqlite")


def test_layout_and_graded_qrels(built: tuple[Path, dict]) -> None:
    tmp, manifest = built
    assert manifest["format"] == COLLECTION_FORMAT and tuple(manifest["folders"]) == FOLDERS
    out = tmp / "a" / "t2c-description"  # the old single dataset
    corpus = [json.loads(line) for line in (out / CORPUS).read_text().splitlines()]
    queries = [json.loads(line) for line in (out / QUERIES).read_text().splitlines()]
    qrels = _qrels_rows(out)
    assert {q["_id"] for q in queries} == {"toy/max", "toy/count"}
    assert [e["task_id"] for e in manifest["build"]["languages"]["python"]["excluded"]] == ["toy/broken"]
    kinds = {d["_id"]: d["metadata"]["kind"] for d in corpus}
    assert {q for q, _, _ in qrels} == {"toy/max", "toy/count"}  # every query judged in exactly one split
    for _, doc, grade in qrels:
        assert (kinds[doc], grade) in {("canonical", "2"), ("rewrite", "2"), ("mutant", "1")}
    mutants = [d for d in corpus if d["metadata"]["kind"] == "mutant"]
    assert mutants and all(d["metadata"]["verdict"] in {"FAIL", "TIMEOUT", "ERROR"} for d in mutants)
    assert all(d["metadata"]["edit"]["before"] != d["metadata"]["edit"]["after"] for d in mutants)
    rewrites = [d for d in corpus if d["metadata"]["kind"] == "rewrite"]
    assert all(d["metadata"]["verdict"] == "PASS" and d["metadata"]["grade"] == 2 for d in rewrites)
    texts = [d["text"] for d in corpus]
    assert len(texts) == len(set(texts))
    for query in queries:  # no document contains its query's text
        assert all(query["text"] not in t for t in texts)


def test_manifest_hashes_match_files(built: tuple[Path, dict]) -> None:
    import hashlib

    tmp, manifest = built
    root = tmp / "a"
    for folder, listed in manifest["folders"].items():
        own = json.loads((root / folder / MANIFEST).read_bytes())
        assert hashlib.sha256((root / folder / MANIFEST).read_bytes()).hexdigest() == listed["manifest_sha256"]
        on_disk = {str(p.relative_to(root / folder)) for p in (root / folder).rglob("*") if p.is_file()}
        assert set(own["files"]) == on_disk - {MANIFEST}, folder  # every file hashed, nothing unlisted
        for name, digest in own["files"].items():
            assert hashlib.sha256((root / folder / name).read_bytes()).hexdigest() == digest, (folder, name)
        newest = max((root / folder / name).stat().st_mtime_ns for name in own["files"])
        assert (root / folder / MANIFEST).stat().st_mtime_ns >= newest  # written last
        assert (root / MANIFEST).stat().st_mtime_ns >= (root / folder / MANIFEST).stat().st_mtime_ns
    counts = manifest["build"]["languages"]["python"]["counts"]
    assert counts["rejected"].get("passes_tests", 0) >= 1  # equivalent mutants exist and are rejected


def test_same_seed_is_byte_identical_and_rebuild_executes_nothing(built: tuple[Path, dict]) -> None:
    tmp, _ = built
    _build(tmp, "b", tmp / "cache.sqlite")
    first, second = _files(tmp / "a"), _files(tmp / "b")
    assert set(first) == set(second) and {f"{name}/{MANIFEST}" for name in FOLDERS} <= set(first)
    for name in first:
        assert first[name] == second[name], name
    report = json.loads((tmp / "b" / BUILD_REPORT).read_text())
    assert report["oracle"]["runs_executed"] == 0


def test_fresh_cache_gives_identical_dataset(built: tuple[Path, dict]) -> None:
    tmp, _ = built
    _build(tmp, "c", tmp / "other-cache.sqlite")
    first, fresh = _files(tmp / "a"), _files(tmp / "c")
    assert set(first) == set(fresh)
    for name in first:
        assert first[name] == fresh[name], name


def test_mutant_that_passes_the_tests_is_rejected(tmp_path: Path) -> None:
    from execir.construct.verify import verify
    from execir.execute import Oracle
    from execir.tasks import load_humaneval

    (task,) = [t for t in load_humaneval(_tasks_file(tmp_path), source="jsonl") if t.task_id == "toy/max"]
    config = BuildConfig(source="jsonl", path=None, out=tmp_path, max_mutants=100)
    with Oracle(OracleConfig(workers=2, cache_path=None, progress=False)) as oracle:
        outcome = verify([task], oracle, config)
    kept = {k.mutant.text for k in outcome.verified[0].mutants}
    equivalent = task.solution.replace("if x > best", "if x >= best")  # same answers on every input
    assert equivalent not in kept
    assert outcome.rejected["passes_tests"] >= 1
    assert outcome.candidates_executed == len(outcome.verified[0].candidates)  # all tried
    assert all(k.result.verdict.is_failure for k in outcome.verified[0].mutants)


def test_summary_names_excluded_tasks_and_cached_runs(built: tuple[Path, dict]) -> None:
    from execir.construct.commands import format_summary

    tmp, _ = built
    config = BuildConfig(source="jsonl", path=_tasks_file(tmp), out=tmp / "d", seed=1, max_mutants=4)  # the fixture's seed
    warm = format_summary(build(config, OracleConfig(workers=2, cache_path=tmp / "cache.sqlite", progress=False)))
    lines = warm.splitlines()
    assert "  excluded toy/broken: canonical does not pass its own tests: FAIL" in "\n".join(lines)
    runs = next(line for line in lines if line.startswith("sandbox runs: "))
    assert runs.startswith("sandbox runs: 0 executed, ") and not runs.endswith(" 0 from the verdict cache")


def test_c2c_rewrite_is_built_when_named_from_the_same_verdicts(built: tuple[Path, dict]) -> None:
    tmp, _ = built
    config = BuildConfig(source="jsonl", path=_tasks_file(tmp), out=tmp / "rw", seed=1, max_mutants=4, tasks="c2c,c2c-rewrite")
    summary = build(config, OracleConfig(workers=2, cache_path=tmp / "cache.sqlite", progress=False))
    assert tuple(summary.manifest["folders"]) == ("c2c", "c2c-rewrite")
    assert summary.report["oracle"]["runs_executed"] == 0  # every verdict from the first build's cache
    anchors, rewrites = tmp / "rw" / "c2c", tmp / "rw" / "c2c-rewrite"
    assert (anchors / CORPUS).read_bytes() == (rewrites / CORPUS).read_bytes()  # the same documents
    corpus = {d["_id"]: d["metadata"] for d in map(json.loads, (rewrites / CORPUS).read_text().splitlines())}
    queries = [json.loads(line) for line in (rewrites / QUERIES).read_text().splitlines()]
    assert queries and {q["_id"] for q in queries} == {i for i, m in corpus.items() if m["kind"] == "rewrite"}
    assert all(q["metadata"]["task"] == "c2c-rewrite" and q["metadata"]["subtype"] == "rewrite" for q in queries)
    judged: dict[str, dict[str, str]] = {}
    for query, doc, grade in _qrels_rows(rewrites):
        judged.setdefault(query, {})[doc] = grade
    for query in queries:
        own = judged[query["_id"]]
        assert query["_id"] not in own
        canonical = [d for d in own if corpus[d]["kind"] == "canonical"]
        assert len(canonical) == 1 and own[canonical[0]] == "2"
        assert {corpus[d]["kind"] for d, g in own.items() if g == "1"} == {"mutant"}
    card = (rewrites / "README.md").read_text()
    assert "that is not the task's canonical one" in card
