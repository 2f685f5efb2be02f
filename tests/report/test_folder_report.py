"""The folder report (markdown, terminal, figure labels) rendered from hand-built typed records:
no evaluation runs, and nothing reads a results dict."""

from __future__ import annotations

import pytest

from execir.dataset import Dataset, load_dataset
from execir.report.markdown import render_report, system_order
from execir.report.plots import operator_labels
from execir.report.terminal import format_leaderboard
from execir.results import (
    Comparison,
    DatasetFacts,
    Estimate,
    FolderResult,
    GapAnalyses,
    OperatorRate,
    QueryRecord,
    RankedDoc,
    Share,
    SystemSummary,
)
from tests.evaluate.test_pipeline import make_dataset

MEASURES = ("exec@1", "exec@5", "exec@10", "ndcg@10", "mrr@10")


def system(name: str, exec1: float, *, rate: float) -> SystemSummary:
    """A summary whose every metric is ``exec1`` and whose one operator outranks at ``rate``."""
    analyses = GapAnalyses(
        n_queries=2,
        k=10,
        ties="pessimistic",
        paired_mutant_share_of_misses=Share(1.0, 1, 1),
        canonical_below_distractor=Share(0.5, 1, 2),
        intrusion=Share(0.5, 1, 2),
        coreb_intrusion=Share(0.0, 0, 2),
        per_operator={"arith_swap": OperatorRate(6, round(6 * rate), rate), "min_max_swap": OperatorRate(6, 0, 0.0)},
    )
    return SystemSummary(
        name=name,
        spec=name,
        config={"name": name},
        encoded_texts=7,
        queries=2,
        metrics={m: Estimate(exec1, exec1 / 2, min(1.0, exec1 + 0.25)) for m in MEASURES},
        tie_rate=0.5,
        density_ablation={0: {"exec@1": 1.0, "ndcg@10": 1.0}, 1: {"exec@1": exec1, "ndcg@10": exec1}},
        analyses=analyses,
        by_language={"python": {"n": 2.0, "exec@1": exec1, "ndcg@10": exec1}},
    )


def folder_result(ties: str = "pessimistic") -> FolderResult:
    """Two systems, configured worst first, and their comparison."""
    facts = DatasetFacts("/data/toy", "toy", "t2c-description", "python", "test", "ab" * 32, {"name": "toy-source"}, 2, 4)
    comparison = Comparison("tied", "good", 2, 0.5, 1.0, -0.5, -1.0, 0.0, 0, 1, 1, 0, 1, 1.0, 1.0)
    return FolderResult(
        "9.9.9",
        facts,
        {"seed": 0},
        ties,
        (system("tied", 0.5, rate=0.5), system("good", 1.0, rate=0.0)),
        (comparison,),
        {"score": 0.25, "report": 0.5},
    )


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    return load_dataset(make_dataset(tmp_path_factory.mktemp("toy") / "ds"))


def failure(system_name: str) -> QueryRecord:
    """Query t1: its own mutant first, the canonical tied with it at rank 2."""
    top = (RankedDoc("m1", 0.9, 1, "mutant", "arith_swap", "t1"), RankedDoc("c1", 0.9, 2, "canonical", None, "t1"))
    return QueryRecord(system_name, "t1", "t1", 0.0, 2, 0.9, ("m1",), top)


def test_report_renders_from_typed_records(dataset: Dataset) -> None:
    text = render_report(folder_result(), [failure("tied")], dataset, {"density": "figures/density.png"})
    assert text.startswith("# ExecIR report: toy-source\n\n2 queries, 4 documents")
    assert "Toolkit 9.9.9, dataset manifest sha256 `abababababababab`" in text
    assert "| good | 1.000 [0.500, 1.000] | 1.000 [0.500, 1.000] | 1.000 [0.500, 1.000] | 1.000 | 7 |" in text
    assert "| tied vs good | -0.500 [-1.000, +0.000] | 0/1/1 | 0/1 | 1 | 1 |" in text
    assert "| tied | 100.0% of 1 | 50.0% of 2 | 50.0% of 2 | 50.0% |" in text
    assert "| 1 | 1.000 / 1.000 | 0.500 / 0.500 |" in text  # ablation, best system first
    assert "| arith_swap | 0.0% of 6 | 50.0% of 6 |" in text
    assert "### tied: t1 (canonical at rank 2, mutant ahead by 0.0000)" in text and "-    return a + b" in text
    assert "![pool-density ablation](figures/density.png)" in text
    assert "| report | 0.50 |" in text


def test_report_without_failures_or_a_second_system(dataset: Dataset) -> None:
    one = folder_result()
    one = FolderResult(one.toolkit_version, one.dataset, one.config, "trec", one.systems[:1], (), {})
    text = render_report(one, [], dataset)
    assert "Only one system was evaluated." in text and "No query had its own mutant ranked first." in text
    assert "or tied with" not in text and "ranks above the canonical" in text


def test_terminal_and_figure_labels_from_typed_records() -> None:
    result = folder_result()
    assert [s.name for s in system_order(result)] == ["good", "tied"]
    text = format_leaderboard(result)
    assert "exec@1 with 0..1 mutants per task in the pool: good 1.00 -> 1.00; tied 1.00 -> 0.50" in text
    assert "for tied: arith_swap 50.0% (n=6), min_max_swap 0.0% (n=6)" in text
    assert "tied vs good: exec@1 diff -0.500 [-1.000, +0.000], W/T/L 0/1/1, exact McNemar p=1 (Holm 1)" in text
    assert operator_labels(result) == ["arith_swap (n=6)", "min_max_swap (n=6)"]


def test_report_from_results_json_is_the_same(dataset: Dataset) -> None:
    result = folder_result()
    again = FolderResult.from_json(result.to_json())
    assert render_report(again, [failure("tied")], dataset) == render_report(result, [failure("tied")], dataset)
