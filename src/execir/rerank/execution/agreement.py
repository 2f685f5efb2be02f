"""Execution agreement for the ``exec`` reranker (pure): which candidates to probe, their probe
jobs, and the scores their fingerprints give.

Where two or more candidates of a query pass every example, each is run on the query's probe
inputs (:mod:`execir.rerank.execution.probes`): Python candidates as an ``asserts`` suite whose per-test
booleans are the fingerprint, native ones as a ``probe`` program (:mod:`execir.rerank.execution.native_probes`)
whose marked output the oracle digests. Candidates with equal fingerprints form a group; a larger
group ranks first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from execir.execute import ExecResult, Job
from execir.execute.decide import failed_by_tests
from execir.rerank.execution.examples import Examples
from execir.rerank.execution.native_probes import PROBE_LANGUAGES, native_probe_arguments, native_probe_suite
from execir.rerank.execution.planned import CALL_LIMITS, PlannedRun
from execir.rerank.execution.probes import BITS, FINGERPRINT, PROBES, probe_arguments, probe_asserts
from execir.types import TestSuite, Verdict


def probe_suite(entry_point: str, arguments: tuple[str, ...]) -> TestSuite:
    """The suite whose per-test booleans are a candidate's fingerprint on the probes (see :mod:`execir.rerank.execution.probes`)."""
    return TestSuite(kind="asserts", code=FINGERPRINT, asserts=probe_asserts(entry_point, arguments))


def plan_probes(runs: Sequence[PlannedRun], results: Sequence[ExecResult | None], examples: Mapping[str, Examples]) -> tuple[PlannedRun, ...]:
    """A probe run for every candidate that passed its query's call examples, where two or more did (pure)."""
    passing: dict[str, list[PlannedRun]] = {}
    for run, result in zip(runs, results):
        probed = run.job.tests.kind == "asserts" or (run.job.tests.kind == "native" and run.language in PROBE_LANGUAGES)
        if result is not None and result.verdict is Verdict.PASS and probed:
            passing.setdefault(run.query_id, []).append(run)
    planned: list[PlannedRun] = []
    for query_id, group in passing.items():
        if len(group) < 2:
            continue
        arguments = probe_arguments(examples[query_id], PROBES)
        for run in group:
            if run.job.tests.kind == "native":
                suite = native_probe_suite(run.examples, run.language, run.job.program, native_probe_arguments(run.examples, run.language))
            else:
                suite = probe_suite(run.job.entry_point, arguments) if arguments else None
            if suite is not None:
                job = Job(run.job.program, suite, run.job.entry_point, CALL_LIMITS, language=run.language)
                planned.append(PlannedRun(query_id, run.doc_id, run.language, job))
    return tuple(planned)


def fingerprint(run: PlannedRun, result: ExecResult | None) -> tuple[bool, ...] | None:
    """The candidate's behaviour on the probes, or None when the probe run did not finish cleanly
    (a timeout, a protocol violation: the candidate then agrees with nobody)."""
    expected = len(run.job.tests.asserts) * (BITS if run.job.tests.kind == "probe" else 1)
    if result is None or result.per_test is None or len(result.per_test) != expected:
        return None
    if result.verdict is Verdict.PASS or failed_by_tests(result.verdict, result.detail):
        return result.per_test
    return None


def agreement_scores(probes: Sequence[PlannedRun], results: Sequence[ExecResult | None]) -> dict[str, dict[str, float]]:
    """query id -> probed candidate -> ``1 + size / (probed + 1)``, where ``size`` is how many of
    the query's probed candidates share the candidate's fingerprint (1 without one) (pure)."""
    prints: dict[str, dict[str, tuple[bool, ...] | None]] = {}
    for run, result in zip(probes, results):
        prints.setdefault(run.query_id, {})[run.doc_id] = fingerprint(run, result)
    scores: dict[str, dict[str, float]] = {}
    for query_id, found in prints.items():
        sizes = Counter(value for value in found.values() if value is not None)
        scores[query_id] = {doc: 1.0 + (sizes[value] if value is not None else 1) / (len(found) + 1) for doc, value in found.items()}
    return scores


def probe_counts(probes: Sequence[PlannedRun], results: Sequence[ExecResult]) -> dict[str, float]:
    """``queries_probed``, ``candidates_probed``, ``probes_unclean`` (probe runs without a
    fingerprint) and ``queries_split_by_probes`` (queries whose probed candidates did not all agree)."""
    groups: dict[str, set[object]] = {}
    unclean = 0
    for index, (run, result) in enumerate(zip(probes, results)):
        value = fingerprint(run, result)
        unclean += value is None
        groups.setdefault(run.query_id, set()).add(value if value is not None else index)  # no fingerprint: a group of its own
    return {
        "queries_probed": len(groups),
        "candidates_probed": len(probes),
        "probes_unclean": unclean,
        "queries_split_by_probes": sum(1 for values in groups.values() if len(values) > 1),
    }
