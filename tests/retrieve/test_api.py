from pathlib import Path
from typing import Any

import numpy as np
import pytest

from execir.errors import ExecIRError
from execir.retrieve import DenseRetriever, get_retriever
from execir.retrieve.api import api_encoder
from execir.retrieve.cache import namespace_of


class FakeTransport:
    """Records requests and answers in each provider's response shape."""

    def __init__(self, shape: str) -> None:
        self.shape = shape
        self.calls: list[tuple[str, dict[str, str], dict[str, Any]]] = []

    def __call__(self, url: str, headers: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
        self.calls.append((url, headers, body))
        texts = body.get("input", body.get("texts"))
        vecs = [[float(len(t)), 1.0, float(i)] for i, t in enumerate(texts)]
        if self.shape == "cohere":
            return {"embeddings": {"float": vecs}}
        items = [{"index": i, "embedding": v} for i, v in enumerate(vecs)]
        return {"data": items[::-1]}  # out of order on purpose


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for env in ("OPENAI_API_KEY", "VOYAGE_API_KEY", "CO_API_KEY"):
        monkeypatch.setenv(env, f"sk-{env}")


def test_openai_request_shape_and_order() -> None:
    fake = FakeTransport("openai")
    enc = api_encoder("openai", "text-embedding-3-small", transport=fake)
    out = enc.encode(["a", "bbb"], role="query")
    url, headers, body = fake.calls[0]
    assert url == "https://api.openai.com/v1/embeddings"
    assert headers == {"Authorization": "Bearer sk-OPENAI_API_KEY"}
    assert body == {"model": "text-embedding-3-small", "input": ["a", "bbb"], "encoding_format": "float"}
    assert np.allclose(np.linalg.norm(out, axis=1), 1.0)
    assert out[1, 0] > out[0, 0]  # rows matched back by index
    assert namespace_of(enc.cache_key("query")) != namespace_of(enc.cache_key("document"))


def test_voyage_roles_and_batching() -> None:
    fake = FakeTransport("voyage")
    enc = api_encoder("voyage", "voyage-code-3", transport=fake)
    enc.encode([f"t{i}" for i in range(300)], role="document", batch_size=1000)
    assert [len(c[2]["input"]) for c in fake.calls] == [128, 128, 44]
    assert fake.calls[0][0] == "https://api.voyageai.com/v1/embeddings"
    assert fake.calls[0][2]["input_type"] == "document"
    enc.encode(["q"], role="query")
    assert fake.calls[-1][2] == {"model": "voyage-code-3", "input": ["q"], "input_type": "query"}


def test_cohere_request_shape() -> None:
    fake = FakeTransport("cohere")
    enc = api_encoder("cohere", "embed-english-v3.0", transport=fake)
    out = enc.encode([f"t{i}" for i in range(100)], role="query", batch_size=200)
    assert out.shape == (100, 3) and [len(c[2]["texts"]) for c in fake.calls] == [96, 4]
    url, headers, body = fake.calls[0]
    assert url == "https://api.cohere.com/v2/embed"
    assert headers["Authorization"] == "Bearer sk-CO_API_KEY"
    assert body["input_type"] == "search_query" and body["embedding_types"] == ["float"]
    enc.encode(["d"], role="document")
    assert fake.calls[-1][2]["input_type"] == "search_document"


def test_missing_key_and_unknown_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(ExecIRError, match="OPENAI_API_KEY"):
        api_encoder("openai", "m", transport=FakeTransport("openai")).encode(["x"], role="query")
    with pytest.raises(ExecIRError, match="known: cohere, openai, voyage"):
        api_encoder("nope", "m")


def test_api_through_dense_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = {"d1": "alpha", "d2": "beta gamma"}
    fake = FakeTransport("voyage")
    r = DenseRetriever(api_encoder("voyage", "voyage-code-3", transport=fake), cache_dir=tmp_path)
    r.index(corpus)
    run = r.search({"q": "beta"}, top_k=2)
    assert r.name == "dense-voyage-voyage-code-3" and r.encoded_texts == 3
    monkeypatch.delenv("VOYAGE_API_KEY")  # a fully cached run needs no key
    again = DenseRetriever(api_encoder("voyage", "voyage-code-3", transport=fake), cache_dir=tmp_path)
    again.index(corpus)
    assert again.search({"q": "beta"}, top_k=2) == run and again.encoded_texts == 0
    assert get_retriever("api:openai:text-embedding-3-small").name == ("dense-openai-text-embedding-3-small")
