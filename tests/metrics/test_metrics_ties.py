"""Tie policies: pessimistic never credits a tie with a wrong document; trec follows trec_eval."""

from __future__ import annotations

import pytest
import pytrec_eval

from execir.metrics import evaluate, rank_run


def test_pessimistic_places_the_canonical_after_its_tied_mutant():
    qrels = {"q": {"canon": 2, "mut": 1}}
    run = {"q": {"canon": 0.7, "mut": 0.7, "z-other": 0.1}}
    assert [d for d, _ in rank_run(run, qrels)["q"]] == ["mut", "canon", "z-other"]
    out = evaluate(qrels, run, ["exec@1", "mrr@10"])
    assert out["exec@1"]["q"] == 0.0 and out["mrr@10"]["q"] == 0.5


def test_pessimistic_is_the_default_and_puts_unjudged_ties_first_too():
    qrels = {"q": {"a-canon": 2}}
    run = {"q": {"a-canon": 1.0, "b-unjudged": 1.0}}
    assert rank_run(run, qrels)["q"][0][0] == "b-unjudged"
    assert evaluate(qrels, run, ["exec@1"])["exec@1"]["q"] == 0.0


def test_pessimistic_breaks_equal_grade_ties_by_doc_id():
    run = {"q": {"c": 1.0, "a": 1.0, "b": 1.0, "top": 2.0}}
    assert [d for d, _ in rank_run(run, {})["q"]] == ["top", "a", "b", "c"]


def test_trec_policy_orders_ties_by_doc_id_descending_like_pytrec_eval():
    qrels = {"q": {"a": 2}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 0.5}}
    assert [d for d, _ in rank_run(run, qrels, ties="trec")["q"]] == ["b", "a", "c"]
    trec = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}, relevance_level=2).evaluate(run)
    assert trec["q"]["recip_rank"] == 0.5 == evaluate(qrels, run, ["mrr@10"], ties="trec")["mrr@10"]["q"]
    flipped = {"q": {"z": 2}}
    run2 = {"q": {"z": 1.0, "b": 1.0}}
    assert evaluate(flipped, run2, ["exec@1"], ties="trec")["exec@1"]["q"] == 1.0
    assert evaluate(flipped, run2, ["exec@1"])["exec@1"]["q"] == 0.0


def test_rank_run_covers_run_queries_and_rejects_bad_policies():
    ranked = rank_run({"q": {"d": 1.0}, "r": {}}, {})
    assert ranked == {"q": [("d", 1.0)], "r": []}
    with pytest.raises(ValueError, match="tie policy"):
        rank_run({}, {}, ties="random")  # type: ignore[arg-type]
