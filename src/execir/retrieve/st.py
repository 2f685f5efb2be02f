"""Sentence-transformers encoder with a cache identity that pins the exact weights.

The identity is resolved *without loading the model* (:mod:`execir.model_identity`), so a fully
cached run never loads it; a hub model is then loaded at the exact commit its identity names.

Prompts depend on the model family, the role and the task set by :meth:`use_task`
(:mod:`execir.retrieve.prompts`); the cache key carries the effective prompt.

Embeddings are L2-normalised by default (cosine = dot product). torch and sentence-transformers
are imported lazily; when missing, :class:`~execir.errors.MissingDependencyError` says how to
install them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from execir.console import disable_loaded_library_bars
from execir.errors import MissingDependencyError
from execir.model_identity import INSTALL_HINT, directory_fingerprint, resolve_hub_revision, safe_name
from execir.retrieve.cache import KeyFields
from execir.retrieve.prompts import ModelProfile, Role, TaskPrompts, profile_for, trained_profile

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


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
        backend: str = "torch",
        quantize: str | None = None,
        export_root: Path | None = None,
    ) -> None:
        self.model = model
        self.local = Path(model).expanduser().is_dir()
        self.requested_revision = revision
        self.device = device
        self.max_length = max_length
        self.normalize = normalize
        self.profile = profile or trained_profile(model) or profile_for(model_label or model)
        self.task_prompts = TaskPrompts(self.profile)
        self.progress = progress
        self.model_label = model_label or model
        self.backend = backend
        self.quantize = quantize
        self.export_root = export_root
        self.onnx_file: Path | None = None
        """The ONNX file the model runs (``backend="onnx"``, once loaded)."""
        base = name or Path(model.rstrip("/")).name
        self.name = safe_name(base if backend == "torch" else "-".join(x for x in (base, backend, quantize) if x))
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

    @property
    def backend_label(self) -> str:
        """``torch``, ``onnx`` or ``onnx-int8``."""
        return "-".join(x for x in (self.backend, self.quantize) if x)

    def cache_key(self, role: Role) -> KeyFields:
        backend = {} if self.backend == "torch" else {"backend": self.backend_label}  # torch keys stay as they were
        return {
            **backend,
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
            if self.backend == "onnx":
                from execir.paths import onnx_export_dir
                from execir.retrieve.onnx_backend import load_onnx

                root = self.export_root or onnx_export_dir()
                self.onnx_file = load_onnx(self._model, root, safe_name(Path(self.model.rstrip("/")).name), self.revision, self.quantize)
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
            "backend": self.backend_label,
            **({"onnx_file": str(self.onnx_file)} if self.onnx_file is not None else {}),
        }
