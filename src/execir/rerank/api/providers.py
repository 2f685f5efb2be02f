"""Rerank endpoints' request and answer shapes, one class each; all score one query's documents per call.

Hosted (``api:<provider>/<model>``; keys from the environment)::

    cohere   POST https://api.cohere.com/v2/rerank {model, query, documents, top_n}
             -> {results: [{index, relevance_score}], meta: {billed_units: {search_units}}}
             at most 1,000 documents a call (docs.cohere.com/reference/rerank); billed per search unit
    jina     POST https://api.jina.ai/v1/rerank {model, query, documents, top_n, return_documents}
             -> {results: [{index, relevance_score}], usage: {total_tokens}}; Jina publishes no
             per-call document cap, so calls keep to the 1,000 of the others
    voyage   POST https://api.voyageai.com/v1/rerank {model, query, documents, top_k, return_documents, truncation}
             -> {data: [{index, relevance_score}], usage: {total_tokens}}; at most 1,000 documents
             and 100K tokens a call (query tokens x documents + document tokens; the smallest
             published total, rerank-1's)

Self-hosted (``http:URL[@MODEL][,api=infinity|cohere|tei][,batch=N]``; no key)::

    infinity the Cohere-aligned body plus raw_scores=true (Infinity's /rerank; the scores are the
             model's logits, as the in-process cross-encoder gives them); 2,048 documents a call
             (Infinity's default MAX_CLIENT_BATCH_SIZE)
    cohere   the Cohere-aligned body alone (vLLM, Xinference, LocalAI and other Cohere-compatible
             servers); 1,000 documents a call
    tei      POST /rerank {query, texts, raw_scores, truncate, return_text} -> [{index, score}]
             (text-embeddings-inference); 32 documents a call (its --max-client-batch-size default)

An answer must give exactly one score for each document index; anything else is an error naming
the provider. ``top_n``/``top_k`` ask for every document, since a reranker scores all candidates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from execir.errors import ExecIRError


@dataclass(frozen=True)
class Reply:
    """One call's scores (in document order) and what the provider says it billed."""

    scores: list[float]
    tokens: int | None = None
    search_units: int | None = None


class RerankProvider:
    """One endpoint shape: where to send, what to send, how to read the answer."""

    name = ""
    url = ""
    key_envs: tuple[str, ...] = ()
    max_documents = 1000
    max_tokens: int | None = None

    def body(self, model: str | None, query: str, documents: list[str]) -> dict[str, Any]:
        """The JSON body scoring ``documents`` against ``query``."""
        body: dict[str, Any] = {"query": query, "documents": documents, "top_n": len(documents)}
        return body if model is None else {"model": model, **body}

    def results(self, answer: Any) -> Any:
        """The list of ``{index, score}`` items in the answer."""
        return answer.get("results") if isinstance(answer, dict) else None

    def read(self, answer: Any, count: int) -> Reply:
        """Scores in document order from the answer to a call with ``count`` documents."""
        return Reply(indexed_scores(self.name, self.results(answer), count, "relevance_score"), usage_tokens(answer))

    def options(self) -> dict[str, str | int | bool | None]:
        """Request fields beyond the texts that change scores (for the cache key and results.json)."""
        return {}


def indexed_scores(provider: str, items: Any, count: int, field: str) -> list[float]:
    """``items`` (``[{index, <field>}, ...]``) as a list of ``count`` scores in index order."""
    if not isinstance(items, list):
        raise ExecIRError(f"{provider} rerank: the answer has no result list")
    scores: dict[int, float] = {}
    for item in items:
        try:
            index, score = int(item["index"]), float(item[field])
        except (KeyError, TypeError, ValueError):
            raise ExecIRError(f"{provider} rerank: a result lacks 'index' or '{field}': {str(item)[:120]}") from None
        if not 0 <= index < count or index in scores:
            raise ExecIRError(f"{provider} rerank: result index {index} is out of range or repeated ({count} documents sent)")
        scores[index] = score
    if len(scores) != count:
        raise ExecIRError(f"{provider} rerank: {len(scores)} scores for {count} documents")
    return [scores[i] for i in range(count)]


def usage_tokens(answer: Any) -> int | None:
    """``usage.total_tokens`` where the answer carries it."""
    usage = answer.get("usage") if isinstance(answer, dict) else None
    tokens = usage.get("total_tokens") if isinstance(usage, dict) else None
    return int(tokens) if isinstance(tokens, int | float) else None


class Cohere(RerankProvider):
    name = "cohere"
    url = "https://api.cohere.com/v2/rerank"
    key_envs = ("CO_API_KEY", "COHERE_API_KEY")

    def read(self, answer: Any, count: int) -> Reply:
        billed = answer.get("meta", {}).get("billed_units", {}) if isinstance(answer, dict) else {}
        units = billed.get("search_units") if isinstance(billed, dict) else None
        return Reply(indexed_scores(self.name, self.results(answer), count, "relevance_score"), None, int(units) if isinstance(units, int | float) else None)


class Jina(RerankProvider):
    name = "jina"
    url = "https://api.jina.ai/v1/rerank"
    key_envs = ("JINA_API_KEY",)

    def body(self, model: str | None, query: str, documents: list[str]) -> dict[str, Any]:
        return {**super().body(model, query, documents), "return_documents": False}


class Voyage(RerankProvider):
    name = "voyage"
    url = "https://api.voyageai.com/v1/rerank"
    key_envs = ("VOYAGE_API_KEY",)
    max_tokens = 100_000

    def body(self, model: str | None, query: str, documents: list[str]) -> dict[str, Any]:
        return {"model": model, "query": query, "documents": documents, "top_k": len(documents), "return_documents": False, "truncation": True}

    def results(self, answer: Any) -> Any:
        return answer.get("data") if isinstance(answer, dict) else None

    def options(self) -> dict[str, str | int | bool | None]:
        return {"truncation": True}


class CohereCompatible(RerankProvider):
    """A self-hosted server speaking Cohere's shape (``api=cohere``)."""

    name = "cohere-compatible"

    def __init__(self, url: str) -> None:
        self.url = url


class Infinity(CohereCompatible):
    """Infinity's /rerank (``api=infinity``): Cohere's shape with raw scores."""

    name = "infinity"
    max_documents = 2048

    def body(self, model: str | None, query: str, documents: list[str]) -> dict[str, Any]:
        return {**super().body(model, query, documents), "return_documents": False, "raw_scores": True}

    def options(self) -> dict[str, str | int | bool | None]:
        return {"raw_scores": True}


class Tei(CohereCompatible):
    """text-embeddings-inference's /rerank (``api=tei``)."""

    name = "tei"
    max_documents = 32

    def body(self, model: str | None, query: str, documents: list[str]) -> dict[str, Any]:
        return {"query": query, "texts": documents, "raw_scores": True, "truncate": True, "return_text": False}

    def read(self, answer: Any, count: int) -> Reply:
        return Reply(indexed_scores(self.name, answer, count, "score"))

    def options(self) -> dict[str, str | int | bool | None]:
        return {"raw_scores": True, "truncate": True}


HOSTED: dict[str, type[RerankProvider]] = {"cohere": Cohere, "jina": Jina, "voyage": Voyage}
"""``api:<provider>/<model>`` providers."""

SELF_HOSTED: dict[str, type[CohereCompatible]] = {"infinity": Infinity, "cohere": CohereCompatible, "tei": Tei}
"""``http:...,api=<name>`` shapes; the first is the default."""
