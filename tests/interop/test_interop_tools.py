"""The real pytrec_eval, ranx, ir_measures, BEIR and MTEB reproduce ExecIR's numbers from the files a
build writes (strict qrels, tie-ordered TREC runs), under both tie policies, and do not from the
graded qrels or the raw tied scores (the traps the strict files exist for).

Each tool reads the files with its own reader where it has one: TREC qrels and runs for
pytrec_eval (``parse_qrel``/``parse_run``), ranx and ir_measures; ``qrels-strict/<split>.tsv``
through BEIR's ``GenericDataLoader``; the ``default`` config through MTEB's ``RetrievalDatasetLoader``.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from execir.dataset.layout import strict_qrels_file, trec_qrels_file
from execir.interop import strict_qrels, tool_name
from execir.metrics import evaluate

from .conftest import MEASURES, SplitCase, without_anchor

TOL = 1e-9
ROUNDED = 5  # BEIR and MTEB round their means to 5 decimals


def _mean(values: dict[str, float]) -> float:
    return sum(values.values()) / len(values)


def _pytrec_measures(ks: tuple[int, ...] = (1, 10)) -> set[str]:
    cut = ",".join(map(str, ks))
    return {f"success.{cut}", f"ndcg_cut.{cut}", f"recall.{cut}", f"map_cut.{cut}", "recip_rank", "P.1"}


def _pytrec(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]], run10: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """measure (ExecIR name) -> query -> pytrec_eval's value; mrr@10 from the run cut to 10."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    full = pytrec_eval.RelevanceEvaluator(qrels, _pytrec_measures()).evaluate(run)
    cut = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run10)
    out = {m: {q: v[tool_name(m, "pytrec_eval")] for q, v in full.items()} for m in MEASURES if not m.startswith("mrr")}
    out["mrr@10"] = {q: v["recip_rank"] for q, v in cut.items()}
    out["p_1"] = {q: v["P_1"] for q, v in full.items()}
    return out


def _read_trec(path: Path, parse: Any) -> Any:
    with path.open() as handle:
        return parse(handle)


def test_every_query_has_values_and_cases_cover_both_policies(cases: list[SplitCase]) -> None:
    assert {c.ties for c in cases} == {"pessimistic", "trec"}
    assert any(c.mean("exec@1") != d.mean("exec@1") for c, d in zip(cases[::2], cases[1::2])), "the ties must matter somewhere"
    assert any(qid in c.raw[qid] for c in cases for qid in c.raw), "a code-to-code anchor must be in the run"
    assert any(not any(g >= 2 for g in judged.values()) for c in cases for judged in c.qrels.values()), "a query with no correct document"


def test_pytrec_eval_equals_execir(cases: list[SplitCase], folder: Path) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    for case in cases:
        qrels = _read_trec(folder / trec_qrels_file(case.split), pytrec_eval.parse_qrel)
        values = _pytrec(qrels, _read_trec(case.run_path, pytrec_eval.parse_run), _read_trec(case.run10_path, pytrec_eval.parse_run))
        assert set(values["ndcg@10"]) == set(case.qrels)
        for measure in MEASURES:
            for qid, expected in case.execir[measure].items():
                assert values[measure][qid] == pytest.approx(expected, abs=TOL), (case.split, case.ties, measure, qid)
        assert values["p_1"] == pytest.approx(case.execir["exec@1"], abs=TOL)


def test_ranx_equals_execir(cases: list[SplitCase], folder: Path) -> None:
    ranx = pytest.importorskip("ranx")
    for case in cases:
        qrels = ranx.Qrels.from_file(str(folder / trec_qrels_file(case.split)), kind="trec")
        run = ranx.Run.from_file(str(case.run_path), kind="trec")
        names = {m: tool_name(m, "ranx") for m in MEASURES}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numba's uint64 -> int64 cast warning
            per_query = ranx.evaluate(qrels, run, list(names.values()), return_mean=False)
        order = list(qrels.keys())
        for measure, name in names.items():
            got = dict(zip(order, per_query[name].tolist()))
            assert got == pytest.approx(case.execir[measure], abs=TOL), (case.split, case.ties, measure)


def test_ir_measures_equals_execir(cases: list[SplitCase], folder: Path) -> None:
    ir_measures = pytest.importorskip("ir_measures")
    for case in cases:
        qrels = list(ir_measures.read_trec_qrels(str(folder / trec_qrels_file(case.split))))
        run = list(ir_measures.read_trec_run(str(case.run_path)))
        names = {m: ir_measures.parse_measure(tool_name(m, "ir_measures")) for m in MEASURES}
        got: dict[str, dict[str, float]] = {m: {} for m in MEASURES}
        by_measure = {v: k for k, v in names.items()}
        for metric in ir_measures.iter_calc(list(names.values()), qrels, run):
            got[by_measure[metric.measure]][metric.query_id] = metric.value
        for measure in MEASURES:
            assert got[measure] == pytest.approx(case.execir[measure], abs=TOL), (case.split, case.ties, measure)


