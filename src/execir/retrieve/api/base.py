"""Shared machinery for embedding APIs: options, keys, batching by item and token limits, usage.

A provider subclass says where to send a batch (:meth:`ApiEncoder.endpoint`), how to build its
body for a role (:meth:`ApiEncoder.body`) and how to read vectors and the provider's token count out
of the answer (:meth:`ApiEncoder.parse`). Everything else is here: the key from the environment
(read only when something must be encoded, so a fully cached run needs none, and handed to the
:class:`~execir.retrieve.api.http.HttpClient` as a secret to redact), batches cut by the provider's
item and token limits, client-side L2 normalisation (cosine = dot, as for the local encoders;
this also re-normalises vectors a provider shortened, e.g. Gemini below 3072 dimensions), and
:class:`~execir.retrieve.api.usage.Usage` counts.

Options come from the spec (``api:<provider>:<model>,dim=768,base_url=...``) and are validated on
construction. ``base_url`` (or the environment variable ``EXECIR_<PROVIDER>_BASE_URL``) points an
adapter at a proxy, a regional or Azure-style gateway, or a test server; the spec wins over the
variable. Hosted models cannot be pinned to a weight revision: the cache key records ``revision =
"hosted"``, the provider and every request option that changes the vectors (role, task type,
dimensions, dtype, text prefix), never the key or the base URL.

Tasks: ``use_task`` records the task; a provider whose API has task-dependent options overrides
:meth:`ApiEncoder.task_options`, and those options join ``request_options`` and the cache key.

Caching granularity: :attr:`ApiEncoder.cache_chunk` is one request's worth of texts, so the caching
wrapper stores every request's vectors as it returns and an interrupted run pays again for at most
the request in flight.
"""

from __future__ import annotations

import json
import os
import urllib.parse
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from execir.errors import ExecIRError
from execir.model_identity import safe_name
from execir.retrieve.api.http import HttpClient
from execir.retrieve.api.usage import Usage, batches
from execir.retrieve.cache import KeyFields
from execir.retrieve.prompts import Role, task_label

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec

Options = dict[str, str | int | None]
"""Request fields that change the vectors (JSON scalars)."""

COMMON_OPTIONS = ("base_url", "batch")
"""Spec options every adapter takes: the endpoint override and a smaller items-per-request cap."""


