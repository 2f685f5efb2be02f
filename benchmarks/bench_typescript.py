"""Per-check cost of a TypeScript candidate: mxeval's way (``tsc f.ts --target es5 --lib es2016``
then ``node f.js``, one file, no sandbox) against the oracle's (tsc --noCheck --noLib in the
sandbox's compile step, the candidate's calls run, the trusted judge), on the same single-edit
mutants of MBXP TypeScript canonicals.

CPU: mxeval's way, its processes' (``RUSAGE_CHILDREN``); the oracle's, every sandbox run's CPU as
the slot measures it (compile step and run: calls and judge runs), the tasks' record runs made
first and not counted. Programs still running after 2 s mxeval's way (loops) are left out of both.

Usage: ``.venv/bin/python benchmarks/bench_typescript.py [--mutants 120] [--tsc PATH]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import tempfile
import time
from typing import Any

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.runtimes import ts
from execir.execute.sandbox.slot import Slot
from execir.languages import get_language
from execir.mutate import generate_mutants
from execir.tasks.multilingual import mbxp_typescript
from execir.types import TestSuite


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def mxeval_way(tsc: str, programs: list[tuple[str, str]]) -> tuple[float, float, int, set[int]]:
    """CPU and wall per check, and passes, of ``tsc f.ts --target es5 --lib es2016`` + ``node f.js``;
    the indices of the programs still running after 2 s (killed; left out of both measurements)."""
    passed, slow = 0, set()
    c0, t0 = cpu(), time.perf_counter()
    for i, (program, tests) in enumerate(programs):
        with tempfile.TemporaryDirectory() as work:
            with open(os.path.join(work, "f.ts"), "w", encoding="utf-8") as handle:
                handle.write(program + "\n" + tests)
            compiled = subprocess.run([tsc, "f.ts", "--target", "es5", "--lib", "es2016"], cwd=work, capture_output=True)
            if compiled.returncode in (0, 2) and os.path.exists(os.path.join(work, "f.js")):
                try:
                    passed += subprocess.run(["node", "f.js"], cwd=work, capture_output=True, timeout=2).returncode == 0
                except subprocess.TimeoutExpired:
                    slow.add(i)
    n = len(programs)
    return (cpu() - c0) / n, (time.perf_counter() - t0) / n, passed, slow


class Counted:
    """Every sandbox run's CPU (the slot's own measure: compile step and run), and how many runs."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.runs = 0
        self._run_exec = Slot.run_exec

    def __enter__(self) -> Counted:
        counted = self

        def run_exec(slot: Slot, *args: Any, **kwargs: Any) -> Any:
            raw = counted._run_exec(slot, *args, **kwargs)
            counted.cpu += raw.cpu + raw.compile_cpu
            counted.runs += 1
            return raw

        Slot.run_exec = run_exec  # type: ignore[method-assign, assignment]
        return self

    def __exit__(self, *_: object) -> None:
        Slot.run_exec = self._run_exec  # type: ignore[method-assign]


def oracle_way(jobs: list[Job]) -> tuple[float, float, float, int, dict[str, int]]:
    """CPU and wall per check over the oracle (one worker, the tasks' records made first), sandbox
    runs per check, passes, protocols."""
    config = OracleConfig(workers=1, progress=False, cache_path=None)
    with Oracle(config) as oracle:
        references = {(j.tests.code, j.reference): j for j in jobs}
        oracle.run([Job(j.reference, j.tests, j.entry_point, j.limits, reference=j.reference, language=j.language) for j in references.values()])
        with Counted() as counted:
            t0 = time.perf_counter()
            results = oracle.run(jobs)
            wall = time.perf_counter() - t0
    protocols: dict[str, int] = {}
    for result in results:
        protocols[result.protocol] = protocols.get(result.protocol, 0) + 1
    n = len(jobs)
    return counted.cpu / n, wall / n, counted.runs / n, sum(r.verdict.value == "PASS" for r in results), protocols


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=int, default=120)
    parser.add_argument("--tsc", default="tsc", help="the tsc of mxeval's way (default: the npm shim on PATH)")
    args = parser.parse_args()
    language = get_language("typescript")
    canonicals = [t for t in mbxp_typescript.load() if language.is_valid(t.program) and not ts.transpile(ts.RUNTIME.discover(), t.program)[1]]
    random.seed(7)
    pool = [(t, m) for t in canonicals for m in generate_mutants(t.task_id, t.program, "typescript")]
    sample = random.sample(pool, min(args.mutants, len(pool)))
    limits = Limits(2.0, 8.0)
    _, _, _, slow = mxeval_way(args.tsc, [(m.text, t.tests) for t, m in sample])
    sample = [pair for i, pair in enumerate(sample) if i not in slow]
    jobs = [Job(m.text, TestSuite("native", t.tests), t.entry_point, limits, reference=t.program, language="typescript") for t, m in sample]
    mx_cpu, mx_wall, mx_pass, _ = mxeval_way(args.tsc, [(m.text, t.tests) for t, m in sample])
    or_cpu, or_wall, or_runs, or_pass, protocols = oracle_way(jobs)
    print(
        json.dumps(
            {
                "mutants": len(sample),
                "left_out_slow": len(slow),
                "tsc": ts.RUNTIME.discover().version,
                "mxeval_way": {"cpu_ms_per_check": round(1000 * mx_cpu, 1), "wall_ms_per_check": round(1000 * mx_wall, 1), "passed": mx_pass, "tsc": args.tsc},
                "oracle": {
                    "sandbox_runs_per_check": round(or_runs, 2),
                    "cpu_ms_per_check": round(1000 * or_cpu, 1),
                    "wall_ms_per_check": round(1000 * or_wall, 1),
                    "passed": or_pass,
                    "protocols": protocols,
                },
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
