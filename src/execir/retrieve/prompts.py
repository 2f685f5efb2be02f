"""Prompts per (model family, task, role) for dense encoders.

A prompt is prepended verbatim to the text before encoding. A model id or local path is matched
to a family by lowercased substring, first match wins (:data:`FAMILIES`); unknown models get no
prompts. :func:`prompt` gives the prompt for a model, a role (``"query"`` or ``"document"``) and
a task (:class:`~execir.dataset.spec.TaskSpec`); ``task=None`` keeps the text-to-code prompts
every profile had before tasks existed, exactly.

How each family depends on the task, and where each string comes from:

* **Instruct LLM embedders** put the task's one-line instruction (``TaskSpec.instruction``) in
  their instruct template on queries; documents get no prompt.

  - Qwen3-Embedding: ``Instruct: {instruction}\\nQuery:`` with no space after ``Query:``, as in
    the ``query`` prompt of the official ``config_sentence_transformers.json`` and the card's
    ``get_detailed_instruct``.
  - gte-Qwen2, e5-mistral-7b-instruct, multilingual-e5-large-instruct:
    ``Instruct: {instruction}\\nQuery: `` (their model cards' ``get_detailed_instruct``; MTEB's
    ``gte_models.py`` uses the same ``instruction_template``).
  - F2LLM (``codefuse-ai/F2LLM-*``): ``Instruct: {instruction}\\nQuery: `` on queries, documents
    unprompted (F2LLM-v2 model card, "Prompt Format"; the F2LLM technical report, arXiv
    2510.02294, trains every query as ``Instruct: {task_instruction}\\nQuery: {q}``).
  - C2LLM (``codefuse-ai/C2LLM-*``): the card's sentence-transformers example takes a custom
    ``instruction`` for queries only; C2LLM is trained with the F2LLM recipe and code of the same
    team (CodeFuse-Embeddings), so it gets the F2LLM template. The exact join of instruction and
    query in the C2LLM card could not be read here: confirm it against the card before quoting
    C2LLM numbers.

* **jina-code-embeddings** (0.5b, 1.5b): the official task prefixes, query and passage, from the
  ``INSTRUCTION_CONFIG`` of the model card (``jinaai/jina-code-embeddings-0.5b`` README, usage
  via transformers; its sentence-transformers example selects them as ``prompt_name=
  "nl2code_query"``/``"nl2code_document"``): t2c uses ``nl2code``, c2t ``code2nl``, c2c
  ``code2code`` (:data:`JINA_TASKS`).
* **CodeRankEmbed, nomic-embed-code**: ``Represent this query for searching relevant code: `` on
  text queries (model cards); the cards give no prompt for code queries or documents, so c2t and
  c2c queries and all documents are unprompted.
* **Models trained by ``execir train-embedder``** declare their own prompts per task direction in
  their folder's ``execir.json`` (``"prompts": {"c2c": {"query": ..., "document": ...}}``), read by
  :func:`trained_profile`; such a declaration wins over a family match. ``--prompts task`` gives
  code queries the jina-code-embeddings query prefix of their direction
  (:data:`TRAINED_QUERY_PROMPTS`) and nothing else a prompt.
* **Task-independent families** keep their behaviour for every task: E5 (``query: ``/
  ``passage: ``), BGE v1.5 (the query instruction only; bge-m3 none), nomic-embed-text
  (``search_query: ``/``search_document: ``), jina-embeddings-v2-base-code (none).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from execir.errors import ExecIRError
from execir.model_identity import MODEL_FILE

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec

Role = Literal["query", "document"]
ROLES: tuple[Role, ...] = ("query", "document")

NL2CODE_TASK = "Given a natural language question, retrieve code that answers it"
"""The instruction of the text-to-code task (equal to ``execir.dataset.spec.NL2CODE``)."""

INSTRUCTION = "{instruction}"
"""Placeholder for ``TaskSpec.instruction`` in an instruct template."""

JINA_PREFIXES: dict[str, tuple[str, str]] = {
    "nl2code": ("Find the most relevant code snippet given the following query:\n", "Candidate code snippet:\n"),
    "code2code": ("Find an equivalent code snippet given the following code snippet:\n", "Candidate code snippet:\n"),
    "code2nl": ("Find the most relevant comment given the following code snippet:\n", "Candidate comment:\n"),
}
"""jina-code-embeddings (query prefix, passage prefix) per jina task type (model card)."""

JINA_TASKS: dict[str, str] = {"t2c": "nl2code", "c2t": "code2nl", "c2c": "code2code"}
"""ExecIR task direction -> jina task type (every t2c subtype is natural language to code)."""

TRAINED_QUERY_PROMPTS: dict[str, str] = {"c2c": JINA_PREFIXES["code2code"][0], "c2t": JINA_PREFIXES["code2nl"][0]}
"""The query prompt ``train-embedder --prompts task`` gives each code-query direction. A bare encoder
embeds a program the same way as query and as document, so a near-identical failing clone of the
query scores almost 1 whatever the training; a query prompt lets the model embed the query for
its task, and so also lets it learn "unlike the query" (measured in the README). Text queries and
every document stay bare, so text-to-code rows train as before."""


@dataclass(frozen=True)
class ModelProfile:
    """How to drive one model family: prompts per task and role, and loading flags.

    ``query_prompt``/``document_prompt`` are the prompts without a task (text to code).
    ``instruct`` is a template with :data:`INSTRUCTION` filled by the task's instruction for
    queries; ``by_direction`` maps a task direction to its (query, document) prompts;
    ``text_queries_only`` drops the query prompt when the task's queries are code.
    """

    query_prompt: str = ""
    document_prompt: str = ""
    trust_remote_code: bool = False
    instruct: str = ""
    by_direction: Mapping[str, tuple[str, str]] = field(default_factory=dict, hash=False)
    text_queries_only: bool = False

    def prompt(self, role: Role, task: TaskSpec | None = None) -> str:
        """The prompt for ``role`` under ``task`` (None: the text-to-code default)."""
        if task is None:
            return self.query_prompt if role == "query" else self.document_prompt
        if task.direction in self.by_direction:
            query, document = self.by_direction[task.direction]
            return query if role == "query" else document
        if role == "document":
            return self.document_prompt
        return self._task_query(task)

    def _task_query(self, task: TaskSpec) -> str:
        if self.instruct:
            return self.instruct.replace(INSTRUCTION, task.instruction)
        if self.text_queries_only and task.query_kind != "text":
            return ""
        return self.query_prompt

    def prompts(self, task: TaskSpec | None = None) -> dict[str, str]:
        """``{"query": ..., "document": ...}`` under ``task``."""
        return {role: self.prompt(role, task) for role in ROLES}


def instruct_profile(template: str, *, trust_remote_code: bool = False) -> ModelProfile:
    """An instruct embedder: ``template`` (with :data:`INSTRUCTION`) on queries, documents bare."""
    return ModelProfile(query_prompt=template.replace(INSTRUCTION, NL2CODE_TASK), instruct=template, trust_remote_code=trust_remote_code)


def jina_code_profile() -> ModelProfile:
    """jina-code-embeddings: the official prefixes of the task's jina task type."""
    by_direction = {direction: JINA_PREFIXES[kind] for direction, kind in JINA_TASKS.items()}
    query, document = JINA_PREFIXES["nl2code"]
    return ModelProfile(query_prompt=query, document_prompt=document, trust_remote_code=True, by_direction=by_direction)


