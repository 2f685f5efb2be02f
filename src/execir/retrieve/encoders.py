"""The encoder protocol, a deterministic toy encoder for tests, and the caching wrapper.

An encoder turns texts into an ``(n, dim)`` float32 matrix for one role (``"query"`` or
``"document"``), applying its own role prompt. ``cache_key(role)`` returns every field that
changes the vectors besides the text (model, revision, role, prompt, max length, normalisation),
which is what :class:`~execir.retrieve.cache.EmbeddingCache` is keyed by. Hosted APIs plug in by
implementing the same two methods.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from execir.retrieve.cache import EmbeddingCache, KeyFields
from execir.retrieve.prompts import Role


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


class HashingEncoder:
    """Deterministic toy encoder: a normalised bag of hashed lowercase words (tests, demos).

    Texts sharing words get positive cosine similarity, so rankings are meaningful.
    ``calls`` counts texts encoded, to check caching.
    """

    def __init__(self, dim: int = 64, *, query_prompt: str = "", document_prompt: str = "") -> None:
        self.dim = dim
        self.prompts = {"query": query_prompt, "document": document_prompt}
        self.name = f"hashing-{dim}"
        self.calls = 0

    def _vector(self, text: str) -> np.ndarray:
        vec = np.zeros(self.dim, dtype=np.float32)
        for word in text.lower().split():
            digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
            vec[int.from_bytes(digest, "little") % self.dim] += 1.0
        norm = float(np.linalg.norm(vec))
        return vec / norm if norm else vec

    def encode(self, texts: Sequence[str], *, role: Role, batch_size: int = 64) -> np.ndarray:
        self.calls += len(texts)
        prompt = self.prompts[role]
        rows = [self._vector(prompt + t) for t in texts]
        return np.stack(rows) if rows else np.zeros((0, self.dim), dtype=np.float32)

    def cache_key(self, role: Role) -> KeyFields:
        return {"model": self.name, "revision": "toy", "role": role,
                "prompt": self.prompts[role], "max_seq_length": None, "normalize": True}


class CachingEncoder:
    """Wraps an encoder with an on-disk cache; ``encoded_texts`` counts real encoder calls.

    Only unique cache misses reach the wrapped encoder, so a second run over the same texts with the
    same cache directory encodes nothing (and never loads the model, for lazy encoders).
    """

    def __init__(self, encoder: Encoder, cache_dir: Path | None) -> None:
        self.encoder = encoder
        self.name = encoder.name
        self.cache_dir = cache_dir
        self.encoded_texts = 0
        self._caches: dict[Role, EmbeddingCache] = {}

    def cache_key(self, role: Role) -> KeyFields:
        return self.encoder.cache_key(role)

    def _cache(self, role: Role) -> EmbeddingCache | None:
        if self.cache_dir is None:
            return None
        if role not in self._caches:
            self._caches[role] = EmbeddingCache(self.cache_dir, self.encoder.cache_key(role))
        return self._caches[role]

    def encode(self, texts: Sequence[str], *, role: Role, batch_size: int = 64) -> np.ndarray:
        cache = self._cache(role)
        if cache is None:
            found: list[np.ndarray | None] = [None] * len(texts)
            missing = list(range(len(texts)))
        else:
            found, missing = cache.get(texts)
        unique = list(dict.fromkeys(texts[i] for i in missing))
        if unique:
            vectors = np.asarray(self.encoder.encode(unique, role=role, batch_size=batch_size),
                                 dtype=np.float32)
            self.encoded_texts += len(unique)
            if cache is not None:
                cache.put(unique, vectors)
            fresh = dict(zip(unique, vectors))
            for i in missing:
                found[i] = fresh[texts[i]]
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack(found).astype(np.float32, copy=False)  # type: ignore[arg-type]
