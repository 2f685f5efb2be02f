"""The label-deciding cases hold at every isolation level this machine offers, not only the default:
verdicts come from the same judge and decision rules whatever the sandbox."""

from __future__ import annotations

import pytest

from execir.execute import Oracle, OracleConfig
from execir.execute.sandbox import isolation
from execir.execute.selftest import ALL_CASES, abstract_listener, run_cases

from .test_adversarial import SLOW

LEVEL_CATEGORIES = {"labels", "exit", "tamper", "forged_output", "stdio", "control", "determinism", "boundary", "stdio_rules"}
CASES = tuple(c for c in ALL_CASES if c.category in LEVEL_CATEGORIES and c.name not in SLOW)
WEAKER_LEVELS = [level for level in isolation.available_levels()[1:] if level != "rlimits"]


@pytest.fixture(scope="module", params=WEAKER_LEVELS)
def outcomes(request):
    listener = abstract_listener()
    try:
        with Oracle(OracleConfig(workers=2, isolation=request.param, progress=False)) as oracle:
            yield {o.case.name: o for o in run_cases(oracle, CASES)}
    finally:
        if listener is not None:
            listener.close()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_case_at_weaker_level(outcomes, case):
    outcome = outcomes[case.name]
    assert outcome.ok, (case.name, outcome.result.verdict, outcome.result.detail)
