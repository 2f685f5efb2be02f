"""Run the adversarial suite through the real oracle and report the reliability figures."""

from __future__ import annotations

import glob
import os
import socket
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from execir.execute.attacks.adversarial import (
    ADD_CHECK,
    ADD_OK,
    CANARY_ENV,
    CANARY_PORT,
    CASES,
    POISON_PROBE,
    SLOT_POISONERS,
    Case,
)
from execir.execute.attacks.adversarial_boundary import BOUNDARY_CASES
from execir.execute.attacks.adversarial_labels import ABSTRACT_CANARY, LABEL_CASES
from execir.execute.attacks.adversarial_languages import language_cases
from execir.execute.attacks.adversarial_stdio import STDIO_CASES
from execir.execute.attacks.adversarial_wipe import WIPE_POISONERS
from execir.execute.jobs import ExecResult, Job
from execir.execute.limits import Limits
from execir.execute.oracle import Oracle, OracleConfig
from execir.execute.sandbox import hostcheck
from execir.types import Verdict

LIMITS = Limits(cpu_seconds=1.0, wall_seconds=3.0, memory_mb=512)
PROBE_LIMITS = Limits(cpu_seconds=5.0, wall_seconds=15.0, memory_mb=512)
"""The probe touches 300 MiB (to detect memory left charged to the slot); page-faulting that in
costs well under 1 s idle but more on a loaded machine, so its CPU budget is generous."""
CANARY_GLOBS = (
    "/tmp/execir-canary*",
    "/var/tmp/execir-canary*",
    "/dev/shm/execir-canary*",
    os.path.expanduser("~/execir-canary*"),
    "/work/execir-canary*",
    "/root/execir-canary*",
)


@dataclass(frozen=True)
class CaseOutcome:
    case: Case
    result: ExecResult

    @property
    def ok(self) -> bool:
        return self.result.verdict in self.case.expected


def canary_files() -> list[str]:
    return sorted({p for pattern in CANARY_GLOBS for p in glob.glob(pattern)})


def loopback_listener() -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", CANARY_PORT)) == 0


ALL_CASES: tuple[Case, ...] = CASES + STDIO_CASES + BOUNDARY_CASES + LABEL_CASES + language_cases()
"""Every adversarial case: the core Python suite, stdio process rules, the call boundary, label
decisions, and every other language (each with its judged-outside wire cases)."""
ALL_POISONERS: tuple[Case, ...] = SLOT_POISONERS + WIPE_POISONERS
"""Every slot poisoner (each followed by the probe in the same slot)."""


def abstract_listener() -> socket.socket | None:
    """Listen on the abstract unix socket the isolation cases try to reach (None when another
    selftest already listens there: its listener serves as well)."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(ABSTRACT_CANARY)
    except OSError:
        listener.close()
        return None
    listener.listen(16)
    return listener


def run_cases(oracle: Oracle, cases: tuple[Case, ...] = ALL_CASES) -> list[CaseOutcome]:
    jobs = [Job(c.program, c.tests, c.entry_point, LIMITS, reference=c.reference, language=c.language) for c in cases]
    return [CaseOutcome(c, r) for c, r in zip(cases, oracle.run(jobs, desc="selftest"))]


def run_poisoners(oracle: Oracle, cases: tuple[Case, ...] = ALL_POISONERS) -> list[CaseOutcome]:
    """Each poisoner, then the probe in the same slot (``oracle`` must have one worker); the probe's
    outcome is reported under the poisoner's name and must PASS."""
    outcomes = []
    for case in cases:
        (first,) = oracle.run([Job(case.program, case.tests, case.entry_point, LIMITS)], desc="poison")
        (probe,) = oracle.run([Job(POISON_PROBE + f"# after {case.name}\n", case.tests, "add", PROBE_LIMITS)], desc="poison")
        outcomes.append(CaseOutcome(case, first))
        outcomes.append(CaseOutcome(Case(case.name + "/next", "poison", POISON_PROBE, case.tests, frozenset({Verdict.PASS})), probe))
    return outcomes


def overhead(oracle: Oracle, runs: int = 60) -> dict[str, float]:
    """Per-run wall overhead of a trivial check, and checks/s over the slots."""
    jobs = [Job(ADD_OK + f"# {time.time_ns()} {i}\n", ADD_CHECK, "add", LIMITS) for i in range(runs)]
    started = time.perf_counter()
    results = oracle.run(jobs, desc="overhead")
    elapsed = time.perf_counter() - started
    walls = sorted(r.wall_seconds for r in results)
    return {"runs": runs, "median_run_ms": round(1000 * walls[len(walls) // 2], 3), "checks_per_second": round(runs / elapsed, 1)}


def selftest(
    config: OracleConfig | None = None,
    languages: frozenset[str] | None = None,
    *,
    factory: Callable[[OracleConfig], Oracle] = Oracle,
    extra: tuple[Case, ...] = (),
) -> dict:
    """Figures: cases, mislabels, false PASS, surviving processes, host artefacts, overhead
    (``languages``: only those languages' cases; the slot poisoners run with Python). ``factory``
    makes the oracles (``--ray``: :mod:`execir.distributed.selftest`), ``extra`` adds cases."""
    config = config or OracleConfig(progress=False)
    cases = ALL_CASES if languages is None else tuple(c for c in ALL_CASES if c.language in languages)
    cases += tuple(c for c in extra if languages is None or c.language in languages)
    poisoners = ALL_POISONERS if languages is None or "python" in languages else ()
    os.environ[CANARY_ENV] = "execir-canary-value"
    before = set(canary_files())
    listener = abstract_listener()
    try:
        with factory(config) as oracle:
            outcomes = run_cases(oracle, cases)
            figures = overhead(oracle)
            reliability = oracle.reliability()
            uids = set(getattr(oracle, "uids", []))
            baseline = {pid for slot in oracle.slots for pid in slot.baseline}
            survivors = [p for p in hostcheck.processes(uids) if p not in baseline] if uids else []
    finally:
        if listener is not None:
            listener.close()
    with factory(replace(config, workers=1, cache_path=None)) as single:
        outcomes += run_poisoners(single, poisoners)
        survivors_poison = single.reliability()["surviving_processes"]
    created = sorted(set(canary_files()) - before)
    bad = [o for o in outcomes if not o.ok]
    return {
        "isolation": reliability["isolation"],
        "cases": len(outcomes),
        "cases_per_category": dict(sorted(Counter(o.case.category for o in outcomes).items())),
        "cases_per_language": dict(sorted(Counter(o.case.language for o in outcomes).items())),
        "mislabels_per_language": dict(sorted(Counter(o.case.language for o in outcomes if not o.ok).items())),
        "protocols_per_language": {
            language: dict(sorted(Counter(o.result.protocol for o in outcomes if o.case.language == language).items()))
            for language in sorted({o.case.language for o in outcomes})
        },
        "mislabels": len(bad),
        "false_pass": sum(o.result.verdict is Verdict.PASS and Verdict.PASS not in o.case.expected for o in outcomes),
        "surviving_processes": reliability["surviving_processes"] + len(survivors) + survivors_poison,
        "host_artefacts": (reliability["host_artefacts"] or 0) + len(created),
        "loopback_listener": loopback_listener(),
        "overhead": figures,
        "mislabelled": [
            {"case": o.case.name, "expected": sorted(v.value for v in o.case.expected), "got": o.result.verdict.value, "detail": o.result.detail} for o in bad
        ],
        "artefacts": created,
    }
