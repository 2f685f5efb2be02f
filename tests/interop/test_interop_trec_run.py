"""Tie-ordered runs, their TREC and raw-score files, strict qrels and the name table (no optional packages)."""

from __future__ import annotations

import copy

import pytest

from execir.interop import RAW_SCORES_HEADER, TOOL_NAMES, TOOLS, raw_scores_text, strict_qrels, tie_ordered, tool_name, trec_run_text
from execir.metrics import evaluate, rank_run

QRELS = {"q": {"good": 2, "bad": 1, "good2": 2}, "d-anchor": {"c1": 2, "m1": 1}}
RUN = {
    "q": {"bad": 0.5, "good": 0.5, "zz": 0.5, "good2": 0.1, "aa": 0.9},
    "d-anchor": {"d-anchor": 1.0, "c1": 0.3, "m1": 0.3, "x": 0.2},
}


def test_pessimistic_order_puts_correct_after_tied_wrong() -> None:
    ordered = tie_ordered(RUN, QRELS, ties="pessimistic")
    assert list(ordered["q"]) == ["aa", "zz", "bad", "good", "good2"]  # among 0.5: unjudged, grade 1, grade 2
    assert list(ordered["d-anchor"]) == ["m1", "c1", "x"]  # anchor dropped, mutant before its tied correct twin


def test_trec_order_is_doc_id_descending() -> None:
    ordered = tie_ordered(RUN, QRELS, ties="trec")
    assert list(ordered["q"]) == ["aa", "zz", "good", "bad", "good2"]
    assert list(ordered["d-anchor"]) == ["m1", "c1", "x"]


@pytest.mark.parametrize("ties", ["pessimistic", "trec"])
def test_scores_strictly_decrease_and_order_matches_rank_run(ties: str) -> None:
    ordered = tie_ordered(RUN, QRELS, ties=ties)  # type: ignore[arg-type]
    for qid, scores in ordered.items():
        values = list(scores.values())
        assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
        assert values[-1] == 1.0 and values[0] == float(len(values))
        expected = [doc for doc, _ in rank_run({qid: {d: s for d, s in RUN[qid].items() if d != qid}}, QRELS, ties=ties)[qid]]  # type: ignore[arg-type]
        assert list(scores) == expected


@pytest.mark.parametrize("ties", ["pessimistic", "trec"])
def test_ordered_run_scores_like_the_raw_run_under_every_policy(ties: str) -> None:
    """The replacement scores have no ties left, so every policy ranks them alike, and the numbers
    equal ExecIR's on the raw run (anchor dropped) under the policy that ordered them."""
    measures = ["exec@1", "ndcg@3", "mrr@3", "recall@2", "map@3"]
    raw = {qid: {d: s for d, s in scores.items() if d != qid} for qid, scores in RUN.items()}
    ordered = tie_ordered(RUN, QRELS, ties=ties)  # type: ignore[arg-type]
    expected = evaluate(QRELS, raw, measures, ties=ties)  # type: ignore[arg-type]
    for other in ("pessimistic", "trec"):
        assert evaluate(QRELS, ordered, measures, ties=other) == expected  # type: ignore[arg-type]


def test_depth_keep_identical_and_inputs_unchanged() -> None:
    before = copy.deepcopy(RUN)
    cut = tie_ordered(RUN, QRELS, depth=2)
    assert cut["q"] == {"aa": 2.0, "zz": 1.0}
    kept = tie_ordered(RUN, QRELS, drop_identical=False)
    assert next(iter(kept["d-anchor"])) == "d-anchor"
    assert RUN == before
    assert tie_ordered({"q": {}}, QRELS) == {"q": {}}


@pytest.mark.parametrize("bad", [0, -1, True, 2.5])
def test_bad_depth_raises(bad: object) -> None:
    with pytest.raises(ValueError, match="depth"):
        tie_ordered(RUN, QRELS, depth=bad)  # type: ignore[arg-type]


def test_unknown_policy_raises() -> None:
    with pytest.raises(ValueError, match="tie policy"):
        tie_ordered(RUN, QRELS, ties="optimistic")  # type: ignore[arg-type]


def test_trec_run_text_lines() -> None:
    ordered = tie_ordered(RUN, QRELS)
    lines = trec_run_text(ordered, "bm25").splitlines()
    assert lines[:2] == ["q Q0 aa 1 5 bm25", "q Q0 zz 2 4 bm25"]
    assert lines[-1] == "d-anchor Q0 x 3 1 bm25"
    assert trec_run_text(ordered, "bm25", depth=1).splitlines() == ["q Q0 aa 1 5 bm25", "d-anchor Q0 m1 1 3 bm25"]
    for line in lines:
        qid, q0, doc, rank, score, system = line.split(" ")
        assert q0 == "Q0" and system == "bm25" and int(rank) >= 1 and float(score) > 0
    with pytest.raises(ValueError, match="system"):
        trec_run_text(ordered, "bm 25")


def test_raw_scores_text_keeps_original_scores_in_ranked_order() -> None:
    ordered = tie_ordered(RUN, QRELS)
    text = raw_scores_text(ordered, RUN)
    assert text.startswith(RAW_SCORES_HEADER)
    rows = [line.split("\t") for line in text.splitlines()[1:]]
    assert rows[:3] == [["q", "aa", "1", "0.9"], ["q", "zz", "2", "0.5"], ["q", "bad", "3", "0.5"]]
    assert all(float(score) == RUN[q][d] for q, d, _, score in rows)
    assert len(raw_scores_text(ordered, RUN, depth=2).splitlines()) == 1 + 4
    with pytest.raises(ValueError, match="lacks"):
        raw_scores_text(ordered, {"q": {}})


def test_strict_qrels() -> None:
    assert strict_qrels(QRELS) == {"q": {"good": 1, "bad": 0, "good2": 1}, "d-anchor": {"c1": 1, "m1": 0}}
    assert QRELS["q"]["good"] == 2


def test_tool_names() -> None:
    assert tool_name("exec@1", "pytrec_eval") == "success_1"
    assert tool_name("NDCG@10", "mteb") == "ndcg_at_10"
    assert set(TOOL_NAMES) == {"exec", "ndcg", "mrr", "recall", "map"}
    assert all(set(names) == set(TOOLS) for names in TOOL_NAMES.values())
    for bad, tool in [("ndcg", "ranx"), ("p@1", "ranx"), ("ndcg@10", "trec_eval"), ("ndcg@0", "ranx")]:
        with pytest.raises(ValueError):
            tool_name(bad, tool)