def positive_int(provider: str, name: str, value: str) -> int:
    """``value`` as a positive integer, or an error naming the option."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number <= 0:
        raise ExecIRError(f"{provider}: option '{name}' must be a positive integer, got '{value}'")
    return number


def public_url(url: str) -> str:
    """``url`` without any ``user:password@`` part (what configs and errors may show)."""
    parts = urllib.parse.urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


class ApiEncoder:
    """Base class: subclasses set the class attributes and implement ``endpoint``/``body``/``parse``."""

    provider: str = ""
    default_base_url: str = ""
    key_envs: tuple[str, ...] = ()
    """Environment variables holding the key, first set wins; empty: no key (a self-hosted server)."""
    max_items: int = 96
    """Most texts per request (the provider's documented limit)."""
    max_tokens: int | None = None
    """Most (estimated) tokens per request, when the provider limits a request's total."""
    extra_options: tuple[str, ...] = ()
    """Spec options this provider takes besides :data:`COMMON_OPTIONS`."""

    def __init__(self, model: str, *, options: Mapping[str, str] | None = None, client: HttpClient | None = None) -> None:
        self.model = model
        self.options = dict(options or {})
        unknown = sorted(set(self.options) - set(COMMON_OPTIONS) - set(self.extra_options))
        if unknown:
            allowed = ", ".join(sorted({*COMMON_OPTIONS, *self.extra_options}))
            raise ExecIRError(f"{self.provider}: unknown option(s) {', '.join(unknown)} for '{model}'; allowed: {allowed}")
        self.items = min(self.max_items, positive_int(self.provider, "batch", self.options["batch"])) if "batch" in self.options else self.max_items
        env = f"EXECIR_{self.provider.upper()}_BASE_URL"
        self.base_url = (self.options.get("base_url") or os.environ.get(env) or self.default_base_url).rstrip("/")
        if not self.base_url.startswith(("http://", "https://")):
            raise ExecIRError(f"{self.provider}: base_url must start with http:// or https://, got '{public_url(self.base_url)}'")
        self.client = client or HttpClient(self.provider)
        self.name = safe_name(f"{self.provider}-{model}")
        self.task: TaskSpec | None = None
        self.options_by_task: dict[str, dict[str, Options]] = {}
        self.usage = Usage(f"{self.provider}:{model}")
        self.fixed_options()  # validates the option values now, not at the first request

    @property
    def cache_chunk(self) -> int:
        """Texts the caching wrapper hands over (and stores) at a time: one request's worth."""
        return self.items

    def use_task(self, task: TaskSpec | None) -> None:
        """Send ``task``'s request options from now on (recorded for :meth:`config`)."""
        self.task = task
        self.options_by_task[task_label(task)] = {role: self.request_options(role) for role in ("query", "document")}

    def api_key(self) -> str | None:
        """The key from the first set variable in ``key_envs`` (None when the adapter needs none)."""
        if not self.key_envs:
            return None
        for env in self.key_envs:
            if os.environ.get(env):
                return os.environ[env]
        others = "".join(f" (or ${env})" for env in self.key_envs[1:])
        raise ExecIRError(f"{self.provider} embeddings need an API key: set ${self.key_envs[0]}{others}")

    def headers(self, key: str | None) -> dict[str, str]:
        """HTTP headers for one request (bearer auth by default)."""
        return {"Authorization": f"Bearer {key}"} if key else {}

    def endpoint(self) -> str:
        """The URL one batch is POSTed to."""
        raise NotImplementedError

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        """The JSON request body for one batch (texts already carry :meth:`text_prefix`)."""
        raise NotImplementedError

    def parse(self, answer: Any) -> tuple[list[list[float]], int | None]:
        """Embeddings in input order and the provider's token count (None when it reports none)."""
        raise NotImplementedError

    def role_options(self, role: Role) -> Options:
        """Role-dependent request fields that change the vectors."""
        return {}

    def task_options(self, role: Role, task: TaskSpec | None) -> Options:
        """Task-dependent request fields (none for role-only providers); override per provider."""
        return {}

    def text_prefix(self, role: Role) -> str:
        """Text prepended to every input for ``role`` under the current task (most providers: none)."""
        return ""

    def fixed_options(self) -> Options:
        """Request fields set by spec options (dimensions, dtype), the same for every role."""
        return {}

    def request_options(self, role: Role) -> Options:
        """Every request field that changes the vectors for ``role`` under the current task (for the cache key)."""
        prefix = self.text_prefix(role)
        return {**self.role_options(role), **self.task_options(role, self.task), **self.fixed_options(), **({"prefix": prefix} if prefix else {})}

    def cache_key(self, role: Role) -> KeyFields:
        return {
            "model": f"{self.provider}:{self.model}",
            "revision": "hosted",
            "role": role,
            "prompt": json.dumps(self.request_options(role), sort_keys=True),
            "max_seq_length": None,
            "normalize": True,
        }

    def encode(self, texts: Sequence[str], *, role: Role, batch_size: int = 64) -> np.ndarray:
        """L2-normalised vectors of ``texts``; requests are cut by the provider's limits (not ``batch_size``)."""
        key = self.api_key()
        if key:
            self.client.add_secret(key)
        prefix = self.text_prefix(role)
        prepared = [prefix + t for t in texts]
        rows: list[list[float]] = []
        for start, stop in batches(prepared, max_items=self.items, max_tokens=self.max_tokens):
            batch = prepared[start:stop]
            answer = self.client.post_json(self.endpoint(), self.body(batch, role), headers=self.headers(key))
            try:
                got, tokens = self.parse(answer)
            except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
                raise ExecIRError(f"{self.provider}: the answer is not the documented embeddings shape ({type(exc).__name__}: {exc})") from None
            if len(got) != len(batch):
                raise ExecIRError(f"{self.provider}: sent {len(batch)} texts, got {len(got)} vectors")
            self.usage.record(batch, tokens)
            rows.extend(got)
        self.usage.retries = self.client.retries
        matrix = np.asarray(rows, dtype=np.float32).reshape(len(rows), -1)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1, norms)

    def config(self) -> dict[str, Any]:
        """JSON-able resolved configuration (never the key)."""
        return {
            "provider": self.provider,
            "model": self.model,
            "url": public_url(self.endpoint()),
            "query_options": self.request_options("query"),
            "document_options": self.request_options("document"),
            "limits": {"max_items": self.items, "max_tokens": self.max_tokens},
            "normalize": True,
            "options_by_task": dict(self.options_by_task),
        }


def by_index(data: list[dict[str, Any]]) -> list[list[float]]:
    """OpenAI-style ``data`` items (``{"index", "embedding"}``) in input order."""
    return [item["embedding"] for item in sorted(data, key=lambda item: item["index"])]


def usage_tokens(answer: Mapping[str, Any]) -> int | None:
    """An OpenAI-style ``usage`` count (``total_tokens``, else ``prompt_tokens``), when present."""
    usage = answer.get("usage") or {}
    value = usage.get("total_tokens", usage.get("prompt_tokens"))
    return int(value) if value is not None else None


def dimension_option(encoder: ApiEncoder, low: int, high: int, allowed: frozenset[int] | None = None) -> int | None:
    """The validated ``dim`` option of ``encoder`` (None when not given)."""
    if "dim" not in encoder.options:
        return None
    dim = positive_int(encoder.provider, "dim", encoder.options["dim"])
    if allowed is not None and dim not in allowed:
        raise ExecIRError(f"{encoder.provider}: option 'dim' must be one of {', '.join(map(str, sorted(allowed)))}, got {dim}")
    if not low <= dim <= high:
        raise ExecIRError(f"{encoder.provider}: option 'dim' must be between {low} and {high}, got {dim}")
    return dim


def choice_option(encoder: ApiEncoder, name: str, allowed: tuple[str, ...]) -> str | None:
    """The validated option ``name`` of ``encoder`` from ``allowed`` (None when not given)."""
    value = encoder.options.get(name)
    if value is not None and value not in allowed:
        raise ExecIRError(f"{encoder.provider}: option '{name}' must be one of {', '.join(allowed)}, got '{value}'")
    return value
