"""Label agreement of the oracle idle vs under load (HumanEval, every mutant candidate).

Runs the 164 HumanEval canonicals and every generated single-edit mutant twice with empty verdict
caches: once on an idle machine, once with two background busy loops (one per core of this 2-core
machine). Prints the share of identical verdicts, the PASS/not-PASS agreement, and false PASS /
false FAIL counts (taking the idle label as the reference). Target: >= 99.5% agreement, 0 false PASS.

Usage: python benchmarks/bench_load_agreement.py [--limit N] [--workers 2]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import Counter

from execir.execute import Job, Oracle, OracleConfig
from execir.mutate import generate_mutants
from execir.tasks import load_humaneval
from execir.types import Verdict


def jobs_for(limit: int | None) -> list[Job]:
    """Canonicals (budget from an idle admission) plus every mutant candidate."""
    tasks = load_humaneval()[:limit]
    with Oracle(OracleConfig(workers=2, progress=False)) as oracle:
        admissions = oracle.admit_canonicals([(t.solution, t.tests, t.entry_point) for t in tasks], repeats=1)
    jobs = []
    for task, admission in zip(tasks, admissions):
        jobs.append(Job(task.solution, task.tests, task.entry_point, admission.limits, reference=task.solution))
        jobs += [Job(m.text, task.tests, task.entry_point, admission.limits, reference=task.solution) for m in generate_mutants(task.task_id, task.solution)]
    return jobs


def label(jobs: list[Job], workers: int) -> tuple[list[Verdict], float]:
    """Verdicts with an empty cache, and the wall time."""
    started = time.perf_counter()
    with Oracle(OracleConfig(workers=workers, progress=False)) as oracle:
        verdicts = [r.verdict for r in oracle.run(jobs, desc="labels")]
    return verdicts, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = jobs_for(args.limit)
    idle, idle_seconds = label(jobs, args.workers)
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        loaded, loaded_seconds = label(jobs, args.workers)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    same = sum(a == b for a, b in zip(idle, loaded))
    passes = sum((a is Verdict.PASS) == (b is Verdict.PASS) for a, b in zip(idle, loaded))
    false_pass = sum(a is not Verdict.PASS and b is Verdict.PASS for a, b in zip(idle, loaded))
    false_fail = sum(a is Verdict.PASS and b is not Verdict.PASS for a, b in zip(idle, loaded))
    print(f"candidates: {len(jobs)} (idle verdicts: {dict(Counter(v.value for v in idle))})")
    print(
        f"idle: {idle_seconds:.1f} s ({len(jobs) / idle_seconds:.0f} checks/s); "
        f"two busy loops: {loaded_seconds:.1f} s ({len(jobs) / loaded_seconds:.0f} checks/s)"
    )
    print(f"identical verdicts: {same}/{len(jobs)} = {100 * same / len(jobs):.2f}%")
    print(f"PASS/not-PASS agreement: {passes}/{len(jobs)} = {100 * passes / len(jobs):.2f}%")
    print(f"false PASS under load: {false_pass}; false FAIL under load: {false_fail}")
    changed = Counter(f"{a.value}->{b.value}" for a, b in zip(idle, loaded) if a != b)
    if changed:
        print("changed labels:", dict(changed))


if __name__ == "__main__":
    main()
