"""On-disk embedding cache: ``.npy`` shards plus a JSON index per shard (no pickles).

Layout::

    <cache_dir>/<namespace>/namespace.json           the key fields, for humans and provenance
    <cache_dir>/<namespace>/<shard>.npy              float32 (n, dim) embeddings
    <cache_dir>/<namespace>/<shard>.json             {"sha256": [...n text hashes, row order...]}

``namespace`` is the sha256 of the canonical JSON of everything that changes a vector besides the
text: model, revision (or local-path content hash), role, prompt, max_seq_length, normalise flag
(the encoder's :meth:`cache_key`). A text is looked up by the sha256 of its UTF-8 bytes.

Memory: opening a cache reads only the JSON indexes (text hash -> shard and row); vectors stay on
disk until asked for, and :meth:`EmbeddingCache.lookup` reads the wanted rows straight into one
``(texts, dim)`` matrix, shard by shard in blocks of at most :data:`READ_BLOCK_ROWS` rows, with
ordinary file reads (no memory map, so the page cache never counts as this process's memory).
A cached corpus therefore costs its own matrix plus the hash index, never a second copy.

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
from dataclasses import dataclass
from pathlib import Path

import numpy as np

KeyFields = Mapping[str, str | int | float | bool | None]

READ_BLOCK_ROWS = 4096
"""Most rows read from a shard file at once (bounds the read buffer)."""


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


@dataclass(frozen=True)
class _Shard:
    """One ``.npy`` file: where its rows start in the cache's global row numbering."""

    path: Path
    start: int
    rows: int


def read_rows(path: Path, wanted: np.ndarray, out: np.ndarray, targets: np.ndarray) -> None:
    """Copy rows ``wanted`` (ascending) of the ``.npy`` at ``path`` into ``out[targets]``.

    Reads contiguous spans of at most :data:`READ_BLOCK_ROWS` rows, skipping gaps between them.
    """
    with open(path, "rb") as fh:
        version = np.lib.format.read_magic(fh)
        reader = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = reader(fh)
        if fortran or len(shape) != 2 or out.shape[1] != shape[1]:
            raise ValueError(f"{path}: expected a C-order (rows, {out.shape[1]}) matrix, found {shape}")
        header, row_bytes = fh.tell(), shape[1] * dtype.itemsize
        i = 0
        while i < wanted.shape[0]:
            lo = int(wanted[i])
            j = int(np.searchsorted(wanted, lo + READ_BLOCK_ROWS))
            hi = int(wanted[j - 1]) + 1
            fh.seek(header + lo * row_bytes)
            block = np.fromfile(fh, dtype=dtype, count=(hi - lo) * shape[1]).reshape(hi - lo, shape[1])
            out[targets[i:j]] = block if hi - lo == j - i else block[wanted[i:j] - lo]
            i = j


class EmbeddingCache:
    """Content-addressed store of embeddings under one namespace."""

    def __init__(self, root: Path, key: KeyFields) -> None:
        self.key = dict(key)
        self.dir = Path(root) / namespace_of(key)
        self._rows: dict[str, int] | None = None
        self._shards: list[_Shard] = []
        self._dim: int | None = None

    def _index(self) -> dict[str, int]:
        """Text hash -> global row, read from the shards' JSON indexes once."""
        if self._rows is None:
            self._rows = {}
            if self.dir.is_dir():
                for index_path in sorted(self.dir.glob("*.json")):
                    if index_path.name != "namespace.json":
                        meta = json.loads(index_path.read_text(encoding="utf-8"))
                        self._register(self._rows, index_path.with_suffix(".npy"), meta["sha256"], meta.get("dim"))
        return self._rows

    def _register(self, rows: dict[str, int], path: Path, hashes: list[str], dim: int | None) -> None:
        """Append one shard to the global row numbering (a later shard wins for a repeated hash)."""
        start = self._shards[-1].start + self._shards[-1].rows if self._shards else 0
        self._shards.append(_Shard(path, start, len(hashes)))
        rows.update(zip(hashes, range(start, start + len(hashes))))
        if self._dim is None:
            self._dim = int(dim) if dim is not None else int(np.load(path, mmap_mode="r").shape[1])

    def lookup(self, texts: Sequence[str]) -> tuple[np.ndarray | None, list[int]]:
        """``(matrix, missing)``: an ``(n, dim)`` float32 matrix of the cached vectors (zero rows
        where missed; None when nothing hit) and the positions that missed."""
        index = self._index()
        rows = np.fromiter((index.get(text_hash(t), -1) for t in texts), dtype=np.int64, count=len(texts))
        hit = np.flatnonzero(rows >= 0)
        missing = np.flatnonzero(rows < 0).tolist()
        if hit.shape[0] == 0 or self._dim is None:
            return None, missing
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        order = hit[np.argsort(rows[hit], kind="stable")]
        starts = np.array([s.start for s in self._shards], dtype=np.int64)
        shard_of = np.searchsorted(starts, rows[order], side="right") - 1
        for number in np.unique(shard_of).tolist():
            targets = order[shard_of == number]
            shard = self._shards[number]
            read_rows(shard.path, rows[targets] - shard.start, out, targets)
        return out, missing

    def get(self, texts: Sequence[str]) -> tuple[list[np.ndarray | None], list[int]]:
        """Cached vector (or None) for each text, and the positions that missed."""
        matrix, missing = self.lookup(texts)
        absent = set(missing)
        found = [None if i in absent or matrix is None else matrix[i] for i in range(len(texts))]
        return found, missing

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
        self._register(self._index(), shard.with_suffix(".npy"), hashes, int(vectors.shape[1]))
