"""Two-stage evaluation: rerankers on every first stage's candidates, deltas against the first stage,
their outputs (results.json, runs/, per_query.jsonl, report) and the collection's view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execir.dataset import load_dataset
from execir.errors import ExecIRError
from execir.evaluate.collection import folder_summary
from execir.evaluate.config import EvalConfig
from execir.evaluate.outputs import system_slug, system_slugs, write_outputs
from execir.evaluate.pipeline import Timer, compare_systems, evaluate_systems, folder_result
from execir.report.collection import render_collection
from execir.report.terminal import format_leaderboard
from execir.rerank.base import RerankRequest, RerankStats
from execir.results import CollectionResult, FolderResult
from tests.evaluate.test_pipeline import RUNS, FixedRetriever, make_dataset


class PrefixReranker:
    """Scores 1.0 for documents whose id starts with ``prefix`` (0.0 otherwise); records what it saw."""

    def __init__(self, name: str, prefix: str) -> None:
        self.name = name
        self.prefix = prefix
        self.tasks: list[object] = []
        self.requests: list[RerankRequest] = []

    def use_task(self, task: object) -> None:
        self.tasks.append(task)

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        self.requests.append(request)
        return {q: {d: float(d.startswith(self.prefix)) for d in docs} for q, docs in request.candidates.items()}

    def stats(self) -> RerankStats:
        pairs = sum(map(len, self.requests[-1].candidates.values()))
        acted_on = frozenset({"t1"}) if self.prefix == "c" else None  # as exec reports the queries with examples
        return RerankStats(len(self.requests[-1].candidates), pairs, 0.01, {"candidates_executed": float(pairs)}, acted_on)

    def config(self) -> dict[str, object]:
        return {"prefix": self.prefix}


def _run(tmp_path: Path, rerankers: dict[str, PrefixReranker]) -> tuple[FolderResult, list, Path]:
    dataset = load_dataset(make_dataset(tmp_path / "ds"))
    config = EvalConfig(
        dataset=tmp_path / "ds", out=tmp_path / "out", retrievers=("tied", "good"), reranks=tuple(rerankers), bootstrap_resamples=100, progress=False
    )
    timer = Timer()
    systems = evaluate_systems(dataset, config, timer, factory=lambda spec: FixedRetriever(spec, RUNS[spec]), rerankers=rerankers)
    result = folder_result(dataset, config, systems, compare_systems(systems, config), timer)
    return result, systems, write_outputs(config.out, dataset, systems, result, config.run_depth)


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> tuple[FolderResult, list, Path, dict[str, PrefixReranker]]:
    rerankers = {"canon": PrefixReranker("canon", "c"), "same": PrefixReranker("same:x/y", "zzz")}
    result, systems, report = _run(tmp_path_factory.mktemp("two"), rerankers)
    return result, systems, report, rerankers


def test_every_reranker_on_every_first_stage(evaluated: tuple) -> None:
    result, _, _, rerankers = evaluated
    assert [s.name for s in result.systems] == ["tied", "good", "tied>>canon", "good>>canon", "tied>>same:x/y", "good>>same:x/y"]
    assert result.system("tied>>canon").rerank.first_stage == "tied" and result.system("tied>>canon").spec == "tied>>canon"
    assert all(len(r.tasks) == 1 and r.tasks[0].name == "t2c-description" for r in rerankers.values())  # the folder's task, once
    assert {"first stage", "rerank:tied>>canon", "rerank:good>>same:x/y", "score", "analyse"} <= set(result.timing_seconds)


def test_the_reranker_sees_only_the_candidates_with_languages_and_source(evaluated: tuple) -> None:
    _, _, _, rerankers = evaluated
    tied, good = rerankers["canon"].requests
    assert tied.candidates == {"t1": ("m1", "c1", "c2"), "t2": ("c2", "m2")}  # score order, ties by id descending (label-free)
    assert set(tied.documents) == {"c1", "m1", "c2", "m2"} and good.candidates["t1"] == ("c1", "m1")
    assert set(good.documents) == {"c1", "m1", "c2", "m2"}
    assert tied.doc_language == {d: "python" for d in ("c1", "m1", "c2", "m2")} and tied.query_language == {"t1": "python", "t2": "python"}
    assert tied.source == "toy" and tied.queries["t1"] == "add two numbers"


def test_reranked_order_strict_scores_and_deltas(evaluated: tuple) -> None:
    result, systems, _, _ = evaluated
    by_name = {s.name: s for s in systems}
    fixed = by_name["tied>>canon"]
    assert fixed.run["t1"] == {"c1": 3.0, "c2": 2.0, "m1": 1.0}  # canonicals first, then the first stage's (pessimistic) order
    assert fixed.raw_scores["t1"] == {"m1": 0.0, "c1": 1.0, "c2": 1.0}
    summary = result.system("tied>>canon")
    assert summary.metrics["exec@1"].mean == 1.0 and summary.rerank.deltas["exec@1"].mean == 0.5
    assert (summary.rerank.mcnemar.wins, summary.rerank.mcnemar.losses, summary.rerank.mcnemar.p_value) == (1, 0, 1.0)
    assert summary.rerank.extra == {"candidates_executed": 5.0} and summary.rerank.pairs == 5 and summary.rerank.config == {"prefix": "c"}
    assert set(summary.rerank.deltas) == {"exec@1", "exec@10", "ndcg@10"}


def test_measures_on_the_queries_the_reranker_acted_on(evaluated: tuple) -> None:
    result, systems, report, _ = evaluated
    by_name = {s.name: s for s in systems}
    acted = result.system("tied>>canon").rerank.acted_on
    assert acted is not None and acted.queries == 1
    assert acted.first["exec@1"] == by_name["tied"].per_query["exec@1"]["t1"] == 0.0  # t1 only
    assert acted.reranked["exec@1"] == by_name["tied>>canon"].per_query["exec@1"]["t1"] == 1.0
    assert result.system("tied>>same:x/y").rerank.acted_on is None
    assert FolderResult.from_json(result.to_json()).system("tied>>canon").rerank.acted_on == acted
    assert "queries acted on" in report.read_text() and "1 of 2" in report.read_text()


def test_a_reranker_that_ties_everything_reproduces_the_first_stage(evaluated: tuple) -> None:
    result, systems, _, _ = evaluated
    by_name = {s.name: s for s in systems}
    for first in ("tied", "good"):
        same = by_name[f"{first}>>same:x/y"]
        assert same.per_query == by_name[first].per_query  # even the pessimistic tie of "tied" is kept against it
        assert all(d.mean == d.low == d.high == 0.0 for d in result.system(same.name).rerank.deltas.values())
        assert result.system(same.name).rerank.mcnemar.p_value == 1.0


def test_outputs_of_reranked_systems(evaluated: tuple) -> None:
    result, _, report, _ = evaluated
    out = report.parent
    assert (out / "runs" / "tied--canon.trec").read_text().splitlines()[0] == "t1 Q0 c1 1 3 tied--canon"
    assert (out / "runs" / "good--same_x_y.trec").is_file() and (out / "runs" / "good--same_x_y.scores.tsv").is_file()
    assert sorted(p.name for p in (out / "figures").iterdir()) == ["density.png", "leaderboard.png", "operators.png"]
    rows = [json.loads(line) for line in (out / "per_query.jsonl").read_text().splitlines()]
    row = next(r for r in rows if r["system"] == "tied>>canon" and r["query_id"] == "t1")
    assert row["exec@1"] == 1.0 and row["ndcg@10"] == 1.0 and row["mrr@10"] == 1.0 and row["canonical_score"] == 1.0
    saved = json.loads((out / "results.json").read_text())
    assert saved["systems"]["good"]["rerank"] is None and saved["systems"]["tied>>canon"]["rerank"]["mcnemar"]["wins"] == 1
    assert FolderResult.from_json(saved).system("tied>>canon") == result.system("tied>>canon")
    text = report.read_text()
    section = text.split("## Reranking\n\n")[1].split("\n## ")[0]
    assert "| tied>>canon | tied | 0.500 → 1.000 | +0.500 [" in section and "| 1/0 | 1 |" in section
    assert "| tied>>canon | canon | 2 | 5 | 0.01 | candidates_executed 5 |" in section
    terminal = format_leaderboard(result)
    assert "tied>>canon" in terminal and "exact McNemar p" in terminal


def test_collection_shows_each_reranked_system_against_its_first_stage(evaluated: tuple, tmp_path: Path) -> None:
    result, _, _, _ = evaluated
    dataset = load_dataset(make_dataset(tmp_path / "ds"))
    summary = folder_summary(dataset, result, "report.md")
    score = next(s for s in summary.scores if s.system == "tied>>canon")
    assert score.first_stage == "tied" and score.deltas["exec@1"].mean == 0.5 and set(score.deltas) == {"exec@1", "ndcg@10"}
    assert next(s for s in summary.scores if s.system == "tied").first_stage is None
    text = render_collection(CollectionResult("test", "pessimistic", (summary,), {}, 1.0))
    assert "## Reranking" in text and "| toy | tied>>canon | tied | +0.500 [" in text


def test_two_rerankers_with_one_name_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ExecIRError, match="both resolve to the system name 'tied>>x'"):
        _run(tmp_path, {"a": PrefixReranker("x", "c"), "b": PrefixReranker("x", "m")})


def test_system_slugs_are_file_safe_and_distinct() -> None:
    assert system_slug("dense>>ce:BAAI/bge-reranker-base") == "dense--ce_BAAI_bge-reranker-base"
    assert system_slug("../x>>exec+ce:m") == "_x--exec+ce_m" and system_slug("..") == "system"
    assert len(system_slug("d>>ce:" + "a" * 300)) <= 120
    slugs = system_slugs(["a/b", "a:b", "c"])
    assert slugs["c"] == "c" and slugs["a/b"] != slugs["a:b"] and all(s.startswith("a_b-") for s in (slugs["a/b"], slugs["a:b"]))


def test_a_rerank_depth_reorders_only_the_head_of_the_first_stage(tmp_path: Path) -> None:
    dataset = load_dataset(make_dataset(tmp_path / "ds"))
    reranker = PrefixReranker("canon", "c")
    config = EvalConfig(
        dataset=tmp_path / "ds", out=tmp_path / "out", retrievers=("tied",), reranks=("canon",), rerank_depth=1, bootstrap_resamples=100, progress=False
    )
    systems = evaluate_systems(dataset, config, Timer(), factory=lambda spec: FixedRetriever(spec, RUNS[spec]), rerankers={"canon": reranker})
    (request,) = reranker.requests
    assert request.candidates == {"t1": ("m1",), "t2": ("c2",)}  # the first label-free candidate only
    assert request.first_scores == {"t1": {"m1": RUNS["tied"]["t1"]["m1"]}, "t2": {"c2": RUNS["tied"]["t2"]["c2"]}}  # for fuse: specs
    reranked = {s.name: s for s in systems}["tied>>canon"]
    assert reranked.run["t1"] == {"m1": 3.0, "c1": 2.0, "c2": 1.0}  # m1 alone was seen; the rest keep the first stage's order
    assert reranked.raw_scores["t1"] == {"m1": 0.0} and config.to_json()["rerank_depth"] == 1
    result = folder_result(dataset, config, systems, compare_systems(systems, config), Timer())
    write_outputs(config.out, dataset, systems, result, config.run_depth)
    rows = [line.split("\t") for line in (config.out / "runs" / "tied--canon.scores.tsv").read_text().splitlines()[1:]]
    assert [r for r in rows if r[0] == "t1"] == [["t1", "m1", "1", "0.0"], ["t1", "c1", "2", ""], ["t1", "c2", "3", ""]]
    records = [json.loads(line) for line in (config.out / "per_query.jsonl").read_text().splitlines()]
    (t1,) = [r for r in records if r["system"] == "tied>>canon" and r["query_id"] == "t1"]
    assert [(d["doc_id"], d["score"]) for d in t1["top10"]] == [("m1", 0.0), ("c1", None), ("c2", None)]


@pytest.mark.parametrize("depth", [0, 101, True])
def test_a_rerank_depth_outside_one_to_depth_is_refused(tmp_path: Path, depth: int) -> None:
    from execir.evaluate.runner import check_config

    with pytest.raises(ExecIRError, match="--rerank-depth must be between 1 and --depth"):
        check_config(EvalConfig(dataset=tmp_path, out=tmp_path / "o", rerank_depth=depth))


def test_fusion_in_the_pipeline_runs_between_the_first_stage_and_its_reranker(tmp_path: Path) -> None:
    from execir.rerank.fusion import FusionReranker

    dataset = load_dataset(make_dataset(tmp_path / "ds"))
    rerankers = {f"fuse:{w}:m": FusionReranker(PrefixReranker("m", "m"), w) for w in (0.0, 0.4, 1.0)}
    config = EvalConfig(dataset=tmp_path / "ds", out=tmp_path / "out", retrievers=("good",), reranks=tuple(rerankers), bootstrap_resamples=100, progress=False)
    systems = {s.name: s for s in evaluate_systems(dataset, config, Timer(), factory=lambda spec: FixedRetriever(spec, RUNS[spec]), rerankers=rerankers)}

    def first(name: str) -> str:
        run = systems[name].run["t1"]
        return max(run, key=lambda d: run[d])

    # the first stage has c1 (0.9) over m1 (0.5); the inner reranker m1 over c1: equal z-scores, opposite signs
    assert first("good") == "c1" and first("good>>fuse:0:m") == "c1" and first("good>>fuse:1:m") == "m1"
    assert first("good>>fuse:0.4:m") == "c1"  # 0.6 of the first stage outweighs 0.4 of the reranker
    assert systems["good>>fuse:0.4:m"].summary.rerank.config == {
        "fuse": {"weight": 0.4, "weights": {"default": 0.4}, "normalise": "z-score per query", "inner": {"prefix": "m"}},
    }
