"""Cohere embed v3 (``embed-english-v3.0``, ...), key in $CO_API_KEY (or $COHERE_API_KEY).

``POST https://api.cohere.com/v2/embed`` with ``{"model", "texts": [...],
"input_type": "search_query" | "search_document", "embedding_types": ["float"]}``; the answer
holds ``embeddings.float`` in input order. At most 96 texts per call.
"""

from __future__ import annotations

from typing import Any

from execir.retrieve.api.base import ApiEncoder
from execir.retrieve.prompts import Role

INPUT_TYPES: dict[Role, str] = {"query": "search_query", "document": "search_document"}


class CohereEncoder(ApiEncoder):
    provider = "cohere"
    url = "https://api.cohere.com/v2/embed"
    key_envs = ("CO_API_KEY", "COHERE_API_KEY")
    max_batch = 96

    def role_options(self, role: Role) -> dict[str, str | int | None]:
        return {"input_type": INPUT_TYPES[role]}

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        return {"model": self.model, "texts": texts, **self.request_options(role), "embedding_types": ["float"]}

    def vectors(self, response: dict[str, Any]) -> list[list[float]]:
        return response["embeddings"]["float"]
