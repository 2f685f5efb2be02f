"""Rerank APIs against a loopback server answering in each provider's documented shapes.

The server scores a document by a fixed function of its text and answers best first (as the
providers do), so the client must map scores back by index. The real retry logic runs, with its
waits recorded instead of slept.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from execir.cli import main
from execir.errors import ExecIRError
from execir.execute import OracleConfig
from execir.rerank.api import hosted_reranker, http_reranker
from execir.rerank.api.providers import Cohere, Jina, Voyage
from execir.rerank.base import RerankRequest
from execir.rerank.registry import get_reranker
from execir.retrieve.api.http import ApiError, HttpClient, RetryPolicy
from tests.retrieve.conftest import Loopback

KEY = "test-key-5f3a9c1e77"
QUERIES = {"q1": "smallest even number", "q2": "reverse a string"}
DOCS = {f"d{i}": f"def f{i}(xs):\n    return {'x' * i}\n" for i in range(7)}
REQUEST = RerankRequest(QUERIES, {"q1": ("d0", "d1", "d2", "d3", "d4"), "q2": ("d5", "d6", "d1")}, DOCS)


def served_score(query: str, document: str) -> float:
    """What the fake server scores: a fixed function of both texts."""
    return ((sum(map(ord, document)) * 31 + len(query)) % 1000) / 1000.0


def ranked(body: dict[str, Any], docs_field: str = "documents", score_field: str = "relevance_score") -> list[dict[str, Any]]:
    items = [{"index": i, score_field: served_score(body["query"], doc)} for i, doc in enumerate(body[docs_field])]
    return sorted(items, key=lambda item: -item[score_field])


def cohere_answer(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
    return 200, {}, {"id": "x", "results": ranked(body), "meta": {"api_version": {"version": "2"}, "billed_units": {"search_units": 1}}}


def jina_answer(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
    return 200, {}, {"model": body["model"], "results": ranked(body), "usage": {"total_tokens": 10 * len(body["documents"])}}


def voyage_answer(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
    return 200, {}, {"object": "list", "data": ranked(body), "model": body["model"], "usage": {"total_tokens": 7 * len(body["documents"])}}


def expected(request: RerankRequest = REQUEST) -> dict[str, dict[str, float]]:
    return {q: {d: served_score(request.queries[q], request.documents[d]) for d in docs} for q, docs in request.candidates.items()}


def client(sleeps: list[float]) -> HttpClient:
    return HttpClient("test", policy=RetryPolicy(attempts=3, base_s=1.0, cap_s=4.0), sleep=sleeps.append)


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for env in ("CO_API_KEY", "COHERE_API_KEY", "JINA_API_KEY", "VOYAGE_API_KEY"):
        monkeypatch.delenv(env, raising=False)
    for env in ("CO_API_KEY", "JINA_API_KEY", "VOYAGE_API_KEY"):
        monkeypatch.setenv(env, KEY)


@pytest.mark.parametrize(
    ("provider", "answer", "route"),
    [(Cohere, cohere_answer, "/v2/rerank"), (Jina, jina_answer, "/v1/rerank"), (Voyage, voyage_answer, "/v1/rerank")],
)
def test_hosted_shapes_score_every_candidate_by_index(
    provider: type, answer: Any, route: str, loopback: Loopback, keys: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(provider, "url", loopback.url + route)
    loopback.answer = answer
    reranker = hosted_reranker(f"api:{provider.name}/m-1", f"{provider.name}/m-1", cache_dir=None)
    assert reranker.score(REQUEST) == expected()
    posts = loopback.posts(route)
    assert len(posts) == 2 and all(p.headers["authorization"] == f"Bearer {KEY}" for p in posts)
    first = posts[0].body
    assert first["model"] == "m-1" and first["query"] == QUERIES["q1"] and first["documents"] == [DOCS[d] for d in REQUEST.candidates["q1"]]
    count_field = "top_k" if provider is Voyage else "top_n"
    assert first[count_field] == 5 and first.get("return_documents", False) is False
    usage = reranker.config()["usage"]
    assert usage["requests"] == 2 and usage["inputs"] == 8  # type: ignore[index]
    if provider is Cohere:
        assert usage["search_units"] == 2 and usage["tokens"] == usage["estimated_tokens"]  # type: ignore[index]
    else:
        assert usage["tokens"] == (10 if provider is Jina else 7) * 8 and usage["estimated_tokens"] == 0  # type: ignore[index]
    assert reranker.stats().extra["requests"] == 2 and reranker.name == f"api:{provider.name}/m-1"


def test_cohere_cost_comes_from_search_units(loopback: Loopback, keys: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Cohere, "url", loopback.url + "/v2/rerank")
    loopback.answer = cohere_answer
    reranker = hosted_reranker("api:cohere/rerank-v3.5", "cohere/rerank-v3.5", cache_dir=None)
    reranker.score(REQUEST)
    usage = reranker.usage_json()
    assert usage["search_units"] == 2 and usage["estimated_cost_usd"] == pytest.approx(2 * 2.0 / 1000)
    assert "cohere.com/pricing" in usage["price_source"]


def test_documents_per_request_and_token_budget_split_calls(loopback: Loopback, keys: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Voyage, "url", loopback.url + "/v1/rerank")
    monkeypatch.setattr(Voyage, "max_tokens", 400)  # ~3 bytes a token: two 500-byte documents a call
    loopback.answer = voyage_answer
    docs = {f"d{i}": f"# {i}\n" + "y" * 500 for i in range(5)}
    request = RerankRequest({"q": "long"}, {"q": tuple(docs)}, docs)
    assert hosted_reranker("api:voyage/m", "voyage/m", cache_dir=None).score(request) == expected(request)
    assert [len(p.body["documents"]) for p in loopback.posts()] == [2, 2, 1]
    loopback.requests.clear()
    monkeypatch.setattr(Voyage, "max_tokens", None)
    assert hosted_reranker("api:voyage/m", "voyage/m", cache_dir=None, batch_size=3).score(request) == expected(request)
    assert [len(p.body["documents"]) for p in loopback.posts()] == [3, 2]


def test_429_waits_for_retry_after_then_succeeds(loopback: Loopback, keys: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Cohere, "url", loopback.url + "/v2/rerank")
    calls: list[int] = []

    def limited(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
        calls.append(1)
        if len(calls) == 1:
            return 429, {"Retry-After": "7"}, {"message": "You are using a Trial key, which is limited to 10 API calls / minute."}
        return cohere_answer(method, path, headers, body)

    loopback.answer = limited
    sleeps: list[float] = []
    reranker = hosted_reranker("api:cohere/m", "cohere/m", cache_dir=None, client=client(sleeps))
    assert reranker.score(REQUEST) == expected()
    assert sleeps == [7.0] and len(calls) == 3
    assert reranker.stats().extra["retries"] == 1 and reranker.config()["usage"]["retries"] == 1  # type: ignore[index]


def test_error_bodies_name_the_provider_and_never_the_key(loopback: Loopback, keys: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Jina, "url", loopback.url + "/v1/rerank")
    loopback.answer = lambda m, p, h, b: (401, {}, {"detail": f"invalid API key {h['authorization'].split()[-1]}"})
    sleeps: list[float] = []
    with pytest.raises(ApiError) as caught:
        hosted_reranker("api:jina/m", "jina/m", cache_dir=None, client=client(sleeps)).score(REQUEST)
    assert caught.value.status == 401 and "invalid API key ***" in str(caught.value) and KEY not in str(caught.value)
    assert sleeps == []  # a 4xx other than 408/409/429 is not retried
    loopback.answer = lambda m, p, h, b: (503, {}, b"upstream overloaded")
    with pytest.raises(ApiError, match="HTTP 503: upstream overloaded after 3 attempts"):
        hosted_reranker("api:jina/m", "jina/m", cache_dir=None, client=client(sleeps)).score(REQUEST)
    assert len(sleeps) == 2


def test_an_answer_missing_a_document_is_an_error(loopback: Loopback, keys: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Cohere, "url", loopback.url + "/v2/rerank")
    loopback.answer = lambda m, p, h, b: (200, {}, {"results": ranked(b)[:-1]})
    with pytest.raises(ExecIRError, match="cohere rerank: 4 scores for 5 documents"):
        hosted_reranker("api:cohere/m", "cohere/m", cache_dir=None).score(REQUEST)


@pytest.mark.parametrize(("provider", "names"), [("cohere", r"\$CO_API_KEY or \$COHERE_API_KEY"), ("jina", r"\$JINA_API_KEY"), ("voyage", r"\$VOYAGE_API_KEY")])
def test_a_missing_key_names_its_variable(provider: str, names: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for env in ("CO_API_KEY", "COHERE_API_KEY", "JINA_API_KEY", "VOYAGE_API_KEY"):
        monkeypatch.delenv(env, raising=False)
    with pytest.raises(ExecIRError, match=f"reranker 'api:{provider}/m' needs an API key in {names}"):
        hosted_reranker(f"api:{provider}/m", f"{provider}/m", cache_dir=tmp_path).score(REQUEST)


def test_cached_scores_are_never_paid_twice_and_hold_no_key(loopback: Loopback, keys: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(Voyage, "url", loopback.url + "/v1/rerank")
    loopback.answer = voyage_answer
    first = hosted_reranker("api:voyage/m", "voyage/m", cache_dir=tmp_path)
    first.score(RerankRequest({"q1": QUERIES["q1"]}, {"q1": ("d0", "d1")}, DOCS))  # an interrupted run: part of the work
    assert len(loopback.posts()) == 1
    monkeypatch.delenv("VOYAGE_API_KEY")
    again = hosted_reranker("api:voyage/m", "voyage/m", cache_dir=tmp_path)
    partial = RerankRequest({"q1": QUERIES["q1"]}, {"q1": ("d1", "d0")}, DOCS)
    assert again.score(partial) == expected(partial)
    assert len(loopback.posts()) == 1 and again.stats().extra["pairs_cached"] == 2  # fully cached: no call, no key needed
    monkeypatch.setenv("VOYAGE_API_KEY", KEY)
    resumed = hosted_reranker("api:voyage/m", "voyage/m", cache_dir=tmp_path)
    assert resumed.score(REQUEST) == expected()
    assert [p.body["documents"] for p in loopback.posts()[1:]] == [[DOCS[d] for d in ("d2", "d3", "d4")], [DOCS[d] for d in ("d5", "d6", "d1")]]
    assert resumed.stats().extra["pairs_sent"] == 6 and resumed.stats().extra["pairs_cached"] == 2
    other_model = hosted_reranker("api:voyage/m2", "voyage/m2", cache_dir=tmp_path)
    other_model.score(RerankRequest({"q1": QUERIES["q1"]}, {"q1": ("d0",)}, DOCS))
    assert other_model.stats().extra["pairs_sent"] == 1  # the model is part of the key
    files = list((tmp_path / "rerank-scores").rglob("*"))
    assert files and all(KEY not in f.read_text() for f in files if f.is_file())


def test_eval_with_a_hosted_reranker_writes_usage_and_no_key(loopback: Loopback, keys: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tests.evaluate.test_pipeline import make_dataset

    monkeypatch.setattr(Cohere, "url", loopback.url + "/v2/rerank")
    loopback.answer = cohere_answer
    root = make_dataset(tmp_path / "ds")
    args = ["eval", str(root), "--retriever", "bm25", "--rerank", "api:cohere/rerank-v3.5", "--cache-dir", str(tmp_path / "cache"), "--no-progress"]
    assert main([*args, "--out", str(tmp_path / "o")]) == 0
    results = json.loads((tmp_path / "o" / "results.json").read_text())
    system = results["systems"]["bm25>>api:cohere/rerank-v3.5"]
    usage = system["rerank"]["config"]["usage"]
    assert usage["requests"] == 2 and usage["search_units"] == 2 and usage["estimated_cost_usd"] == pytest.approx(0.004)
    assert system["rerank"]["extra"]["pairs_sent"] > 0
    assert system["usage"]["requests"] == 2 and system["usage"]["search_units"] == 2  # this folder's share, as for retrievers
    assert "| bm25>>api:cohere/rerank-v3.5 | 2 |" in (tmp_path / "o" / "report.md").read_text().split("## What the endpoints cost", 1)[1]
    assert main([*args, "--out", str(tmp_path / "o2")]) == 0  # the second run is served from the cache
    again = json.loads((tmp_path / "o2" / "results.json").read_text())["systems"]["bm25>>api:cohere/rerank-v3.5"]
    assert again["rerank"]["extra"]["pairs_sent"] == 0 and again["metrics"] == system["metrics"]
    assert again["usage"]["requests"] == 0 and again["usage"]["search_units"] == 0
    assert len(loopback.posts()) == 2
    written = [f for f in tmp_path.rglob("*") if f.is_file() and f.suffix in (".json", ".jsonl", ".md", ".trec", ".html", ".log")]
    assert written and not [f for f in written if KEY in f.read_text(errors="replace")]


def test_http_specs_parse_into_shapes_and_limits(tmp_path: Path) -> None:
    infinity = http_reranker("s", "http://127.0.0.1:7997@my-ce", cache_dir=None)
    assert infinity.provider.url == "http://127.0.0.1:7997/rerank" and infinity.model == "my-ce" and infinity.name == "http:my-ce"
    assert infinity.provider.name == "infinity" and infinity.max_documents == 2048 and infinity.provider.options() == {"raw_scores": True}
    tei = http_reranker("s", "https://host/tei/rerank,api=tei,batch=8", cache_dir=None)
    assert tei.provider.url == "https://host/tei/rerank" and tei.model is None and tei.max_documents == 8 and tei.name == "http:host"
    assert http_reranker("s", "http://h:1@m,api=cohere,batch=5000", cache_dir=None).max_documents == 1000
    for bad, message in [
        ("ftp://h", "expected http:"),
        ("http://h@", "expected http:"),
        ("http://h,api=grpc", "api=grpc is not one of infinity, cohere, tei"),
        ("http://h,batch=0", "batch=0 is not a positive integer"),
        ("http://h,size=3", "bad option 'size=3'"),
    ]:
        with pytest.raises(ExecIRError, match=message):
            http_reranker(f"http:{bad}", bad, cache_dir=None)
    with pytest.raises(ExecIRError, match="expected one of api:cohere/<model>"):
        get_reranker("api:openai/x", cache_dir=None, oracle_config=OracleConfig(), progress=False)
    chain = get_reranker("exec+http:http://127.0.0.1:9@m,api=tei", cache_dir=tmp_path, oracle_config=OracleConfig(), progress=False)
    assert chain.name == "exec+http:m"


def test_tei_shape_through_the_registry(loopback: Loopback) -> None:
    def tei(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
        assert body["raw_scores"] is True and body["truncate"] is True and "model" not in body
        return 200, {}, ranked(body, "texts", "score")

    loopback.answer = tei
    reranker = get_reranker(f"http:{loopback.url},api=tei,batch=2", cache_dir=None, oracle_config=OracleConfig(), progress=False)
    assert reranker.score(REQUEST) == expected()
    assert [len(p.body["texts"]) for p in loopback.posts("/rerank")] == [2, 2, 1, 2, 1]
    assert all("authorization" not in p.headers for p in loopback.requests)


def test_a_self_hosted_server_behind_a_key(loopback: Loopback, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def guarded(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
        if headers.get("authorization") != f"Bearer {KEY}":
            return 401, {}, {"error": "unauthorized"}
        return 200, {}, {"results": ranked(body)}

    loopback.answer = guarded
    spec = f"http:{loopback.url}@m,api=cohere,key_env=MY_RERANK_KEY"
    monkeypatch.delenv("MY_RERANK_KEY", raising=False)
    with pytest.raises(ExecIRError, match=r"needs an API key in \$MY_RERANK_KEY"):
        get_reranker(spec, cache_dir=tmp_path, oracle_config=OracleConfig(), progress=False).score(REQUEST)
    monkeypatch.setenv("MY_RERANK_KEY", KEY)
    reranker = get_reranker(spec, cache_dir=tmp_path, oracle_config=OracleConfig(), progress=False)
    assert reranker.score(REQUEST) == expected()
    assert KEY not in json.dumps(reranker.config()) and all(KEY not in f.read_text() for f in tmp_path.rglob("*") if f.is_file())
    with pytest.raises(ExecIRError, match="bad option 'key=x'"):
        get_reranker(f"http:{loopback.url},key=x", cache_dir=None, oracle_config=OracleConfig(), progress=False)
