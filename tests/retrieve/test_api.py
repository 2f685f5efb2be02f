"""Contract tests of the hosted embedding adapters against a loopback server that answers in each
provider's documented shapes (including error bodies and 429 with Retry-After)."""

import hashlib
from typing import Any

import numpy as np
import pytest

from execir.dataset.spec import TASK_SPECS
from execir.errors import ExecIRError
from execir.retrieve import DenseRetriever, get_retriever
from execir.retrieve.api import PROVIDERS, ApiError, HttpClient, api_encoder, encoder_from_spec
from execir.retrieve.cache import namespace_of

KEYS = {
    "openai": "OPENAI_API_KEY",
    "voyage": "VOYAGE_API_KEY",
    "cohere": "CO_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "jina": "JINA_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "nomic": "NOMIC_API_KEY",
}
MODELS = {
    "openai": "text-embedding-3-small",
    "voyage": "voyage-code-3",
    "cohere": "embed-english-v3.0",
    "gemini": "gemini-embedding-001",
    "jina": "jina-code-embeddings-1.5b",
    "mistral": "codestral-embed",
    "nomic": "nomic-embed-text-v1.5",
}
PATHS = {
    "openai": "/v1/embeddings",
    "voyage": "/v1/embeddings",
    "cohere": "/v2/embed",
    "gemini": "/v1beta/models/gemini-embedding-001:batchEmbedContents",
    "jina": "/v1/embeddings",
    "mistral": "/v1/embeddings",
    "nomic": "/v1/embedding/text",
}
BASES = {"openai": "/v1", "voyage": "/v1", "cohere": "/v2", "gemini": "/v1beta", "jina": "/v1", "mistral": "/v1", "nomic": "/v1"}


def secret(provider: str) -> str:
    return f"sk-{provider}-0123456789abcdef"


def vector(text: str) -> list[float]:
    """A deterministic, deliberately non-unit vector of a text."""
    digest = hashlib.sha256(text.encode()).digest()
    return [float(len(text) + 1), *(b / 25.0 for b in digest[:3])]


def texts_of(body: dict[str, Any]) -> list[str]:
    if "requests" in body:
        return [r["content"]["parts"][0]["text"] for r in body["requests"]]
    return list(body.get("input") or body.get("texts") or body.get("inputs") or [])


