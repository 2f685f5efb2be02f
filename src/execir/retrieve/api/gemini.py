"""Google Gemini embeddings (``gemini-embedding-001``), key in $GEMINI_API_KEY (or $GOOGLE_API_KEY).

``POST {base_url}/models/{model}:batchEmbedContents`` (base
``https://generativelanguage.googleapis.com/v1beta``, key in the ``x-goog-api-key`` header, never
the URL) with ``{"requests": [{"model": "models/{model}", "content": {"parts": [{"text"}]},
"taskType", "outputDimensionality"?}, ...]}``; the answer is ``{"embeddings": [{"values": [...]}]}``
in input order and carries no token count, so tokens are estimated. At most 100 requests per
batch call.

Task types, as Google means them for code: a natural-language query for code is
``CODE_RETRIEVAL_QUERY``; a query that is itself code (c2t, c2c) is ``RETRIEVAL_QUERY``; every
document (code or text) is ``RETRIEVAL_DOCUMENT``. Option ``dim`` (128 to 3072) sets
``outputDimensionality``; vectors below 3072 are not unit length from the API and are re-normalised
client-side with all others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from execir.retrieve.api.base import ApiEncoder, Options, dimension_option
from execir.retrieve.prompts import Role

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


def task_type(role: Role, task: TaskSpec | None) -> str:
    """Gemini's ``taskType`` for ``role`` under ``task`` (None: text to code)."""
    if role == "document":
        return "RETRIEVAL_DOCUMENT"
    text_query = task is None or task.query_kind == "text"
    code_documents = task is None or task.document_kind == "code"
    return "CODE_RETRIEVAL_QUERY" if text_query and code_documents else "RETRIEVAL_QUERY"


class GeminiEncoder(ApiEncoder):
    provider = "gemini"
    default_base_url = "https://generativelanguage.googleapis.com/v1beta"
    key_envs = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    max_items = 100
    extra_options = ("dim",)

    def headers(self, key: str | None) -> dict[str, str]:
        return {"x-goog-api-key": key} if key else {}

    def task_options(self, role: Role, task: TaskSpec | None) -> Options:
        return {"taskType": task_type(role, task)}

    def fixed_options(self) -> Options:
        dim = dimension_option(self, 128, 3072)
        return {"outputDimensionality": dim} if dim else {}

    def endpoint(self) -> str:
        return f"{self.base_url}/models/{self.model}:batchEmbedContents"

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        options = self.request_options(role)
        return {"requests": [{"model": f"models/{self.model}", "content": {"parts": [{"text": t}]}, **options} for t in texts]}

    def parse(self, answer: Any) -> tuple[list[list[float]], int | None]:
        return [item["values"] for item in answer["embeddings"]], None
