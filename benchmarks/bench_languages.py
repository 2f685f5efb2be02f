"""The oracle in every language, side by side with the reference way of running the same programs.

For each language with public tasks in ``../shared/data`` (HumanEval-X C++/Java/Go/JavaScript/Rust
with HumanEvalPack's human-written buggy solutions; MBXP Ruby, PHP and TypeScript), in one run:

1. ground truth: every canonical through the oracle three times (it must PASS each time) and every
   buggy solution once (it must not PASS), with the canonical as the reference, as a build runs
   them: the tests are judged outside the candidate's process wherever the runtime can split them
   (the share of tasks and checks judged outside is reported);
2. throughput: canonicals + buggy solutions once more with an empty cache (each task's record run
   included), full isolation, under each task's budget as a build sets it (five times the
   canonical's CPU time in its admission, at least 0.25 s; ``--budget fixed``: 5 s for every task),
   against the reference way (HumanEval-X / MBXP: compile and run program + tests in a plain
   subprocess with a 10 s timeout, trusting the exit status: ``php f.php`` and mxeval's ``tsc`` then
   ``node`` for MBXP PHP and TypeScript, ``rustc --test`` with the runtime's crate flags then the
   test binary for Rust), as checks per second and their ratio, plus the median compile and run
   time per check. MBXP Ruby has no buggy solutions: mxeval's model sample of each task
   (``mbxp/examples/mbrbp_samples.jsonl``, real candidates, about 40% failing) takes their place;
   MBXP PHP and TypeScript have neither, so a seeded single-edit mutant of each canonical does. A
   program that loops costs each side its whole budget, so when any check ended in a timeout the
   two sides are measured again without those programs, and both ratios are reported;
3. the reference way's own labels beside the oracle's (where a harness that trusts the exit status
   disagrees: JavaScript's ``console.assert`` prints and carries on);
4. label agreement between that idle run and a run under two background busy loops.

``--ground-truth-only`` stops after 1 and 3: canonicals three times, buggy solutions once, and the
reference way's labels of both beside the oracle's (the first of the three canonical runs), without
the throughput and load runs.

Besides checks per second (wall clock: noisy on a shared machine), each side's CPU per check: every
process of the side (this process's own CPU in the run, plus its children's: the reference's
subprocesses; the oracle's sandboxes, candidates and compilers), a figure that other users' load
moves far less.

The reference runs with this process's environment minus :data:`START_UP_VARIABLES` (the oracle's
sandbox clears its environment): ``NODE_EXTRA_CA_CERTS``, set on some hosts for a proxy, makes every
``node`` parse the whole CA bundle at start-up (27 -> 64 ms CPU a start on our 2-core host), which
would be charged to the reference way, not measured. ``--reference-env inherit`` keeps them.

Usage: ``python benchmarks/bench_languages.py [--languages cpp,java,go,js,ruby,php,typescript,rust] [--limit N] [--json OUT]
[--reference-env clean|inherit] [--budget build|fixed] [--ground-truth-only]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.jobs import JUDGED_OUTSIDE
from execir.languages import ParseError
from execir.mutate import generate_mutants
from execir.tasks.multilingual import NativeTask, humanevalx_with_pack, native_tasks, shared_data
from execir.types import TestSuite, Verdict

TIMEOUT = 10.0
RUN_LIMITS = Limits(cpu_seconds=5.0, wall_seconds=20.0)


GO_ENV = {"GO111MODULE": "off", "GOPATH": "/usr/share/gocode"}
Command = tuple[list[str], tuple[int, ...]]
"""A reference command and the exit statuses that let the next one run."""
REFERENCE: dict[str, tuple[str, list[Command]]] = {
    # language: (file name, commands run in turn in the folder; the last one's exit status decides)
    "cpp": ("main.cpp", [(["g++", "-std=c++17", "-O1", "main.cpp", "-o", "a.out", "-lcrypto"], (0,)), (["./a.out"], (0,))]),
    "java": ("Main.java", [(["javac", "Main.java"], (0,)), (["java", "-cp", ".", "Main"], (0,))]),
    "go": ("main_test.go", [(["go", "test", "-count=1", "main_test.go"], (0,))]),
    "js": ("main.js", [(["node", "main.js"], (0,))]),
    "ruby": ("main.rb", [(["ruby", "main.rb"], (0,))]),
    "php": ("main.php", [(["php", "main.php"], (0,))]),
    # mxeval's way (as benchmarks/bench_typescript.py runs it): tsc's type errors (status 2) still emit main.js
    "typescript": ("main.ts", [(["tsc", "main.ts", "--target", "es5", "--lib", "es2016"], (0, 2)), (["node", "main.js"], (0,))]),
}
"""The reference way (HumanEval-X, MBXP): program and tests in one file, compiled and run in a plain
subprocess with a timeout; a zero exit status is a pass. Rust's (:func:`rust_reference`) needs the
toolchain's crate flags."""


