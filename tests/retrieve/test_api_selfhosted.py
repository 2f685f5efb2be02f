"""The ``http:URL@MODEL`` retriever against loopback servers speaking the OpenAI-compatible
(vLLM, Infinity), text-embeddings-inference and Ollama shapes."""

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from execir.errors import ExecIRError
from execir.retrieve import DenseRetriever, get_retriever
from execir.retrieve.api import HttpClient, SelfHostedEncoder
from execir.retrieve.api.selfhosted import parse_http_spec

SERVER_KEY = "tok-selfhosted-987654321"


def vec(text: str) -> list[float]:
    return [float(len(text)), 2.0, float(sum(map(ord, text)) % 7)]


def infinity_like(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
    """Routes without /v1 (Infinity without --url-prefix)."""
    if method == "GET" and path == "/models":
        return 200, {}, {"object": "list", "data": [{"id": "minilm", "object": "model", "backend": "torch", "stats": {"batch_size": 32}}]}
    if method == "POST" and path == "/embeddings":
        data = [{"object": "embedding", "index": i, "embedding": vec(t)} for i, t in enumerate(body["input"])]
        return 200, {}, {"object": "list", "data": data, "model": body["model"], "usage": {"prompt_tokens": 5, "total_tokens": 5}}
    return 404, {}, {"detail": "Not Found"}


def tei_like(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
    if method == "GET" and path == "/info":
        return 200, {}, {"model_id": "sentence-transformers/all-MiniLM-L6-v2", "model_dtype": "float32", "max_client_batch_size": 4, "version": "1.8.0"}
    if method == "POST" and path == "/embed":
        return 200, {}, [vec(t) for t in body["inputs"]]
    return 404, {}, b"Not Found"


def ollama_like(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
    if path == "/api/show":
        info = {"general.architecture": "nomic-bert", "nomic-bert.embedding_length": 768, "tokenizer.ggml.tokens": ["a", "b"]}
        return 200, {}, {"details": {"family": "nomic-bert", "parameter_size": "137M"}, "model_info": info, "modified_at": "2026-11-01T00:00:00Z"}
    if path == "/api/version":
        return 200, {}, {"version": "0.12.6"}
    if path == "/api/embed":
        return 200, {}, {"model": body["model"], "embeddings": [vec(t) for t in body["input"]], "prompt_eval_count": 11}
    return 404, {}, {"error": "not found"}


def encoder(spec_arg: str, sleeps: list[float] | None = None) -> SelfHostedEncoder:
    url, model, options = parse_http_spec(spec_arg)
    return SelfHostedEncoder(url, model, options=options, client=HttpClient("http", sleep=(sleeps if sleeps is not None else []).append))


def test_spec_parsing_with_colons_and_at_signs() -> None:
    assert parse_http_spec("http://127.0.0.1:7997@minilm,api=openai") == ("http://127.0.0.1:7997", "minilm", {"api": "openai"})
    url, model, options = parse_http_spec("https://user:p@ss@host:8080/v1@org/model:tag,api=ollama,batch=8")
    assert (url, model, options) == ("https://user:p@ss@host:8080/v1", "org/model:tag", {"api": "ollama", "batch": "8"})
    enc = SelfHostedEncoder(url, model, options=options)
    assert "p@ss" not in str(enc.cache_key("query")) and enc.endpoint() == "https://host:8080/v1/api/embed"
    assert enc.headers(None) == {"Authorization": "Basic dXNlcjpwQHNz"}  # base64 of user:p@ss


def test_url_credentials_go_as_basic_auth(loopback: Any) -> None:
    loopback.answer = ollama_like
    host = loopback.url.removeprefix("http://")
    enc = encoder(f"http://me:s3cr%40t@{host}@nomic-embed-text,api=ollama")
    enc.encode(["x"], role="document")
    assert loopback.posts("/api/embed")[0].headers["authorization"] == "Basic bWU6czNjckB0"  # me:s3cr@t
    assert "s3cr" not in repr(enc.config())


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("http:127.0.0.1:7997", "expected http:URL@MODEL"),
        ("http:http://127.0.0.1:7997@", "expected http:URL@MODEL"),
        ("http:ftp://host@m", "must be http"),
        ("http:http://h:1@m,api=grpc", "'api' must be one of openai, tei, ollama"),
        ("http:http://h:1@m,api=tei,dim=8", "not supported with api=tei"),
        ("http:http://h:1@m,base_url=http://x", "'base_url' is not taken"),
        ("http:http://h:1@m,batch=0", "'batch' must be a positive integer"),
        ("http:http://h:1@m,prompts=some", "'prompts' must be one of auto, none"),
        ("http:", "http needs http:URL@MODEL"),
    ],
)
def test_bad_http_specs(spec: str, message: str) -> None:
    with pytest.raises(ExecIRError, match=message):
        get_retriever(spec)


def test_openai_compatible_without_v1_is_probed_and_recorded(loopback: Any) -> None:
    loopback.answer = infinity_like
    enc = encoder(f"{loopback.url}@minilm,api=openai")
    out = enc.encode(["a", "bcd"], role="document")
    assert [(r.method, r.path) for r in loopback.requests] == [("GET", "/v1/models"), ("GET", "/models"), ("POST", "/embeddings")]
    assert loopback.requests[-1].body == {"model": "minilm", "input": ["a", "bcd"], "encoding_format": "float"}
    assert np.allclose(np.linalg.norm(out, axis=1), 1.0)
    config = enc.config()
    assert config["server"]["route"] == "/models" and config["server"]["models"]["data"][0]["backend"] == "torch"
    assert config["url"] == f"{loopback.url}/embeddings" and enc.usage.tokens == 5
    assert len(loopback.requests) == 3  # the configuration is read once


def test_openai_compatible_with_path_dimensions_and_server_key(loopback: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def vllm(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
        if headers.get("authorization") != f"Bearer {SERVER_KEY}":
            return 401, {}, {"error": {"message": "Unauthorized"}}
        if path == "/v1/models":
            return 200, {}, {"object": "list", "data": [{"id": "Qwen/Qwen3-Embedding-0.6B", "max_model_len": 32768}]}
        return infinity_like(method, path.removeprefix("/v1"), headers, body)

    loopback.answer = vllm
    enc = encoder(f"{loopback.url}/v1@Qwen/Qwen3-Embedding-0.6B,dim=256,key_env=MY_SERVER_KEY")
    with pytest.raises(ExecIRError, match=r"\$MY_SERVER_KEY"):
        enc.encode(["q"], role="query")
    monkeypatch.setenv("MY_SERVER_KEY", SERVER_KEY)
    enc.encode(["q"], role="query")
    body = loopback.posts()[-1].body
    assert body["dimensions"] == 256 and body["input"][0].startswith("Instruct: ") and body["input"][0].endswith("\nQuery:q")  # the family's prompt
    assert SERVER_KEY not in repr(enc.config()) and enc.config()["server"]["models"]["data"][0]["max_model_len"] == 32768


def test_tei_batches_by_reported_limit_and_retries_503(loopback: Any) -> None:
    calls: list[int] = []

    def flaky(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
        if path == "/embed" and not calls:
            calls.append(1)
            return 503, {"Retry-After": "1"}, {"error": "Model is overloaded", "error_type": "overloaded"}
        return tei_like(method, path, headers, body)

    loopback.answer = flaky
    sleeps: list[float] = []
    enc = encoder(f"{loopback.url}@all-MiniLM-L6-v2,api=tei", sleeps)
    out = enc.encode([f"t{i}" for i in range(10)], role="document")
    embeds = loopback.posts("/embed")
    assert [len(r.body["inputs"]) for r in embeds] == [4, 4, 4, 2] and embeds[0].body == embeds[1].body  # the 503 retried once
    assert embeds[1].body == {"inputs": ["t0", "t1", "t2", "t3"], "normalize": True}
    assert sleeps == [1.0] and out.shape == (10, 3)
    assert enc.config()["server"]["info"]["model_id"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert enc.usage.estimated_tokens == enc.usage.tokens > 0  # TEI reports no token count


@pytest.mark.parametrize(("prompts", "query", "document"), [("auto", "search_query: q", "search_document: d"), ("none", "q", "d")])
def test_ollama_shape_prompts_and_show(loopback: Any, prompts: str, query: str, document: str) -> None:
    loopback.answer = ollama_like
    enc = encoder(f"{loopback.url}@nomic-embed-text:latest,api=ollama,prompts={prompts}")
    enc.encode(["q"], role="query")
    enc.encode(["d"], role="document")
    embeds = loopback.posts("/api/embed")
    assert [r.body for r in embeds] == [{"model": "nomic-embed-text:latest", "input": [query]}, {"model": "nomic-embed-text:latest", "input": [document]}]
    server = enc.config()["server"]
    assert server["version"] == "0.12.6" and server["show"]["details"]["family"] == "nomic-bert"
    assert server["show"]["model_info"] == {"general.architecture": "nomic-bert", "nomic-bert.embedding_length": 768}  # no token lists
    assert enc.usage.tokens == 22 and enc.usage.estimated_tokens == 0


def test_cached_run_with_the_server_down_records_it(loopback: Any, tmp_path: Path) -> None:
    loopback.answer = tei_like
    spec = f"{loopback.url}@all-MiniLM-L6-v2,api=tei"
    first = DenseRetriever(encoder(spec), cache_dir=tmp_path)
    first.index({"d1": "alpha", "d2": "beta"})
    loopback.answer = lambda *a: (503, {}, {"error": "down"})
    sleeps: list[float] = []
    again = DenseRetriever(encoder(spec, sleeps), cache_dir=tmp_path)
    again.index({"d1": "alpha", "d2": "beta"})
    assert again.encoded_texts == 0 and np.array_equal(again.doc_embeddings, first.doc_embeddings)
    server = again.config()["encoder"]["server"]
    assert server == {"error": f"http: HTTP 503: down after 2 attempts ({loopback.url}/info)"} and len(sleeps) == 1
    assert again.usage() is not None and again.usage()["cached_texts"] == 2  # type: ignore[index]


def test_cache_key_holds_server_and_model() -> None:
    a = encoder("http://h1:80@m").cache_key("query")
    assert a["model"] == "http:openai:http://h1:80@m" and a["revision"] == "self-hosted"
    assert encoder("http://h2:80@m").cache_key("query") != a and encoder("http://h1:80@m,api=ollama").cache_key("query") != a
    assert encoder("http://h1:80@m,batch=3").cache_key("query") == a
