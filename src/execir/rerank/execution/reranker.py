"""The execution-aware reranker (``exec``): run every candidate on the examples its query shows.

For each query, :func:`execir.rerank.execution.examples.extract_examples` reads the examples its *text*
carries (never the hidden tests). Each candidate program is run on them by the project's oracle
(sandboxed, verdict-cached, all queries' candidates in one parallel batch). The order, as scores:

1. Candidates that pass every example come first (score in ``(1, 2)``).
2. Among those, **agreement** (``exec``; off in ``exec:plain``): when two or more pass, each is run
   on probe inputs derived from the examples (:mod:`execir.rerank.execution.agreement`) and candidates that
   behave alike form a group; a larger group ranks first (score ``1 + size / (passing + 1)``):
   correct programs agree with each other, each near-clone errs its own way. Equal sizes, and
   candidates within a group, keep the previous stage's order.
3. Then candidates that fail, by the **share of examples they pass** (``exec``; ``exec:plain``
   scores them all 0.0): a prompt's examples are sometimes wrong, and the correct program still
   passes the others. Only a failure the tests decided counts; a protocol violation, an exit or a
   load failure scores 0.0. A native test program stops at its first failing example, so
   where no candidate of a query passes every example, each native candidate that failed them is
   run again on each example alone (:func:`plan_partial`) and scores the share it passed.

A query without usable examples scores all its candidates 0.0, so a chain keeps the previous order
there. ``exec:plain`` is the two-group reranker: pass every example (1.0) or not (0.0).

Which candidates run, and how, is planned by :mod:`execir.rerank.execution.exec_plan`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from execir.execute import ExecResult, Oracle, OracleConfig
from execir.execute.decide import failed_by_tests
from execir.execute.runtimes.base import ToolchainMissing
from execir.language_declarations import is_host_language
from execir.rerank.base import RerankRequest, RerankStats
from execir.rerank.execution.agreement import agreement_scores, plan_probes, probe_counts
from execir.rerank.execution.examples import Examples, extract_examples
from execir.rerank.execution.exec_plan import Plan, candidate_job, plan_runs
from execir.rerank.execution.native_probes import PROBE_LANGUAGES
from execir.rerank.execution.planned import CALL_LIMITS, PlannedRun
from execir.rerank.execution.probes import BITS, PROBES
from execir.tasks.livecodebench import lcb_limits
from execir.types import Verdict

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec

BELOW_PASS = 0.99
"""The most a candidate that failed its examples together can score (a share of them): never a pass's 1.0."""


def scores_from(
    request: RerankRequest, runs: Sequence[PlannedRun], results: Sequence[ExecResult | None], *, partial: bool = False
) -> dict[str, dict[str, float]]:
    """1.0 for a candidate whose run passed; with ``partial``, a candidate its tests failed scores
    the share of examples it passed (below 1.0); 0.0 for every other candidate of every query (pure)."""
    scores = {query_id: dict.fromkeys(request.candidates.get(query_id, ()), 0.0) for query_id in request.queries}
    for run, result in zip(runs, results):
        if result is None:
            continue
        if result.verdict is Verdict.PASS:
            scores[run.query_id][run.doc_id] = 1.0
        elif partial and result.per_test and failed_by_tests(result.verdict, result.detail):
            scores[run.query_id][run.doc_id] = min(result.per_test.count(True) / len(result.per_test), BELOW_PASS)
    return scores


def plan_partial(runs: Sequence[PlannedRun], results: Sequence[ExecResult | None], source: str) -> tuple[PlannedRun, ...]:
    """One run per example for every native candidate that failed its query's examples, in queries
    where no candidate passed them all (pure). A native test program stops at its first failing
    example and reports nothing the host could trust about the others, so the share of examples a
    candidate passes comes from running each example alone; an example its language cannot write
    for the candidate has no run. Only a FAIL is split: a program that does not compile passes no
    example alone either, and one that ran out of time is not run again (each run could spend the
    whole budget); a query with one example has nothing to split."""
    by_query: dict[str, list[tuple[PlannedRun, ExecResult | None]]] = {}
    for run, result in zip(runs, results):
        by_query.setdefault(run.query_id, []).append((run, result))
    planned: list[PlannedRun] = []
    for query_id, pairs in by_query.items():
        if any(result is not None and result.verdict is Verdict.PASS for _, result in pairs):
            continue
        for run, result in pairs:
            if run.job.tests.kind != "native" or result is None or result.verdict is not Verdict.FAIL or len(run.examples.calls) < 2:
                continue
            for call in run.examples.calls:
                alone = replace(run.examples, calls=(call,), stdio=())
                job = candidate_job(alone, run.job.program, run.language, source)
                if job is not None:
                    planned.append(PlannedRun(query_id, run.doc_id, run.language, job, alone))
    return tuple(planned)


