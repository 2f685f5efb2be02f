"""The `exec` reranker's examples, read from the query text, against HumanEval-X's own example tests.

HumanEval-X ships, beside each task's hidden tests, an ``example_test``: the prompt's examples
written by hand as native tests. A user of HumanEval-X could rerank with those; ExecIR's ``exec``
reads the examples from the query text alone (any query, any dataset) and writes the native tests
itself. This compares the two on the same candidates: every task's canonical program and its
HumanEvalPack human bug, run both ways through the same sandboxed oracle. Printed per language:
queries each way covers, the verdicts' agreement, the disagreements by direction (with task ids),
and the run time each way.

Usage (needs ../shared/data, or --data)::

    python benchmarks/bench_example_tests.py --languages go,java,js,cpp
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from execir.dataset.spec import get_spec
from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.rerank.base import RerankRequest
from execir.rerank.execution.examples import extract_examples
from execir.rerank.execution.exec_plan import plan_runs
from execir.rerank.execution.reranker import ExecReranker
from execir.tasks.multilingual import humanevalx_go, humanevalx_with_pack, native_tasks, shared_data
from execir.types import TestSuite, Verdict

LIMITS = Limits(cpu_seconds=4.0, wall_seconds=20.0)


@dataclass(frozen=True)
class Candidate:
    task_id: str
    kind: str  # canonical or buggy
    program: str
    example_test: str  # HumanEval-X's example tests, assembled like the task's tests ("" when none)


def candidates(language: str, data: Path) -> tuple[list[Candidate], dict[str, str]]:
    """Every canonical and buggy program of ``language``, and each task's prompt."""
    records = {record["task_id"]: record for record, _ in humanevalx_with_pack(data, language)}
    out: list[Candidate] = []
    prompts: dict[str, str] = {}
    for task in native_tasks(language, data):
        record = records.get(task.task_id)
        prompts[task.task_id] = task.prompt
        example = ""
        if record and record.get("example_test", "").strip():
            example = _example_tests(language, record, task.tests)
        out.append(Candidate(task.task_id, "canonical", task.program, example))
        if task.buggy:
            out.append(Candidate(task.task_id, "buggy", task.buggy, example))
    return out, prompts


def _example_tests(language: str, record: dict, tests: str) -> str:
    """The task's tests with HumanEval-X's ``example_test`` in place of its ``test`` (Go: assembled
    again, since a test file imports exactly the packages its own code uses)."""
    if language == "go":
        return humanevalx_go.assemble({**record, "test": record["example_test"]}, record["canonical_solution"])[1]
    return tests.replace(record["test"], record["example_test"]) if record["test"] in tests else ""


def compare(language: str, data: Path, workers: int) -> None:
    found, prompts = candidates(language, data)
    with tempfile.TemporaryDirectory() as cache:
        reranker = ExecReranker(OracleConfig(workers=workers, cache_path=Path(cache) / "exec.sqlite", progress=False), progress=False)
        reranker.use_task(get_spec("t2c-full"))
        ids = {f"{c.task_id}/{c.kind}": c for c in found}
        request = RerankRequest(
            queries=prompts,
            candidates={q: tuple(d for d, c in ids.items() if c.task_id == q) for q in prompts},
            documents={d: c.program for d, c in ids.items()},
            doc_language=dict.fromkeys(ids, language),
            query_language=dict.fromkeys(prompts, language),
        )
        started = time.perf_counter()
        scores = reranker.score(request)
        exec_seconds = time.perf_counter() - started
        extra = reranker.stats().extra
        referenced = [c for c in found if c.example_test]
        jobs = [Job(c.program, TestSuite("native", c.example_test), "", LIMITS, language=language) for c in referenced]
        started = time.perf_counter()
        with Oracle(OracleConfig(workers=workers, cache_path=Path(cache) / "reference.sqlite", progress=False)) as oracle:
            results = oracle.run(jobs, desc=f"{language} example_test")
        reference_seconds = time.perf_counter() - started
    reference = {f"{c.task_id}/{c.kind}": r.verdict == Verdict.PASS for c, r in zip(referenced, results)}
    examples = {q: extract_examples(prompts[q], language) for q in prompts}
    read = {q for q in prompts if examples[q].calls}
    ran = {run.doc_id for run in plan_runs(request, examples).runs}
    both = [d for d in ids if d in ran and d in reference]
    ours = {d: scores[ids[d].task_id][d] >= 1.0 for d in both}
    agree = sum(ours[d] == reference[d] for d in both)
    print(f"\n== {language}: {len(prompts)} tasks, {len(found)} candidates (canonical + HumanEvalPack buggy)")
    print(f"queries with examples: read from the text {len(read)}, with an example_test {len({c.task_id for c in referenced})}")
    print(
        f"examples read {extra['examples']}, skipped {extra['examples_skipped']}, not writable {extra['examples_unwritten']}; "
        f"candidates run {extra['candidates_executed']}"
    )
    if both:
        print(f"candidates run both ways: {len(both)}; verdicts agree on {agree} ({agree / len(both):.1%})")
    for label, pick in (
        ("pass the text's examples, fail example_test", lambda d: ours[d] and not reference[d]),
        ("fail the text's examples, pass example_test", lambda d: not ours[d] and reference[d]),
    ):
        which = sorted(d for d in both if pick(d))
        print(f"  {label}: {len(which)} {' '.join(which)}")
    canon = [d for d in both if ids[d].kind == "canonical"]
    buggy = [d for d in both if ids[d].kind == "buggy"]
    for name, group in (("canonical passing", canon), ("buggy failing", buggy)):
        if group:
            print(
                f"  {name}: text {sum(ours[d] == (name.startswith('canonical')) for d in group)}/{len(group)}, "
                f"example_test {sum(reference[d] == (name.startswith('canonical')) for d in group)}/{len(group)}"
            )
    print(
        f"time: text examples {exec_seconds:.1f} s ({extra['candidates_executed']} runs), example_test {reference_seconds:.1f} s ({len(jobs)} runs); "
        f"ratio {exec_seconds / max(reference_seconds, 1e-9):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--languages", default="go,java,js,cpp")
    parser.add_argument("--data", type=Path, default=None, help="folder holding humaneval-x/ and humanevalpack/ (default: ../shared/data)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    data = args.data or shared_data()
    if data is None:
        print("bench_example_tests: skipped, ../shared/data is absent (pass --data DIR holding humaneval-x/)", file=sys.stderr)
        return
    for language in args.languages.split(","):
        compare(language.strip(), data, args.workers)


if __name__ == "__main__":
    main()
