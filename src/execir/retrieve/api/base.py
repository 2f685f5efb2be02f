"""Shared machinery for hosted embedding APIs: batching, auth from env vars, JSON over urllib.

A provider subclass only says how to build one request body for a batch and role, and how to
read the vectors out of the response. The transport is injectable, so tests build and inspect
requests without any network. Vectors are L2-normalised client-side (cosine = dot), matching the
local encoders. Hosted models cannot be pinned to a weight revision: the cache key records
``revision = "hosted"`` plus the provider and every request option that changes the vectors.

Tasks: ``use_task`` records the task; a provider whose API has task-dependent options (a task
type beyond the query/document role) overrides :meth:`ApiEncoder.task_options`, and those
options join ``request_options`` and hence the cache key. The providers here are role-only:
OpenAI has no input type, Voyage's ``input_type`` is ``query``/``document``, and Cohere's
``search_query``/``search_document`` are its retrieval input types (its others, classification
and clustering, are not retrieval), so no request changes with the task.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from execir.errors import ExecIRError
from execir.model_identity import safe_name
from execir.retrieve.cache import KeyFields
from execir.retrieve.prompts import Role, task_label

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec

Transport = Callable[[str, dict[str, str], dict[str, Any]], dict[str, Any]]
"""(url, headers, json body) -> parsed JSON response."""

TIMEOUT_S = 120.0


def urllib_transport(url: str, headers: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON and parse the JSON answer; HTTP errors become ExecIRError."""
    request = urllib.request.Request(url, data=json.dumps(body).encode("utf-8"), method="POST", headers={**headers, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        detail = exc.read().decode("utf-8", "replace")[:500]
        raise ExecIRError(f"{url}: HTTP {exc.code}: {detail}") from exc
    except urllib.error.URLError as exc:
        raise ExecIRError(f"{url}: {exc.reason}") from exc


class ApiEncoder:
    """Base class: subclasses set the class attributes and implement ``body``/``vectors``."""

    provider: str = ""
    url: str = ""
    key_envs: tuple[str, ...] = ()
    max_batch: int = 96

    def __init__(self, model: str, *, transport: Transport | None = None) -> None:
        self.model = model
        self.transport = transport or urllib_transport
        self.name = safe_name(f"{self.provider}-{model}")
        self.task: TaskSpec | None = None
        self.options_by_task: dict[str, dict[str, dict[str, str | int | None]]] = {}

    def use_task(self, task: TaskSpec | None) -> None:
        """Send ``task``'s request options from now on (recorded for :meth:`config`)."""
        self.task = task
        self.options_by_task[task_label(task)] = {role: self.request_options(role) for role in ("query", "document")}

    def api_key(self) -> str:
        """The API key from the first set environment variable in ``key_envs``."""
        for env in self.key_envs:
            if os.environ.get(env):
                return os.environ[env]
        raise ExecIRError(f"{self.provider} embeddings need an API key in ${self.key_envs[0]}")

    def headers(self) -> dict[str, str]:
        """HTTP headers (bearer auth by default)."""
        return {"Authorization": f"Bearer {self.api_key()}"}

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        """The JSON request body for one batch."""
        raise NotImplementedError

    def vectors(self, response: dict[str, Any]) -> list[list[float]]:
        """Embeddings in input order, read from one response."""
        raise NotImplementedError

    def role_options(self, role: Role) -> dict[str, str | int | None]:
        """Role-dependent request fields that change the vectors."""
        return {}

    def task_options(self, role: Role, task: TaskSpec | None) -> dict[str, str | int | None]:
        """Task-dependent request fields (none for role-only providers); override per provider."""
        return {}

    def request_options(self, role: Role) -> dict[str, str | int | None]:
        """Every request field that changes the vectors for ``role`` under the current task (for the cache key)."""
        return {**self.role_options(role), **self.task_options(role, self.task)}

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
        size = max(1, min(batch_size, self.max_batch))
        rows: list[list[float]] = []
        for start in range(0, len(texts), size):
            batch = list(texts[start : start + size])
            got = self.vectors(self.transport(self.url, self.headers(), self.body(batch, role)))
            if len(got) != len(batch):
                raise ExecIRError(f"{self.provider}: sent {len(batch)} texts, got {len(got)} vectors")
            rows.extend(got)
        matrix = np.asarray(rows, dtype=np.float32).reshape(len(rows), -1)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1, norms)

    def config(self) -> dict[str, Any]:
        """JSON-able resolved configuration."""
        return {
            "provider": self.provider,
            "model": self.model,
            "url": self.url,
            "query_options": self.request_options("query"),
            "document_options": self.request_options("document"),
            "normalize": True,
            "options_by_task": dict(self.options_by_task),
        }


def by_index(data: list[dict[str, Any]]) -> list[list[float]]:
    """OpenAI-style ``data`` items (``{"index", "embedding"}``) in input order."""
    return [item["embedding"] for item in sorted(data, key=lambda item: item["index"])]
