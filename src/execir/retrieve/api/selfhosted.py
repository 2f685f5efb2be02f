"""Self-hosted embedding servers: ``http:URL@MODEL[,api=openai|tei|ollama,...]``.

* ``api=openai`` (default): an OpenAI-compatible ``POST .../embeddings`` (vLLM, Infinity, LM Studio,
  llama.cpp) with ``{"model", "input", "encoding_format": "float", "dimensions"?}``. A URL with a
  path (``http://host:8000/v1``) is the route's base as given; a bare ``http://host:port`` is
  probed: ``/v1/models`` first, then ``/models`` (Infinity without ``--url-prefix``), and the one
  that answers sets the route's base. The models list is the recorded server configuration.
* ``api=tei``: text-embeddings-inference ``POST /embed`` with ``{"inputs", "normalize": true}``,
  answered by a bare list of vectors; ``GET /info`` is recorded, and its
  ``max_client_batch_size`` is the batch size unless ``batch=`` says otherwise.
* ``api=ollama``: ``POST /api/embed`` with ``{"model", "input", "dimensions"?}``, answered by
  ``{"embeddings", "prompt_eval_count"}``; ``POST /api/show`` (details and scalar model info) and
  ``GET /api/version`` are recorded.

Prompts: ``prompts=auto`` (default) prepends the model family's query/document prompt for the task
(:mod:`execir.retrieve.prompts`, matched on MODEL; unknown models get none), since these servers
add none of their own; ``prompts=none`` sends texts bare (a TEI started with
``--default-prompt-name`` prompts by itself). Other options: ``dim`` (openai, ollama), ``batch``
(texts per request; defaults 64, TEI's reported limit or 32), ``key_env`` (the environment
variable of a bearer key, for servers started with one). Credentials in the URL
(``http://user:password@host``) are sent as HTTP Basic auth, redacted from messages and left out of
the recorded URL and the cache key.

The server's configuration is read once, at the first request (or when the run's configuration is
written, for a fully cached run; an unreachable server is then recorded as such, with few retries).
The cache key holds the API, the URL (without credentials) and MODEL: the same name on another
server may be other weights.
"""

from __future__ import annotations

import base64
import os
import urllib.parse
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from execir.errors import ExecIRError
from execir.retrieve.api.base import ApiEncoder, Options, by_index, choice_option, dimension_option, positive_int, public_url, usage_tokens
from execir.retrieve.api.http import ApiError, HttpClient, RetryPolicy
from execir.retrieve.cache import KeyFields
from execir.retrieve.prompts import Role, profile_for

APIS = ("openai", "tei", "ollama")
DEFAULT_ITEMS: dict[str, int] = {"openai": 64, "tei": 32, "ollama": 64}
"""Texts per request when neither ``batch=`` nor the server says (TEI's default ``--max-client-batch-size`` is 32)."""

PROBE_POLICY = RetryPolicy(attempts=2, base_s=0.5, cap_s=1.0)
"""Reading a server's configuration is worth one quick retry, not a minute of backoff."""


def parse_http_spec(arg: str) -> tuple[str, str, dict[str, str]]:
    """``(url, model, options)`` from the part of ``http:URL@MODEL[,k=v...]`` after ``http:``.

    The URL may hold ``:`` (scheme, port) and ``@`` (credentials): the model is what follows the
    *last* ``@`` before the first ``,``."""
    head, *rest = arg.split(",")
    url, sep, model = head.rpartition("@")
    if not sep or not url or not model:
        raise ExecIRError(f"retriever 'http:{arg}': expected http:URL@MODEL[,api=openai|tei|ollama], e.g. http:http://127.0.0.1:7997@minilm,api=openai")
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ExecIRError(f"retriever 'http:{public_url(url)}@{model}': the URL must be http(s)://host[:port][/path]")
    return url, model, options_of(rest, f"http:{public_url(url)}@{model}")


def options_of(items: list[str], spec: str) -> dict[str, str]:
    """``k=v`` spec options as a dict; an item without ``=``, an empty key or a repeat is an error."""
    options: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name or not value.strip():
            raise ExecIRError(f"retriever '{spec}': option '{item}' is not name=value")
        if name in options:
            raise ExecIRError(f"retriever '{spec}': option '{name}' given twice")
        options[name] = value.strip()
    return options