def _beir_numbers(qrels: dict[str, dict[str, int]], results: dict[str, dict[str, float]]) -> dict[str, float]:
    evaluation = pytest.importorskip("beir.retrieval.evaluation")
    beir = evaluation.EvaluateRetrieval
    ndcg, _map, recall, _ = beir.evaluate(qrels, results, [1, 10], ignore_identical_ids=True)
    mrr = beir.evaluate_custom(qrels, results, [1, 10], metric="mrr")
    accuracy = beir.evaluate_custom(qrels, results, [1, 10], metric="top_k_accuracy")
    every = {**ndcg, **_map, **recall, **mrr, **accuracy}
    return {m: every[tool_name(m, "beir")] for m in MEASURES}


def test_beir_equals_execir(cases: list[SplitCase], folder: Path) -> None:
    pytest.importorskip("beir")
    data_loader = pytest.importorskip("beir.datasets.data_loader")
    pytrec_eval = pytest.importorskip("pytrec_eval")
    assert strict_qrels_file("test").startswith("qrels-strict/")
    for case in cases:
        _, _, qrels = data_loader.GenericDataLoader(data_folder=str(folder), qrels_folder="qrels-strict").load(split=case.split)
        assert qrels == strict_qrels(case.qrels)
        results = _read_trec(case.run_path, pytrec_eval.parse_run)
        got = _beir_numbers(qrels, results)
        for measure in MEASURES:
            assert got[measure] == pytest.approx(round(case.mean(measure), ROUNDED), abs=TOL), (case.split, case.ties, measure)


def test_mteb_equals_execir(cases: list[SplitCase], folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    datasets = pytest.importorskip("datasets")
    pytest.importorskip("mteb")
    from mteb._evaluators.retrieval_metrics import calculate_retrieval_scores, make_score_dict
    from mteb.abstasks.retrieval_dataset_loaders import RetrievalDatasetLoader

    pytrec_eval = pytest.importorskip("pytrec_eval")
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path)
    for case in cases:
        split = RetrievalDatasetLoader(hf_repo=str(folder), revision=None, split=case.split).load()  # type: ignore[arg-type]
        qrels = {q: dict(docs) for q, docs in split["relevant_docs"].items()}
        assert qrels == strict_qrels(case.qrels)
        assert set(split["queries"]["id"]) == set(case.qrels)
        results = _read_trec(case.run_path, pytrec_eval.parse_run)
        scores = calculate_retrieval_scores(results, qrels, [1, 10])
        flat = make_score_dict(
            ndcg=scores.ndcg,
            _map=scores.map,
            recall=scores.recall,
            precision=scores.precision,
            mrr=scores.mrr,
            naucs=scores.naucs,
            naucs_mrr=scores.naucs_mrr,
            hit_rate=scores.hit_rate,
            task_scores={},
        )
        for measure in MEASURES:
            expected = case.mean(measure) if measure.startswith("mrr") else round(case.mean(measure), ROUNDED)
            assert flat[tool_name(measure, "mteb")] == pytest.approx(expected, abs=TOL), (case.split, case.ties, measure)


# The traps: what a user gets from the graded qrels, or from the raw tied scores.


def _pytrec_means(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]) -> dict[str, float]:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    per_query = pytrec_eval.RelevanceEvaluator(qrels, _pytrec_measures()).evaluate(run)
    return {m: _mean({q: v[tool_name(m, "pytrec_eval")] for q, v in per_query.items()}) for m in MEASURES if not m.startswith("mrr")}


def test_graded_qrels_inflate_every_tool(cases: list[SplitCase]) -> None:
    """Grade 1 (a verified-failing near clone) counts as relevant in every other tool."""
    ranx = pytest.importorskip("ranx")
    pytrec_eval = pytest.importorskip("pytrec_eval")
    inflated = 0
    for case in cases:
        ordered = _read_trec(case.run_path, pytrec_eval.parse_run)
        graded = _pytrec_means(case.qrels, ordered)
        strict = _pytrec_means(strict_qrels(case.qrels), ordered)
        assert graded["exec@10"] >= strict["exec@10"] and graded["exec@1"] >= strict["exec@1"]
        inflated += graded["exec@1"] > strict["exec@1"] + TOL and graded["ndcg@10"] != pytest.approx(strict["ndcg@10"])
        assert strict["exec@1"] == pytest.approx(case.mean("exec@1"), abs=TOL)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ranx_graded = ranx.evaluate(ranx.Qrels(case.qrels), ranx.Run(ordered), "hit_rate@1")
        assert ranx_graded == pytest.approx(graded["exec@1"], abs=TOL)
    assert inflated >= 2, "graded qrels must inflate exec@1 and change ndcg@10 on most splits"


def test_raw_tied_scores_follow_each_tools_own_tie_order(cases: list[SplitCase]) -> None:
    """On the raw scores, pytrec_eval (and so BEIR and MTEB) break ties by document id descending:
    they reproduce ExecIR's ``trec`` policy and miss the ``pessimistic`` numbers."""
    differs = 0
    for case in (c for c in cases if c.ties == "pessimistic"):
        raw = without_anchor(case.raw)
        tool = _pytrec_means(strict_qrels(case.qrels), raw)
        trec = {m: _mean(v) for m, v in evaluate(case.qrels, raw, MEASURES, ties="trec").items()}
        for measure in tool:
            assert tool[measure] == pytest.approx(trec[measure], abs=TOL)
        differs += any(abs(tool[m] - case.mean(m)) > TOL for m in tool)
    assert differs >= 1, "tied raw scores must change some pessimistic number"
