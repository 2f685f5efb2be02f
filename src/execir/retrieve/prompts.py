"""Per-model query/document prompts for dense encoders.

A prompt is prepended verbatim to the text before encoding. Profiles are matched against the
lowercased model id or local path by substring, first match wins; unknown models get no prompts.
Sources: each model card (E5: ``query: ``/``passage: ``; BGE v1.5: query instruction only;
Qwen3-Embedding and other instruct LLM embedders: ``Instruct: {task}\\nQuery:`` on queries only,
with no space after ``Query:`` as in the official config_sentence_transformers.json; nomic-embed
text: ``search_query: ``/``search_document: ``; nomic code models: query instruction only;
jina-code-embeddings: the nl2code task prefixes). jina-embeddings-v2-base-code uses no prompts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Role = Literal["query", "document"]

NL2CODE_TASK = "Given a natural language question, retrieve code that answers it"


@dataclass(frozen=True)
class ModelProfile:
    """How to drive one model family: prompts per role and loading flags."""

    query_prompt: str = ""
    document_prompt: str = ""
    trust_remote_code: bool = False

    def prompt(self, role: Role) -> str:
        """The prompt for ``role``."""
        return self.query_prompt if role == "query" else self.document_prompt


_INSTRUCT = ModelProfile(query_prompt=f"Instruct: {NL2CODE_TASK}\nQuery:")

_PROFILES: tuple[tuple[str, ModelProfile], ...] = (
    ("qwen3-embedding", _INSTRUCT),
    ("gte-qwen2", ModelProfile(query_prompt=f"Instruct: {NL2CODE_TASK}\nQuery: ")),
    ("e5-mistral", ModelProfile(query_prompt=f"Instruct: {NL2CODE_TASK}\nQuery: ")),
    ("multilingual-e5-large-instruct", ModelProfile(query_prompt=f"Instruct: {NL2CODE_TASK}\nQuery: ")),
    ("e5-", ModelProfile(query_prompt="query: ", document_prompt="passage: ")),
    ("bge-m3", ModelProfile()),
    ("bge-", ModelProfile(query_prompt="Represent this sentence for searching relevant passages: ")),
    ("coderankembed", ModelProfile(
        query_prompt="Represent this query for searching relevant code: ", trust_remote_code=True)),
    ("nomic-embed-code", ModelProfile(
        query_prompt="Represent this query for searching relevant code: ", trust_remote_code=True)),
    ("nomic-embed-text", ModelProfile(
        query_prompt="search_query: ", document_prompt="search_document: ", trust_remote_code=True)),
    ("jina-code-embeddings", ModelProfile(
        query_prompt="Find the most relevant code snippet given the following query:\n",
        document_prompt="Candidate code snippet:\n", trust_remote_code=True)),
    ("jina-embeddings-v2-base-code", ModelProfile(trust_remote_code=True)),
)


def profile_for(model: str) -> ModelProfile:
    """The profile of ``model`` (a hub id or local path); the empty profile when unknown."""
    key = model.lower()
    for pattern, profile in _PROFILES:
        if pattern in key:
            return profile
    return ModelProfile()
