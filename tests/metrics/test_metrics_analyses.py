"""Gap analyses and tie rate on a hand-built corpus of three tasks with known answers.

Task A: canonical a0, mutants a1 (flip), a2 (off_by_one). Query qa ranks a1 > a0 > b9 > a2.
Task B: canonical b9, mutant b1 (flip). Query qb ranks c0 first, then b9 and b1 TIED at 0.5:
        pessimistic puts the mutant b1 first; trec puts the larger id b9 first.
Task C: canonical c0, mutants c1 (off_by_one, absent from the run), c2 (flip). qc ranks c0 first.
"""

from __future__ import annotations

import copy
import json

import pytest

from execir.metrics.analyses import DocInfo, gap_analyses, tie_rate

DOCS = {
    "a0": DocInfo("A", "canonical", None),
    "a1": DocInfo("A", "mutant", "flip"),
    "a2": DocInfo("A", "mutant", "off_by_one"),
    "b9": DocInfo("B", "canonical", None),
    "b1": DocInfo("B", "mutant", "flip"),
    "c0": DocInfo("C", "canonical", None),
    "c1": DocInfo("C", "mutant", "off_by_one"),
    "c2": DocInfo("C", "mutant", "flip"),
}
QUERY_TASK = {"qa": "A", "qb": "B", "qc": "C"}
QRELS = {"qa": {"a0": 2, "a1": 1, "a2": 1}, "qb": {"b9": 2, "b1": 1}, "qc": {"c0": 2, "c1": 1, "c2": 1}}
RUN = {
    "qa": {"a1": 0.9, "a0": 0.8, "b9": 0.7, "a2": 0.1},
    "qb": {"c0": 0.9, "b9": 0.5, "b1": 0.5},
    "qc": {"c0": 0.9, "c2": 0.3, "a0": 0.2},
}


def analyse(**kw):
    return gap_analyses(QRELS, RUN, DOCS, QUERY_TASK, **kw)


def test_pessimistic_answers():
    out = analyse()
    assert out["n_queries"] == 3 and out["ties"] == "pessimistic"
    # exec@1 misses: qa (top a1, its own mutant) and qb (top c0, another task's canonical)
    assert out["paired_mutant_share_of_misses"] == {"share": 0.5, "numerator": 1, "denominator": 2}
    assert out["canonical_below_distractor"] == {"share": 2 / 3, "numerator": 2, "denominator": 3}
    assert out["intrusion@10"] == {"share": 2 / 3, "numerator": 2, "denominator": 3}
    # CoREB's: qa (a1 above a0) and qb (b1 tied with b9, pessimistic: above it), both in the top 10
    assert out["coreb_intrusion@10"] == {"share": 2 / 3, "numerator": 2, "denominator": 3}
    assert out["per_operator"] == {
        "flip": {"n": 3, "outranks": 2, "rate": 2 / 3},
        "off_by_one": {"n": 2, "outranks": 0, "rate": 0.0},
    }


def test_per_query_details():
    pq = analyse()["per_query"]
    assert pq["qa"] == {"canonical": "a0", "canonical_rank": 2, "canonical_score": 0.8, "top1_doc": "a1", "top1_kind": "mutant", "beaten_by": ["a1"]}
    assert pq["qb"]["canonical_rank"] == 3 and pq["qb"]["beaten_by"] == ["b1"]
    assert pq["qb"]["top1_kind"] == "canonical"
    assert pq["qc"] == {"canonical": "c0", "canonical_rank": 1, "canonical_score": 0.9, "top1_doc": "c0", "top1_kind": "canonical", "beaten_by": []}


def test_trec_ties_resolve_by_doc_id():
    out = analyse(ties="trec")
    assert out["canonical_below_distractor"]["numerator"] == 1
    assert out["intrusion@10"]["numerator"] == 1
    assert out["coreb_intrusion@10"]["numerator"] == 1  # qb: b9 now ranked above b1
    assert out["per_operator"]["flip"]["outranks"] == 1
    assert out["per_query"]["qb"]["canonical_rank"] == 2


