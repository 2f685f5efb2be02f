"""Cross-encoder reranker (``ce:<model>``): a sentence-transformers ``CrossEncoder`` scores each pair.

Scores are the model's **raw logits** (no sigmoid): a sigmoid is monotone, so the order is the
one ``CrossEncoder.predict`` gives, and raw logits do not saturate into float32 ties near 1.0.
A head with more than one label is scored by the **log-probability of its relevant label**
(log-softmax over the labels): the label named ``relevant``, ``yes``, ``true``, ``positive`` or
``entailment`` (case-insensitive, exact), else the last label (:func:`relevant_label`).

Pairs are passed as (query, document), or as (text side, code side) when the model directory's
``execir.json`` declares ``{"pair_order": "text-code"}`` (:mod:`execir.rerank.prompts`; for a hub
model the file is fetched at the pinned commit, and a file missing from the hub, or from the local
cache when offline, means query-document). Each
distinct pair is scored once; the model is loaded on the first :meth:`CrossEncoderReranker.score`
and runs in eval mode under ``torch.inference_mode`` (no dropout: the same input gives the same
score). A hub id is pinned to a commit, a local directory to a content hash, as for dense
retrieval.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from execir.console import disable_loaded_library_bars
from execir.errors import ExecIRError, MissingDependencyError
from execir.model_identity import directory_fingerprint, resolve_hub_revision

from .base import RerankRequest, RerankStats, model_label
from .prompts import PAIR_ORDER_FILE, PairOrder, assemble, order_pair, parse_pair_order, plan_pairs, read_pair_order

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec

INSTALL_HINT = "pip install 'execir[rerank]'"
RELEVANT_LABELS = ("relevant", "yes", "true", "positive", "entailment")


def relevant_label(id2label: Mapping[int, str], num_labels: int) -> int:
    """Index of the label whose log-probability is the score (see the module docstring)."""
    for index, label in sorted(id2label.items()):
        if str(label).lower() in RELEVANT_LABELS and 0 <= int(index) < num_labels:
            return int(index)
    return num_labels - 1


def label_scores(logits: np.ndarray, label: int) -> np.ndarray:
    """One score per row: the logit itself for a one-label head, else ``label``'s log-softmax."""
    logits = np.asarray(logits, dtype=np.float64)
    if logits.ndim == 1:
        return logits
    if logits.shape[1] == 1:
        return logits[:, 0]
    shifted = logits - logits.max(axis=1, keepdims=True)
    return shifted[:, label] - np.log(np.exp(shifted).sum(axis=1))


def local_model_dir(model: str) -> Path | None:
    """The directory ``model`` names, None for a hub id; a path that is not a directory is an error.

    A string is a path when it exists, starts with ``/``, ``.`` or ``~``, or has more than one
    ``/`` (a hub id is ``name`` or ``owner/name``)."""
    path = Path(model).expanduser()
    if path.is_dir():
        return path
    if path.exists():
        raise ExecIRError(f"model '{model}' is a file, not a model directory")
    if model.startswith(("/", ".", "~")) or model.count("/") > 1 or "\\" in model:
        raise ExecIRError(f"model directory '{model}' does not exist")
    return None


_SCORED: dict[tuple[Any, tuple[str, str]], float] = {}
"""Scores already computed in this process, by (model, revision, max length, label) and ordered pair:
the same model in several specs (``ce:M`` and ``exec+ce:M``) or folders scores each pair once."""


