"""One planned run of the ``exec`` reranker, and the budget every call-example run gets."""

from __future__ import annotations

from dataclasses import dataclass

from execir.execute import Job, Limits
from execir.rerank.execution.examples import Examples

CALL_LIMITS = Limits(cpu_seconds=1.0, wall_seconds=4.0)
"""Budget of one candidate on a query's call examples (a handful of calls on small inputs; there is
no canonical to time, so the budget is fixed)."""


@dataclass(frozen=True)
class PlannedRun:
    """One candidate to run: its query, document, language and oracle job."""

    query_id: str
    doc_id: str
    language: str
    job: Job
    examples: Examples = Examples()
    """The examples the job runs (renamed for a misnamed query's candidate)."""
