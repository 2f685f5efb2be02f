"""How many candidate mutants compile, per operator and language (C++, Java and Rust).

For every HumanEval-X task of a language (``../shared/data``; the same canonicals as
HumanEvalPack's), every candidate each operator proposes is spliced into the canonical, kept when
it still parses and differs from the canonical and from the operator's earlier candidates, and
compiled with the task's official tests: C++ ``g++ -std=c++17 -fsyntax-only`` of program + tests
(the helper includes every program starts with precompiled once),
Java ``javac`` of program + tests, many files per ``javac`` call (each candidate in a package of its
own; ``-XDshould-stop.ifError=FLOW`` so that one file's error does not stop the checks of the
others), Rust (HumanEvalPack) ``rustc --edition 2021 --test --emit=metadata`` of program + tests
with the oracle's prebuilt ``rand``/``regex``/``md5`` crates (type and borrow checks, no code
generation). Nothing is run. Also reported: compiling candidates per task over all the chosen
operators (after the engine's cross-operator dedupe).

Usage: ``python benchmarks/operator_compile_rate.py [--languages cpp,java,rust] [--operators a,b|all]
[--limit N] [--jobs 2] [--json OUT]``. The default operators are the ones whose mutants failed to
compile most often in the HumanEval-X builds.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from execir.edits import splice
from execir.languages import ParseError, get_language
from execir.tasks.multilingual import NativeTask, native_tasks, shared_data
from execir.tasks.multilingual.humanevalx_cpp import IMPORT_HELPER

DEFAULT_OPERATORS = ("arg_delete", "attribute_swap", "call_unwrap", "method_swap", "receiver_swap", "return_swap", "term_insert")
JAVA_BATCH = 150
CPP_FLAGS = ("-std=c++17", "-w")


def candidates(language: str, task: NativeTask, operators: tuple[str, ...]) -> list[tuple[str, str]]:
    """(operator, mutated program) for every distinct parsing candidate of each operator."""
    lang = get_language(language)
    try:
        lang.parse(task.program)
    except ParseError:
        return []
    out: list[tuple[str, str]] = []
    seen: dict[str, set[str]] = defaultdict(lambda: {task.program})
    for name, edit in lang.candidates(task.program, operators):
        text = splice(task.program, edit)
        if text in seen[name] or not lang.is_valid(text):
            continue
        seen[name].add(text)
        out.append((name, text))
    return out


def cpp_header(folder: Path) -> Path:
    """A precompiled header of the includes every HumanEval-X C++ program starts with (each
    program includes them all, so ``-include`` changes only their order)."""
    header = folder / "execir_helper.h"
    header.write_text("".join(line + "\n" for line in IMPORT_HELPER), encoding="utf-8")
    subprocess.run(["g++", *CPP_FLAGS, "-x", "c++-header", str(header), "-o", str(header) + ".gch"], check=True, capture_output=True)
    return header


def cpp_compiles(header: Path, program: str, tests: str) -> str | None:
    """None when ``g++ -std=c++17 -fsyntax-only`` accepts program + tests, else its first error."""
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=True) as handle:
        handle.write(program + "\n" + tests)
        handle.flush()
        command = ["g++", *CPP_FLAGS, "-fsyntax-only", "-include", str(header), handle.name]
        done = subprocess.run(command, capture_output=True, timeout=300, check=False)
    if done.returncode == 0:
        return None
    errors = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if ": error:" in line]
    return errors[0].split(": error:", 1)[1].strip() if errors else "g++ failed"


def java_compile_batch(units: list[tuple[str, str]]) -> list[str | None]:
    """Each (program, tests)'s first ``javac`` error (None: it compiles): one call for the whole
    batch, each unit in a package of its own; a unit fails when ``javac`` reports an error in its file."""
    with tempfile.TemporaryDirectory() as root:
        files = []
        for index, (program, tests) in enumerate(units):
            folder = Path(root) / f"p{index}"
            folder.mkdir()
            path = folder / "Main.java"
            path.write_text(f"package p{index};\n" + program + "\n" + tests, encoding="utf-8")
            files.append(str(path))
        done = subprocess.run(
            ["javac", "-nowarn", "-XDshould-stop.ifError=FLOW", "-Xmaxerrs", "100000", "-d", str(Path(root) / "out"), *files],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        failed: dict[int, str] = {}
        for match in re.finditer(r"/p(\d+)/Main\.java:\d+: error: (.*)", done.stdout + done.stderr):
            failed.setdefault(int(match.group(1)), match.group(2).strip())
        if done.returncode != 0 and not failed:
            raise RuntimeError(f"javac failed without naming a file: {done.stderr[-2000:]}")
    return [failed.get(index) for index in range(len(units))]


def rust_compiles(rustc: list[str], program: str, tests: str) -> str | None:
    """None when ``rustc --test --emit=metadata`` accepts program + tests, else its first error."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "main.rs"
        source.write_text(program + "\n" + tests, encoding="utf-8")
        command = [*rustc, "--edition", "2021", "--test", "--emit=metadata", "-A", "warnings", "--out-dir", folder, str(source)]
        done = subprocess.run(command, capture_output=True, timeout=300, check=False)
    if done.returncode == 0:
        return None
    errors = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line.startswith("error")]
    return errors[0] if errors else "rustc failed"