@pytest.mark.parametrize(("k", "expected"), [(1, 1), (2, 2), (3, 2)])
def test_intrusion_cutoff(k, expected):
    # k=2, qb: top-2 is c0, b1: a mutant in the top k and no correct document
    assert analyse(k=k)[f"intrusion@{k}"]["numerator"] == expected


@pytest.mark.parametrize(("k", "expected"), [(1, 0), (2, 1), (3, 2)])
def test_coreb_intrusion_needs_a_correct_document_below_the_negative_in_the_top_k(k, expected):
    # k=1: no query has both; k=2: qa (a1, a0), not qb (c0, b1: no correct document); k=3: qb too (c0, b1, b9)
    assert analyse(k=k)[f"coreb_intrusion@{k}"]["numerator"] == expected


def test_grades_decide_pools_for_every_kind():
    # a rewrite (grade 2) is a correct document, a human bug (grade 1) a hard negative: the pools
    # follow the grade, not the kind; grade -1 (unknown) falls back on the kind
    docs = {
        "a0": DocInfo("A", "canonical", None, grade=2),
        "a3": DocInfo("A", "rewrite", "rename", grade=2),
        "a1": DocInfo("A", "human", "human", grade=1),
        "a2": DocInfo("A", "mutant", "off_by_one"),
        "z9": DocInfo("Z", "description", None, grade=0),
    }
    assert [docs[d].pool for d in ("a0", "a3", "a1", "a2", "z9")] == ["canonical", "canonical", "mutant", "mutant", None]
    qrels = {"qa": {"a0": 2, "a3": 2, "a1": 1, "a2": 1}}
    run = {"qa": {"a3": 0.9, "a1": 0.8, "a0": 0.7, "a2": 0.1}}
    out = gap_analyses(qrels, run, docs, {"qa": "A"})
    assert out["per_query"]["qa"]["canonical"] == "a3" and out["per_query"]["qa"]["beaten_by"] == []  # best-ranked correct document
    assert out["intrusion@10"]["numerator"] == 0 and out["coreb_intrusion@10"]["numerator"] == 1  # a1 above a0
    assert out["per_operator"] == {"human": {"n": 1, "outranks": 0, "rate": 0.0}, "off_by_one": {"n": 1, "outranks": 0, "rate": 0.0}}
    assert tie_rate(qrels, {"qa": {"a3": 0.5, "a1": 0.5}}, docs, {"qa": "A"}) == 1.0


def test_tie_rate_counts_exact_canonical_mutant_ties():
    assert tie_rate(QRELS, RUN, DOCS, QUERY_TASK) == pytest.approx(1 / 3)


def test_absent_documents():
    run = {"qa": {"b9": 1.0, "a2": 0.5}, "qb": {}}
    out = gap_analyses(QRELS, run, DOCS, QUERY_TASK)
    pq = out["per_query"]
    # qa: canonical absent, present mutant a2 outranks it; absent a1 does not
    assert pq["qa"]["canonical_rank"] is None and pq["qa"]["canonical_score"] is None
    assert pq["qa"]["beaten_by"] == ["a2"]
    # qb / qc: no results at all -> exec@1 misses, not paired, nothing beaten
    assert pq["qb"]["top1_doc"] is None and pq["qb"]["beaten_by"] == []
    assert out["paired_mutant_share_of_misses"] == {"share": 0.0, "numerator": 0, "denominator": 3}
    assert out["canonical_below_distractor"]["numerator"] == 1
    assert tie_rate(QRELS, run, DOCS, QUERY_TASK) == 0.0


def test_output_is_json_and_inputs_untouched():
    before = copy.deepcopy((QRELS, RUN, QUERY_TASK))
    json.dumps(analyse(), allow_nan=False)
    assert (QRELS, RUN, QUERY_TASK) == before


def test_errors():
    with pytest.raises(ValueError, match="query 'qa'.*no task"):
        gap_analyses(QRELS, RUN, DOCS, {"qb": "B", "qc": "C"})
    with pytest.raises(ValueError, match="k must be"):
        analyse(k=0)