_QWEN3 = "Instruct: {instruction}\nQuery:"
_INSTRUCT = "Instruct: {instruction}\nQuery: "
_CODE_QUERY = "Represent this query for searching relevant code: "

FAMILIES: tuple[tuple[str, str, ModelProfile], ...] = (
    ("qwen3-embedding", "qwen3-embedding", instruct_profile(_QWEN3)),
    ("gte-qwen2", "gte-qwen2", instruct_profile(_INSTRUCT)),
    ("e5-mistral", "e5-mistral", instruct_profile(_INSTRUCT)),
    ("multilingual-e5-large-instruct", "e5-instruct", instruct_profile(_INSTRUCT)),
    ("c2llm", "c2llm", instruct_profile(_INSTRUCT, trust_remote_code=True)),
    ("f2llm", "f2llm", instruct_profile(_INSTRUCT)),
    ("e5-", "e5", ModelProfile(query_prompt="query: ", document_prompt="passage: ")),
    ("bge-m3", "bge-m3", ModelProfile()),
    ("bge-", "bge", ModelProfile(query_prompt="Represent this sentence for searching relevant passages: ")),
    ("coderankembed", "coderankembed", ModelProfile(query_prompt=_CODE_QUERY, trust_remote_code=True, text_queries_only=True)),
    ("nomic-embed-code", "nomic-embed-code", ModelProfile(query_prompt=_CODE_QUERY, trust_remote_code=True, text_queries_only=True)),
    ("nomic-embed-text", "nomic-embed-text", ModelProfile(query_prompt="search_query: ", document_prompt="search_document: ", trust_remote_code=True)),
    ("jina-code-embeddings", "jina-code-embeddings", jina_code_profile()),
    ("jina-embeddings-v2-base-code", "jina-embeddings-v2-base-code", ModelProfile(trust_remote_code=True)),
)
"""(substring pattern, family name, profile), most specific pattern first."""