class SelfHostedEncoder(ApiEncoder):
    provider = "http"
    max_items = 1 << 16
    extra_options = ("api", "dim", "key_env", "prompts")

    def __init__(self, url: str, model: str, *, options: Mapping[str, str] | None = None, client: HttpClient | None = None) -> None:
        given = dict(options or {})
        if "base_url" in given:
            raise ExecIRError("http: the URL comes before '@MODEL'; option 'base_url' is not taken")
        parts = urllib.parse.urlsplit(url)
        self._basic = (urllib.parse.unquote(parts.username or ""), urllib.parse.unquote(parts.password or "")) if parts.username else None
        super().__init__(model, options={**given, "base_url": public_url(url)}, client=client)
        if self._basic is not None:
            self.client.add_secret(self._basic[1])
            self.client.add_secret(basic_token(*self._basic))
        self.api = choice_option(self, "api", APIS) or "openai"
        if "dim" in self.options and self.api == "tei":
            raise ExecIRError("http: option 'dim' is not supported with api=tei (TEI serves the model's own dimension)")
        self.use_prompts = (choice_option(self, "prompts", ("auto", "none")) or "auto") == "auto"
        if "batch" not in self.options:
            self.items = DEFAULT_ITEMS[self.api]
        else:
            self.items = positive_int(self.provider, "batch", self.options["batch"])
        self.key_env = self.options.get("key_env")
        self._route: str | None = None
        self._server: dict[str, Any] | None = None

    def api_key(self) -> str | None:
        if self.key_env is None:
            return None
        key = os.environ.get(self.key_env)
        if not key:
            raise ExecIRError(f"http: the server key is read from ${self.key_env} (option key_env), which is not set")
        return key

    def headers(self, key: str | None) -> dict[str, str]:
        if key:
            return {"Authorization": f"Bearer {key}"}
        return {"Authorization": f"Basic {basic_token(*self._basic)}"} if self._basic is not None else {}

    def text_prefix(self, role: Role) -> str:
        return profile_for(self.model).prompt(role, self.task) if self.use_prompts else ""

    def fixed_options(self) -> Options:
        dim = dimension_option(self, 1, 65536)
        return {"dimensions": dim} if dim else {}

    def cache_key(self, role: Role) -> KeyFields:
        return {**super().cache_key(role), "model": f"http:{self.api}:{public_url(self.base_url)}@{self.model}", "revision": "self-hosted"}

    def endpoint(self) -> str:
        if self.api == "tei":
            return f"{self.base_url}/embed"
        if self.api == "ollama":
            return f"{self.base_url}/api/embed"
        if self._route is None:
            self.server_info(PROBE_POLICY)
        return f"{self.base_url}{self._route}/embeddings"

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        if self.api == "tei":
            return {"inputs": texts, "normalize": True}
        if self.api == "ollama":
            return {"model": self.model, "input": texts, **self.fixed_options()}
        return {"model": self.model, "input": texts, "encoding_format": "float", **self.fixed_options()}

    def parse(self, answer: Any) -> tuple[list[list[float]], int | None]:
        if self.api == "tei":
            return answer, None
        if self.api == "ollama":
            count = answer.get("prompt_eval_count")
            return answer["embeddings"], int(count) if count is not None else None
        return by_index(answer["data"]), usage_tokens(answer)

    def encode(self, texts: Sequence[str], *, role: Role, batch_size: int = 64) -> np.ndarray:
        self.server_info(self.client.policy)
        return super().encode(texts, role=role, batch_size=batch_size)

    def server_info(self, policy: RetryPolicy) -> dict[str, Any]:
        """The server's reported configuration, read once (an unreachable server is recorded as such)."""
        if self._server is None:
            probe = HttpClient(self.provider, secrets=list(self.client.secrets), policy=policy, send=self.client.send, sleep=self.client.sleep)
            key = self.api_key()
            if key:
                probe.add_secret(key)
            self._server = self._read_server(probe, self.headers(key))
        return self._server

    def _read_server(self, probe: HttpClient, headers: dict[str, str]) -> dict[str, Any]:
        try:
            if self.api == "tei":
                info = probe.get_json(f"{self.base_url}/info", headers=headers)
                if "batch" not in self.options and isinstance(info, dict) and isinstance(info.get("max_client_batch_size"), int):
                    self.items = info["max_client_batch_size"]
                return {"route": "/info", "info": info}
            if self.api == "ollama":
                shown = probe.post_json(f"{self.base_url}/api/show", {"model": self.model}, headers=headers)
                version = probe.get_json(f"{self.base_url}/api/version", headers=headers)
                return {"route": "/api/show", "show": ollama_summary(shown), "version": version.get("version")}
            return self._read_models(probe, headers)
        except ApiError as exc:
            self._route = "/v1" if self._route is None else self._route
            return {"error": str(exc)}

    def _read_models(self, probe: HttpClient, headers: dict[str, str]) -> dict[str, Any]:
        if urllib.parse.urlsplit(self.base_url).path not in ("", "/"):
            self._route = ""
            return {"route": "/models", "models": probe.get_json(f"{self.base_url}/models", headers=headers)}
        try:
            models = probe.get_json(f"{self.base_url}/v1/models", headers=headers)
            self._route = "/v1"
        except ApiError as exc:
            if exc.status != 404:
                raise
            models = probe.get_json(f"{self.base_url}/models", headers=headers)
            self._route = ""
        return {"route": f"{self._route}/models", "models": models}

    def config(self) -> dict[str, Any]:
        server = self.server_info(PROBE_POLICY)
        return {**super().config(), "api": self.api, "prompts": "auto" if self.use_prompts else "none", "server": server}


def basic_token(user: str, password: str) -> str:
    """The HTTP Basic credentials of ``user:password`` in a URL."""
    return base64.b64encode(f"{user}:{password}".encode()).decode("ascii")


def ollama_summary(shown: Any) -> dict[str, Any]:
    """What of Ollama's ``/api/show`` identifies the model: details, scalar model info, dates."""
    if not isinstance(shown, dict):
        return {}
    info = shown.get("model_info") or {}
    scalars = {k: v for k, v in info.items() if isinstance(v, str | int | float | bool)} if isinstance(info, dict) else {}
    return {"details": shown.get("details"), "model_info": scalars, "modified_at": shown.get("modified_at"), "capabilities": shown.get("capabilities")}
