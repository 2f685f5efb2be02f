"""Prompts per (model family, task, role), task plumbing through retrievers, cache separation by task."""

import json
from pathlib import Path

import numpy as np
import pytest

from execir.dataset.spec import TASK_SPECS, TaskSpec
from execir.errors import ExecIRError
from execir.retrieve import BM25Retriever, DenseRetriever, HashingEncoder, HybridRetriever, Retriever
from execir.retrieve.api import api_encoder
from execir.retrieve.base import apply_task
from execir.retrieve.cache import namespace_of
from execir.retrieve.prompts import ROLES, family_for, profile_for, prompt
from execir.retrieve.st import SentenceTransformerEncoder
from execir.types import Run

TASKS = list(TASK_SPECS)  # t2c-description, t2c-full, t2c-search, c2t, c2c, c2c-rewrite (c2c's prompts)
NL = "Given a natural language question, retrieve code that answers it"
SEARCH = "Given a short code search query, retrieve code that matches it"
C2T = "Given a piece of code, retrieve the natural language description of what it does"
C2C = "Given a piece of code, retrieve other code that does the same thing"
INSTRUCTIONS = {"t2c-description": NL, "t2c-full": NL, "t2c-search": SEARCH, "c2t": C2T, "c2c": C2C, "c2c-rewrite": C2C}
CODE_QUERY = "Represent this query for searching relevant code: "
BGE_QUERY = "Represent this sentence for searching relevant passages: "
JINA = {
    "nl2code": ("Find the most relevant code snippet given the following query:\n", "Candidate code snippet:\n"),
    "code2code": ("Find an equivalent code snippet given the following code snippet:\n", "Candidate code snippet:\n"),
    "code2nl": ("Find the most relevant comment given the following code snippet:\n", "Candidate comment:\n"),
}
JINA_TASK = {"t2c-description": "nl2code", "t2c-full": "nl2code", "t2c-search": "nl2code", "c2t": "code2nl", "c2c": "code2code", "c2c-rewrite": "code2code"}


def same_for_all(query: str, document: str) -> dict[str, tuple[str, str]]:
    return {task: (query, document) for task in TASKS}


def instruct(sep: str) -> dict[str, tuple[str, str]]:
    return {task: (f"Instruct: {INSTRUCTIONS[task]}\nQuery:{sep}", "") for task in TASKS}


TABLE: dict[str, dict[str, tuple[str, str]]] = {
    "Qwen/Qwen3-Embedding-0.6B": instruct(""),
    "Alibaba-NLP/gte-Qwen2-1.5B-instruct": instruct(" "),
    "intfloat/e5-mistral-7b-instruct": instruct(" "),
    "intfloat/multilingual-e5-large-instruct": instruct(" "),
    "codefuse-ai/C2LLM-0.5B": instruct(" "),
    "codefuse-ai/F2LLM-1.7B": instruct(" "),
    "jinaai/jina-code-embeddings-1.5b": {task: JINA[JINA_TASK[task]] for task in TASKS},
    "nomic-ai/CodeRankEmbed": {**same_for_all(CODE_QUERY, ""), "c2t": ("", ""), "c2c": ("", ""), "c2c-rewrite": ("", "")},
    "nomic-ai/nomic-embed-code": {**same_for_all(CODE_QUERY, ""), "c2t": ("", ""), "c2c": ("", ""), "c2c-rewrite": ("", "")},
    "intfloat/e5-base-v2": same_for_all("query: ", "passage: "),
    "BAAI/bge-small-en-v1.5": same_for_all(BGE_QUERY, ""),
    "BAAI/bge-m3": same_for_all("", ""),
    "nomic-ai/nomic-embed-text-v1.5": same_for_all("search_query: ", "search_document: "),
    "jinaai/jina-embeddings-v2-base-code": same_for_all("", ""),
    "sentence-transformers/all-MiniLM-L6-v2": same_for_all("", ""),
}

