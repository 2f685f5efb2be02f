"""The one HTTP layer every hosted or self-hosted API adapter uses: JSON over urllib, retries, redaction.

Interface (small on purpose; embedding and rerank adapters share it)::

    client = HttpClient("gemini", secrets=[key])          # or HttpClient(..., send=fake, sleep=fake)
    answer = client.post_json(url, body, headers={...})   # parsed JSON, or ApiError
    info = client.get_json(url)                           # for a server's /info, /models
    client.retries                                        # retries taken so far

Retries: a connection failure or an HTTP status in :data:`RETRY_STATUSES` (408, 409, 429 and the
5xx statuses that mean "try again") is retried up to ``RetryPolicy.attempts`` times in all. The
wait is the server's ``Retry-After`` (seconds or an HTTP date) when it sends one, capped at
``RetryPolicy.max_retry_after_s``; otherwise exponential backoff with "equal jitter"
(``min(cap, base * 2**n)``, of which a seeded random half is jitter). Any other 4xx fails at once.
``send`` and ``sleep`` are injectable, so tests run the real retry logic deterministically.

Secrets: every string in ``secrets`` is replaced by ``***`` in error messages (the URL, the
provider's error text), and no header is ever put into a message. An :class:`ApiError` names the
provider, the HTTP status and a short detail read from the provider's error body.
"""

from __future__ import annotations

import email.utils
import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from execir.errors import ExecIRError

TIMEOUT_S = 120.0
"""Seconds one request may take before it counts as a connection failure."""

RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})
"""Statuses worth retrying: timeouts, conflicts, rate limits and transient server errors."""

DETAIL_CHARS = 300
"""Most characters of a provider's error text quoted in an :class:`ApiError`."""


@dataclass(frozen=True)
class HttpResponse:
    """One HTTP answer: status, headers (names lowercased) and raw body."""

    status: int
    headers: Mapping[str, str]
    body: bytes


Send = Callable[[str, str, Mapping[str, str], bytes | None, float], HttpResponse]
"""``(method, url, headers, body, timeout_s) -> HttpResponse``; raises ``OSError`` when the server
cannot be reached (any status, error or not, is a response)."""


def urllib_send(method: str, url: str, headers: Mapping[str, str], body: bytes | None, timeout_s: float) -> HttpResponse:
    """The real :data:`Send`: one request through urllib."""
    request = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            return HttpResponse(response.status, {k.lower(): v for k, v in response.headers.items()}, response.read())
    except urllib.error.HTTPError as exc:
        return HttpResponse(exc.code, {k.lower(): v for k, v in (exc.headers or {}).items()}, exc.read())


class ApiError(ExecIRError):
    """A request that failed for good: names the provider, the status (None: unreachable) and a detail."""

    def __init__(self, provider: str, status: int | None, detail: str) -> None:
        self.provider = provider
        self.status = status
        self.detail = detail
        what = f"HTTP {status}" if status is not None else "unreachable"
        super().__init__(f"{provider}: {what}: {detail}")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry."""

    attempts: int = 6
    """Requests in all, the first included."""
    base_s: float = 1.0
    cap_s: float = 60.0
    max_retry_after_s: float = 300.0
    """The longest ``Retry-After`` wait honoured (a longer one is cut to this)."""

    def backoff(self, retry: int, rng: random.Random) -> float:
        """The wait before retry number ``retry`` (0-based) without a ``Retry-After``."""
        ceiling = min(self.cap_s, self.base_s * 2**retry)
        return ceiling / 2 + rng.random() * ceiling / 2


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta seconds or an HTTP date); None if absent or unreadable."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every non-empty secret replaced by ``***``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text


def error_detail(body: bytes) -> str:
    """A short human detail from an error body: the JSON ``message``/``detail``/``error`` text, else the raw text."""
    text = body.decode("utf-8", "replace").strip()
    try:
        data: Any = json.loads(text)
    except ValueError:
        return text[:DETAIL_CHARS] or "(empty body)"
    for _ in range(3):  # {"error": {"message": ...}}, {"detail": [...]}, {"message": ...}
        if isinstance(data, dict):
            data = next((data[k] for k in ("error", "message", "detail", "msg") if k in data), data)
            if isinstance(data, str):
                break
        elif isinstance(data, list) and data:
            data = data[0]
    return (data if isinstance(data, str) else json.dumps(data))[:DETAIL_CHARS]


@dataclass
class HttpClient:
    """JSON requests for one provider, with retries and redaction (see the module docstring)."""

    provider: str
    secrets: list[str] = field(default_factory=list)
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    send: Send = urllib_send
    sleep: Callable[[float], None] = time.sleep
    seed: int = 0
    timeout_s: float = TIMEOUT_S
    retries: int = 0

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def add_secret(self, secret: str) -> None:
        """Redact ``secret`` from every message from now on."""
        if secret and secret not in self.secrets:
            self.secrets.append(secret)

    def post_json(self, url: str, body: Any, *, headers: Mapping[str, str] | None = None) -> Any:
        """POST ``body`` as JSON; the parsed JSON answer."""
        data = json.dumps(body).encode("utf-8")
        return self._request("POST", url, {**(headers or {}), "Content-Type": "application/json"}, data)

    def get_json(self, url: str, *, headers: Mapping[str, str] | None = None) -> Any:
        """GET ``url``; the parsed JSON answer."""
        return self._request("GET", url, dict(headers or {}), None)

    def _error(self, status: int | None, detail: str, url: str) -> ApiError:
        return ApiError(self.provider, status, redact(f"{detail} ({url})", self.secrets))

    def _request(self, method: str, url: str, headers: dict[str, str], data: bytes | None) -> Any:
        headers = {"Accept": "application/json", **headers}
        for attempt in range(self.policy.attempts):
            last = attempt == self.policy.attempts - 1
            try:
                response = self.send(method, url, headers, data, self.timeout_s)
            except OSError as exc:
                if last:
                    raise self._error(None, f"cannot reach the server after {self.policy.attempts} attempts: {exc}", url) from None
                self._wait(self.policy.backoff(attempt, self._rng))
                continue
            if 200 <= response.status < 300:
                return self._parse(response, url)
            if response.status not in RETRY_STATUSES or last:
                tried = f" after {attempt + 1} attempts" if attempt else ""
                raise self._error(response.status, error_detail(response.body) + tried, url)
            after = retry_after_seconds(response.headers.get("retry-after"))
            self._wait(min(after, self.policy.max_retry_after_s) if after is not None else self.policy.backoff(attempt, self._rng))
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _wait(self, seconds: float) -> None:
        self.retries += 1
        self.sleep(seconds)

    def _parse(self, response: HttpResponse, url: str) -> Any:
        try:
            return json.loads(response.body.decode("utf-8"))
        except ValueError:
            raise self._error(response.status, f"the answer is not JSON: {response.body[:80]!r}", url) from None