def rust_reference() -> tuple[str, list[Command]]:
    """HumanEval-X / MultiPL-E's way for Rust: program and ``#[cfg(test)]`` tests compiled by
    ``rustc --test`` into one test binary (the runtime's edition, optimisation and the same Debian
    crates' ``--extern`` flags), then run."""
    from execir.execute.runtimes import rust

    toolchain = rust.RUNTIME.discover()
    compile_ = [toolchain.paths["rustc"], "--test", *rust.FLAGS, *rust.extern_args(toolchain), "main.rs", "-o", "main"]
    return "main.rs", [(compile_, (0,)), (["./main"], (0,))]


START_UP_VARIABLES = ("NODE_EXTRA_CA_CERTS", "NODE_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "RUBYOPT")
"""Variables that change what a toolchain does at every start; dropped from the reference's
environment unless ``--reference-env inherit``."""
REFERENCE_ENV = {"inherit": False}


def reference_env(folder: Path, language: str) -> dict[str, str]:
    env = dict(os.environ, HOME=str(folder), GOCACHE=str(GO_CACHE), **(GO_ENV if language == "go" else {}))
    if not REFERENCE_ENV["inherit"]:
        for name in START_UP_VARIABLES:
            env.pop(name, None)
    return env


def own_cpu_seconds() -> float:
    """CPU of this process so far (all its threads)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def reaped_cpu_seconds() -> float:
    """CPU of this process's children reaped so far (inside an oracle's run: the host's trusted
    builds and transpiles; its sandbox servers and warm runners are reaped only when it closes)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime


def cpu_seconds() -> float:
    """CPU of this process and of its reaped children so far."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own_cpu_seconds() + kids.ru_utime + kids.ru_stime


GO_CACHE = Path(tempfile.mkdtemp(prefix="execir-ref-gocache-"))
"""One warm build cache shared by every Go reference run, as a HumanEval-X run has."""


def codegeex_go(data: Path) -> dict[str, tuple[str, str]]:
    """HumanEval-X Go as CodeGeeX assembles it (one main_test.go): task id -> (canonical file,
    HumanEvalPack buggy file)."""
    from execir.tasks.multilingual.humanevalx_go import HELPERS

    def assemble(record: dict, code: str) -> str:
        setup = record["test_setup"]
        other = [f'"{p}"' for p in HELPERS if p not in setup and p.split("/")[-1] + "." in code]
        block = ("import (\n" + "".join(f"    {p}\n" for p in other) + ")\n") if other else ""
        return setup + "\n" + block + record["prompt"].replace(record["import"], "") + code + "\n" + record["test"]

    pairs = humanevalx_with_pack(data, "go")
    return {r["task_id"]: (assemble(r, r["canonical_solution"]), assemble(r, p["buggy_solution"])) for r, p in pairs if p is not None}


def reference_run(language: str, source: str, folder: Path) -> bool | None:
    """Write ``source`` (program and tests in one file) and run the reference commands: whether the
    last exited with status 0, None when one timed out."""
    name, commands = REFERENCE[language]
    (folder / name).write_text(source, encoding="utf-8")
    env = reference_env(folder, language)
    deadline = time.monotonic() + TIMEOUT
    for argv, passing in commands:
        try:
            done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return None
        if done.returncode not in passing:
            return False
    return True


Program = tuple[str, str, str, str]
"""(program, tests, entry point, reference): with a reference the tests are judged outside the
candidate's process wherever the runtime can split them, as in a build; without one, in-process."""


