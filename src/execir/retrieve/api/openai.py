"""OpenAI embeddings (``text-embedding-3-small`` / ``-large``): no roles, key in $OPENAI_API_KEY.

``POST https://api.openai.com/v1/embeddings`` with ``{"model", "input": [...],
"encoding_format": "float"}``; the answer's ``data[i].embedding`` is matched back by ``index``.
"""

from __future__ import annotations

from typing import Any

from execir.retrieve.api.base import ApiEncoder, by_index
from execir.retrieve.prompts import Role


class OpenAIEncoder(ApiEncoder):
    provider = "openai"
    url = "https://api.openai.com/v1/embeddings"
    key_envs = ("OPENAI_API_KEY",)
    max_batch = 256

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        return {"model": self.model, "input": texts, "encoding_format": "float"}

    def vectors(self, response: dict[str, Any]) -> list[list[float]]:
        return by_index(response["data"])
