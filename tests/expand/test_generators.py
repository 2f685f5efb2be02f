"""Generated-text plumbing: the cache (a second run makes no generator call), the OpenAI-compatible
chat endpoint's request and answer shapes on a loopback server, and a tiny causal LM."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from execir.errors import ExecIRError
from execir.expand import Expansion, GenerationCache, parse_expansion
from execir.expand.expansions import generative_search
from execir.expand.generators import HFGenerator, OpenAIChatGenerator, cached_samples
from execir.expand.prompts import HYDE_PROMPT, QUERY2DOC_REPEATS, query2doc_prompt
from execir.retrieve import BM25Retriever, DenseRetriever, HashingEncoder


class CountingGenerator:
    """Deterministic stand-in: sample i of a prompt is '<prompt tail> #i'."""

    def __init__(self) -> None:
        self.calls = 0

    def identity(self) -> dict[str, str]:
        return {"backend": "test", "model": "counting"}

    def generate(self, prompt: str, *, n: int, max_tokens: int, temperature: float, seed: int) -> list[str]:
        self.calls += 1
        return [f"{prompt[-12:]} #{i} s{seed}" for i in range(n)]


def test_second_run_reads_every_text_from_disk(tmp_path: Path) -> None:
    first = CountingGenerator()
    texts, hit = cached_samples(first, GenerationCache(tmp_path), "prompt one", n=3, max_tokens=8, temperature=0.7, seed=0)
    assert (len(texts), hit, first.calls) == (3, False, 1)
    again = CountingGenerator()
    assert cached_samples(again, GenerationCache(tmp_path), "prompt one", n=3, max_tokens=8, temperature=0.7, seed=0) == (texts, True)
    assert again.calls == 0
    for changed in ({"seed": 1}, {"temperature": 0.5}, {"max_tokens": 9}, {"n": 2}):
        options: dict[str, Any] = {"n": 3, "max_tokens": 8, "temperature": 0.7, "seed": 0, **changed}
        assert cached_samples(again, GenerationCache(tmp_path), "prompt one", **options)[1] is False
    assert again.calls == 4


class ChatHandler(BaseHTTPRequestHandler):
    """Speaks OpenAI's chat completions shapes; ``server.per_request`` caps the choices per answer."""

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        server: Any = self.server
        server.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        if body["model"] == "broken":
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b'{"error": {"message": "model crashed"}}')
            return
        count = min(body["n"], server.per_request)
        prompt = body["messages"][-1]["content"]
        choices = [{"index": i, "message": {"role": "assistant", "content": f"def f{i}(): pass  # {len(prompt)} s{body['seed']}"}} for i in range(count)]
        answer = {"id": "chatcmpl-1", "object": "chat.completion", "model": body["model"], "choices": list(reversed(choices))}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def chat_server() -> Iterator[Any]:
    server: Any = ThreadingHTTPServer(("127.0.0.1", 0), ChatHandler)
    server.requests, server.per_request = [], 100
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _base(server: Any) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/v1"