def oracle_verdicts(
    programs: list[Program], budgets: list[Limits], language: str, workers: int
) -> tuple[list[Verdict], float, float, list[float], list[float], list[str]]:
    """Verdicts with an empty cache, wall time, total CPU (this process's, with the oracle's threads,
    the host's builds of trusted judges and transpiles it ran, the slots' cgroups: sandboxes,
    compilers, candidates, record and judge runs, and the warm trusted runners' record, judge and
    syntax-check runs; the slots' one-off start excluded), compile and run CPU seconds per check, and each check's protocol."""
    jobs = [
        Job(program, TestSuite("native", tests), entry, limits, reference=reference, language=language)
        for (program, tests, entry, reference), limits in zip(programs, budgets)
    ]
    started = time.perf_counter()
    with Oracle(OracleConfig(workers=workers, progress=False)) as oracle:
        oracle.start()
        cpu = own_cpu_seconds() + reaped_cpu_seconds() + slots_cpu_seconds(oracle)
        results = oracle.run(jobs, desc=language)
        elapsed = time.perf_counter() - started
        cpu = own_cpu_seconds() + reaped_cpu_seconds() + slots_cpu_seconds(oracle) - cpu
        if not any(slot.cgroup for slot in oracle.slots):  # no cgroups: the runs' own CPU only
            cpu += sum(r.seconds + r.compile_seconds for r in results)
    return [r.verdict for r in results], elapsed, cpu, [r.compile_seconds for r in results], [r.seconds for r in results], [r.protocol for r in results]


def slots_cpu_seconds(oracle: Oracle) -> float:
    """The slots' cgroups (sandboxes) and their warm trusted runners (outside the cgroups: record,
    judge and syntax-check runs; started on first use, so all of their CPU falls in the run)."""
    runners = sum(runner.cpu_seconds() for slot in oracle.slots for runner in slot.trusted.values())
    return runners + sum(slot.cgroup.cpu_seconds() for slot in oracle.slots if slot.cgroup)


