"""On-disk cache of rerank API scores, so a resumed or repeated run pays for no pair twice.

Layout::

    <cache_dir>/rerank-scores/<namespace>/namespace.json    the key fields, for humans and provenance
    <cache_dir>/rerank-scores/<namespace>/<uuid>.json       {"<query sha256>:<document sha256>": score, ...}

``namespace`` hashes everything that changes a score besides the two texts: provider, model, the
server URL for self-hosted ones, and every request option (:func:`execir.retrieve.cache.namespace_of`).
API keys are never part of it. Each write is a new shard written through a temporary file and
``os.replace``, one per answered request, so an interrupted run keeps every score it paid for;
two processes scoring the same pairs both write a shard and the duplicate is harmless.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Mapping
from pathlib import Path

from execir.retrieve.cache import KeyFields, namespace_of, text_hash

FOLDER = "rerank-scores"


def pair_key(query: str, document: str) -> str:
    """The cache key of one (query text, document text) pair."""
    return f"{text_hash(query)}:{text_hash(document)}"


def _write_json(path: Path, data: object) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        tmp.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


class ScoreCache:
    """Scores by pair under one namespace; ``root`` None keeps them in memory only."""

    def __init__(self, root: Path | None, key: KeyFields) -> None:
        self.key = dict(key)
        self.folder = None if root is None else root / FOLDER / namespace_of(key)
        self._scores: dict[str, float] = {}
        if self.folder is not None and self.folder.is_dir():
            for shard in sorted(self.folder.glob("*.json")):
                if shard.name != "namespace.json":
                    self._scores.update({k: float(v) for k, v in json.loads(shard.read_text(encoding="utf-8")).items()})

    def get(self, query: str, document: str) -> float | None:
        """The cached score of the pair, None when it was never scored."""
        return self._scores.get(pair_key(query, document))

    def put(self, scores: Mapping[tuple[str, str], float]) -> None:
        """Remember ``(query, document) -> score`` and write them as one new shard."""
        new = {pair_key(q, d): float(s) for (q, d), s in scores.items()}
        self._scores.update(new)
        if self.folder is None or not new:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        if not (self.folder / "namespace.json").exists():
            _write_json(self.folder / "namespace.json", self.key)
        _write_json(self.folder / f"{uuid.uuid4().hex}.json", new)
