"""The typed folder result serialises, at the edge, to the documented ``results.json`` shape and
reads back unchanged; per_query.jsonl rows keep their keys."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from execir.results import FolderResult, QueryRecord, RankedDoc
from tests.evaluate.test_pipeline import RUNS, _evaluate
from tests.report.test_folder_report import folder_result

TOP_KEYS = {"toolkit", "dataset", "config", "tie_policy", "systems", "comparisons", "timing_seconds"}
DATASET_KEYS = {"path", "name", "task", "language", "split", "manifest_sha256", "source", "queries", "documents"}
SYSTEM_KEYS = {"spec", "config", "encoded_texts", "queries", "metrics", "tie_rate", "density_ablation", "analyses", "by_language", "rerank", "usage"}
ANALYSES_KEYS = {"n_queries", "k", "ties", "paired_mutant_share_of_misses", "canonical_below_distractor", "intrusion@10", "coreb_intrusion@10", "per_operator"}
COMPARISON_KEYS = {"a", "b", "n", "mean_a", "mean_b", "mean_diff", "ci_low", "ci_high", "win", "tie", "loss", "b10", "b01", "p_value", "p_holm"}


def _check_shape(document: dict) -> None:
    assert set(document) == TOP_KEYS
    assert document["toolkit"]["name"] == "execir" and set(document["dataset"]) == DATASET_KEYS
    for summary in document["systems"].values():
        assert set(summary) == SYSTEM_KEYS and set(summary["analyses"]) == ANALYSES_KEYS
        assert all(set(m) == {"mean", "ci_low", "ci_high"} for m in summary["metrics"].values())
        assert all(set(s) == {"share", "numerator", "denominator"} for k, s in summary["analyses"].items() if k.endswith(("@10", "misses", "distractor")))
        assert all(set(r) == {"n", "outranks", "rate"} for r in summary["analyses"]["per_operator"].values())
        assert all(isinstance(level, str) for level in summary["density_ablation"])
    assert all(set(c) == COMPARISON_KEYS for c in document["comparisons"])


def test_hand_built_result_has_the_documented_keys_and_round_trips() -> None:
    result = folder_result()
    document = json.loads(json.dumps(result.to_json()))
    _check_shape(document)
    assert document["systems"]["good"]["metrics"]["exec@1"] == {"mean": 1.0, "ci_low": 0.5, "ci_high": 1.0}
    assert document["systems"]["tied"]["analyses"]["intrusion@10"] == {"share": 0.5, "numerator": 1, "denominator": 2}
    assert document["dataset"]["source"] == {"name": "toy-source"}
    assert FolderResult.from_json(document) == result


def test_written_results_json_reads_back_as_the_typed_result(tmp_path: Path) -> None:
    result, _ = _evaluate(tmp_path)
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    _check_shape(saved)
    assert set(saved["systems"]) == set(RUNS)
    assert saved["systems"]["tied"]["metrics"]["exec@1"]["mean"] == result.system("tied").metrics["exec@1"].mean == 0.5
    assert list(saved["systems"]["good"]["density_ablation"]) == ["0", "1", "2", "3", "4"]
    by_name = replace(result, systems=tuple(sorted(result.systems, key=lambda s: s.name)))  # JSON keys are written sorted
    assert FolderResult.from_json(saved) == by_name


def test_query_record_json_keys() -> None:
    record = QueryRecord("bm25", "q1", "t1", 1.0, 1, 0.5, ("m1",), (RankedDoc("c1", 0.5, 2, "canonical", None, "t1"),))
    row = record.to_json()
    assert set(row) == {"system", "query_id", "task_id", "exec@1", "canonical_rank", "canonical_score", "beaten_by", "top10"}
    assert row["beaten_by"] == ["m1"] and row["top10"] == [{"doc_id": "c1", "score": 0.5, "rel": 2, "kind": "canonical", "operator": None, "task_id": "t1"}]
