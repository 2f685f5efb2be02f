"""Sentence-transformers encoder with a cache identity that pins the exact weights.

The identity is resolved *without loading the model*, so a fully cached run never loads it:

* a local directory is identified by a content hash of its files (relative path, size and the
  sha256 of the bytes; files over 256 MiB contribute 64 evenly spaced 1 MiB blocks, first and
  last included, so multi-GB checkpoints fingerprint in well under a second while any fine-tune,
  which changes nearly every tensor, still changes the hash);
* a hub id is pinned to a commit sha: a 40-hex ``revision`` is used as is, otherwise the hub is
  asked (``HfApi.model_info``), falling back to the local hub cache's ``refs/<revision>`` when
  offline. The model is then loaded at that exact commit.

Prompts depend on the model family, the role and the task set by :meth:`use_task`
(:mod:`execir.retrieve.prompts`); the cache key carries the effective prompt.

Embeddings are L2-normalised by default (cosine = dot product). torch and sentence-transformers
are imported lazily; when missing, :class:`~execir.errors.MissingDependencyError` says how to
install them.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from execir.console import disable_loaded_library_bars
from execir.errors import ExecIRError, MissingDependencyError
from execir.retrieve.cache import KeyFields
from execir.retrieve.prompts import ModelProfile, Role, TaskPrompts, profile_for

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec

INSTALL_HINT = "pip install 'execir[dense]'"
_BIG_FILE = 256 << 20
_BLOCK = 1 << 20
_BLOCKS = 64


def safe_name(text: str) -> str:
    """A filesystem-safe version of ``text``."""
    return re.sub(r"[^A-Za-z0-9._+-]+", "-", text).strip("-") or "model"


def directory_fingerprint(path: Path) -> str:
    """Content hash of a model directory (see the module docstring)."""
    digest = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file() and ".git" not in p.parts):
        size = file.stat().st_size
        digest.update(f"{file.relative_to(path).as_posix()}\0{size}\0".encode())
        with open(file, "rb") as fh:
            if size <= _BIG_FILE:
                digest.update(hashlib.sha256(fh.read()).digest())
            else:
                for i in range(_BLOCKS):
                    fh.seek((size - _BLOCK) * i // (_BLOCKS - 1))
                    digest.update(hashlib.sha256(fh.read(_BLOCK)).digest())
    return "sha256:" + digest.hexdigest()


def resolve_hub_revision(model_id: str, revision: str | None) -> str:
    """Commit sha of ``model_id`` at ``revision`` (branch, tag or sha; ``main`` when None)."""
    if revision and re.fullmatch(r"[0-9a-f]{40}", revision):
        return revision
    try:
        from huggingface_hub import HfApi, constants, errors
    except ImportError as exc:
        raise MissingDependencyError(f"loading hub models needs huggingface_hub: {INSTALL_HINT}") from exc
    transport_error = getattr(errors, "HTTPError", errors.HfHubHTTPError)  # the HTTP client's base
    ref = Path(constants.HF_HUB_CACHE) / f"models--{model_id.replace('/', '--')}" / "refs"
    ref = ref / (revision or "main")
    cached = ref.read_text().strip() if ref.is_file() else None
    if constants.HF_HUB_OFFLINE and cached:
        return cached
    if not constants.HF_HUB_OFFLINE:
        try:
            sha = HfApi().model_info(model_id, revision=revision).sha
            if sha:
                return sha
        except (OSError, errors.HfHubHTTPError, transport_error) as exc:
            if cached:
                return cached
            raise ExecIRError(f"cannot resolve hub model '{model_id}': {exc}") from exc
    raise ExecIRError(
        f"hub model '{model_id}' (revision {revision or 'main'}) is not in the local cache and the "
        "hub is offline; pass a local directory ('dense:/path/to/model') or go online"
    )


def same_input_groups(model: Any, texts: list[str], prompt: str | None) -> tuple[list[int], np.ndarray]:
    """(index of the first text of each distinct model input, row of each text in that list).
    Inputs are the token ids the model's tokenizer gives ``prompt + text`` under the model's
    truncation; a model without a callable Hugging Face tokenizer groups by identical text."""
    keys: list[Any] = list(texts)
    tokenizer = getattr(model, "tokenizer", None)
    if callable(tokenizer) and texts:
        try:
            limit = getattr(model, "max_seq_length", None)
            encoded = tokenizer([(prompt or "") + t for t in texts], truncation=limit is not None, max_length=limit)["input_ids"]
            keys = [tuple(ids) for ids in encoded]
        except (TypeError, ValueError, KeyError):
            keys = list(texts)
    first: list[int] = []
    seen: dict[Any, int] = {}
    rows = np.empty(len(texts), dtype=np.int64)
    for i, key in enumerate(keys):
        if key not in seen:
            seen[key] = len(first)
            first.append(i)
        rows[i] = seen[key]
    return first, rows


class SentenceTransformerEncoder:
    """Encoder over a sentence-transformers model id or local directory (loaded lazily)."""

    def __init__(
        self,
        model: str,
        *,
        revision: str | None = None,
        device: str | None = None,
        max_length: int | None = None,
        normalize: bool = True,
        profile: ModelProfile | None = None,
        progress: bool = True,
        name: str | None = None,
        model_label: str | None = None,
    ) -> None:
        self.model = model
        self.local = Path(model).expanduser().is_dir()
        self.requested_revision = revision
        self.device = device
        self.max_length = max_length
        self.normalize = normalize
        self.profile = profile or profile_for(model_label or model)
        self.task_prompts = TaskPrompts(self.profile)
        self.progress = progress
        self.model_label = model_label or model
        self.name = safe_name(name or Path(model.rstrip("/")).name)
        self._model: Any = None

    @cached_property
    def revision(self) -> str:
        """Content hash (local directory) or commit sha (hub id) of the weights."""
        if self.local:
            return directory_fingerprint(Path(self.model).expanduser())
        return resolve_hub_revision(self.model, self.requested_revision)

    def _max_seq_length(self) -> int | None:
        if self.max_length is not None or not self.local:
            return self.max_length
        config = Path(self.model).expanduser() / "sentence_bert_config.json"
        if config.is_file():
            value = json.loads(config.read_text(encoding="utf-8")).get("max_seq_length")
            return int(value) if value is not None else None
        return None

    def use_task(self, task: TaskSpec | None) -> None:
        """Encode with ``task``'s prompts from now on (None: text to code)."""
        self.task_prompts.use_task(task)

    def cache_key(self, role: Role) -> KeyFields:
        return {
            "model": self.model_label,
            "revision": self.revision,
            "role": role,
            "prompt": self.task_prompts.prompt(role),
            "max_seq_length": self._max_seq_length(),
            "normalize": self.normalize,
            "same_input": "one vector",
        }

    def _load(self) -> Any:
        if self._model is None:
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:
                raise MissingDependencyError(f"dense retrieval needs torch and sentence-transformers: {INSTALL_HINT}") from exc
            if not self.progress:
                disable_loaded_library_bars()
            self._model = SentenceTransformer(
                str(Path(self.model).expanduser()) if self.local else self.model,
                device=self.device,
                trust_remote_code=self.profile.trust_remote_code,
                revision=None if self.local else self.revision,
                local_files_only=self.local,
            )
            if self.max_length is not None:
                self._model.max_seq_length = self.max_length
        return self._model

    def encode(self, texts: Sequence[str], *, role: Role, batch_size: int = 64) -> np.ndarray:
        """One row per text. Texts whose model input is identical (the same token ids after the
        prompt and truncation, e.g. ``''.join(x)`` and ``' '.join(x)`` for a tokenizer that drops
        spaces) are encoded once and share one vector, so their scores tie exactly and the tie
        policy sees the tie; encoded alone in different batches they could differ in the last bits."""
        model = self._load()
        prompt = self.task_prompts.prompt(role) or None
        first, rows = same_input_groups(model, list(texts), prompt)
        vectors = model.encode(
            [texts[i] for i in first],
            prompt=prompt,
            batch_size=batch_size,
            show_progress_bar=self.progress,
            convert_to_numpy=True,
            normalize_embeddings=self.normalize,
        )
        return np.asarray(vectors, dtype=np.float32)[rows]

    def config(self) -> dict[str, Any]:
        """JSON-able resolved configuration."""
        return {
            "model": self.model_label,
            "path": self.model if self.local else None,
            "revision": self.revision,
            "device": self.device,
            "query_prompt": self.task_prompts.prompt("query"),
            "document_prompt": self.task_prompts.prompt("document"),
            "prompts_by_task": self.task_prompts.report(),
            "max_seq_length": self._max_seq_length(),
            "normalize": self.normalize,
            "trust_remote_code": self.profile.trust_remote_code,
        }