def reference_verdicts(sources: list[str], language: str, workers: int) -> tuple[list[bool | None], float, float]:
    """Exit status 0 of the reference way (None: timed out), the wall time (same parallelism as the
    oracle) and the total CPU."""

    def one(source: str) -> bool | None:
        folder = Path(tempfile.mkdtemp(prefix="execir-ref-"))
        try:
            return reference_run(language, source, folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    if language == "go":
        one(sources[0])  # warm the shared build cache (testify compiled once), as a real run has it
    started, cpu = time.perf_counter(), cpu_seconds()
    with ThreadPoolExecutor(workers) as pool:
        passed = list(pool.map(one, sources))
    return passed, time.perf_counter() - started, cpu_seconds() - cpu


def busy_loops(n: int = 2) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def ruby_samples(data: Path) -> dict[str, str]:
    """mxeval's model sample of each MBXP Ruby task (task id -> prompt + completion)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from mxeval_candidates import convert

    records, _ = convert("ruby", data)
    return {r["task_id"]: r["code"] for r in records}


MUTANT_SEED = 7
SECOND_PROGRAM = {
    "ruby": "mxeval model sample",
    "php": "a seeded single-edit mutant of the canonical",
    "typescript": "a seeded single-edit mutant of the canonical",
}
"""What each task's second program is (default: HumanEvalPack's human-written buggy solution)."""


def mutant_seconds(tasks: list[NativeTask], language: str) -> list[NativeTask]:
    """Each task with one of its canonical's single-edit mutants (seeded) as its second program
    (MBXP PHP and TypeScript have neither buggy solutions nor model samples); a task whose canonical
    does not parse has none."""
    rng = random.Random(MUTANT_SEED)
    out = []
    for task in tasks:
        try:
            mutants = generate_mutants(task.task_id, task.program, language)
        except ParseError:  # a canonical the language's parser refuses has no mutant (and no second program)
            mutants = []
        out.append(replace(task, buggy=rng.choice(mutants).text) if mutants else task)
    return out


def ground_truth(language: str, data: Path, limit: int | None, workers: int) -> dict:
    """Canonicals through the oracle three times, buggy solutions once (under their task's admitted
    budget), and the reference way's label of each beside the oracle's."""
    tasks = native_tasks(language, data)[:limit]
    buggy_tasks = [t for t in tasks if t.buggy is not None]
    with Oracle(OracleConfig(workers=workers, progress=False)) as oracle:
        entries = [(t.program, TestSuite("native", t.tests), t.entry_point) for t in tasks]
        admissions = oracle.admit_canonicals(entries, repeats=3, language=language, desc=f"{language} x3")
        budgets = {t.task_id: a.limits for t, a in zip(tasks, admissions)}
        jobs = [
            Job(t.buggy or "", TestSuite("native", t.tests), t.entry_point, budgets[t.task_id], reference=t.program, language=language) for t in buggy_tasks
        ]
        buggy_verdicts = [r.verdict for r in oracle.run(jobs, desc=f"{language} buggy")]
    canonical_verdicts = [a.results[0].verdict for a in admissions]
    sources = [f"{t.program}\n{t.tests}\n" for t in tasks] + [f"{t.buggy}\n{t.tests}\n" for t in buggy_tasks]
    if language == "go":
        files = codegeex_go(data)
        sources = [files[t.task_id][0] for t in tasks] + [files[t.task_id][1] for t in buggy_tasks]
    passed_ref, ref_seconds, _ = reference_verdicts(sources, language, workers)
    verdicts = canonical_verdicts + buggy_verdicts
    ids = [t.task_id for t in tasks] + [f"{t.task_id} (buggy)" for t in buggy_tasks]
    disagreements = [(i, v.value, p) for i, v, p in zip(ids, verdicts, passed_ref) if (v is Verdict.PASS) != bool(p)]
    return {
        "tasks": len(tasks),
        "canonical_pass_x3": sum(a.ok for a in admissions),
        "canonical_pass_rate": round(sum(a.ok for a in admissions) / max(len(tasks), 1), 4),
        "judged_outside_tasks": sum(a.ok and a.results[0].protocol == JUDGED_OUTSIDE for a in admissions),
        "canonical_verdicts": dict(Counter(v.value for v in canonical_verdicts)),
        "buggy": len(buggy_tasks),
        "buggy_not_pass": sum(v is not Verdict.PASS for v in buggy_verdicts),
        "buggy_passing": [t.task_id for t, v in zip(buggy_tasks, buggy_verdicts) if v is Verdict.PASS],
        "reference_pass_canonical": sum(bool(p) for p in passed_ref[: len(tasks)]),
        "reference_pass_buggy": sum(bool(p) for p in passed_ref[len(tasks) :]),
        "reference_timeouts": sum(p is None for p in passed_ref),
        "reference_seconds": round(ref_seconds, 1),
        "reference_disagrees_with_execir": len(disagreements),
        "disagreements": disagreements,
    }


def language_figures(language: str, data: Path, limit: int | None, workers: int, budget: str) -> dict:
    tasks = native_tasks(language, data)[:limit]
    canon: list[Program] = [(t.program, t.tests, t.entry_point, t.program) for t in tasks]
    if language == "ruby":
        samples = ruby_samples(data)
        tasks = [replace(t, buggy=samples[t.task_id]) if samples.get(t.task_id, t.program) != t.program else t for t in tasks]
    elif language in ("php", "typescript"):
        tasks = mutant_seconds(tasks, language)
    buggy_tasks = [t for t in tasks if t.buggy is not None]
    buggy: list[Program] = [(t.buggy or "", t.tests, t.entry_point, t.program) for t in buggy_tasks]
    with Oracle(OracleConfig(workers=workers, progress=False)) as oracle:
        entries = [(p, TestSuite("native", t), e) for p, t, e, _ in canon]
        admissions = oracle.admit_canonicals(entries, repeats=3, language=language, desc=f"{language} x3")
    not_admitted = [(t.task_id, a.reason[:300]) for t, a in zip(tasks, admissions) if not a.ok]
    by_task = {t.task_id: (a.limits if budget == "build" else RUN_LIMITS) for t, a in zip(tasks, admissions)}
    programs = canon + buggy
    budgets = [by_task[t.task_id] for t in tasks] + [by_task[t.task_id] for t in buggy_tasks]
    if language == "go":
        files = codegeex_go(data)
        sources = [files[t.task_id][0] for t in tasks] + [files[t.task_id][1] for t in buggy_tasks]
    else:
        sources = [f"{program}\n{tests}\n" for program, tests, _, _ in programs]
    verdicts, seconds, cpu, compile_cpu, run_cpu, protocols = oracle_verdicts(programs, budgets, language, workers)
    passed_ref, ref_seconds, ref_cpu = reference_verdicts(sources, language, workers)
    loops = busy_loops()
    try:
        loaded, *_ = oracle_verdicts(programs, budgets, language, workers)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    n = len(programs)
    ended = [i for i in range(n) if verdicts[i] is not Verdict.TIMEOUT and passed_ref[i] is not None]
    in_time: dict[str, float | int] = {"checks": len(ended)}
    if len(ended) < n:  # the same measure without the programs that timed out on either side
        _, seconds_in_time, cpu_in_time, *_ = oracle_verdicts([programs[i] for i in ended], [budgets[i] for i in ended], language, workers)
        _, ref_in_time, ref_cpu_in_time = reference_verdicts([sources[i] for i in ended], language, workers)
        in_time |= {"speedup": round(ref_in_time / seconds_in_time, 2), "cpu_ratio": round(ref_cpu_in_time / cpu_in_time, 2)}
    else:
        in_time |= {"speedup": round(ref_seconds / seconds, 2), "cpu_ratio": round(ref_cpu / cpu, 2)}
    buggy_verdicts = verdicts[len(canon) :]
    return {
        "tasks": len(tasks),
        "budget": budget,
        "canonical_pass_x3": len(tasks) - len(not_admitted),
        "judged_outside_tasks": sum(a.results[0].protocol == JUDGED_OUTSIDE for a in admissions),
        "judged_outside_checks": sum(p == JUDGED_OUTSIDE for p in protocols),
        "canonicals_not_admitted": not_admitted,
        "second_program": SECOND_PROGRAM.get(language, "HumanEvalPack buggy solution"),
        "buggy": len(buggy),
        "buggy_not_pass": sum(v is not Verdict.PASS for v in buggy_verdicts),
        "buggy_passing": [t.task_id for t, v in zip(buggy_tasks, buggy_verdicts) if v is Verdict.PASS],
        "verdicts": dict(Counter(v.value for v in verdicts)),
        "timeouts": {"execir": sum(v is Verdict.TIMEOUT for v in verdicts), "reference": sum(p is None for p in passed_ref)},
        "execir_checks_per_s": round(n / seconds, 2),
        "reference_checks_per_s": round(n / ref_seconds, 2),
        "speedup": round(ref_seconds / seconds, 2),
        "execir_cpu_ms_per_check": round(1000 * cpu / n, 1),
        "reference_cpu_ms_per_check": round(1000 * ref_cpu / n, 1),
        "cpu_ratio": round(ref_cpu / cpu, 2),
        "without_timeouts": in_time,
        "median_compile_cpu_s": round(statistics.median(compile_cpu), 4) if compile_cpu else 0.0,
        "median_run_cpu_s": round(statistics.median(run_cpu), 4) if run_cpu else 0.0,
        "reference_pass_canonical": sum(bool(p) for p in passed_ref[: len(canon)]),
        "reference_pass_buggy": sum(bool(p) for p in passed_ref[len(canon) :]),
        "reference_disagrees_with_execir": sum((v is Verdict.PASS) != bool(p) for v, p in zip(verdicts, passed_ref)),
        "disagreements": [
            {"task": (tasks + buggy_tasks)[i].task_id, "program": "canonical" if i < len(canon) else "second", "execir": v.value, "reference": p}
            for i, (v, p) in enumerate(zip(verdicts, passed_ref))
            if (v is Verdict.PASS) != bool(p)
        ],
        "agreement_idle_vs_loaded": round(sum(a == b for a, b in zip(verdicts, loaded)) / n, 4),
        "false_pass_loaded": sum(b is Verdict.PASS and a is not Verdict.PASS for a, b in zip(verdicts, loaded)),
        "false_fail_loaded": sum(a is Verdict.PASS and b is not Verdict.PASS for a, b in zip(verdicts, loaded)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", default="cpp,java,go,js,ruby,php,typescript,rust")
    parser.add_argument("--ground-truth-only", action="store_true", help="canonicals x3, buggy x1 and the reference's labels only (no throughput or load runs)")
    parser.add_argument("--limit", type=int, help="first N tasks per language")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--reference-env", choices=("clean", "inherit"), default="clean", help="drop START_UP_VARIABLES from the reference's environment (default) or keep them"
    )
    parser.add_argument(
        "--budget",
        choices=("build", "fixed"),
        default="build",
        help="each task's budget as a build derives it from its canonical (default), or 5 s CPU for all",
    )
    args = parser.parse_args()
    REFERENCE_ENV["inherit"] = args.reference_env == "inherit"
    data = shared_data()
    if data is None:
        print("../shared/data is not present: nothing to measure")
        return 0
    report = {}
    if "rust" in args.languages.split(","):
        REFERENCE["rust"] = rust_reference()
    for language in args.languages.split(","):
        started = time.perf_counter()
        if args.ground_truth_only:
            report[language] = ground_truth(language, data, args.limit, args.workers)
        else:
            report[language] = language_figures(language, data, args.limit, args.workers, args.budget)
        report[language]["bench_seconds"] = round(time.perf_counter() - started, 1)
        print(json.dumps({language: report[language]}, indent=2), flush=True)
    if not args.ground_truth_only:
        print(table(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


COLUMNS = (
    ("language", None),
    ("ExecIR checks/s", "execir_checks_per_s"),
    ("reference checks/s", "reference_checks_per_s"),
    ("ratio", "speedup"),
    ("ExecIR CPU ms/check", "execir_cpu_ms_per_check"),
    ("reference CPU ms/check", "reference_cpu_ms_per_check"),
    ("CPU ratio", "cpu_ratio"),
    ("ratio without timeouts", None),
    ("median compile CPU s", "median_compile_cpu_s"),
    ("median run CPU s", "median_run_cpu_s"),
    ("idle vs loaded agreement", "agreement_idle_vs_loaded"),
    ("canonicals pass x3", None),
    ("buggy not PASS", None),
    ("tasks judged outside", None),
)


def table(report: dict) -> str:
    """The headline figures as a markdown table."""
    lines = ["| " + " | ".join(name for name, _ in COLUMNS) + " |", "|" + " --- |" * len(COLUMNS)]
    for language, figures in report.items():
        cells = [language]
        cells += [str(figures[key]) for _, key in COLUMNS[1:7]]
        cells.append(f"{figures['without_timeouts']['speedup']} ({figures['without_timeouts']['checks']} checks)")
        cells += [str(figures[key]) for _, key in COLUMNS[8:-3] if key]
        cells += [f"{figures['canonical_pass_x3']}/{figures['tasks']}", f"{figures['buggy_not_pass']}/{figures['buggy']}"]
        cells.append(f"{figures['judged_outside_tasks']}/{figures['tasks']}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