def test_chat_endpoint_contract(chat_server: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-test-key")
    generator = OpenAIChatGenerator(_base(chat_server) + "/", "tiny-chat")
    texts, _ = cached_samples(generator, GenerationCache(tmp_path), "Question: add\nPassage:", n=3, max_tokens=64, temperature=0.7, seed=5)
    assert texts == [f"def f{i}(): pass  # 22 s5" for i in range(3)]  # sorted back by index
    (request,) = chat_server.requests
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer sk-secret-test-key"
    assert request["body"] == {
        "model": "tiny-chat",
        "messages": [{"role": "user", "content": "Question: add\nPassage:"}],
        "n": 3,
        "max_tokens": 64,
        "temperature": 0.7,
        "seed": 5,
    }
    stored = "".join(p.read_text() for p in tmp_path.glob("*.jsonl"))
    assert "sk-secret" not in stored + json.dumps(generator.identity())


def test_chat_endpoint_asked_again_for_missing_choices(chat_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    chat_server.per_request = 1
    generator = OpenAIChatGenerator(_base(chat_server), "one-at-a-time")
    texts = generator.generate("p", n=3, max_tokens=4, temperature=1.0, seed=10)
    assert texts == [f"def f0(): pass  # 1 s{seed}" for seed in (10, 11, 12)]
    assert [r["body"]["n"] for r in chat_server.requests] == [3, 2, 1] and generator.calls == 3
    assert all(r["auth"] is None for r in chat_server.requests)


def test_chat_endpoint_errors_are_clear(chat_server: Any) -> None:
    with pytest.raises(ExecIRError, match="HTTP 500.*model crashed"):
        OpenAIChatGenerator(_base(chat_server), "broken").generate("p", n=1, max_tokens=4, temperature=0.0, seed=0)
    with pytest.raises(ExecIRError, match="no choices"):
        OpenAIChatGenerator(_base(chat_server), "m")._texts({"choices": []})


CORPUS = {
    "add": "def add(a, b):\n    return a + b\n",
    "sub": "def sub(a, b):\n    return a - b\n",
    "big": "def largest(xs):\n    return max(xs)\n",
}
QUERIES = {"q1": "add two numbers", "q2": "largest element"}


def test_tiny_causal_lm_samples_are_seeded(tiny_gpt2: Path) -> None:
    generator = HFGenerator(str(tiny_gpt2), device="cpu")
    sampled = generator.generate("Question: add\nPassage:", n=2, max_tokens=6, temperature=0.7, seed=1)
    assert len(sampled) == 2 and sampled == generator.generate("Question: add\nPassage:", n=2, max_tokens=6, temperature=0.7, seed=1)
    greedy = generator.generate("Question: add\nPassage:", n=2, max_tokens=6, temperature=0.0, seed=1)
    assert greedy[0] == greedy[1] and generator.calls == 3
    assert generator.identity()["backend"] == "hf" and generator.identity()["revision"].startswith("sha256:")


@pytest.mark.parametrize("kind", ["hyde", "query2doc"])
def test_hyde_and_query2doc_plumbing_with_a_tiny_lm(kind: str, tiny_gpt2: Path, tmp_path: Path) -> None:
    spec = parse_expansion(f"{kind}:hf:{tiny_gpt2},n=2,max_tokens=6,temperature=0.7")
    bm25, dense = BM25Retriever(progress=False), DenseRetriever(HashingEncoder(dim=16))
    bm25.index(CORPUS)
    dense.index(CORPUS)
    expansion = Expansion(spec, HFGenerator(str(tiny_gpt2), device="cpu"), GenerationCache(tmp_path))
    lexical, records = generative_search(expansion, bm25, QUERIES, top_k=3)
    semantic, dense_records = generative_search(expansion, dense, QUERIES, top_k=3)
    assert set(lexical) == set(semantic) == set(QUERIES) and all(len(docs) == 3 for docs in [*lexical.values(), *semantic.values()])
    assert expansion.generator is not None and expansion.generator.calls == 2  # the dense pass reads the cache
    assert [r["samples"] for r in records] == [r["samples"] for r in dense_records]
    first = records[0]
    assert first["prompt"] == (HYDE_PROMPT.format(query="add two numbers") if kind == "hyde" else query2doc_prompt("add two numbers"))
    if kind == "query2doc":
        assert first["search_text"].startswith(" ".join(["add two numbers"] * QUERY2DOC_REPEATS))
        assert dense_records[0]["search_text"] == "add two numbers " + "\n".join(first["samples"])
    else:
        assert first["search_text"] == "\n".join(["add two numbers", *first["samples"]]) and "search_text" not in dense_records[0]
    rerun = Expansion(spec, HFGenerator(str(tiny_gpt2), device="cpu"), GenerationCache(tmp_path))
    assert generative_search(rerun, bm25, QUERIES, top_k=3)[0] == lexical
    assert rerun.generator_calls == 0 and rerun.cached_generations == 2
    assert rerun.generator is not None and rerun.generator._loaded is None  # type: ignore[attr-defined]


def test_hyde_vector_is_the_mean_of_query_and_passages(tmp_path: Path) -> None:
    dense = DenseRetriever(HashingEncoder(dim=16))
    dense.index(CORPUS)
    spec = parse_expansion("hyde:openai:http://127.0.0.1:9/v1@m,n=2", environ={})
    run, records = generative_search(Expansion(spec, CountingGenerator(), GenerationCache(tmp_path)), dense, {"q": "add numbers"}, top_k=3)
    vectors = np.concatenate(
        [dense.encoder.encode(["add numbers"], role="query", batch_size=8), dense.encoder.encode(records[0]["samples"], role="document", batch_size=8)]
    )
    scores = vectors.mean(axis=0) @ dense.doc_embeddings.T
    assert run["q"] == pytest.approx({d: float(scores[dense.doc_ids.index(d)]) for d in run["q"]}, rel=1e-5)


def test_long_prompts_keep_their_end_within_the_context(tiny_gpt2: Path) -> None:
    generator = HFGenerator(str(tiny_gpt2), device="cpu")
    assert generator.fit_context(list(range(10)), 4, 12) == [2, 3, 4, 5, 6, 7, 8, 9] and generator.truncated_prompts == 1
    assert generator.fit_context(list(range(5)), 4, 12) == list(range(5)) and generator.fit_context([1], 4, None) == [1]
    with pytest.raises(ExecIRError, match="leaves no room"):
        generator.fit_context([1], 12, 12)
    long_prompt = "x" * 1500  # the tiny model's context is 1024 byte tokens
    assert len(generator.generate(long_prompt, n=1, max_tokens=3, temperature=0.0, seed=0)) == 1 and generator.truncated_prompts == 2
