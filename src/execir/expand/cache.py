"""On-disk cache of generated text: JSONL shards of ``{"key", "text"}``, written atomically.

A generation is keyed by the sha256 of the canonical JSON of everything that changes it: the
generator's identity (backend, endpoint URL and model name, or the local model directory's content
hash; never a key), the prompt, the sampling parameters (n, max_tokens, temperature), the seed and
the sample index. Each store writes a new uniquely named shard through a temporary file and
``os.replace``, so concurrent runs never corrupt the cache; a second run over the same queries makes
no generator call.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

from execir.dataset.files import atomic_write_bytes

KeyFields = Mapping[str, str | int | float | None]


def generation_key(fields: KeyFields) -> str:
    """sha256 hex digest of the canonical JSON of ``fields``."""
    return hashlib.sha256(json.dumps(dict(fields), sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


class GenerationCache:
    """Content-addressed generated texts under ``root`` (None: in memory only)."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._texts: dict[str, str] | None = None

    def _index(self) -> dict[str, str]:
        if self._texts is None:
            self._texts = {}
            if self.root is not None and self.root.is_dir():
                for shard in sorted(self.root.glob("*.jsonl")):
                    for line in shard.read_text(encoding="utf-8").splitlines():
                        if line.strip():
                            record = json.loads(line)
                            self._texts[str(record["key"])] = str(record["text"])
        return self._texts

    def get(self, keys: Sequence[str]) -> list[str] | None:
        """The texts of every key, or None when any is missing."""
        index = self._index()
        return [index[k] for k in keys] if all(k in index for k in keys) else None

    def put(self, keys: Sequence[str], texts: Sequence[str]) -> None:
        """Store ``texts[i]`` under ``keys[i]`` (one new shard)."""
        if len(keys) != len(texts):
            raise ValueError(f"{len(keys)} keys but {len(texts)} texts")
        self._index().update(zip(keys, texts))
        if self.root is not None and keys:
            lines = "".join(json.dumps({"key": k, "text": t}, ensure_ascii=False) + "\n" for k, t in zip(keys, texts))
            atomic_write_bytes(self.root / f"{uuid.uuid4().hex}.jsonl", lines.encode("utf-8"))
