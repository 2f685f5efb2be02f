"""``execir eval`` with a hosted embedding API served on loopback: an interrupted run resumes without
paying twice, ``results.json`` carries the usage block, and the key reaches no file, log or output."""

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from execir.cli import main
from tests.evaluate.test_pipeline import DOCS, QUERIES, make_dataset

KEY = "AIza-loopback-key-5f3c9e1d"


def gemini(loopback: Any, *, fail_after: int | None = None) -> None:
    """batchEmbedContents answers; POSTs beyond ``fail_after`` get Google's quota error."""

    def answer(method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
        if headers.get("x-goog-api-key") != KEY:
            return 403, {}, {"error": {"code": 403, "message": "API key not valid.", "status": "PERMISSION_DENIED"}}
        if fail_after is not None and len(loopback.posts()) > fail_after:
            return 400, {}, {"error": {"code": 400, "message": "quota exhausted for today", "status": "FAILED_PRECONDITION"}}
        texts = [r["content"]["parts"][0]["text"] for r in body["requests"]]
        return 200, {}, {"embeddings": [{"values": [float(len(t)), float(t.count("a")) + 1.0, 3.0]} for t in texts]}

    loopback.answer = answer


def test_eval_resumes_records_usage_and_never_leaks_the_key(
    loopback: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setattr("execir.evaluate.outputs.write_figures", lambda out, result: {})  # PNGs cost seconds and hold no text
    dataset = make_dataset(tmp_path / "ds")
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    monkeypatch.setenv("EXECIR_GEMINI_BASE_URL", loopback.url + "/v1beta")
    args = ["eval", str(dataset), "--retriever", "api:gemini:gemini-embedding-001,dim=768,batch=1", "--cache-dir", str(tmp_path / "cache"), "--no-progress"]

    gemini(loopback, fail_after=2)  # the third request fails: two documents are paid for, then the run stops
    assert main([*args, "--out", str(tmp_path / "first")]) == 2
    assert "gemini: HTTP 400: quota exhausted for today" in capfd.readouterr().err
    assert len(loopback.posts()) == 3

    loopback.requests.clear()
    gemini(loopback)
    assert main([*args, "--out", str(tmp_path / "out")]) == 0
    sent = [r.body["requests"][0]["content"]["parts"][0]["text"] for r in loopback.posts()]
    assert len(sent) == len(DOCS) + len(QUERIES) - 2 and len(set(sent)) == len(sent)  # nothing paid for twice
    assert {r.body["requests"][0]["outputDimensionality"] for r in loopback.posts()} == {768}

    results = json.loads((tmp_path / "out" / "results.json").read_text())
    [system] = results["systems"].values()
    usage = system["usage"]
    assert usage["requests"] == usage["inputs"] == len(sent) and usage["cached_texts"] == 2
    assert usage["tokens"] == usage["estimated_tokens"] > 0 and usage["estimated_cost_usd"] == pytest.approx(usage["tokens"] * 0.15 / 1e6)
    assert system["config"]["encoder"]["query_options"] == {"taskType": "CODE_RETRIEVAL_QUERY", "outputDimensionality": 768}
    report = (tmp_path / "out" / "report.md").read_text()
    section = report.split("## What the endpoints cost", 1)[1].split("\n## ", 1)[0]
    [row] = [line for line in section.splitlines() if line.startswith(f"| {system['name'] if 'name' in system else ''}") and "gemini" in line]
    assert f"| {len(sent):,} | {len(sent):,} | {usage['tokens']:,} ({usage['estimated_tokens']:,}) | 0 | 2 | - | {usage['estimated_cost_usd']:.6f} |" in row

    assert main([*args, "--out", str(tmp_path / "again")]) == 0  # fully cached: no request at all
    assert len(loopback.posts()) == len(sent)
    again = json.loads((tmp_path / "again" / "results.json").read_text())
    assert next(iter(again["systems"].values()))["usage"]["cached_texts"] == len(DOCS) + len(QUERIES)

    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".npy" for p in written) and any(p.name == "results.json" for p in written)
    assert [p for p in written if KEY.encode() in p.read_bytes()] == []
    captured = capfd.readouterr()
    assert KEY not in captured.out + captured.err + caplog.text


def test_collection_usage_is_per_folder(loopback: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("execir.evaluate.outputs.write_figures", lambda out, result: {})
    for folder in ("a", "b"):  # the same texts twice: the second folder is served from the cache
        make_dataset(tmp_path / "coll" / folder)
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    gemini(loopback)
    spec = f"api:gemini:gemini-embedding-001,base_url={loopback.url}/v1beta"
    assert main(["eval", str(tmp_path / "coll"), "--retriever", spec, "--out", str(tmp_path / "out"), "--cache-dir", str(tmp_path / "c"), "--no-progress"]) == 0
    usage = {f: next(iter(json.loads((tmp_path / "out" / f / "results.json").read_text())["systems"].values()))["usage"] for f in ("a", "b")}
    texts = len(DOCS) + len(QUERIES)
    assert (usage["a"]["requests"], usage["a"]["inputs"], usage["a"]["cached_texts"]) == (2, texts, 0)  # documents, then queries
    assert (usage["b"]["requests"], usage["b"]["inputs"], usage["b"]["tokens"], usage["b"]["cached_texts"]) == (0, 0, 0, texts)
    assert usage["b"]["estimated_cost_usd"] == 0.0 and usage["b"]["usd_per_million_tokens"] == 0.15
