"""The collection report rendered from a synthetic, typed CollectionResult: CoREB averages, a
leaderboard row per folder and system, every folder's composition and report link."""

from __future__ import annotations

import re

import pytest

from execir.evaluate.collection import averages
from execir.report.collection import (
    COMPOSITION_HEADER,
    LEADERBOARD_HEADER,
    average_rows,
    composition_rows,
    format_collection,
    leaderboard_rows,
    render_collection,
)
from execir.results import CollectionResult, Composition, Estimate, FolderScore, FolderSummary


def _score(system: str, ndcg: float | None, *, by_language: dict[str, dict[str, float]] | None = None) -> FolderScore:
    metrics = (
        {}
        if ndcg is None
        else {
            "exec@1": Estimate(ndcg / 2, 0.0, ndcg),
            "ndcg@10": Estimate(ndcg, ndcg - 0.05, ndcg + 0.05),
            "mrr@10": Estimate(ndcg, 0, 1),
        }
    )
    return FolderScore(system, metrics, 0.25, 0.125, by_language or {})


def _folder(name: str, direction: str, subtype: str, language: str, scores: dict[str, float | None], *, queries: int = 10) -> FolderSummary:
    composition = Composition(queries, 100 + queries, 1.5, 3.25, 12.0, {"canonical": 40, "mutant": 60 + queries}, {language: queries})
    return FolderSummary(
        name,
        f"{direction}-{subtype}" if subtype else direction,
        direction,
        subtype,
        language,
        "test",
        composition,
        tuple(_score(s, v) for s, v in scores.items()),
        f"{name}/report.md",
    )


FOLDERS = (
    _folder("t2c-description-python", "t2c", "description", "python", {"bm25": 0.50, "dense": 0.70}),
    _folder("t2c-full-python", "t2c", "full", "python", {"bm25": 0.40, "dense": 0.80}),
    _folder("t2c-search-python", "t2c", "search", "python", {"bm25": 0.00, "dense": 0.03}),
    _folder("t2c-description-java", "t2c", "description", "java", {"bm25": 0.20, "dense": 0.60}),
    _folder("c2t", "c2t", "", "multi", {"bm25": 0.30, "dense": 0.50}),
    _folder("c2c", "c2c", "", "multi", {"bm25": 0.90, "dense": 0.10}, queries=7),
    _folder("c2c-java", "c2c", "", "java", {"bm25": 0.70, "dense": None}, queries=3),  # dense has no nDCG@10 here
)


@pytest.fixture
def result() -> CollectionResult:
    return CollectionResult("test", "pessimistic", FOLDERS, averages(FOLDERS), 12.34)


def _table(markdown: str, heading: str) -> list[list[str]]:
    """Rows of the first markdown table after ``heading`` (header row included)."""
    section = markdown.split(heading, 1)[1]
    rows = []
    for line in section.splitlines():
        if line.startswith("|"):
            if set(line) <= set("|-"):
                continue
            rows.append([c.strip() for c in line.strip("|").split("|")])
        elif rows:
            break
    return rows


def test_averages_are_per_direction_then_overall(result: CollectionResult) -> None:
    t2c_bm25 = (0.5 + 0.4 + 0.0 + 0.2) / 4
    c2c_bm25 = (0.9 + 0.7) / 2
    assert result.average["bm25"] == pytest.approx({"t2c": t2c_bm25, "c2t": 0.3, "c2c": c2c_bm25, "overall": (t2c_bm25 + 0.3 + c2c_bm25) / 3})
    t2c_dense = (0.7 + 0.8 + 0.03 + 0.6) / 4
    assert result.average["dense"] == pytest.approx({"t2c": t2c_dense, "c2t": 0.5, "c2c": 0.1, "overall": (t2c_dense + 0.5 + 0.1) / 3})


def test_average_rows(result: CollectionResult) -> None:
    header, rows = average_rows(result)
    assert header == ["system", "t2c nDCG@10", "c2t nDCG@10", "c2c nDCG@10", "overall"]
    assert [r[0] for r in rows] == ["bm25", "dense"]  # best overall first: bm25 0.458 > dense 0.378
    for row in rows:
        values = result.average[row[0]]
        assert row[1:] == [f"{values[d]:.3f}" for d in ("t2c", "c2t", "c2c", "overall")]


def test_average_rows_mark_a_missing_direction() -> None:
    folders = (_folder("t2c-full", "t2c", "full", "python", {"a": 0.2}), _folder("c2c", "c2c", "", "python", {"b": 0.9}))
    header, rows = average_rows(CollectionResult("dev", "pessimistic", folders, averages(folders), 0.0))
    assert header == ["system", "t2c nDCG@10", "c2c nDCG@10", "overall"]
    assert rows == [["b", "n/a", "0.900", "0.900"], ["a", "0.200", "n/a", "0.200"]]


