"""The encoder protocol, a deterministic toy encoder for tests, and the caching wrapper.

An encoder turns texts into an ``(n, dim)`` float32 matrix for one role (``"query"`` or
``"document"``), applying its own role prompt. ``cache_key(role)`` returns every field that
changes the vectors besides the text (model, revision, role, prompt, max length, normalisation),
which is what :class:`~execir.retrieve.cache.EmbeddingCache` is keyed by. Hosted APIs plug in by
implementing the same two methods.

Tasks: an encoder whose prompts or request options depend on the task also has
``use_task(task)`` (:class:`TaskAware`); its ``cache_key(role)`` then carries the *effective*
prompt of the current task, so vectors cached under one task's prompt are never served for
another task with a different prompt (tasks sharing a prompt share the cache, as they should).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from execir.retrieve.cache import EmbeddingCache, KeyFields, namespace_of
from execir.retrieve.prompts import ModelProfile, Role, TaskPrompts

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


@runtime_checkable
class Encoder(Protocol):
    """Texts in, one embedding row per text out."""

    name: str
    """Short, filesystem-safe model name used in system names."""

    def encode(self, texts: Sequence[str], *, role: Role, batch_size: int) -> np.ndarray:
        """Encode ``texts`` for ``role`` into an ``(n, dim)`` float32 array."""
        ...

    def cache_key(self, role: Role) -> KeyFields:
        """Every field besides the text that determines the vectors for ``role``."""
        ...


@runtime_checkable
class TaskAware(Protocol):
    """An encoder (or retriever part) whose prompts or request options depend on the task."""

    def use_task(self, task: TaskSpec | None) -> None:
        """Encode for ``task`` from now on (None: text to code)."""
        ...


class HashingEncoder:
    """Deterministic toy encoder: a normalised bag of hashed lowercase words (tests, demos).

    Texts sharing words get positive cosine similarity, so rankings are meaningful.
    ``calls`` counts texts encoded, to check caching. Prompts come from ``profile`` (task-aware)
    or, without one, from ``query_prompt``/``document_prompt``.
    """

    def __init__(self, dim: int = 64, *, query_prompt: str = "", document_prompt: str = "", profile: ModelProfile | None = None) -> None:
        self.dim = dim
        self.task_prompts = TaskPrompts(profile or ModelProfile(query_prompt=query_prompt, document_prompt=document_prompt))
        self.name = f"hashing-{dim}"
        self.calls = 0

    def use_task(self, task: TaskSpec | None) -> None:
        """Use ``task``'s prompts from now on."""
        self.task_prompts.use_task(task)

    def _vector(self, text: str) -> np.ndarray:
        vec = np.zeros(self.dim, dtype=np.float32)
        for word in text.lower().split():
            digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
            vec[int.from_bytes(digest, "little") % self.dim] += 1.0
        norm = float(np.linalg.norm(vec))
        return vec / norm if norm else vec

    def encode(self, texts: Sequence[str], *, role: Role, batch_size: int = 64) -> np.ndarray:
        self.calls += len(texts)
        prompt = self.task_prompts.prompt(role)
        rows = [self._vector(prompt + t) for t in texts]
        return np.stack(rows) if rows else np.zeros((0, self.dim), dtype=np.float32)

    def cache_key(self, role: Role) -> KeyFields:
        return {"model": self.name, "revision": "toy", "role": role, "prompt": self.task_prompts.prompt(role), "max_seq_length": None, "normalize": True}

    def config(self) -> dict[str, Any]:
        """JSON-able configuration: the current key per role and the prompts of every task used."""
        return {"query": dict(self.cache_key("query")), "document": dict(self.cache_key("document")), "prompts_by_task": self.task_prompts.report()}


ENCODE_CHUNK = 32768
"""Most unique cache misses sent to the wrapped encoder (and stored as one shard) at once."""


class CachingEncoder:
    """Wraps an encoder with an on-disk cache; ``encoded_texts`` counts real encoder calls.

    Only unique cache misses reach the wrapped encoder, so a second run over the same texts with the
    same cache directory encodes nothing (and never loads the model, for lazy encoders). Caches are
    opened per key namespace, so a task that changes the effective prompt reads and writes its own.
    ``cached_texts`` counts texts served from the cache. An encoder with a ``cache_chunk`` attribute
    (the hosted APIs: one request's worth) is handed misses that many at a time, each stored as soon
    as it returns, so an interrupted run keeps everything it paid for.
    """

    def __init__(self, encoder: Encoder, cache_dir: Path | None) -> None:
        self.encoder = encoder
        self.name = encoder.name
        self.cache_dir = cache_dir
        self.encoded_texts = 0
        self.cached_texts = 0
        self._caches: dict[str, EmbeddingCache] = {}

    def use_task(self, task: TaskSpec | None) -> None:
        """Forward ``task`` to the wrapped encoder when it is task-aware."""
        if isinstance(self.encoder, TaskAware):
            self.encoder.use_task(task)

    def cache_key(self, role: Role) -> KeyFields:
        return self.encoder.cache_key(role)

    def _cache(self, role: Role) -> EmbeddingCache | None:
        if self.cache_dir is None:
            return None
        key = self.encoder.cache_key(role)
        namespace = namespace_of(key)
        if namespace not in self._caches:
            self._caches[namespace] = EmbeddingCache(self.cache_dir, key)
        return self._caches[namespace]

    def encode(self, texts: Sequence[str], *, role: Role, batch_size: int = 64) -> np.ndarray:
        """``(len(texts), dim)`` float32 vectors: cached rows read from disk, the rest encoded.

        Unique misses are encoded :data:`ENCODE_CHUNK` texts at a time, each chunk stored as its own
        cache shard and copied into the one result matrix, so memory stays at the result plus a chunk.
        """
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        cache = self._cache(role)
        out, missing = cache.lookup(texts) if cache is not None else (None, list(range(len(texts))))
        self.cached_texts += len(texts) - len(missing)
        unique = list(dict.fromkeys(texts[i] for i in missing))
        slot_of = {text: slot for slot, text in enumerate(unique)}
        targets = np.array(missing, dtype=np.int64)
        slots = np.array([slot_of[texts[i]] for i in missing], dtype=np.int64)
        chunk = max(1, int(getattr(self.encoder, "cache_chunk", ENCODE_CHUNK)))
        for start in range(0, len(unique), chunk):
            part = unique[start : start + chunk]
            vectors = np.asarray(self.encoder.encode(part, role=role, batch_size=batch_size), dtype=np.float32)
            self.encoded_texts += len(part)
            if cache is not None:
                cache.put(part, vectors)
            if out is None:
                out = np.zeros((len(texts), vectors.shape[1]), dtype=np.float32)
            chosen = (slots >= start) & (slots < start + len(part))
            out[targets[chosen]] = vectors[slots[chosen] - start]
        if out is None:
            raise ValueError("no vectors: every text missed the cache and nothing was encoded")
        return out
