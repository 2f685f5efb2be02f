"""The collection's view of evaluated folders: typed summaries, composition of the loaded split,
CoREB averages (mean nDCG@10 per direction, then over directions), and the evaluation's removal of
identical ids (a c2c anchor never counts for itself)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from execir.dataset import load_dataset
from execir.dataset.records import SPLITS
from execir.dataset.write import write_collection
from execir.evaluate.collection import HEADLINE, averages, composition, folder_summary
from execir.evaluate.pipeline import group_means, without_identical
from execir.results import (
    CollectionResult,
    Composition,
    DatasetFacts,
    Estimate,
    FolderResult,
    FolderScore,
    FolderSummary,
    GapAnalyses,
    Share,
    SystemSummary,
)
from tests.dataset.builders import build_items, collection_folders, plan_for

EMPTY = Composition(0, 0, 0.0, 0.0, 0.0, {}, {})


def _folder(name: str, direction: str, scores: dict[str, float | None], *, subtype: str = "", language: str = "python") -> FolderSummary:
    return FolderSummary(
        name,
        name,
        direction,
        subtype,
        language,
        "test",
        EMPTY,
        tuple(FolderScore(s, {} if v is None else {"ndcg@10": Estimate(v, v - 0.1, v + 0.1)}, 0.0, 0.0, {}) for s, v in scores.items()),
        f"{name}/report.md",
    )


@pytest.mark.parametrize(
    ("folders", "expected"),
    [
        ((), {}),
        ((_folder("c2t", "c2t", {"a": 0.4}),), {"a": {"c2t": 0.4, "overall": 0.4}}),
        (
            # three t2c folders weigh as one direction: (0.1 + 0.2 + 0.6) / 3 = 0.3, then (0.3 + 0.5 + 0.7) / 3
            (
                _folder("t2c-description", "t2c", {"a": 0.1}),
                _folder("t2c-full", "t2c", {"a": 0.2}),
                _folder("t2c-search", "t2c", {"a": 0.6}),
                _folder("c2t", "c2t", {"a": 0.5}),
                _folder("c2c", "c2c", {"a": 0.7}),
            ),
            {"a": {"c2c": 0.7, "c2t": 0.5, "t2c": 0.3, "overall": 0.5}},
        ),
        (
            # not the mean over folders: that would be (0.0 + 0.0 + 0.0 + 0.9) / 4
            (_folder("t2c-a", "t2c", {"a": 0.0}), _folder("t2c-b", "t2c", {"a": 0.0}), _folder("t2c-c", "t2c", {"a": 0.0}), _folder("c2c", "c2c", {"a": 0.9})),
            {"a": {"c2c": 0.9, "t2c": 0.0, "overall": 0.45}},
        ),
        (
            # each system over the directions it has; a folder without nDCG@10 is left out
            (_folder("t2c", "t2c", {"a": 0.2, "b": 0.8}), _folder("c2c", "c2c", {"a": 0.6, "b": None}), _folder("c2t", "c2t", {"c": 0.3})),
            {"a": {"c2c": 0.6, "t2c": 0.2, "overall": 0.4}, "b": {"t2c": 0.8, "overall": 0.8}, "c": {"c2t": 0.3, "overall": 0.3}},
        ),
        (
            # languages are folders of one direction too
            (
                _folder("c2c", "c2c", {"a": 0.3}, language="multi"),
                _folder("c2c-python", "c2c", {"a": 0.5}),
                _folder("c2c-java", "c2c", {"a": 0.7}, language="java"),
            ),
            {"a": {"c2c": 0.5, "overall": 0.5}},
        ),
    ],
)
def test_coreb_averages(folders: tuple[FolderSummary, ...], expected: dict[str, dict[str, float]]) -> None:
    got = averages(folders)
    assert list(got) == sorted(expected)
    for system, values in expected.items():
        assert got[system] == pytest.approx(values)
        assert list(got[system])[-1] == "overall"


def _system(name: str, v: float) -> SystemSummary:
    def metric(x: float) -> Estimate:
        return Estimate(x, x / 2, min(1.0, x * 1.5))

    none = Share(0.0, 0, 0)
    analyses = GapAnalyses(3, 10, "pessimistic", none, none, Share(1 - v, 0, 3), Share((1 - v) / 2, 0, 3), {})
    return SystemSummary(
        name,
        name,
        {},
        0,
        3,
        {"exec@1": metric(v / 2), "ndcg@10": metric(v), "mrr@10": metric(v * 0.9), "recall@100": metric(1.0)},
        0.0,
        {},
        analyses,
        {"python": {"n": 3.0, "exec@1": v, "ndcg@10": v}},
    )


def _results(systems: dict[str, float]) -> FolderResult:
    facts = DatasetFacts("p", "n", "t", "python", "test", None, None, 3, 9)
    return FolderResult("0", facts, {}, "pessimistic", tuple(_system(name, v) for name, v in systems.items()), (), {})


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    items = build_items()
    out = tmp_path_factory.mktemp("collection")
    write_collection(out, collection_folders(items), plan_for(items), {"source": {"name": "synthetic"}})
    return out


@pytest.mark.parametrize(
    ("name", "task", "direction", "subtype", "language"),
    [
        ("t2c-full-python", "t2c-full", "t2c", "full", "python"),
        ("t2c-search-java", "t2c-search", "t2c", "search", "java"),
        ("c2t", "c2t", "c2t", "", "multi"),
        ("c2c-java", "c2c", "c2c", "", "java"),
    ],
)
def test_folder_summary(collection: Path, name: str, task: str, direction: str, subtype: str, language: str) -> None:
    dataset = load_dataset(collection / name, "test")
    summary = folder_summary(dataset, _results({"bm25": 0.6, "dense": 0.8}), f"{name}/report.md")
    assert (summary.name, summary.direction, summary.subtype, summary.language, summary.split) == (name, direction, subtype, language, "test")
    assert summary.task == task
    assert summary.report == f"{name}/report.md"
    assert [s.system for s in summary.scores] == ["bm25", "dense"]
    bm25 = summary.scores[0]
    assert set(bm25.metrics) == set(HEADLINE)  # only the headline metrics
    ndcg = bm25.metrics["ndcg@10"]
    assert isinstance(ndcg, Estimate) and (ndcg.mean, ndcg.low, ndcg.high) == (0.6, 0.3, pytest.approx(0.9))
    assert (bm25.intrusion, bm25.coreb_intrusion) == (pytest.approx(0.4), pytest.approx(0.2))
    assert bm25.by_language == {"python": {"n": 3.0, "exec@1": 0.6, "ndcg@10": 0.6}}


def test_folder_summary_of_a_folder_made_elsewhere(collection: Path) -> None:
    plain = replace(load_dataset(collection / "c2t", "test"), task="", name="beir-folder", manifest={})
    summary = folder_summary(plain, _results({}), "r.md")
    assert (summary.task, summary.direction, summary.subtype, summary.language, summary.scores) == ("beir-folder", "t2c", "", "", ())


@pytest.mark.parametrize("split", [*SPLITS, "all"])
def test_composition_counts_the_loaded_split(collection: Path, split: str) -> None:
    dataset = load_dataset(collection / "c2c", split)
    got = composition(dataset)
    corpus_rows = [json.loads(line) for line in (collection / "c2c" / "corpus.jsonl").read_text().splitlines()]
    assert got.documents == len(corpus_rows) == len(dataset.corpus)
    kinds: dict[str, int] = {}
    for row in corpus_rows:
        kinds[row["metadata"]["kind"]] = kinds.get(row["metadata"]["kind"], 0) + 1
    assert got.documents_by_kind == kinds
    assert got.queries == len(dataset.qrels) and sum(got.queries_by_language.values()) == got.queries
    if got.queries:
        positives = [sum(g == 2 for g in judged.values()) for judged in dataset.qrels.values()]
        negatives = [sum(g == 1 for g in judged.values()) for judged in dataset.qrels.values()]
        assert got.positives_per_query == pytest.approx(sum(positives) / len(positives), abs=1e-4)
        assert got.hard_negatives_per_query == pytest.approx(sum(negatives) / len(negatives), abs=1e-4)
        assert got.positives_per_query >= 1


def test_composition_languages_of_a_two_language_folder(collection: Path) -> None:
    got = composition(load_dataset(collection / "c2c", "all"))
    assert got.queries_by_language == {"java": 5, "python": 7}
    assert got.median_query_tokens > 0


def test_collection_result_json_round_trips() -> None:
    folders = (_folder("c2t", "c2t", {"a": 0.4}),)
    result = CollectionResult("test", "pessimistic", folders, averages(folders), 1.5)
    data = json.loads(json.dumps(result.to_json()))
    assert data["average"] == {"a": {"c2t": 0.4, "overall": 0.4}}
    assert data["folders"][0]["scores"][0]["metrics"]["ndcg@10"] == {"mean": 0.4, "low": pytest.approx(0.3), "high": 0.5}
    assert data["folders"][0]["composition"]["documents_by_kind"] == {}


# identical ids and per-group means (evaluate.pipeline)


@pytest.mark.parametrize(
    ("run", "expected"),
    [
        ({}, {}),
        ({"q": {}}, {"q": {}}),
        ({"d-1": {"d-1": 9.0, "d-2": 1.0}}, {"d-1": {"d-2": 1.0}}),  # the anchor retrieves itself: dropped
        ({"d-1": {"d-2": 1.0, "d-1": 0.5}, "d-2": {"d-1": 2.0, "d-2": 3.0}}, {"d-1": {"d-2": 1.0}, "d-2": {"d-1": 2.0}}),
        ({"q": {"d-1": 1.0, "d-2": 1.0}}, {"q": {"d-1": 1.0, "d-2": 1.0}}),  # other ids untouched, ties kept
        ({"d-1": {"d-1": 1.0}}, {"d-1": {}}),  # a query with nothing left keeps its (empty) ranking
    ],
)
def test_without_identical(run: dict[str, dict[str, float]], expected: dict[str, dict[str, float]]) -> None:
    before = json.dumps(run, sort_keys=True)
    assert without_identical(run) == expected
    assert json.dumps(run, sort_keys=True) == before  # the input is not mutated


def test_group_means() -> None:
    per_query = {"exec@1": {"a": 1.0, "b": 0.0, "c": 1.0, "d": 0.5}, "ndcg@10": {"a": 0.9, "b": 0.1, "c": 0.5, "d": 0.5}}
    groups = {"a": "python", "b": "python", "c": "java", "d": "python"}
    got = group_means(per_query, groups, ("exec@1", "ndcg@10"))
    assert list(got) == ["java", "python"]
    assert got["java"] == {"n": 1.0, "exec@1": 1.0, "ndcg@10": 0.5}
    assert got["python"] == pytest.approx({"n": 3.0, "exec@1": 0.5, "ndcg@10": 0.5})
    assert group_means(per_query, {}, ("exec@1",)) == {}
