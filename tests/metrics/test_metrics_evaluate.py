"""evaluate(): cross-checked against pytrec_eval (trec ties) and a slow reference (both policies).

Why pytrec_eval agrees with ExecIR's measures on *mapped* qrels: ExecIR's nDCG (CoREB protocol)
gives rel-1 mutants zero gain but lets them occupy their rank. trec_eval's ndcg_cut uses the
qrels grade itself as gain, so a rel-1 document would earn gain 1 there. Mapping every rel-1
label to 0 before handing the qrels to pytrec_eval makes its gains equal ours; with
relevance_level=2 its binary measures (P, recall, map_cut, recip_rank, success) count rel >= 2 as
relevant, exactly as ours do, and are unaffected by the mapping. trec_eval breaks score ties by
document id descending: our ``ties="trec"`` policy. pytrec_eval's recip_rank has no cutoff, so
it is compared with mrr at a cutoff longer than every list, and mrr@3 with recip_rank on runs
truncated to their trec top 3.
"""

from __future__ import annotations

import copy

import pytest
import pytrec_eval
from metrics_helpers import random_case, reference_evaluate

from execir.metrics import evaluate, rank_run

CUTS = (1, 3, 5, 10, 100)
PAIRS = {
    f"{ours}@{k}": f"{theirs}_{k}"
    for k in CUTS
    for ours, theirs in [("ndcg", "ndcg_cut"), ("recall", "recall"), ("map", "map_cut"), ("p", "P"), ("exec", "success")]
}
PAIRS |= {"mrr@1000": "recip_rank", "ndcg": "ndcg", "map": "map"}  # no cutoff
TREC_MEASURES = {f"{m}.{','.join(map(str, CUTS))}" for m in ("ndcg_cut", "recall", "map_cut", "P", "success")}
TREC_MEASURES |= {"recip_rank", "ndcg", "map"}


def mapped(qrels):
    """rel-1 -> 0 (see the module docstring)."""
    return {q: {d: (g if g >= 2 else 0) for d, g in docs.items()} for q, docs in qrels.items()}


def pytrec(qrels, run):
    return pytrec_eval.RelevanceEvaluator(mapped(qrels), TREC_MEASURES, relevance_level=2).evaluate(run)


def test_matches_pytrec_eval_on_random_tie_heavy_cases(case):
    qrels, run = case
    ours = evaluate(qrels, run, list(PAIRS), ties="trec")
    theirs = pytrec(qrels, run)
    for measure, trec_name in PAIRS.items():
        assert set(ours[measure]) == set(qrels)
        for q in qrels:
            expected = theirs[q][trec_name] if q in theirs else 0.0
            assert ours[measure][q] == pytest.approx(expected, abs=1e-12), (measure, q)


def test_mrr_cutoff_matches_recip_rank_on_truncated_runs(case):
    qrels, run = case
    top3 = {q: dict(ranked[:3]) for q, ranked in rank_run(run, qrels, ties="trec").items()}
    theirs = pytrec(qrels, top3)
    ours = evaluate(qrels, run, ["mrr@3"], ties="trec")["mrr@3"]
    for q in qrels:
        assert ours[q] == pytest.approx(theirs.get(q, {}).get("recip_rank", 0.0), abs=1e-12)


@pytest.mark.parametrize("ties", ["pessimistic", "trec"])
def test_matches_the_rank_run_reference_under_both_policies(case, ties):
    qrels, run = case
    measures = ["exec@1", "exec@5", "ndcg@3", "ndcg@10", "ndcg", "mrr@2", "mrr", "recall@4", "map@5", "map", "p@3"]
    ours = evaluate(qrels, run, measures, ties=ties)
    expected = reference_evaluate(qrels, run, measures, ties)
    for m in measures:
        for q in qrels:
            assert ours[m][q] == pytest.approx(expected[m][q], abs=1e-12), (m, q, ties)


def test_every_qrels_query_scored_missing_and_empty_runs_are_zero():
    qrels = {"a": {"x": 2}, "b": {"y": 2}, "c": {"z": 2, "w": 1}}
    run = {"b": {}, "c": {"z": 1.0}, "extra": {"x": 3.0}}
    out = evaluate(qrels, run, ["exec@1", "ndcg@10", "mrr@10", "recall@10", "map@10", "p@10"])
    for values in out.values():
        assert set(values) == {"a", "b", "c"}
        assert values["a"] == 0.0 and values["b"] == 0.0
    assert out["exec@1"]["c"] == 1.0 and out["p@10"]["c"] == 0.1


def test_rel1_gains_nothing_but_occupies_its_rank():
    qrels = {"q": {"good": 2, "mutant": 1}}
    run = {"q": {"mutant": 2.0, "good": 1.0, "other": 0.5}}
    out = evaluate(qrels, run, ["ndcg@10", "exec@1", "exec@2", "mrr@10", "map@10"])
    assert out["ndcg@10"]["q"] == pytest.approx(1 / 1.5849625007211563)  # 1/log2(3)
    assert out["exec@1"]["q"] == 0.0 and out["exec@2"]["q"] == 1.0
    assert out["mrr@10"]["q"] == 0.5 and out["map@10"]["q"] == 0.5


def test_queries_without_relevant_documents_score_zero():
    out = evaluate({"q": {"m": 1}}, {"q": {"m": 1.0}}, ["ndcg@10", "recall@10", "map@10", "mrr@10"])
    assert all(v["q"] == 0.0 for v in out.values())


def test_inputs_are_not_mutated():
    qrels, run = random_case(3)
    before = copy.deepcopy((qrels, run))
    evaluate(qrels, run, ["ndcg@10", "mrr@10"], ties="trec")
    evaluate(qrels, run, ["ndcg@10"], ties="pessimistic")
    rank_run(run, qrels)
    assert (qrels, run) == before


def test_errors_are_explicit():
    with pytest.raises(ValueError, match="unknown measure 'foo@1'"):
        evaluate({"q": {"d": 2}}, {}, ["foo@1"])
    with pytest.raises(ValueError, match="tie policy"):
        evaluate({"q": {"d": 2}}, {}, ["ndcg@10"], ties="optimistic")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="query 'q', document 'd': score is NaN"):
        evaluate({"q": {"d": 2}}, {"q": {"d": float("nan")}}, ["ndcg@10"])
    with pytest.raises(ValueError, match="sequence of names"):
        evaluate({"q": {"d": 2}}, {}, "ndcg@10")


def test_empty_qrels_give_empty_results():
    assert evaluate({}, {"q": {"d": 1.0}}, ["ndcg@10"]) == {"ndcg@10": {}}


def test_block_size_does_not_change_values(case, monkeypatch):
    from execir.metrics import positions

    qrels, run = case
    measures = ["ndcg@10", "mrr", "map@5"]
    whole = evaluate(qrels, run, measures, ties="trec")
    monkeypatch.setattr(positions, "_BLOCK_CELLS", 1)
    assert evaluate(qrels, run, measures, ties="trec") == whole
