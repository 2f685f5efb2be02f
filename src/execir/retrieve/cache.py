"""On-disk embedding cache: ``.npy`` shards plus a JSON index per shard (no pickles).

Layout::

    <cache_dir>/<namespace>/namespace.json           the key fields, for humans and provenance
    <cache_dir>/<namespace>/<shard>.npy              float32 (n, dim) embeddings
    <cache_dir>/<namespace>/<shard>.json             {"sha256": [...n text hashes, row order...]}

``namespace`` is the sha256 of the canonical JSON of everything that changes a vector besides the
text: model, revision (or local-path content hash), role, prompt, max_seq_length, normalise flag
(the encoder's :meth:`cache_key`). A text is looked up by the sha256 of its UTF-8 bytes.

Concurrency: writers never modify a file; each ``put`` writes a new uniquely named shard, the
``.npy`` first and its ``.json`` last, each through a temporary file and ``os.replace`` (atomic on
POSIX). A reader only trusts shards whose ``.json`` exists, so it never sees a partial shard.
Two processes encoding the same texts at once both write a shard; the duplicate is harmless.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

KeyFields = Mapping[str, str | int | float | bool | None]


def text_hash(text: str) -> str:
    """sha256 hex digest of the text's UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def namespace_of(key: KeyFields) -> str:
    """Stable namespace id of a set of key fields."""
    canonical = json.dumps(dict(key), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]


def _atomic_write(path: Path, write: object) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(tmp, "wb") as fh:
            write(fh)  # type: ignore[operator]
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


class EmbeddingCache:
    """Content-addressed store of embeddings under one namespace."""

    def __init__(self, root: Path, key: KeyFields) -> None:
        self.key = dict(key)
        self.dir = Path(root) / namespace_of(key)
        self._loaded: dict[str, np.ndarray] | None = None

    def _load(self) -> dict[str, np.ndarray]:
        if self._loaded is None:
            self._loaded = {}
            if self.dir.is_dir():
                for index_path in sorted(self.dir.glob("*.json")):
                    if index_path.name == "namespace.json":
                        continue
                    hashes = json.loads(index_path.read_text(encoding="utf-8"))["sha256"]
                    vectors = np.load(index_path.with_suffix(".npy"), allow_pickle=False)
                    self._loaded.update(zip(hashes, vectors))
        return self._loaded

    def get(self, texts: Sequence[str]) -> tuple[list[np.ndarray | None], list[int]]:
        """Cached vector (or None) for each text, and the positions that missed."""
        store = self._load()
        found = [store.get(text_hash(t)) for t in texts]
        return found, [i for i, v in enumerate(found) if v is None]

    def put(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Store ``vectors[i]`` for ``texts[i]`` as one new shard."""
        if len(texts) == 0:
            return
        if vectors.shape[0] != len(texts):
            raise ValueError(f"{len(texts)} texts but {vectors.shape[0]} vectors")
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        hashes = [text_hash(t) for t in texts]
        self.dir.mkdir(parents=True, exist_ok=True)
        meta = self.dir / "namespace.json"
        if not meta.exists():
            _atomic_write(meta, lambda fh: fh.write(json.dumps(self.key, indent=2).encode()))
        shard = self.dir / uuid.uuid4().hex
        _atomic_write(shard.with_suffix(".npy"), lambda fh: np.save(fh, vectors))
        index = json.dumps({"sha256": hashes, "dim": int(vectors.shape[1])})
        _atomic_write(shard.with_suffix(".json"), lambda fh: fh.write(index.encode()))
        self._load().update(zip(hashes, vectors))
