"""Nomic Atlas embeddings, key in $NOMIC_API_KEY.

``POST {base_url}/embedding/text`` (base ``https://api-atlas.nomic.ai/v1``) with ``{"model",
"texts": [...], "task_type"?, "dimensionality"?}``; the answer is ``{"embeddings": [[...]],
"usage": {"prompt_tokens", "total_tokens"}}``.

Roles, decided from the design notes (shared/design/endpoints-and-training.md, section 1):

* nomic-embed-text-*: Atlas documents ``task_type`` ``search_query`` / ``search_document``, which
  the server turns into the model's ``search_query: `` / ``search_document: `` prefixes; those are
  sent, and no text prefix.
* nomic-embed-code and CodeRankEmbed: Atlas documents no task type for them, and their model cards
  give a query prefix only, so no ``task_type`` is sent; a text query gets the prefix
  ``Represent this query for searching relevant code: `` client-side (from
  :mod:`execir.retrieve.prompts`, the one owner of model prompts: code queries of c2t and c2c get
  none), and documents get no prefix.

At most :attr:`NomicEncoder.max_items` texts per request (ExecIR's choice; Atlas publishes no
cap). Option ``dim`` sets ``dimensionality`` (nomic-embed-text-v1.5: 64 to 768).
"""

from __future__ import annotations

from typing import Any

from execir.retrieve.api.base import ApiEncoder, Options, dimension_option, usage_tokens
from execir.retrieve.prompts import Role, profile_for

TASK_TYPES: dict[Role, str] = {"query": "search_query", "document": "search_document"}


def is_code_model(model: str) -> bool:
    """True for nomic-embed-code and CodeRankEmbed (prefix-driven, no Atlas task type)."""
    name = model.lower()
    return "nomic-embed-code" in name or "coderankembed" in name


class NomicEncoder(ApiEncoder):
    provider = "nomic"
    default_base_url = "https://api-atlas.nomic.ai/v1"
    key_envs = ("NOMIC_API_KEY",)
    max_items = 256
    extra_options = ("dim",)

    def role_options(self, role: Role) -> Options:
        return {} if is_code_model(self.model) else {"task_type": TASK_TYPES[role]}

    def text_prefix(self, role: Role) -> str:
        return profile_for(self.model).prompt(role, self.task) if is_code_model(self.model) else ""

    def fixed_options(self) -> Options:
        dim = dimension_option(self, 64, 8192)
        return {"dimensionality": dim} if dim else {}

    def endpoint(self) -> str:
        return f"{self.base_url}/embedding/text"

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        return {"model": self.model, "texts": texts, **self.role_options(role), **self.fixed_options()}

    def parse(self, answer: Any) -> tuple[list[list[float]], int | None]:
        return answer["embeddings"], usage_tokens(answer)
