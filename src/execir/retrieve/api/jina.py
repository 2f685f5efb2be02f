"""Jina AI embeddings (jina-code-embeddings, jina-embeddings-v3/v4), key in $JINA_API_KEY.

``POST {base_url}/embeddings`` (base ``https://api.jina.ai/v1``) with ``{"model", "input": [...],
"task"?, "dimensions"?, "embedding_type": "float"}``; the answer is OpenAI-shaped (``data[i]
.embedding`` by ``index``, ``usage.total_tokens``).

``task`` per model family and ExecIR task (the provider's own adapters):

* jina-code-embeddings-*: ``<kind>.query`` / ``<kind>.passage`` with kind ``nl2code`` (t2c),
  ``code2nl`` (c2t), ``code2code`` (c2c) (:data:`~execir.retrieve.prompts.JINA_TASKS`; the API
  applies the same prefixes the model card gives for self-hosting);
* jina-embeddings-v4: ``code.query`` / ``code.passage`` for natural language to code (v4's code
  adapter), ``retrieval.query`` / ``retrieval.passage`` for c2t and c2c;
* jina-embeddings-v3: ``retrieval.query`` / ``retrieval.passage``;
* any other model (jina-embeddings-v2-base-code): no task.

Jina publishes rate limits (RPM/TPM) rather than a per-request item cap; requests carry at most
:attr:`JinaEncoder.max_items` texts and 60,000 estimated tokens, ExecIR's choice to keep one
request well inside a minute's token budget. Option ``dim`` sets ``dimensions`` (Matryoshka).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from execir.retrieve.api.base import ApiEncoder, Options, by_index, dimension_option, usage_tokens
from execir.retrieve.prompts import JINA_TASKS, Role

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec

PASSAGE: dict[Role, str] = {"query": "query", "document": "passage"}


def jina_task(model: str, role: Role, task: TaskSpec | None) -> str | None:
    """The ``task`` field for ``model``, ``role`` and the ExecIR task (None: the model takes none)."""
    direction = task.direction if task is not None else "t2c"
    name = model.lower()
    if "jina-code-embeddings" in name:
        return f"{JINA_TASKS[direction]}.{PASSAGE[role]}"
    if "jina-embeddings-v4" in name:
        return f"{'code' if direction == 't2c' else 'retrieval'}.{PASSAGE[role]}"
    if "jina-embeddings-v3" in name:
        return f"retrieval.{PASSAGE[role]}"
    return None


class JinaEncoder(ApiEncoder):
    provider = "jina"
    default_base_url = "https://api.jina.ai/v1"
    key_envs = ("JINA_API_KEY",)
    max_items = 256
    max_tokens = 60_000
    extra_options = ("dim",)

    def task_options(self, role: Role, task: TaskSpec | None) -> Options:
        value = jina_task(self.model, role, task)
        return {"task": value} if value else {}

    def fixed_options(self) -> Options:
        dim = dimension_option(self, 32, 4096)
        return {"dimensions": dim} if dim else {}

    def endpoint(self) -> str:
        return f"{self.base_url}/embeddings"

    def body(self, texts: list[str], role: Role) -> dict[str, Any]:
        return {"model": self.model, "input": texts, **self.request_options(role), "embedding_type": "float"}

    def parse(self, answer: Any) -> tuple[list[list[float]], int | None]:
        return by_index(answer["data"]), usage_tokens(answer)
