"""Cohere embed (``embed-english-v3.0``, ``embed-v4.0``, ...), key in $CO_API_KEY (or $COHERE_API_KEY).

``POST {base_url}/embed`` (base ``https://api.cohere.com/v2``) with ``{"model", "texts": [...],
"input_type": "search_query" | "search_document", "embedding_types": ["float"],
"output_dimension"?}``; the answer holds ``embeddings.float`` in input order and the token count
in ``meta.billed_units.input_tokens``. At most 96 texts per call. Option ``dim`` (embed-v4.0:
256, 512, 1024, 1536).
"""

from __future__ import annotations

from typing import Any

from execir.retrieve.api.base import ApiEncoder, Options, dimension_option
from execir.retrieve.prompts import Role

INPUT_TYPES: dict[Role, str] = {"query": "search_query", "document": "search_document"}
DIMS = frozenset({256, 512, 1024, 1536})


class CohereEncoder(ApiEncoder):
    provider = "cohere"
    default_base_url = "https://api.cohere.com/v2"
    key_envs = ("CO_API_KEY", "COHERE_API_KEY")
    max_items = 96
    extra_options = ("dim",)

    def role_options(self, role: Role) -> Options:
        return {"input_type": INPUT_TYPES[role]}

    def fixed_options(self) -> Options:
        dim = dimension_option(self, 256, 1536, DIMS)
        return {"output_dimension": dim} if dim else {}

    def endpoint(self) -> str:
        return f"{self.base_url}/embed"

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        return {"model": self.model, "texts": texts, **self.request_options(role), "embedding_types": ["float"]}

    def parse(self, answer: Any) -> tuple[list[list[float]], int | None]:
        billed = (answer.get("meta") or {}).get("billed_units") or {}
        tokens = billed.get("input_tokens")
        return answer["embeddings"]["float"], int(tokens) if tokens is not None else None
