"""A trained bi-encoder folder as an MTEB encoder that encodes queries as ``execir eval`` does.

``train-embedder --prompts task`` declares query prompts per task direction in the model's
``execir.json``. MTEB picks a SentenceTransformer's prompts by registered task names and drops
keys it does not know, ExecIR's folders among them, so a plain ``SentenceTransformer(path)``
under MTEB would encode code queries bare. :func:`mteb_model` wraps the folder in MTEB's own
SentenceTransformer wrapper and, for each task, hands it the declared prompt of the ExecIR task
its folder holds (read from the folder's ``manifest.json``, which :func:`~execir.interop.mteb_task`
names in the task's ``dataset.path``). Tasks from elsewhere get the folder's own prompts, if any.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from execir.dataset import get_spec
from execir.dataset.layout import MANIFEST
from execir.dataset.read import manifest_task
from execir.errors import ExecIRError, MissingDependencyError
from execir.retrieve.prompts import ModelProfile, trained_profile


def mteb_model(path: Path | str, *, device: str | None = None) -> Any:
    """The model folder at ``path`` as an MTEB encoder (``mteb.evaluate(mteb_model(path), tasks=...)``)."""
    wrapper = _wrapper_class()(str(path), device=device)
    wrapper.declared = trained_profile(str(path))
    return wrapper


def execir_task(metadata: Any) -> str | None:
    """The ExecIR task of an MTEB task made by :func:`~execir.interop.mteb_task` (its folder's manifest), else None."""
    dataset = getattr(metadata, "dataset", None)
    folder = dataset.get("path") if isinstance(dataset, dict) else None
    manifest = Path(str(folder)) / MANIFEST if folder else None
    if manifest is None or not manifest.is_file():
        return None
    try:
        data = json.loads(manifest.read_bytes())
    except (OSError, ValueError):
        return None
    return (manifest_task(data) or None) if isinstance(data, dict) else None


def task_prompts(profile: ModelProfile | None, metadata: Any) -> dict[str, str] | None:
    """MTEB ``model_prompts`` for one task: the declared non-empty prompts of its ExecIR task by role."""
    task = execir_task(metadata)
    if profile is None or task is None:
        return None
    try:
        spec = get_spec(task)
    except ExecIRError:
        return None
    return {role: text for role, text in profile.prompts(spec).items() if text} or None


@lru_cache(maxsize=1)
def _wrapper_class() -> type:
    try:
        from mteb.models.sentence_transformer_wrapper import SentenceTransformerEncoderWrapper
    except ImportError as exc:
        raise MissingDependencyError("mteb is not installed (pip install 'execir[interop]')") from exc

    class DeclaredPromptsWrapper(SentenceTransformerEncoderWrapper):
        """MTEB's SentenceTransformer wrapper, with each task's prompts taken from ``declared``."""

        declared: ModelProfile | None = None

        def encode(self, inputs: Any, *, task_metadata: Any, **kwargs: Any) -> Any:
            own = self.model_prompts
            self.model_prompts = task_prompts(self.declared, task_metadata) or own
            try:
                return super().encode(inputs, task_metadata=task_metadata, **kwargs)
            finally:
                self.model_prompts = own

    return DeclaredPromptsWrapper