TODAY: dict[str, tuple[str, str]] = {  # the text-to-code prompts before tasks existed (task None)
    "Qwen/Qwen3-Embedding-0.6B": (f"Instruct: {NL}\nQuery:", ""),
    "Alibaba-NLP/gte-Qwen2-1.5B-instruct": (f"Instruct: {NL}\nQuery: ", ""),
    "intfloat/e5-mistral-7b-instruct": (f"Instruct: {NL}\nQuery: ", ""),
    "intfloat/multilingual-e5-large-instruct": (f"Instruct: {NL}\nQuery: ", ""),
    "jinaai/jina-code-embeddings-1.5b": JINA["nl2code"],
    "nomic-ai/CodeRankEmbed": (CODE_QUERY, ""),
    "nomic-ai/nomic-embed-code": (CODE_QUERY, ""),
    "intfloat/e5-base-v2": ("query: ", "passage: "),
    "BAAI/bge-small-en-v1.5": (BGE_QUERY, ""),
    "BAAI/bge-m3": ("", ""),
    "nomic-ai/nomic-embed-text-v1.5": ("search_query: ", "search_document: "),
    "jinaai/jina-embeddings-v2-base-code": ("", ""),
    "sentence-transformers/all-MiniLM-L6-v2": ("", ""),
}


@pytest.mark.parametrize("model", sorted(TABLE))
@pytest.mark.parametrize("task", TASKS)
def test_prompt_table(model: str, task: str) -> None:
    spec = TASK_SPECS[task]
    assert (prompt(model, "query", spec), prompt(model, "document", spec)) == TABLE[model][task]


@pytest.mark.parametrize("model", sorted(TODAY))
def test_no_task_keeps_the_text_to_code_prompts(model: str) -> None:
    assert (prompt(model, "query"), prompt(model, "document")) == TODAY[model]
    assert (prompt(model, "query", None), profile_for(model).prompt("document")) == TODAY[model]


def test_text_to_code_description_task_equals_no_task() -> None:
    for model in TABLE:
        assert prompt(model, "query", TASK_SPECS["t2c-description"]) == prompt(model, "query"), model


def test_instruct_template_takes_any_instruction_verbatim() -> None:
    spec = TaskSpec("t2c", "search", instruction="Find {braces} and \\n literally")
    assert prompt("Qwen/Qwen3-Embedding-8B", "query", spec) == "Instruct: Find {braces} and \\n literally\nQuery:"


def test_families_resolve_by_substring() -> None:
    assert family_for("/models/C2LLM-7B") == "c2llm" and family_for("codefuse-ai/F2LLM-v2-4B") == "f2llm"
    assert family_for("intfloat/multilingual-e5-large-instruct") == "e5-instruct"
    assert family_for("intfloat/e5-large-v2") == "e5" and family_for("my/unknown") == ""
    assert profile_for("codefuse-ai/C2LLM-0.5B").trust_remote_code


CORPUS = {"d1": "def add(a, b): return a + b", "d2": "def rev(s): return s[::-1]", "d3": "sort numbers ascending"}
QUERIES = {"q1": "add two numbers", "q2": "reverse a string"}


def dense(profile_model: str, cache: Path | None) -> tuple[DenseRetriever, HashingEncoder]:
    toy = HashingEncoder(profile=profile_for(profile_model))
    return DenseRetriever(toy, cache_dir=cache), toy


def run_task(retriever: Retriever, task: TaskSpec | None) -> Run:
    retriever.use_task(task)
    retriever.index(CORPUS)
    return retriever.search(QUERIES, top_k=3)


def test_cache_is_separated_by_the_effective_prompt(tmp_path: Path) -> None:
    r, toy = dense("Qwen/Qwen3-Embedding-0.6B", tmp_path)
    run_task(r, TASK_SPECS["t2c-description"])
    assert r.encoded_texts == 3 + 2
    run_task(r, TASK_SPECS["c2c"])  # documents unprompted: shared; queries: a new instruction
    assert r.encoded_texts == 3 + 2 + 2
    run_task(r, TASK_SPECS["t2c-full"])  # same instruction as t2c-description: all cached
    run_task(r, None)  # no task = the text-to-code instruction: all cached
    assert r.encoded_texts == 7 and toy.calls == 7
    fresh, fresh_toy = dense("Qwen/Qwen3-Embedding-0.6B", tmp_path)
    run_task(fresh, TASK_SPECS["c2c"])
    assert fresh.encoded_texts == 0 and fresh_toy.calls == 0