def partial_scores(runs: Sequence[PlannedRun], results: Sequence[ExecResult]) -> dict[str, dict[str, float]]:
    """query id -> candidate -> the share of its one-example runs that passed, below 1.0 (a
    candidate that failed the examples together never ties one that passed them); candidates that
    passed none are left out (they keep 0.0) (pure)."""
    tally: dict[str, dict[str, list[int]]] = {}
    for run, result in zip(runs, results):
        counts = tally.setdefault(run.query_id, {}).setdefault(run.doc_id, [0, 0])
        counts[0] += result.verdict is Verdict.PASS
        counts[1] += 1
    return {query_id: {doc: min(passed / total, BELOW_PASS) for doc, (passed, total) in docs.items() if passed} for query_id, docs in tally.items()}


@dataclass(frozen=True)
class Executed:
    """What one request's runs gave."""

    results: list[ExecResult | None]
    """In the order of the planned runs; None where the language's toolchain is missing."""
    cache_hits: int
    missing: Counter[str]
    """Runs left out for a missing toolchain, by language."""
    probes: tuple[PlannedRun, ...]
    probed: list[ExecResult]
    partial: tuple[PlannedRun, ...]
    """One-example runs of native candidates (:func:`plan_partial`)."""
    partial_results: list[ExecResult]


class ExecReranker:
    """Orders candidates by the examples their query's text shows (see the module docstring);
    ``plain`` keeps only the two groups: pass every example (1.0) or not (0.0)."""

    def __init__(self, oracle: OracleConfig, *, progress: bool = True, plain: bool = False) -> None:
        self.oracle = oracle
        self.progress = progress
        self.plain = plain
        self.name = "exec:plain" if plain else "exec"
        self._task: TaskSpec | None = None
        self._stats = RerankStats(0, 0, 0.0)
        self.oracle_factory: Callable[[OracleConfig], Oracle] = Oracle
        """What makes the oracle (``--ray``: :func:`execir.distributed.options.use_oracle_factory`)."""
        self._distributed: dict[str, object] | None = None

    def use_task(self, task: TaskSpec | None) -> None:
        """Remember the folder's task: documents that are text (``c2t``) are never run."""
        self._task = task

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        """query id -> candidate id -> 1.0 (passes every example) or 0.0."""
        start = time.perf_counter()
        examples = {query_id: extract_examples(text, request.query_language.get(query_id) or "python") for query_id, text in request.queries.items()}
        programs = self._task is None or self._task.document_kind == "code"
        plan = plan_runs(request, examples, programs=programs)
        done = self._execute(plan.runs, examples, request.source)
        scores = scores_from(request, plan.runs, done.results, partial=not self.plain)
        for query_id, shares in partial_scores(done.partial, done.partial_results).items():
            scores[query_id].update(shares)
        for query_id, agreed in agreement_scores(done.probes, done.probed).items():
            scores[query_id].update(agreed)
        counts = _counts(request, examples, plan, done.results, done.missing)
        counts.update(probe_counts(done.probes, done.probed))
        counts["queries_partial"] = len({run.query_id for run in done.partial})
        counts["candidates_partial"] = len({(run.query_id, run.doc_id) for run in done.partial})
        counts["partial_runs"] = len(done.partial)
        counts["cache_hits"] = done.cache_hits
        pairs = sum(len(v) for v in scores.values())
        acted_on = frozenset(q for q in request.queries if examples[q].count) if programs else frozenset()
        self._stats = RerankStats(len(scores), pairs, round(time.perf_counter() - start, 3), counts, acted_on)
        return scores

    def _execute(self, runs: Sequence[PlannedRun], examples: Mapping[str, Examples], source: str) -> Executed:
        """Every run of the request, with the probe runs and the one-example runs they call for
        (neither for ``plain``)."""
        if not runs:
            return Executed([], 0, Counter(), (), [], (), [])
        config = replace(self.oracle, progress=self.oracle.progress and self.progress)
        with self.oracle_factory(config) as oracle:
            usable = {language: _has_toolchain(oracle, language) for language in sorted({r.language for r in runs})}
            todo = [run for run in runs if usable[run.language]]
            done = iter(oracle.run([run.job for run in todo], desc="exec rerank"))
            results = [next(done) if usable[run.language] else None for run in runs]
            probes = () if self.plain else plan_probes(runs, results, examples)
            probed = oracle.run([run.job for run in probes], desc="exec probes") if probes else []
            partial = () if self.plain else plan_partial(runs, results, source)
            partial_results = oracle.run([run.job for run in partial], desc="exec one example each") if partial else []
            cache_hits = oracle.stats["cached"]
            self._distributed = oracle.distributed_facts() if hasattr(oracle, "distributed_facts") else None
        missing = Counter(run.language for run in runs if not usable[run.language])
        return Executed(results, cache_hits, missing, probes, probed, partial, partial_results)

    def stats(self) -> RerankStats:
        """Counts of the last :meth:`score` call (see :func:`_counts` for the ``extra`` keys)."""
        return self._stats

    def config(self) -> dict[str, object]:
        """The reranker's identity for ``results.json``."""
        return {
            "name": self.name,
            "order": "pass/fail" if self.plain else "pass, then agreement on probes; fail, by the share of examples passed",
            **({} if self.plain else {"probes": PROBES, "probe_bits": BITS, "native_probe_languages": sorted(PROBE_LANGUAGES)}),
            "call_limits": {"cpu_seconds": CALL_LIMITS.cpu_seconds, "wall_seconds": CALL_LIMITS.wall_seconds},
            "stdio_limits": {"cpu_seconds": lcb_limits().cpu_seconds, "wall_seconds": lcb_limits().wall_seconds},
            "float_tolerance": {"rel": 1e-6, "abs": 1e-9},
            "stdio_compare": "tokens",
            "isolation": self.oracle.isolation,
            "workers": self.oracle.workers,
            **({"distributed": self._distributed} if self._distributed else {}),
        }


