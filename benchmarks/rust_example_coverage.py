"""How many Rust queries the ``exec`` reranker finds call examples in, and how many it can write.

Counts, over the 164 HumanEval-X / HumanEvalPack Rust tasks: tasks whose own text (the raw
prompt; the query a build writes, :func:`execir.texts.full.full_query`; the task description)
gives call examples read in Rust's syntax, and the examples found. Neither Rust file writes
examples in its prompts, so for the writer the same count is made over HumanEval's Python
docstrings of the same problems read as Rust examples: with how many of them the canonical Rust
solution's signature can be written (``typed_suite``), and with ``--run`` how the canonical and the
HumanEvalPack buggy solution fare on them through the sandboxed oracle (the ``exec`` reranker's own
jobs). Those counts are a diagnostic of the writer only: ExecIR has no mechanism that takes one
language's examples for another's query.

Usage (needs ../shared/data, or --data)::

    python benchmarks/rust_example_coverage.py [--run --workers 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path

from execir.execute import Job, Oracle, OracleConfig
from execir.rerank.execution.examples import extract_examples
from execir.rerank.execution.planned import CALL_LIMITS
from execir.rerank.execution.typed_calls import signature, typed_suite
from execir.tasks.multilingual import read_jsonl, shared_data
from execir.tasks.multilingual.humanevalx_rust import load
from execir.tasks.multilingual.sources import native_to_task
from execir.texts.full import full_query


def _count(texts: list[str]) -> tuple[int, int]:
    found = [extract_examples(text, "rust") for text in texts]
    return sum(1 for f in found if f.calls), sum(len(f.calls) for f in found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=shared_data())
    parser.add_argument("--run", action="store_true", help="run the canonical and buggy solutions on the written examples")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.data is None:
        raise SystemExit("../shared/data not found; pass --data")
    pack = load(args.data)
    tasks = [native_to_task(native, human_bugs=False) for native in pack]
    rows = {
        "HumanEvalPack Rust prompt": [t.prompt for t in pack],
        "HumanEvalPack Rust query (full_query)": [full_query(t) for t in tasks],
        "HumanEvalPack Rust description": [t.description for t in tasks],
        "HumanEval-X Rust prompt": [r["prompt"] for r in read_jsonl(args.data / "humaneval-x" / "humaneval_rust.jsonl.gz")],
    }
    for name, texts in rows.items():
        with_examples, examples = _count(texts)
        print(f"{name}: {with_examples} of {len(texts)} tasks with call examples ({examples} examples)")
    python = {r["task_id"].split("/")[1]: r["prompt"] for r in read_jsonl(args.data / "humanevalpack" / "humanevalpack_python.jsonl")}
    read = written = examples_read = examples_written = 0
    jobs: list[tuple[str, str, Job]] = []
    for native in pack:
        found = extract_examples(python.get(native.task_id.split("/")[1], ""), "rust").renamed(native.entry_point)
        if not found.calls:
            continue
        read += 1
        examples_read += len(found.calls)
        declared = signature(native.program, "rust", native.entry_point)
        suite = typed_suite(found.calls, "rust", declared) if declared is not None else None
        if suite is not None:
            written += 1
            examples_written += suite.written
            for kind, program in (("canonical", native.program), ("buggy", native.buggy)):
                declared_here = signature(program, "rust", native.entry_point) if program else None
                own = typed_suite(found.calls, "rust", declared_here) if declared_here is not None else None
                if program and own is not None:
                    jobs.append((native.task_id, kind, Job(program, own.suite, native.entry_point, CALL_LIMITS, language="rust")))
    print(f"HumanEval Python docstrings read as Rust (diagnostic): {read} of {len(pack)} tasks ({examples_read} examples);")
    print(f"  written for the canonical Rust signature: {written} tasks ({examples_written} examples)")
    if args.run:
        _run(jobs, args.workers)


def _run(jobs: list[tuple[str, str, Job]], workers: int) -> None:
    """Each job through the oracle: verdicts by kind, and the canonicals that did not pass."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        oracle = Oracle(OracleConfig(workers=workers, cache_path=Path(folder) / "v.sqlite", progress=False))
        results = oracle.run([job for _, _, job in jobs])
    verdicts: Counter[tuple[str, str]] = Counter()
    for (task_id, kind, _), result in zip(jobs, results):
        verdicts[(kind, result.verdict.name)] += 1
        if kind == "canonical" and result.verdict.name != "PASS":
            print(f"  {task_id} canonical {result.verdict.name}: {result.detail[:200]!r} {result.stderr_tail[-300:]!r}")
    for (kind, verdict), count in sorted(verdicts.items()):
        print(f"  {kind} {verdict}: {count}")
    print(f"  {len(jobs)} runs in {time.perf_counter() - start:.0f} s ({workers} workers)")


if __name__ == "__main__":
    main()
