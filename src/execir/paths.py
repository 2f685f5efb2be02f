"""Where ExecIR keeps its caches (verdicts, embeddings) and default outputs."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """``$EXECIR_CACHE_DIR``, else ``$XDG_CACHE_HOME/execir``, else ``~/.cache/execir``."""
    explicit = os.environ.get("EXECIR_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec says relative values are to be ignored
        base = str(Path.home() / ".cache")
    return Path(base) / "execir"


def verdict_cache_path(root: Path | None = None) -> Path:
    """The SQLite verdict cache."""
    return (root or cache_dir()) / "verdicts.sqlite"


def embedding_cache_dir(root: Path | None = None) -> Path:
    """The on-disk embedding cache."""
    return (root or cache_dir()) / "embeddings"


def generation_cache_dir(root: Path | None = None) -> Path:
    """The on-disk cache of generated query expansions (HyDE, Query2doc)."""
    return (root or cache_dir()) / "generations"


def onnx_export_dir(root: Path | None = None) -> Path:
    """ONNX exports of dense models, one folder per model fingerprint."""
    return (root or cache_dir()) / "onnx"