def test_cached_vectors_of_one_task_are_never_served_for_another(tmp_path: Path) -> None:
    r, toy = dense("jinaai/jina-code-embeddings-0.5b", tmp_path)
    r.use_task(TASK_SPECS["t2c-full"])
    key_t2c = {role: namespace_of(toy.cache_key(role)) for role in ROLES}
    _, t2c_vectors = r.encode_queries(QUERIES)
    r.use_task(TASK_SPECS["c2t"])
    key_c2t = {role: namespace_of(toy.cache_key(role)) for role in ROLES}
    _, c2t_vectors = r.encode_queries(QUERIES)
    assert key_t2c["query"] != key_c2t["query"] and key_t2c["document"] != key_c2t["document"]
    uncached = HashingEncoder(profile=profile_for("jinaai/jina-code-embeddings-0.5b"))
    uncached.use_task(TASK_SPECS["c2t"])
    assert np.array_equal(c2t_vectors, uncached.encode([QUERIES["q1"], QUERIES["q2"]], role="query"))
    assert not np.array_equal(t2c_vectors, c2t_vectors)


class Recorder:
    """A retriever part that records the tasks it was given."""

    name = "recorder"
    encoded_texts = 0

    def __init__(self) -> None:
        self.tasks: list[TaskSpec | None] = []

    def use_task(self, task: TaskSpec | None) -> None:
        self.tasks.append(task)

    def index(self, corpus: dict[str, str]) -> None:
        pass

    def search(self, queries: dict[str, str], *, top_k: int) -> Run:
        return {q: {} for q in queries}


def test_hybrid_forwards_the_task_to_every_part() -> None:
    recorder = Recorder()
    d, toy = dense("jinaai/jina-code-embeddings-0.5b", None)
    h = HybridRetriever([BM25Retriever(progress=False), d, recorder])
    assert all(isinstance(r, Retriever) for r in (h, d, recorder, BM25Retriever(progress=False)))
    c2t = TASK_SPECS["c2t"]
    run = run_task(h, c2t)
    assert set(run) == set(QUERIES) and recorder.tasks == [c2t]
    assert toy.cache_key("query")["prompt"] == JINA["code2nl"][0]
    assert d.config()["encoder"]["prompts_by_task"] == {"c2t": {"query": JINA["code2nl"][0], "document": JINA["code2nl"][1]}}
    apply_task(h, None)
    assert recorder.tasks == [c2t, None] and toy.cache_key("document")["prompt"] == JINA["nl2code"][1]


def test_apply_task_tolerates_retrievers_without_use_task() -> None:
    apply_task(object(), TASK_SPECS["c2c"])


def test_a_new_task_drops_the_old_index() -> None:
    d, _ = dense("jinaai/jina-code-embeddings-0.5b", None)
    run_task(d, TASK_SPECS["t2c-full"])
    d.use_task(TASK_SPECS["t2c-full"])  # same task: the index stays
    assert d.search(QUERIES, top_k=1)
    d.use_task(TASK_SPECS["c2c"])
    with pytest.raises(ExecIRError, match="index"):
        d.search(QUERIES, top_k=1)


def test_sentence_transformer_encoder_key_and_config_follow_the_task(tmp_path: Path) -> None:
    model_dir = tmp_path / "qwen"
    model_dir.mkdir()
    (model_dir / "model.safetensors").write_bytes(b"w")
    enc = SentenceTransformerEncoder(str(model_dir), model_label="Qwen/Qwen3-Embedding-0.6B")
    default_key = enc.cache_key("query")
    assert default_key["prompt"] == f"Instruct: {NL}\nQuery:"
    enc.use_task(TASK_SPECS["t2c-search"])
    assert enc.cache_key("query")["prompt"] == f"Instruct: {SEARCH}\nQuery:"
    assert namespace_of(enc.cache_key("query")) != namespace_of(default_key)
    enc.use_task(TASK_SPECS["c2c"])
    config = json.loads(json.dumps(enc.config()))
    assert config["query_prompt"] == f"Instruct: {C2C}\nQuery:" and config["document_prompt"] == ""
    assert config["prompts_by_task"] == {
        "t2c-search": {"query": f"Instruct: {SEARCH}\nQuery:", "document": ""},
        "c2c": {"query": f"Instruct: {C2C}\nQuery:", "document": ""},
    }
    assert enc._model is None


@pytest.mark.parametrize("provider", ["openai", "voyage", "cohere"])
def test_api_providers_are_role_only(provider: str) -> None:
    enc = api_encoder(provider, "m")
    before = {role: enc.cache_key(role) for role in ROLES}
    for task in TASK_SPECS.values():
        enc.use_task(task)
        assert {role: enc.cache_key(role) for role in ROLES} == before
    assert set(enc.config()["options_by_task"]) == set(TASK_SPECS)