class CrossEncoderReranker:
    """Reranks with a sentence-transformers cross-encoder (hub id or local directory)."""

    def __init__(
        self,
        model: str,
        *,
        revision: str | None = None,
        device: str | None = None,
        batch_size: int = 32,
        max_length: int | None = None,
        progress: bool = True,
    ) -> None:
        if batch_size < 1:
            raise ExecIRError(f"cross-encoder batch size must be positive, got {batch_size}")
        self.model = model
        self.local = local_model_dir(model)
        self.requested_revision = revision
        self.device = device
        self.batch_size = batch_size
        self.max_length = max_length
        self.progress = progress
        self.name = "ce:" + model_label(model)
        self._task: TaskSpec | None = None
        self._encoder: Any = None
        self._label = 0
        self._stats = RerankStats(queries=0, pairs=0, seconds=0.0)

    @cached_property
    def revision(self) -> str:
        """Content hash (local directory) or commit sha (hub id) of the weights."""
        if self.local is not None:
            return directory_fingerprint(self.local)
        return resolve_hub_revision(self.model, self.requested_revision)

    @cached_property
    def pair_order(self) -> PairOrder:
        """The pair order the model declares in ``execir.json`` (none: query-document)."""
        if self.local is not None:
            return read_pair_order(self.local)
        return parse_pair_order(_hub_file(self.model, self.revision, PAIR_ORDER_FILE), f"{self.model}/{PAIR_ORDER_FILE}")

    def use_task(self, task: TaskSpec | None) -> None:
        """Order pairs for ``task`` from now on (None: text to code)."""
        self._task = task

    def _load(self) -> Any:
        if self._encoder is not None:
            return self._encoder
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as exc:
            raise MissingDependencyError(f"cross-encoder reranking needs torch and sentence-transformers: {INSTALL_HINT}") from exc
        if not self.progress:
            disable_loaded_library_bars()
        source = str(self.local) if self.local is not None else self.model
        try:
            encoder = CrossEncoder(
                source,
                device=self.device,
                max_length=self.max_length,
                revision=None if self.local is not None else self.revision,
                local_files_only=self.local is not None,
            )
        except (OSError, ValueError) as exc:
            raise ExecIRError(f"cannot load cross-encoder '{self.model}': {exc}") from exc
        encoder.eval()
        inner = encoder.model
        id2label = getattr(getattr(inner, "config", None), "id2label", None) or {}
        self._label = relevant_label(id2label, encoder.num_labels)
        self._encoder = encoder
        return encoder

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        """query id -> candidate id -> score (raw logit or relevant-label log-probability)."""
        start = time.perf_counter()
        plan = plan_pairs(request)
        scores = self._predict(plan.texts) if plan.texts else np.zeros(0)
        result = assemble(plan, scores.tolist())
        self._stats = RerankStats(
            queries=len(plan.slots), pairs=plan.pairs, seconds=time.perf_counter() - start, extra={"unique_pairs": float(len(plan.texts))}
        )
        return result

    def _predict(self, texts: tuple[tuple[str, str], ...]) -> np.ndarray:
        encoder = self._load()
        import torch

        order = self.pair_order
        query_kind = self._task.query_kind if self._task else "text"
        document_kind = self._task.document_kind if self._task else "code"
        pairs = [order_pair(q, d, order=order, query_kind=query_kind, document_kind=document_kind) for q, d in texts]
        model_key = (self.model, self.revision, encoder.max_seq_length, self._label)
        missing = sorted({pair for pair in pairs if (model_key, pair) not in _SCORED})
        if missing:
            logits = encoder.predict(
                missing, batch_size=self.batch_size, show_progress_bar=self.progress, activation_fn=torch.nn.Identity(), convert_to_numpy=True
            )
            for pair, value in zip(missing, label_scores(np.asarray(logits), self._label).tolist()):
                _SCORED[(model_key, pair)] = float(value)
        return np.asarray([_SCORED[(model_key, pair)] for pair in pairs], dtype=np.float64)

    def stats(self) -> RerankStats:
        """Counts of the last :meth:`score` call (``extra``: distinct pairs scored)."""
        return self._stats

    def config(self) -> dict[str, object]:
        """Model, revision, pair order, batch size, device, max length and library versions."""
        loaded = self._encoder is not None
        known = loaded or self.local is not None
        return {
            "kind": "cross-encoder",
            "model": self.model,
            "path": str(self.local) if self.local is not None else None,
            "requested_revision": self.requested_revision,
            "revision": self.revision if known else None,
            "pair_order": self.pair_order if known else None,
            "score": None if not loaded else "logit" if self._encoder.num_labels == 1 else f"log_softmax[{self._label}]",
            "num_labels": self._encoder.num_labels if loaded else None,
            "max_length": self._encoder.max_seq_length if loaded else self.max_length,
            "batch_size": self.batch_size,
            "device": str(self._encoder.device) if loaded else self.device,
            "versions": versions(),
        }


def _hub_file(model: str, revision: str, filename: str) -> str | None:
    """Text of ``filename`` in a hub model at ``revision``; None when the model has no such file."""
    from huggingface_hub import errors, hf_hub_download

    try:
        path = hf_hub_download(model, filename, revision=revision)
    except errors.EntryNotFoundError:  # also raised offline when the file is not in the local cache
        return None
    return Path(path).read_text(encoding="utf-8")


def versions() -> dict[str, str | None]:
    """torch, transformers and sentence-transformers versions (None where not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    found: dict[str, str | None] = {}
    for package in ("torch", "transformers", "sentence-transformers"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = None
    return found