def declared_prompts(prompts: Mapping[str, tuple[str, str]]) -> dict[str, dict[str, str]]:
    """``{direction: (query, document)}`` as ``execir.json``'s ``"prompts"`` value."""
    return {direction: {"query": query, "document": document} for direction, (query, document) in sorted(prompts.items())}


def trained_profile(model: str) -> ModelProfile | None:
    """The profile a local model folder declares in its ``execir.json`` (``"prompts"``: direction ->
    ``{"query", "document"}``); a direction it does not name gets no prompts. None when ``model`` is
    not a local folder or declares no prompts; a malformed declaration is an error naming the field."""
    path = Path(model).expanduser() / MODEL_FILE
    if not path.is_file():
        return None
    try:
        data: Any = json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise ExecIRError(f"{path}: not readable JSON ({exc})") from None
    prompts = data.get("prompts") if isinstance(data, dict) else None
    if prompts is None:
        return None
    if not isinstance(prompts, dict):
        raise ExecIRError(f"{path}: field 'prompts' must be an object of task direction -> {{query, document}}")
    by_direction: dict[str, tuple[str, str]] = {}
    for direction, roles in prompts.items():
        if not isinstance(roles, dict) or not all(isinstance(roles.get(role, ""), str) for role in ROLES):
            raise ExecIRError(f"{path}: field 'prompts.{direction}' must be an object with string 'query' and 'document'")
        by_direction[direction] = (roles.get("query", ""), roles.get("document", ""))
    return ModelProfile(by_direction=by_direction)


def family_for(model: str) -> str:
    """The family name of ``model`` (a hub id or local path); ``""`` when unknown."""
    key = model.lower()
    return next((family for pattern, family, _ in FAMILIES if pattern in key), "")


def profile_for(model: str) -> ModelProfile:
    """The profile of ``model`` (a hub id or local path); the empty profile when unknown."""
    key = model.lower()
    return next((profile for pattern, _, profile in FAMILIES if pattern in key), ModelProfile())


def prompt(model: str, role: Role, task: TaskSpec | None = None) -> str:
    """The prompt ``model`` gets for ``role`` under ``task`` (None: today's text-to-code prompt)."""
    return profile_for(model).prompt(role, task)


def task_label(task: TaskSpec | None) -> str:
    """The name prompts are reported under: the task's name, or ``default`` without a task."""
    return task.name if task is not None else "default"


class TaskPrompts:
    """The current task of one encoder, its prompts, and every task's prompts seen so far."""

    def __init__(self, profile: ModelProfile) -> None:
        self.profile = profile
        self.task: TaskSpec | None = None
        self.used: dict[str, dict[str, str]] = {}

    def use_task(self, task: TaskSpec | None) -> None:
        """Switch to ``task``; its prompts are recorded for :meth:`report`."""
        self.task = task
        self.used[task_label(task)] = self.profile.prompts(task)

    def prompt(self, role: Role) -> str:
        """The effective prompt for ``role`` under the current task."""
        return self.profile.prompt(role, self.task)

    def report(self) -> dict[str, dict[str, str]]:
        """Prompts per task used (the current one when none was set)."""
        return dict(self.used) or {task_label(self.task): self.profile.prompts(self.task)}
