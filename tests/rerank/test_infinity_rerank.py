"""A cross-encoder that ``execir train-reranker`` wrote, served by a real Infinity server: its
``/rerank`` scores equal in-process ``CrossEncoder`` scores, and ``--rerank http:URL`` ranks and
measures exactly as ``--rerank ce:<folder>`` on a small built dataset."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from execir.cli import main
from execir.evaluate.outputs import system_slug
from execir.execute import OracleConfig
from execir.rerank.registry import get_reranker
from tests.infinity_server import InfinityServer, infinity_binary, serve
from tests.train.helpers import write_build

MAX_DIFF = 1e-5
"""Largest |Infinity - in-process| score allowed (both run float32 on the CPU with one torch)."""


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(build, model folder): the bundled MiniLM fine-tuned as a cross-encoder for one epoch by the CLI
    (a tiny randomly initialised BERT scores every pair alike, which would make the checks toothless)."""
    root = tmp_path_factory.mktemp("infinity-ce")
    build = write_build(root / "build", problems=6)
    args = ["train-reranker", "--train", str(build), "--task", "t2c-description", "--out", str(root / "ce")]
    args += ["--seeds", "1", "--dev-split", "none", "--batch-size", "8", "--max-length", "128", "--threads", "1", "--no-progress"]
    assert main(args) == 0
    return build, root / "ce" / "model"


@pytest.fixture(scope="module")
def server(trained: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[InfinityServer]:
    infinity_binary()
    with serve([(trained[1], "execir-ce")], tmp_path_factory.mktemp("infinity-ce-server") / "server.log") as running:
        yield running


def _pairs(build: Path) -> tuple[str, list[str]]:
    folder = build / "t2c-description"
    query = json.loads((folder / "queries.jsonl").read_text().splitlines()[0])["text"]
    documents = [json.loads(line)["text"] for line in (folder / "corpus.jsonl").read_text().splitlines()]
    return query, documents


def test_infinity_rerank_scores_equal_in_process_cross_encoder(trained: tuple[Path, Path], server: InfinityServer) -> None:
    from sentence_transformers import CrossEncoder

    build, model = trained
    query, documents = _pairs(build)
    answer = server.post("/rerank", {"model": "execir-ce", "query": query, "documents": documents, "raw_scores": True, "return_documents": False})
    served = np.zeros(len(documents))
    for item in answer["results"]:  # type: ignore[union-attr]
        served[item["index"]] = item["relevance_score"]  # type: ignore[index]
    local = CrossEncoder(str(model), device="cpu").predict([(query, d) for d in documents], activation_fn=__import__("torch").nn.Identity())
    difference = float(np.abs(served - np.asarray(local, dtype=np.float64)).max())
    print(f"infinity /rerank vs in-process CrossEncoder over {len(documents)} documents: max |difference| {difference:.3e}")
    assert difference <= MAX_DIFF
    assert float(np.ptp(served)) > 1000 * MAX_DIFF  # the scores differ between documents: the check has teeth


def test_rerank_http_measures_as_the_in_process_cross_encoder(trained: tuple[Path, Path], server: InfinityServer, tmp_path: Path) -> None:
    build, model = trained
    http_spec = f"http:{server.url}@execir-ce"
    args = ["eval", str(build / "t2c-description"), "--retriever", "bm25", "--rerank", f"ce:{model}", "--rerank", http_spec, "--split", "all"]
    assert main([*args, "--out", str(tmp_path / "o"), "--cache-dir", str(tmp_path / "cache"), "--no-progress"]) == 0
    systems = json.loads((tmp_path / "o" / "results.json").read_text())["systems"]
    names = ("bm25>>ce:ce-model", "bm25>>http:execir-ce")
    local, served = (systems[name] for name in names)
    assert served["rerank"]["extra"]["pairs_sent"] == served["rerank"]["pairs"] > 0
    assert served["metrics"] == local["metrics"] and served["metrics"] != systems["bm25"]["metrics"]
    runs = [(tmp_path / "o" / "runs" / f"{system_slug(name)}.trec").read_text().splitlines() for name in names]
    ranks = [[(f[0], f[2], f[3]) for f in map(str.split, lines)] for lines in runs]  # query, document, rank
    assert ranks[0] == ranks[1] and len(ranks[0]) > 10
    reranker = get_reranker(http_spec, cache_dir=tmp_path / "cache", oracle_config=OracleConfig(), progress=False)
    assert reranker.config()["url"] == server.url + "/rerank"
