"""Fixtures for the metrics tests."""

from __future__ import annotations

import pytest
from metrics_helpers import random_case


@pytest.fixture(params=range(6))
def case(request):
    """Random graded qrels and a tie-heavy run (see :func:`metrics_helpers.random_case`)."""
    return random_case(request.param)
