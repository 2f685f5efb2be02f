"""Fixtures for the execute tests: one real oracle per module (starting sandboxes costs ~0.2 s)."""

from __future__ import annotations

import pytest

from execir.execute import Limits, Oracle, OracleConfig

FAST = Limits(cpu_seconds=1.0, wall_seconds=3.0, memory_mb=512)


@pytest.fixture(scope="module")
def oracle():
    with Oracle(OracleConfig(workers=2, progress=False)) as running:
        yield running
