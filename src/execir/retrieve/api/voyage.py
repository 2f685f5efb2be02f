"""Voyage AI embeddings (e.g. ``voyage-code-3``), key in $VOYAGE_API_KEY.

``POST https://api.voyageai.com/v1/embeddings`` with ``{"model", "input": [...],
"input_type": "query" | "document"}``; the answer is OpenAI-shaped (``data[i].embedding``,
``index``). Batches are capped at 128 texts (the smallest published list limit).
"""

from __future__ import annotations

from typing import Any

from execir.retrieve.api.base import ApiEncoder, by_index
from execir.retrieve.prompts import Role


class VoyageEncoder(ApiEncoder):
    provider = "voyage"
    url = "https://api.voyageai.com/v1/embeddings"
    key_envs = ("VOYAGE_API_KEY",)
    max_batch = 128

    def role_options(self, role: Role) -> dict[str, str | int | None]:
        return {"input_type": role}

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        return {"model": self.model, "input": texts, **self.request_options(role)}

    def vectors(self, response: dict[str, Any]) -> list[list[float]]:
        return by_index(response["data"])
