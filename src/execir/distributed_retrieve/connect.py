"""Join a Ray cluster for encoding and search, through :mod:`execir.distributed.cluster` (the
oracle's connect helper: ``auto``, ``local``, ``HOST:PORT``); Ray is imported here only, lazily."""

from __future__ import annotations

import os
from typing import Any

from execir.distributed.cluster import INSTALL_HINT
from execir.distributed.cluster import connect as join
from execir.errors import MissingDependencyError

USAGE_SWITCH = "RAY_DATA_USAGE_DISABLED"
"""Ray Data's usage collection, off unless the user sets it: on its first execution it starts a
driver thread that queries a Prometheus endpoint every 10 s for the rest of the process and logs
each failed query with its traceback. ExecIR reads none of it, and such a thread would outlive the
evaluation inside whatever process called it (``RAY_DATA_USAGE_DISABLED=0`` turns it back on)."""


def require_ray() -> Any:
    """The ``ray`` module with Ray Data, or :class:`MissingDependencyError` saying how to install it."""
    os.environ.setdefault(USAGE_SWITCH, "1")
    try:
        import ray
        import ray.data  # noqa: F401  (the encoder needs Ray Data: pyarrow, pandas)
    except ImportError as exc:
        raise MissingDependencyError(f"--ray needs Ray with Ray Data: {INSTALL_HINT}") from exc
    return ray


def connect(address: str, *, progress: bool = False) -> Any:
    """Connect to Ray at ``address`` (a process already connected keeps its connection); Ray Data's
    progress bars follow ``progress``. Returns ``ray``."""
    require_ray()
    ray = join(address)
    ray.data.DataContext.get_current().enable_progress_bars = progress
    return ray
