"""Rewrites run through the real oracle: on a sample of HumanEval every rewrite must pass the tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from rewrite_measure import measure

from execir.tasks import load_humaneval


@pytest.mark.slow
def test_humaneval_sample_rewrites_pass(tmp_path: Path) -> None:
    tasks = load_humaneval()[:20]
    result = measure(tasks, "python", tmp_path / "cache.sqlite", workers=4)
    print(result.table())
    assert result.tasks == 20
    assert sum(result.generated.values()) >= 40
    assert not result.failures, [(task_id, rewrite.rule, why) for task_id, rewrite, why in result.failures[:3]]
