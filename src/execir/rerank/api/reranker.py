"""A reranker that asks a rerank endpoint (hosted or self-hosted) for each query's candidate scores.

Each distinct query text is one or more calls: its distinct candidate texts not in the score
cache, cut into batches of at most the endpoint's document limit (or ``batch_size`` when smaller)
and, where the endpoint has one, its token budget (query tokens x documents + document tokens, as
:func:`execir.retrieve.api.usage.estimate_tokens` counts them). Calls go through the shared
:class:`~execir.retrieve.api.http.HttpClient` (retries honouring ``Retry-After``, key redaction);
every answered call's scores are cached at once (:mod:`execir.rerank.api.cache`), so an interrupted
run resumes paying only for what is left. The key is read from the environment only when a call
must be made: a fully cached run needs none.

Pairs are (query, document) as the dataset gives them: an endpoint scores one query against many
documents, so a model trained on (text, code) pairs that is served for a code-to-text folder sees
its inputs the other way round (the in-process ``ce:`` reranker swaps them; an endpoint cannot).
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from execir.errors import ExecIRError
from execir.model_identity import safe_name
from execir.rerank.api.cache import ScoreCache
from execir.rerank.api.providers import RerankProvider
from execir.rerank.base import RerankRequest, RerankStats
from execir.rerank.prompts import assemble, plan_pairs
from execir.retrieve.api.http import HttpClient
from execir.retrieve.api.usage import SEARCH_PRICES, Usage, batches

if TYPE_CHECKING:
    from pathlib import Path

    from execir.dataset.spec import TaskSpec


class ApiReranker:
    """Scores candidates through one rerank endpoint (see the module docstring)."""

    def __init__(
        self,
        provider: RerankProvider,
        model: str | None,
        *,
        name: str,
        cache_dir: Path | None = None,
        batch_size: int | None = None,
        client: HttpClient | None = None,
        key_env: str | None = None,
        progress: bool = False,
        device: str | None = None,
    ) -> None:
        del progress, device  # nothing runs locally
        if batch_size is not None and batch_size < 1:
            raise ExecIRError(f"rerank batch size must be positive, got {batch_size}")
        self.provider = provider
        self.model = model
        self.name = name
        self.key_envs = provider.key_envs or ((key_env,) if key_env else ())
        """Where the bearer key is read from: a hosted provider's variables, or a self-hosted server's ``key_env``."""
        self.max_documents = min(provider.max_documents, batch_size or provider.max_documents)
        self.client = client or HttpClient(provider.name)
        self.cache = ScoreCache(cache_dir, self.cache_key())
        self.usage = Usage(f"{provider.name}:{model}")
        self.search_units = 0
        self._stats = RerankStats(queries=0, pairs=0, seconds=0.0)

    def cache_key(self) -> dict[str, str | int | bool | None]:
        """Everything besides the texts that changes a score (never the key)."""
        url = self.provider.url if not self.provider.key_envs else None  # a hosted model is named by provider and model
        return {"provider": self.provider.name, "model": self.model, "url": url, **self.provider.options()}

    def use_task(self, task: TaskSpec | None) -> None:
        """Endpoints take the query and documents as they are: nothing depends on the task."""
        del task

    def _headers(self) -> dict[str, str]:
        if not self.key_envs:
            return {}
        key = next((os.environ[env] for env in self.key_envs if os.environ.get(env)), None)
        if key is None:
            names = " or ".join(f"${env}" for env in self.key_envs)
            raise ExecIRError(f"reranker '{self.name}' needs an API key in {names}")
        self.client.add_secret(key)
        return {"Authorization": f"Bearer {key}"}

    def _call(self, query: str, documents: list[str]) -> list[float]:
        answer = self.client.post_json(self.provider.url, self.provider.body(self.model, query, documents), headers=self._headers())
        reply = self.provider.read(answer, len(documents))
        self.usage.record([query + "\n" + doc for doc in documents], reply.tokens)  # estimated: one query per document
        self.search_units += reply.search_units or 0
        self.cache.put({(query, doc): score for doc, score in zip(documents, reply.scores)})
        return reply.scores

    def _score_query(self, query: str, documents: list[str]) -> int:
        """Score every uncached document of ``query``; the number of documents sent."""
        missing = [doc for doc in dict.fromkeys(documents) if self.cache.get(query, doc) is None]
        joined = [query + "\n" + doc for doc in missing]  # one pair's tokens, for the budget
        for start, stop in batches(joined, max_items=self.max_documents, max_tokens=self.provider.max_tokens):
            self._call(query, missing[start:stop])
        return len(missing)

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        """query id -> candidate id -> the endpoint's score."""
        start = time.perf_counter()
        retries_before, requests_before = self.client.retries, self.usage.requests
        plan = plan_pairs(request)
        by_query: dict[str, list[str]] = {}
        for query, document in plan.texts:
            by_query.setdefault(query, []).append(document)
        sent = sum(self._score_query(query, documents) for query, documents in by_query.items())
        scores = [self.cache.get(q, d) for q, d in plan.texts]
        result = assemble(plan, np.asarray(scores, dtype=np.float64).tolist())
        self.usage.retries = self.client.retries
        extra = {
            "unique_pairs": float(len(plan.texts)),
            "pairs_sent": float(sent),
            "pairs_cached": float(len(plan.texts) - sent),
            "requests": float(self.usage.requests - requests_before),
            "retries": float(self.client.retries - retries_before),
        }
        self._stats = RerankStats(queries=len(plan.slots), pairs=plan.pairs, seconds=time.perf_counter() - start, extra=extra)
        return result

    def stats(self) -> RerankStats:
        """Counts of the last :meth:`score` call (``extra``: pairs sent and cached, requests, retries)."""
        return self._stats

    def usage_json(self) -> dict[str, Any]:
        """Requests, tokens, search units and estimated cost over this reranker's life."""
        usage = self.usage.to_json()
        price = SEARCH_PRICES.get(self.usage.price_key)
        if self.search_units or price is not None:
            usage["search_units"] = self.search_units
            usage["usd_per_thousand_searches"] = None if price is None else price.usd_per_thousand
            usage["price_source"] = usage["price_source"] or (None if price is None else price.source)
            if price is not None:
                usage["estimated_cost_usd"] = self.search_units * price.usd_per_thousand / 1000
        return usage

    def config(self) -> dict[str, object]:
        """Provider, model, URL, request options, batching limits and usage (no key)."""
        return {
            "kind": "rerank-api",
            "provider": self.provider.name,
            "model": self.model,
            "url": self.provider.url,
            "options": self.provider.options(),
            "max_documents_per_request": self.max_documents,
            "max_tokens_per_request": self.provider.max_tokens,
            "cache": str(self.cache.folder) if self.cache.folder is not None else None,
            "usage": self.usage_json(),
        }


def reranker_name(kind: str, provider: str, model: str | None, url: str) -> str:
    """The system name: ``api:cohere/rerank-v3.5`` or ``http:<model or host:port>``."""
    if kind == "api":
        return f"api:{provider}/{safe_name(model or '')}"
    return "http:" + safe_name(model or url.split("://", 1)[-1].split("/", 1)[0])
