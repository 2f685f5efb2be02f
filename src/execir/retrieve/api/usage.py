"""What hosted calls cost: token counts per request and an estimated price, for ``results.json``.

Tokens are the provider's own count (its ``usage`` field) where the answer carries one; otherwise
:func:`estimate_tokens` counts them, and :attr:`Usage.estimated_tokens` says how many of the
total were estimated. Prices per million input tokens live in :data:`PRICES`, one table, each with
where it was read; a model missing from it gets ``estimated_cost_usd: null`` (never a guess).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

BYTES_PER_TOKEN = 3
""":func:`estimate_tokens` counts one token per this many UTF-8 bytes: code tokenises denser than
prose (about 4 bytes a token), so this leans high, which keeps token-limited batches under limits."""


def estimate_tokens(text: str) -> int:
    """A tokenizer-free, upper-leaning token count of ``text`` (at least 1)."""
    return max(1, math.ceil(len(text.encode("utf-8")) / BYTES_PER_TOKEN))


@dataclass(frozen=True)
class Price:
    """US dollars per million input tokens, and where that figure was read."""

    usd_per_million: float
    source: str


_OPENAI = "openai.com/api/pricing; embeddingcost.com (May 2026)"
_VOYAGE = "docs.voyageai.com/docs/pricing; aitot.net embeddings pricing 2026"
_COHERE = "cohere.com/pricing; embeddingcost.com (May 2026)"
_VOYAGE_RERANK = "docs.voyageai.com/docs/pricing; usagepricing.com Voyage AI (2026): rerank tokens = query tokens x documents + document tokens"
PRICES: dict[str, Price] = {
    "openai:text-embedding-3-small": Price(0.02, _OPENAI),
    "openai:text-embedding-3-large": Price(0.13, _OPENAI),
    "openai:text-embedding-ada-002": Price(0.10, _OPENAI),
    "voyage:voyage-code-3": Price(0.18, _VOYAGE),
    "voyage:voyage-3-large": Price(0.18, _VOYAGE),
    "voyage:voyage-3": Price(0.06, _VOYAGE),
    "voyage:voyage-3-lite": Price(0.02, _VOYAGE),
    "cohere:embed-english-v3.0": Price(0.10, _COHERE),
    "cohere:embed-multilingual-v3.0": Price(0.10, _COHERE),
    "cohere:embed-v4.0": Price(0.10, _COHERE),
    "gemini:gemini-embedding-001": Price(0.15, "ai.google.dev/gemini-api/docs/pricing; embeddingcost.com (May 2026)"),
    "mistral:codestral-embed": Price(0.15, "docs.mistral.ai code_embeddings; shared/design/endpoints-and-training.md section 1"),
    "mistral:codestral-embed-2505": Price(0.15, "docs.mistral.ai code_embeddings; shared/design/endpoints-and-training.md section 1"),
    "mistral:mistral-embed": Price(0.10, "mistral.ai/pricing; aitot.net embeddings pricing 2026"),
    "voyage:rerank-2.5": Price(0.05, _VOYAGE_RERANK),
    "voyage:rerank-2.5-lite": Price(0.02, _VOYAGE_RERANK),
}
"""``provider:model`` -> price. Self-hosted servers (``http:``) cost nothing per token here."""


@dataclass(frozen=True)
class SearchPrice:
    """US dollars per thousand searches (Cohere's rerank unit: one query with up to 100 documents,
    a document over 500 tokens counting as several), and where that figure was read."""

    usd_per_thousand: float
    source: str


_COHERE_RERANK = "cohere.com/pricing ($2.00 per 1,000 searches; artificial-intelligence-wiki.com Cohere Rerank guide, Dec 2025)"
SEARCH_PRICES: dict[str, SearchPrice] = {
    "cohere:rerank-v3.5": SearchPrice(2.0, _COHERE_RERANK),
    "cohere:rerank-v4.0-pro": SearchPrice(2.0, _COHERE_RERANK),
    "cohere:rerank-v4.0-fast": SearchPrice(2.0, _COHERE_RERANK),
}
"""``provider:model`` -> price for APIs billed per search rather than per token (rerank)."""


@dataclass
class Usage:
    """Counts for one encoder: requests, inputs, tokens (reported or estimated), retries."""

    price_key: str
    requests: int = 0
    inputs: int = 0
    tokens: int = 0
    estimated_tokens: int = 0
    retries: int = 0

    def record(self, texts: Iterable[str], reported_tokens: int | None) -> None:
        """One successful request for ``texts``; ``reported_tokens`` is the provider's count, if any."""
        batch = list(texts)
        self.requests += 1
        self.inputs += len(batch)
        if reported_tokens is not None:
            self.tokens += int(reported_tokens)
        else:
            counted = sum(estimate_tokens(t) for t in batch)
            self.tokens += counted
            self.estimated_tokens += counted

    def estimated_cost_usd(self) -> float | None:
        """Tokens times the model's price (None when :data:`PRICES` has no price for it)."""
        price = PRICES.get(self.price_key)
        return None if price is None else self.tokens * price.usd_per_million / 1e6

    def to_json(self) -> dict[str, Any]:
        """The ``usage`` block of a system in ``results.json`` (without the cache counts)."""
        price = PRICES.get(self.price_key)
        return {
            "requests": self.requests,
            "inputs": self.inputs,
            "tokens": self.tokens,
            "estimated_tokens": self.estimated_tokens,
            "retries": self.retries,
            "estimated_cost_usd": self.estimated_cost_usd(),
            "usd_per_million_tokens": None if price is None else price.usd_per_million,
            "price_source": None if price is None else price.source,
        }


def batches(texts: list[str], *, max_items: int, max_tokens: int | None) -> list[tuple[int, int]]:
    """``(start, stop)`` ranges of ``texts`` in order, each at most ``max_items`` texts and (when
    ``max_tokens`` is set) at most ``max_tokens`` estimated tokens; a text over the token limit by
    itself goes alone (the provider truncates it or says why not)."""
    out: list[tuple[int, int]] = []
    start, tokens = 0, 0
    for i, text in enumerate(texts):
        cost = estimate_tokens(text)
        full = i - start >= max_items or (max_tokens is not None and i > start and tokens + cost > max_tokens)
        if full:
            out.append((start, i))
            start, tokens = i, 0
        tokens += cost
    if start < len(texts):
        out.append((start, len(texts)))
    return out