def rustc_command() -> list[str]:
    """The oracle's ``rustc`` with its ``--extern`` crate arguments."""
    from execir.execute.runtimes import runtime
    from execir.execute.runtimes.rust import extern_args

    rust = runtime("rust")
    toolchain = rust.discover()
    return [toolchain.paths["rustc"], *extern_args(toolchain)]


def compile_all(language: str, units: list[tuple[str, str]], jobs: int) -> list[str | None]:
    """Each (program, tests)'s first compile error (None: it compiles), in order."""
    if language == "rust":
        rustc = rustc_command()
        with ThreadPoolExecutor(jobs) as pool:
            return list(pool.map(lambda unit: rust_compiles(rustc, *unit), units))
    if language == "cpp":
        with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(jobs) as pool:
            header = cpp_header(Path(folder))
            return list(pool.map(lambda unit: cpp_compiles(header, *unit), units))
    batches = [units[start : start + JAVA_BATCH] for start in range(0, len(units), JAVA_BATCH)]
    with ThreadPoolExecutor(jobs) as pool:
        return [error for result in pool.map(java_compile_batch, batches) for error in result]


def measure(language: str, data: Path, operators: tuple[str, ...], limit: int | None, jobs: int) -> dict:
    """Compile rate per operator, canonicals that compile, compiling candidates per task, and each
    failing candidate (task, operator, the changed lines, the first error)."""
    tasks = native_tasks(language, data)[:limit]
    units: list[tuple[str, str]] = []
    owners: list[tuple[int, str, str]] = []
    for index, task in enumerate(tasks):
        units.append((task.program, task.tests))
        owners.append((index, "<canonical>", task.program))
        for name, text in candidates(language, task, operators):
            units.append((text, task.tests))
            owners.append((index, name, text))
    results = compile_all(language, units, jobs)
    total: Counter[str] = Counter()
    compiled: Counter[str] = Counter()
    per_task: dict[int, set[str]] = defaultdict(set)
    failures = []
    for (index, name, text), error in zip(owners, results):
        total[name] += 1
        compiled[name] += error is None
        if error is None and name != "<canonical>":
            per_task[index].add(text)
        elif error is not None:
            failures.append({"task": tasks[index].task_id, "operator": name, "change": changed_lines(tasks[index].program, text), "error": error})
    rates = {name: {"candidates": total[name], "compile": compiled[name], "rate": compiled[name] / total[name]} for name in sorted(total)}
    per_task_mean = sum(len(v) for v in per_task.values()) / max(len(tasks), 1)
    return {"tasks": len(tasks), "operators": rates, "compiling_per_task": per_task_mean, "failures": failures}


def changed_lines(before: str, after: str) -> str:
    """The lines of ``before`` that differ, then what replaces them (``old => new``)."""
    old, new = before.splitlines(), after.splitlines()
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return " / ".join(line.strip() for line in old[head : len(old) - tail]) + " => " + " / ".join(line.strip() for line in new[head : len(new) - tail])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--languages", default="cpp,java")
    parser.add_argument("--operators", default=",".join(DEFAULT_OPERATORS), help="comma-separated names, or 'all'")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    data = shared_data()
    if data is None:
        print("needs ../shared/data", file=sys.stderr)
        return 2
    report = {}
    for language in args.languages.split(","):
        names = get_language(language).operator_names if args.operators == "all" else tuple(args.operators.split(","))
        report[language] = result = measure(language, data, names, args.limit, args.jobs)
        print(f"{language}: {result['tasks']} tasks, compiling candidates per task {result['compiling_per_task']:.2f}")
        for name, row in result["operators"].items():
            print(f"  {name:24s} {row['compile']:5d}/{row['candidates']:5d}  {row['rate']:.1%}")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
