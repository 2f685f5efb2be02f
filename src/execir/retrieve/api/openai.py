"""OpenAI embeddings (``text-embedding-3-small`` / ``-large``): no roles, key in $OPENAI_API_KEY.

``POST {base_url}/embeddings`` (base ``https://api.openai.com/v1``) with ``{"model", "input": [...],
"encoding_format": "float", "dimensions"?}``; the answer's ``data[i].embedding`` is matched back by
``index`` and ``usage.total_tokens`` is the token count. Limits: 2,048 inputs and 300,000 tokens
per request. Option ``dim`` (text-embedding-3 models) asks for shortened vectors.
"""

from __future__ import annotations

from typing import Any

from execir.retrieve.api.base import ApiEncoder, Options, by_index, dimension_option, usage_tokens
from execir.retrieve.prompts import Role


class OpenAIEncoder(ApiEncoder):
    provider = "openai"
    default_base_url = "https://api.openai.com/v1"
    key_envs = ("OPENAI_API_KEY",)
    max_items = 2048
    max_tokens = 300_000
    extra_options = ("dim",)

    def fixed_options(self) -> Options:
        dim = dimension_option(self, 1, 3072)
        return {"dimensions": dim} if dim is not None else {}

    def endpoint(self) -> str:
        return f"{self.base_url}/embeddings"

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        return {"model": self.model, "input": texts, "encoding_format": "float", **self.fixed_options()}

    def parse(self, answer: Any) -> tuple[list[list[float]], int | None]:
        return by_index(answer["data"]), usage_tokens(answer)