def provider_answer(provider: str, body: dict[str, Any]) -> dict[str, Any]:
    """The documented success shape of ``provider`` for one request body."""
    texts = texts_of(body)
    vecs = [vector(t) for t in texts]
    tokens = sum(len(t.split()) for t in texts)
    if provider == "gemini":
        return {"embeddings": [{"values": v} for v in vecs]}
    if provider == "cohere":
        return {"id": "x", "embeddings": {"float": vecs}, "texts": texts, "meta": {"billed_units": {"input_tokens": tokens}}}
    if provider == "nomic":
        return {"embeddings": vecs, "usage": {"prompt_tokens": tokens, "total_tokens": tokens}, "model": body["model"]}
    items = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vecs)]
    return {"object": "list", "data": items[::-1], "model": body["model"], "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}


def serve(loopback: Any, provider: str, *, fail_after: int | None = None) -> None:
    """Answer like ``provider``; with ``fail_after``, requests beyond that many get a 400 error body."""

    def answer(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
        if fail_after is not None and len(loopback.posts()) > fail_after:
            return 400, {}, {"error": {"message": "quota exhausted", "type": "invalid_request_error"}}
        return 200, {}, provider_answer(provider, body)

    loopback.answer = answer


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for provider, env in KEYS.items():
        monkeypatch.setenv(env, secret(provider))


def encoder(loopback: Any, provider: str, model: str | None = None, sleeps: list[float] | None = None, **options: str) -> Any:
    client = HttpClient(provider, sleep=(sleeps if sleeps is not None else []).append)
    return api_encoder(provider, model or MODELS[provider], options={"base_url": loopback.url + BASES[provider], **options}, client=client)


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_request_shape_auth_order_usage(loopback: Any, provider: str) -> None:
    serve(loopback, provider)
    enc = encoder(loopback, provider)
    out = enc.encode(["def f(): pass", "a b c"], role="document")
    [request] = loopback.posts()
    assert request.path == PATHS[provider]
    if provider == "gemini":
        assert request.headers["x-goog-api-key"] == secret(provider) and "authorization" not in request.headers
        assert "key=" not in request.path
    else:
        assert request.headers["authorization"] == f"Bearer {secret(provider)}"
    assert texts_of(request.body) == ["def f(): pass", "a b c"]
    assert np.allclose(np.linalg.norm(out, axis=1), 1.0)
    expected = np.asarray([vector("def f(): pass"), vector("a b c")], dtype=np.float32)
    assert np.allclose(out, expected / np.linalg.norm(expected, axis=1, keepdims=True), atol=1e-6)  # matched back in input order
    usage = enc.usage.to_json()
    assert usage["requests"] == 1 and usage["inputs"] == 2
    assert usage["estimated_tokens"] == (usage["tokens"] if provider == "gemini" else 0)  # gemini reports no tokens
    if provider in ("jina", "nomic"):  # no price in the table: no guessed cost
        assert usage["estimated_cost_usd"] is None and usage["price_source"] is None
    else:
        assert usage["tokens"] > 0 and usage["estimated_cost_usd"] == pytest.approx(usage["tokens"] * usage["usd_per_million_tokens"] / 1e6)
    assert secret(provider) not in repr(enc.config()) and namespace_of(enc.cache_key("query")) != namespace_of(enc.cache_key("document"))


def bodies_by_role(loopback: Any, provider: str, model: str, task: str | None, **options: str) -> tuple[dict[str, Any], dict[str, Any]]:
    serve(loopback, provider)
    enc = encoder(loopback, provider, model, **options)
    enc.use_task(TASK_SPECS[task] if task else None)
    enc.encode(["q text"], role="query")
    enc.encode(["doc text"], role="document")
    query, document = loopback.posts()[-2:]
    return query.body, document.body


@pytest.mark.parametrize(
    ("task", "query_type"), [(None, "CODE_RETRIEVAL_QUERY"), ("t2c-search", "CODE_RETRIEVAL_QUERY"), ("c2t", "RETRIEVAL_QUERY"), ("c2c", "RETRIEVAL_QUERY")]
)
def test_gemini_task_types_and_dimensions(loopback: Any, task: str | None, query_type: str) -> None:
    query, document = bodies_by_role(loopback, "gemini", "gemini-embedding-001", task, dim="768")
    assert query["requests"][0] == {
        "model": "models/gemini-embedding-001",
        "content": {"parts": [{"text": "q text"}]},
        "taskType": query_type,
        "outputDimensionality": 768,
    }
    assert document["requests"][0]["taskType"] == "RETRIEVAL_DOCUMENT"


@pytest.mark.parametrize(
    ("model", "task", "query_task", "doc_task"),
    [
        ("jina-code-embeddings-1.5b", "t2c-description", "nl2code.query", "nl2code.passage"),
        ("jina-code-embeddings-0.5b", "c2t", "code2nl.query", "code2nl.passage"),
        ("jina-code-embeddings-0.5b", "c2c", "code2code.query", "code2code.passage"),
        ("jina-embeddings-v4", "t2c-full", "code.query", "code.passage"),
        ("jina-embeddings-v4", "c2c", "retrieval.query", "retrieval.passage"),
        ("jina-embeddings-v3", "c2t", "retrieval.query", "retrieval.passage"),
        ("jina-embeddings-v2-base-code", "t2c-full", None, None),
    ],
)
def test_jina_tasks(loopback: Any, model: str, task: str, query_task: str | None, doc_task: str | None) -> None:
    query, document = bodies_by_role(loopback, "jina", model, task, dim="512")
    assert query.get("task") == query_task and document.get("task") == doc_task
    assert query["dimensions"] == 512 and query["embedding_type"] == "float" and query["model"] == model


def test_mistral_is_symmetric_with_dimension_and_dtype(loopback: Any) -> None:
    query, document = bodies_by_role(loopback, "mistral", "codestral-embed", "t2c-description", dim="256", dtype="int8")
    assert query == {"model": "codestral-embed", "input": ["q text"], "output_dimension": 256, "output_dtype": "int8"}
    assert {**document, "input": ["q text"]} == query
    enc = encoder(loopback, "mistral")
    assert enc.cache_key("query")["prompt"] == enc.cache_key("document")["prompt"]


@pytest.mark.parametrize(
    ("model", "task", "query_text", "field"),
    [
        ("nomic-embed-text-v1.5", "t2c-description", "q text", {"task_type": "search_query"}),
        ("nomic-embed-code", "t2c-description", "Represent this query for searching relevant code: q text", {}),
        ("nomic-ai/CodeRankEmbed", "c2c", "q text", {}),
    ],
)
def test_nomic_roles(loopback: Any, model: str, task: str, query_text: str, field: dict[str, str]) -> None:
    query, document = bodies_by_role(loopback, "nomic", model, task)
    assert query == {"model": model, "texts": [query_text], **field}
    assert document["texts"] == ["doc text"] and document.get("task_type") == ("search_document" if field else None)


def test_voyage_and_cohere_roles_and_options(loopback: Any) -> None:
    query, document = bodies_by_role(loopback, "voyage", "voyage-code-3", "c2c", dim="512", dtype="float")
    assert query == {"model": "voyage-code-3", "input": ["q text"], "input_type": "query", "output_dimension": 512, "output_dtype": "float"}
    assert document["input_type"] == "document"
    query, document = bodies_by_role(loopback, "cohere", "embed-v4.0", "t2c-description", dim="256")
    assert query == {"model": "embed-v4.0", "texts": ["q text"], "input_type": "search_query", "output_dimension": 256, "embedding_types": ["float"]}
    assert document["input_type"] == "search_document"
    query, _ = bodies_by_role(loopback, "openai", "text-embedding-3-large", None, dim="1024")
    assert query == {"model": "text-embedding-3-large", "input": ["q text"], "encoding_format": "float", "dimensions": 1024}


@pytest.mark.parametrize(
    ("provider", "n", "chars", "sizes"),
    [
        ("gemini", 250, 10, [100, 100, 50]),
        ("cohere", 100, 10, [96, 4]),
        ("openai", 2100, 10, [2048, 52]),
        ("voyage", 1100, 10, [1000, 100]),
        ("voyage", 40, 30_000, [12, 12, 12, 4]),  # 10,000 estimated tokens each, 120k a request
        ("mistral", 600, 10, [512, 88]),
        ("mistral", 40, 3_000, [16, 16, 8]),  # 1,000 estimated tokens each, 16,384 a request
    ],
)
def test_batches_by_item_and_token_limits(loopback: Any, provider: str, n: int, chars: int, sizes: list[int]) -> None:
    serve(loopback, provider)
    texts = [f"{i:05d}" + "x" * (chars - 5) for i in range(n)]
    out = encoder(loopback, provider).encode(texts, role="document")
    assert [len(texts_of(r.body)) for r in loopback.posts()] == sizes
    assert out.shape[0] == n


def test_batch_option_lowers_the_cap(loopback: Any) -> None:
    serve(loopback, "gemini")
    enc = encoder(loopback, "gemini", batch="30")
    enc.encode([f"t{i}" for i in range(70)], role="query")
    assert [len(texts_of(r.body)) for r in loopback.posts()] == [30, 30, 10] and enc.cache_chunk == 30


def test_rate_limit_retry_after_is_honoured(loopback: Any) -> None:
    calls = iter(range(100))

    def answer(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
        if next(calls) < 2:
            return 429, {"Retry-After": "2"}, {"error": {"code": 429, "message": "Resource has been exhausted", "status": "RESOURCE_EXHAUSTED"}}
        return 200, {}, provider_answer("gemini", body)

    loopback.answer = answer
    sleeps: list[float] = []
    enc = encoder(loopback, "gemini", sleeps=sleeps)
    enc.encode(["a"], role="query")
    assert sleeps == [2.0, 2.0] and len(loopback.posts()) == 3 and enc.usage.to_json()["retries"] == 2


def test_provider_errors_name_provider_and_status_not_the_key(loopback: Any) -> None:
    loopback.answer = lambda *a: (400, {}, {"object": "error", "message": "Too many inputs in request, split into more batches.", "code": "3210"})
    with pytest.raises(ApiError, match=r"mistral: HTTP 400: Too many inputs in request") as caught:
        encoder(loopback, "mistral").encode(["a"], role="query")
    assert secret("mistral") not in str(caught.value) and len(loopback.posts()) == 1  # a 400 is not retried
    loopback.answer = lambda *a: (401, {}, {"detail": "Invalid API key " + secret("jina")})
    with pytest.raises(ApiError, match="jina: HTTP 401: Invalid API key \\*\\*\\*"):
        encoder(loopback, "jina").encode(["a"], role="query")


def test_an_answer_of_the_wrong_shape_is_a_clear_error(loopback: Any) -> None:
    loopback.answer = lambda *a: (200, {}, {"embeddings": "nope"})
    with pytest.raises(ExecIRError, match="openai: the answer is not the documented embeddings shape"):
        encoder(loopback, "openai").encode(["a"], role="query")
    loopback.answer = lambda *a: (200, {}, {"embeddings": [{"values": [1.0]}, {"values": [2.0]}]})
    with pytest.raises(ExecIRError, match="gemini: sent 1 texts, got 2 vectors"):
        encoder(loopback, "gemini").encode(["a"], role="query")


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_missing_key_names_the_variable(loopback: Any, provider: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEYS[provider])
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("COHERE_API_KEY", raising=False)
    with pytest.raises(ExecIRError, match=f"\\${KEYS[provider]}"):
        encoder(loopback, provider).encode(["x"], role="query")
    assert loopback.requests == []


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("api:nope:model", "known: cohere, gemini, jina, mistral, nomic, openai, voyage"),
        ("api:gemini:gemini-embedding-001,dim=64", "'dim' must be between 128 and 3072"),
        ("api:gemini:gemini-embedding-001,dim=abc", "'dim' must be a positive integer"),
        ("api:voyage:voyage-code-3,dim=300", "'dim' must be one of 256, 512, 1024, 2048"),
        ("api:mistral:codestral-embed,dtype=binary", "'dtype' must be one of float, int8, uint8"),
        ("api:openai:text-embedding-3-small,colour=red", "unknown option"),
        ("api:openai:text-embedding-3-small,dim", "not name=value"),
        ("api:openai:m,dim=8,dim=9", "given twice"),
        ("api:openai:m,base_url=ftp://x", "base_url must start with http"),
        ("api:openai", "api:<provider>:<model>"),
    ],
)
def test_bad_specs_are_clear(spec: str, message: str) -> None:
    with pytest.raises(ExecIRError, match=message):
        get_retriever(spec)


def test_base_url_from_environment_and_spec(loopback: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    serve(loopback, "voyage")
    monkeypatch.setenv("EXECIR_VOYAGE_BASE_URL", loopback.url + "/v1/")
    enc = encoder_from_spec("api", "voyage:voyage-code-3", client=HttpClient("voyage", sleep=lambda s: None))
    enc.encode(["a"], role="query")
    assert loopback.posts()[0].path == "/v1/embeddings"
    assert encoder_from_spec("api", "voyage:voyage-code-3,base_url=https://proxy.example/v1").endpoint() == "https://proxy.example/v1/embeddings"
    assert get_retriever("api:openai:text-embedding-3-small").name == "dense-openai-text-embedding-3-small"


def test_options_that_change_vectors_change_the_cache_key() -> None:
    base = api_encoder("gemini", "gemini-embedding-001")
    shorter = api_encoder("gemini", "gemini-embedding-001", options={"dim": "768"})
    proxied = api_encoder("gemini", "gemini-embedding-001", options={"base_url": "https://proxy.example/v1beta", "batch": "10"})
    key = namespace_of(base.cache_key("query"))
    assert namespace_of(shorter.cache_key("query")) != key
    assert namespace_of(proxied.cache_key("query")) == key  # where it is sent and how it is batched change no vector
    base.use_task(TASK_SPECS["c2c"])
    assert namespace_of(base.cache_key("query")) != key


def test_api_through_dense_cache_needs_no_key_when_cached(loopback: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    serve(loopback, "voyage")
    corpus = {"d1": "alpha", "d2": "beta gamma"}
    r = DenseRetriever(encoder(loopback, "voyage"), cache_dir=tmp_path)
    r.index(corpus)
    run = r.search({"q": "beta"}, top_k=2)
    assert r.name == "dense-voyage-voyage-code-3" and r.encoded_texts == 3
    usage = r.usage()
    assert usage is not None and usage["inputs"] == 3 and usage["cached_texts"] == 0
    monkeypatch.delenv("VOYAGE_API_KEY")  # a fully cached run needs no key
    again = DenseRetriever(encoder(loopback, "voyage"), cache_dir=tmp_path)
    again.index(corpus)
    assert again.search({"q": "beta"}, top_k=2) == run and again.encoded_texts == 0
    assert again.usage() == {**usage, "requests": 0, "inputs": 0, "tokens": 0, "estimated_cost_usd": 0.0, "cached_texts": 3}
    assert len(loopback.posts()) == 2


def test_hybrid_reports_usage_of_its_api_part(loopback: Any, tmp_path: Any) -> None:
    from execir.retrieve.bm25 import BM25Retriever
    from execir.retrieve.fusion import HybridRetriever

    serve(loopback, "cohere")
    dense = DenseRetriever(encoder(loopback, "cohere"), cache_dir=tmp_path)
    hybrid = HybridRetriever([BM25Retriever(progress=False), dense])
    hybrid.index({"d1": "alpha beta", "d2": "gamma"})
    hybrid.search({"q": "beta"}, top_k=2)
    usage = hybrid.usage()
    assert usage is not None and list(usage) == [dense.name] and usage[dense.name]["inputs"] == 3
    assert HybridRetriever([BM25Retriever(progress=False), BM25Retriever(progress=False)]).usage() is None
