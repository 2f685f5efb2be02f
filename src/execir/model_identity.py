"""Which model a run used, pinned without loading it: the identity every embedder, reranker and
cache key carries.

* a local directory is identified by a content hash of its files (relative path, size and the
  sha256 of the bytes; files over 256 MiB contribute 64 evenly spaced 1 MiB blocks, first and
  last included, so multi-GB checkpoints fingerprint in well under a second while any fine-tune,
  which changes nearly every tensor, still changes the hash);
* a hub id is pinned to a commit sha: a 40-hex ``revision`` is used as is, otherwise the hub is
  asked (``HfApi.model_info``), falling back to the local hub cache's ``refs/<revision>`` when
  offline.

A primitive every layer may import (retrieval, reranking, training): it imports nothing of ExecIR's
but its errors; ``huggingface_hub`` is imported only when a hub id is resolved.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from execir.errors import ExecIRError, MissingDependencyError

MODEL_FILE = "execir.json"
"""The file beside a model's weights in which ExecIR declares what it knows of the model: a
trained model's base and provenance, a cross-encoder's pair order, a bi-encoder's prompts."""

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
