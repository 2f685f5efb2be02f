"""Voyage AI embeddings (e.g. ``voyage-code-3``), key in $VOYAGE_API_KEY.

``POST {base_url}/embeddings`` (base ``https://api.voyageai.com/v1``) with ``{"model", "input": [...],
"input_type": "query" | "document", "output_dimension"?, "output_dtype"?}``; the answer is
OpenAI-shaped (``data[i].embedding`` by ``index``, ``usage.total_tokens``). Limits: 1,000 texts
and 120,000 tokens per request. Options: ``dim`` (256, 512, 1024, 2048) and ``dtype`` (float,
int8, uint8; the packed binary types are not vectors this toolkit scores).
"""

from __future__ import annotations

from typing import Any

from execir.retrieve.api.base import ApiEncoder, Options, by_index, choice_option, dimension_option, usage_tokens
from execir.retrieve.prompts import Role

DIMS = frozenset({256, 512, 1024, 2048})


class VoyageEncoder(ApiEncoder):
    provider = "voyage"
    default_base_url = "https://api.voyageai.com/v1"
    key_envs = ("VOYAGE_API_KEY",)
    max_items = 1000
    max_tokens = 120_000
    extra_options = ("dim", "dtype")

    def role_options(self, role: Role) -> Options:
        return {"input_type": role}

    def fixed_options(self) -> Options:
        dim = dimension_option(self, 256, 2048, DIMS)
        dtype = choice_option(self, "dtype", ("float", "int8", "uint8"))
        return {**({"output_dimension": dim} if dim else {}), **({"output_dtype": dtype} if dtype else {})}

    def endpoint(self) -> str:
        return f"{self.base_url}/embeddings"

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        return {"model": self.model, "input": texts, **self.request_options(role)}

    def parse(self, answer: Any) -> tuple[list[list[float]], int | None]:
        return by_index(answer["data"]), usage_tokens(answer)