def _has_toolchain(oracle: Oracle, language: str) -> bool:
    if is_host_language(language):
        return True
    try:
        oracle.toolchain(language)
    except ToolchainMissing:
        return False
    return True


def _counts(
    request: RerankRequest, examples: Mapping[str, Examples], plan: Plan, results: Sequence[ExecResult | None], missing: Counter[str]
) -> dict[str, float]:
    """``extra`` of the stats: queries, queries_with_examples (and by shape), examples, examples_skipped,
    candidates, candidates_executed, candidates_passing, candidates_no_runner, verdict counts and
    per-language executed/passing counts."""
    found = [examples[q] for q in request.queries]
    counts: dict[str, float] = {
        "queries": len(found),
        "queries_with_examples": sum(1 for e in found if e.count),
        "queries_with_call_examples": sum(1 for e in found if e.calls),
        "queries_with_stdio_examples": sum(1 for e in found if e.stdio),
        "examples": sum(e.count for e in found),
        "examples_skipped": sum(e.skipped for e in found),
        "candidates": sum(len(request.candidates.get(q, ())) for q in request.queries),
        "candidates_executed": sum(1 for r in results if r is not None),
        "candidates_passing": sum(1 for r in results if r is not None and r.verdict is Verdict.PASS),
        "candidates_not_programs": plan.not_programs,
        "candidates_no_runner": sum(plan.no_runner.values()) + sum(missing.values()),
        "candidates_without_entry_point": plan.without_entry_point,
        "candidates_renamed": plan.renamed,
        "examples_unwritten": plan.unwritten,
    }
    for run, result in zip(plan.runs, results):
        if result is not None:
            counts[f"executed_{run.language}"] = counts.get(f"executed_{run.language}", 0) + 1
            counts[f"passing_{run.language}"] = counts.get(f"passing_{run.language}", 0) + (result.verdict is Verdict.PASS)
            key = f"verdict_{result.verdict.value.lower()}"
            counts[key] = counts.get(key, 0) + 1
    for language, number in (plan.no_runner + missing).items():
        counts[f"no_runner_{language}"] = number
    return counts
