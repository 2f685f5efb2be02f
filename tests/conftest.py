"""Shared fixtures: paths to the optional shared data and small task files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.infinity_server import InfinityServer, infinity_binary, serve

pytest_plugins = ["tests.watchdog"]

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    """The shared public task sets; tests using it skip cleanly when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA


@pytest.fixture(scope="session")
def infinity_minilm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InfinityServer]:
    """A real Infinity server on loopback serving the bundled all-MiniLM-L6-v2 as ``minilm``
    (started once per session, stopped at its end; skipped or failed as :mod:`tests.infinity_server` says)."""
    from execir.retrieve.registry import bundled_minilm_path

    infinity_binary()
    with serve([(bundled_minilm_path(), "minilm")], tmp_path_factory.mktemp("infinity-minilm") / "server.log") as server:
        yield server
