"""Execute every rewrite of a set of tasks through the real oracle: rewrites per task, pass rate per rule.

Run as a script for the full measurement::

    .venv/bin/python tests/rewrite/rewrite_measure.py python            # bundled HumanEval, 164 tasks
    .venv/bin/python tests/rewrite/rewrite_measure.py cpp --limit 40    # HumanEvalPack from ../shared/data (Ruby: MBXP)

The slow test in ``test_rewrite_execution.py`` runs :func:`measure` over a small sample.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from execir.execute import Job, Oracle, OracleConfig
from execir.languages import ParseError
from execir.rewrite import Rewrite, rewrites
from execir.types import Task, Verdict

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


@dataclass
class Measurement:
    """Counts of one run: tasks admitted, rewrites generated and passing per rule, failures."""

    tasks: int = 0
    generated: Counter[str] = field(default_factory=Counter)
    passed: Counter[str] = field(default_factory=Counter)
    per_task: list[int] = field(default_factory=list)
    failures: list[tuple[str, Rewrite, str]] = field(default_factory=list)

    def rate(self, rule: str) -> float:
        """The share of a rule's rewrites that passed."""
        return self.passed[rule] / self.generated[rule] if self.generated[rule] else 1.0

    def table(self) -> str:
        """A plain-text summary."""
        total_generated, total_passed = sum(self.generated.values()), sum(self.passed.values())
        mean = total_generated / self.tasks if self.tasks else 0.0
        lines = [
            f"tasks {self.tasks}  rewrites {total_generated}  per task {mean:.1f} (min {min(self.per_task, default=0)},"
            f" max {max(self.per_task, default=0)})  pass {total_passed}/{total_generated}"
        ]
        for rule in sorted(self.generated):
            lines.append(f"  {rule:24} {self.passed[rule]:5}/{self.generated[rule]:<5} {100 * self.rate(rule):6.1f}%")
        return "\n".join(lines)


def load(language: str) -> list[Task]:
    """HumanEval for Python, MBXP for Ruby, HumanEvalPack for the other languages."""
    if language == "python":
        from execir.tasks import load_humaneval

        return load_humaneval()
    from execir.tasks.multilingual.sources import load_multilingual

    return load_multilingual("mbxp" if language == "ruby" else "humanevalpack", language, DATA)


def measure(tasks: Sequence[Task], language: str, cache: Path, workers: int = 4) -> Measurement:
    """Admit each canonical, then run all its rewrites under the canonical's limits."""
    result = Measurement()
    with Oracle(OracleConfig(workers=workers, cache_path=cache, progress=False)) as oracle:
        admissions = oracle.admit_canonicals([(t.solution, t.tests, t.entry_point) for t in tasks], repeats=1, language=language)
        jobs: list[Job] = []
        owners: list[tuple[Task, Rewrite]] = []
        for task, admission in zip(tasks, admissions):
            if not admission.ok:
                continue
            try:
                found = rewrites(task.solution, language, entry_point=task.entry_point)
            except ParseError:
                continue
            result.tasks += 1
            result.per_task.append(len(found))
            reference = task.solution if task.tests.kind in ("check", "asserts") else ""
            for rewrite in found:
                jobs.append(Job(rewrite.text, task.tests, task.entry_point, admission.limits, reference=reference, language=language))
                owners.append((task, rewrite))
        for (task, rewrite), outcome in zip(owners, oracle.run(jobs, desc="rewrites")):
            result.generated[rewrite.rule] += 1
            if outcome.verdict is Verdict.PASS:
                result.passed[rewrite.rule] += 1
            else:
                result.failures.append((task.task_id, rewrite, f"{outcome.verdict.value}: {outcome.stderr_tail[-400:]}"))
    return result


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--show", type=int, default=5, help="failures to print")
    args = parser.parse_args(argv)
    tasks = load(args.language)
    if args.limit:
        tasks = tasks[: args.limit]
    with tempfile.TemporaryDirectory() as tmp:
        result = measure(tasks, args.language, Path(tmp) / "cache.sqlite", workers=8)
    print(f"{args.language}: {result.table()}")
    for task_id, rewrite, why in result.failures[: args.show]:
        print(f"--- {task_id} {rewrite.rule} {why}\n{rewrite.text}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
