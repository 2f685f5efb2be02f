from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import pytest

from execir.retrieve.api.http import ApiError, HttpClient, HttpResponse, RetryPolicy, error_detail, redact, retry_after_seconds
from execir.retrieve.api.usage import PRICES, Usage, batches, estimate_tokens

KEY = "sk-secret-123456"


class Script:
    """A fake ``send``: answers from a list, records every call."""

    def __init__(self, *answers: HttpResponse | OSError) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[str, str, dict[str, str], bytes | None]] = []

    def __call__(self, method: str, url: str, headers: Any, body: bytes | None, timeout: float) -> HttpResponse:
        self.calls.append((method, url, dict(headers), body))
        answer = self.answers.pop(0)
        if isinstance(answer, OSError):
            raise answer
        return answer


def ok(body: bytes = b'{"ok": 1}') -> HttpResponse:
    return HttpResponse(200, {}, body)


def client(send: Script, sleeps: list[float], attempts: int = 4) -> HttpClient:
    return HttpClient("prov", secrets=[KEY], policy=RetryPolicy(attempts=attempts, base_s=1.0, cap_s=8.0), send=send, sleep=sleeps.append)


def test_retry_after_seconds_and_http_date() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert retry_after_seconds("7", now) == 7.0
    assert retry_after_seconds(format_datetime(now + timedelta(seconds=30), usegmt=True), now) == 30.0
    assert retry_after_seconds(format_datetime(now - timedelta(seconds=30), usegmt=True), now) == 0.0
    assert retry_after_seconds("soon", now) is None and retry_after_seconds(None) is None


def test_429_honours_retry_after_then_succeeds() -> None:
    sleeps: list[float] = []
    send = Script(HttpResponse(429, {"retry-after": "3"}, b'{"error": {"message": "slow down"}}'), HttpResponse(503, {}, b""), ok())
    c = client(send, sleeps)
    assert c.post_json("http://x/embed", {"a": 1}, headers={"Authorization": f"Bearer {KEY}"}) == {"ok": 1}
    assert len(send.calls) == 3 and c.retries == 2
    assert sleeps[0] == 3.0
    assert 1.0 <= sleeps[1] <= 2.0  # second retry: backoff 2 s with equal jitter (1..2 s)
    method, _, headers, body = send.calls[0]
    assert method == "POST" and headers["Content-Type"] == "application/json" and body == b'{"a": 1}'


def test_backoff_is_deterministic_and_capped() -> None:
    runs = []
    for _ in range(2):
        sleeps: list[float] = []
        send = Script(*[HttpResponse(500, {}, b"boom")] * 6)
        with pytest.raises(ApiError, match=r"prov: HTTP 500: boom after 6 attempts"):
            client(send, sleeps, attempts=6).get_json("http://x/info")
        runs.append(sleeps)
    assert runs[0] == runs[1] and len(runs[0]) == 5
    assert all(w <= 8.0 for w in runs[0]) and runs[0][-1] >= 4.0


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_other_4xx_fail_at_once_without_the_key(status: int) -> None:
    sleeps: list[float] = []
    body = f'{{"error": {{"message": "bad key {KEY}", "code": 3210}}}}'.encode()
    send = Script(HttpResponse(status, {}, body))
    with pytest.raises(ApiError) as caught:
        client(send, sleeps).post_json(f"http://x/embed?key={KEY}", {})
    assert len(send.calls) == 1 and sleeps == []
    assert caught.value.status == status and caught.value.provider == "prov"
    assert KEY not in str(caught.value) and "bad key ***" in str(caught.value)


@pytest.mark.parametrize("status", [408, 409])
def test_timeout_and_conflict_are_retried(status: int) -> None:
    send = Script(HttpResponse(status, {}, b""), ok())
    assert client(send, []).post_json("http://x", {}) == {"ok": 1}


def test_unreachable_then_gives_up() -> None:
    sleeps: list[float] = []
    send = Script(*[ConnectionRefusedError("refused")] * 3)
    with pytest.raises(ApiError, match="prov: unreachable: cannot reach the server after 3 attempts") as caught:
        client(send, sleeps, attempts=3).post_json("http://x", {})
    assert caught.value.status is None and len(sleeps) == 2


def test_long_retry_after_is_capped_and_not_json_is_an_error() -> None:
    sleeps: list[float] = []
    send = Script(HttpResponse(429, {"retry-after": "100000"}, b""), ok(b"<html>"))
    c = HttpClient("prov", policy=RetryPolicy(max_retry_after_s=30), send=send, sleep=sleeps.append)
    with pytest.raises(ApiError, match="not JSON"):
        c.post_json("http://x", {})
    assert sleeps == [30]


def test_error_detail_shapes() -> None:
    assert error_detail(b'{"error": {"message": "m1", "code": 3}}') == "m1"
    assert error_detail(b'{"detail": [{"msg": "field required"}]}') == "field required"
    assert error_detail(b'{"message": "Too many tokens in batch. Max is 16384"}') == "Too many tokens in batch. Max is 16384"
    assert error_detail(b"plain text") == "plain text" and error_detail(b"") == "(empty body)"
    assert redact("a sk-1 b sk-1", ["sk-1", ""]) == "a *** b ***"


def test_real_urllib_against_loopback(loopback: Any) -> None:
    answers = iter([(429, {"Retry-After": "0"}, {"error": "rate"}), (200, {}, {"v": [1]})])
    loopback.answer = lambda method, path, headers, body: next(answers)
    c = HttpClient("prov", secrets=[KEY], sleep=lambda s: None)
    assert c.post_json(loopback.url + "/embed", {"x": 1}, headers={"Authorization": f"Bearer {KEY}"}) == {"v": [1]}
    assert [r.body for r in loopback.requests] == [{"x": 1}, {"x": 1}] and c.retries == 1
    loopback.answer = lambda *a: (401, {}, {"error": {"message": "invalid api key"}})
    with pytest.raises(ApiError, match="prov: HTTP 401: invalid api key"):
        c.get_json(loopback.url + "/info")


def test_usage_reported_estimated_and_priced() -> None:
    usage = Usage("openai:text-embedding-3-small")
    usage.record(["abc", "defgh"], reported_tokens=10)
    usage.record(["x" * 30], reported_tokens=None)
    assert (usage.requests, usage.inputs, usage.tokens, usage.estimated_tokens) == (2, 3, 20, 10)
    record = usage.to_json()
    assert record["estimated_cost_usd"] == pytest.approx(20 * 0.02 / 1e6)
    assert record["price_source"] == PRICES["openai:text-embedding-3-small"].source
    assert Usage("jina:unknown").to_json()["estimated_cost_usd"] is None


def test_batches_by_items_and_tokens() -> None:
    texts = ["a" * 30] * 7  # 10 estimated tokens each
    assert estimate_tokens(texts[0]) == 10 and estimate_tokens("") == 1
    assert batches(texts, max_items=3, max_tokens=None) == [(0, 3), (3, 6), (6, 7)]
    assert batches(texts, max_items=100, max_tokens=25) == [(0, 2), (2, 4), (4, 6), (6, 7)]
    assert batches(["a" * 300, "b"], max_items=10, max_tokens=25) == [(0, 1), (1, 2)]  # an oversized text goes alone
    assert batches([], max_items=3, max_tokens=5) == []