def test_render_has_every_folder_everywhere(result: CollectionResult) -> None:
    text = render_collection(result)
    assert text.startswith("# ExecIR collection report") and text.endswith("\n")
    assert "7 folders, split **test**, tie policy **pessimistic**" in text and "Evaluated in 12.3 s." in text
    averages_table = _table(text, "## Averages")
    assert averages_table[0] == average_rows(result)[0] and averages_table[1:] == average_rows(result)[1]
    leaderboard = _table(text, "## Leaderboard per task")
    assert leaderboard[0] == LEADERBOARD_HEADER
    assert sorted((r[0], r[1]) for r in leaderboard[1:]) == sorted((f.name, s.system) for f in FOLDERS for s in f.scores)
    composition = _table(text, "## Dataset composition")
    assert composition[0] == COMPOSITION_HEADER and [r[0] for r in composition[1:]] == [f.name for f in FOLDERS]
    links = re.findall(r"^- \[(.+?)\]\((.+?)\)$", text.split("## Folder reports", 1)[1], re.MULTILINE)
    assert links == [(f.name, f.report) for f in FOLDERS]


def test_leaderboard_rows_best_first_with_cis() -> None:
    folder = FOLDERS[5]
    rows = leaderboard_rows(folder)
    assert [r[1] for r in rows] == ["bm25", "dense"]
    assert rows[0] == ["c2c", "bm25", "0.450 [0.000, 0.900]", "0.900 [0.850, 0.950]", "0.900", "25.0%", "12.5%"]
    no_ndcg = leaderboard_rows(FOLDERS[6])
    assert no_ndcg[-1] == ["c2c-java", "dense", "n/a", "n/a", "n/a", "25.0%", "12.5%"]


def test_composition_rows(result: CollectionResult) -> None:
    rows = composition_rows(result)
    assert rows[5] == ["c2c", "c2c", "multi", "7", "107", "1.50", "3.25", "12", "canonical 40, mutant 67"]
    assert [len(r) for r in rows] == [len(COMPOSITION_HEADER)] * len(FOLDERS)


def test_search_collapse_table(result: CollectionResult) -> None:
    table = _table(render_collection(result), "## Text-to-code query subtypes")
    assert table[0] == ["language", "system", "description", "full", "search"]
    assert table[1:] == [
        ["java", "bm25", "0.200", "n/a", "n/a"],
        ["java", "dense", "0.600", "n/a", "n/a"],
        ["python", "bm25", "0.500", "0.400", "0.000"],
        ["python", "dense", "0.700", "0.800", "0.030"],
    ]


def test_one_subtype_and_one_language_say_so() -> None:
    folders = (_folder("t2c-full", "t2c", "full", "python", {"a": 0.2}),)
    text = render_collection(CollectionResult("test", "optimistic", folders, averages(folders), 0.0))
    assert "Fewer than two text-to-code subtypes were evaluated." in text
    assert "Every folder's queries are in one language." in text


def test_per_language_breakdown() -> None:
    score = _score("a", 0.5, by_language={"java": {"n": 3.0, "exec@1": 0.25, "ndcg@10": 0.5}, "python": {"n": 4.0, "exec@1": 0.75, "ndcg@10": 0.625}})
    folder = FolderSummary("c2c", "c2c", "c2c", "", "multi", "test", FOLDERS[5].composition, (score,), "c2c/report.md")
    text = render_collection(CollectionResult("test", "pessimistic", (folder,), averages((folder,)), 0.0))
    assert _table(text, "## Per query language")[1:] == [["c2c", "a", "java", "3", "0.250", "0.500"], ["c2c", "a", "python", "4", "0.750", "0.625"]]


def test_format_collection_terminal_tables(result: CollectionResult) -> None:
    text = format_collection(result)
    averages_part, leaderboard_part = text.split("\n\n")
    lines = averages_part.splitlines()
    assert lines[0].split() == ["system", "t2c", "nDCG@10", "c2t", "nDCG@10", "c2c", "nDCG@10", "overall"]
    assert [line.split()[0] for line in lines[2:]] == ["bm25", "dense"]
    assert len(leaderboard_part.splitlines()) == 2 + sum(len(f.scores) for f in FOLDERS)
    for folder in FOLDERS:
        assert folder.name in leaderboard_part


def test_empty_collection_renders() -> None:
    text = render_collection(CollectionResult("test", "pessimistic", (), {}, 0.0))
    assert "0 folders" in text and "## Folder reports" in text
