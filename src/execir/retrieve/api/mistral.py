"""Mistral embeddings (``codestral-embed``, ``mistral-embed``), key in $MISTRAL_API_KEY.

``POST {base_url}/embeddings`` (base ``https://api.mistral.ai/v1``) with ``{"model", "input": [...],
"output_dimension"?, "output_dtype"?}``; the answer is OpenAI-shaped (``data[i].embedding`` by
``index``, ``usage.total_tokens``). Mistral has no query/document role, so queries and code are
embedded alike (symmetric). Limits: 512 inputs per request (HTTP 400, code 3210, beyond) and
16,384 tokens per request ("Too many tokens in batch"). Options: ``dim`` (``output_dimension``, up
to 3072) and ``dtype`` (``output_dtype``: float, int8, uint8; the packed binary types are not
vectors this toolkit scores; integer vectors are normalised like float ones).
"""

from __future__ import annotations

from typing import Any

from execir.retrieve.api.base import ApiEncoder, Options, by_index, choice_option, dimension_option, usage_tokens
from execir.retrieve.prompts import Role


class MistralEncoder(ApiEncoder):
    provider = "mistral"
    default_base_url = "https://api.mistral.ai/v1"
    key_envs = ("MISTRAL_API_KEY",)
    max_items = 512
    max_tokens = 16_384
    extra_options = ("dim", "dtype")

    def fixed_options(self) -> Options:
        dim = dimension_option(self, 1, 3072)
        dtype = choice_option(self, "dtype", ("float", "int8", "uint8"))
        return {**({"output_dimension": dim} if dim else {}), **({"output_dtype": dtype} if dtype else {})}

    def endpoint(self) -> str:
        return f"{self.base_url}/embeddings"

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        return {"model": self.model, "input": texts, **self.fixed_options()}

    def parse(self, answer: Any) -> tuple[list[list[float]], int | None]:
        return by_index(answer["data"]), usage_tokens(answer)
