"""Hand-built verified tasks and a small multi-language collection (no oracle, no parser needed).

Every text is distinct per problem and language unless a test asks otherwise, so the assembly
functions see the shapes a real build gives them: canonicals, mutants, human bugs, rewrites,
passing and failing user candidates, and a task with no reference solution (LiveCodeBench).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from execir.construct.assemble import code_to_code, code_to_text, text_to_code
from execir.construct.verify import KeptExtra, KeptMutant, VerifiedTask
from execir.dataset.records import FolderRecords
from execir.dataset.splits import SplitPlan, split_problems
from execir.execute import ExecResult, Limits
from execir.texts.distractors import Distractor
from execir.types import Edit, Mutant, Task, TestSuite, Verdict

LIMITS = Limits(cpu_seconds=1.0, wall_seconds=4.0)
LANGUAGES = ("python", "java")
PREFIX = {"python": "HumanEval", "java": "Java"}
SEED = 11

DESCRIPTIONS = (
    "Return the smallest even number in the list.",
    "Return true if the string starts with a vowel.",
    "Return the first positive number greater than the limit.",
    "Return the sum of all odd numbers before the index.",
    "Return the longest prefix that is not empty.",
    "Return the number of unique lowercase letters.",
    "Return the maximum of the two numbers plus 2.",
)


def exec_result(verdict: Verdict, seconds: float = 0.01) -> ExecResult:
    """An oracle verdict as the oracle would report it."""
    return ExecResult(verdict, seconds, seconds, None, "", "", "none")


def program(language: str, n: int, body: str) -> str:
    """A distinct program text of problem ``n`` in ``language``."""
    if language == "python":
        return f"def f{n}(xs):\n    return {body}\n"
    return f"class Solution{n} {{\n    int f{n}(int[] xs) {{ return {body}; }}\n}}\n"


def make_task(n: int, language: str = "python", *, canonical: bool = True, description: str | None = None, solution: str | None = None) -> Task:
    """Problem ``n`` (``HumanEval/n``) in ``language``; ``canonical=False`` leaves it without a reference."""
    text = description if description is not None else DESCRIPTIONS[n % len(DESCRIPTIONS)] + ("" if n < len(DESCRIPTIONS) else f" Case {n}.")
    code = solution if solution is not None else program(language, n, f"min(xs) + {n}")
    prompt = f'def f{n}(xs):\n    """{text}\n    >>> f{n}([2])\n    2\n    """\n' if language == "python" else ""
    tests = TestSuite("check", code=f"def check(c):\n    assert c([2]) == {2 + n}\n") if language == "python" else TestSuite("native", code="class T {}")
    return Task(
        task_id=f"{PREFIX[language]}/{n}",
        description=text,
        solution=code if canonical else "",
        entry_point=f"f{n}",
        tests=tests,
        source="humaneval" if language == "python" else "humaneval-x",
        language=language,
        prompt=prompt,
        problem=f"HumanEval/{n}",
    )


def kept_mutant(task: Task, text: str, *, kind: str = "mutant", operator: str = "min_max", verdict: Verdict = Verdict.FAIL) -> KeptMutant:
    """A verified-failing mutant (or human bug) of ``task``."""
    edit = Edit(line=2, col=11, before="min", after="max")
    return KeptMutant(Mutant(task.task_id, operator if kind == "mutant" else "human", edit, text, 1, kind=kind), exec_result(verdict))


def verified(task: Task, *, mutants: int = 2, human: int = 0, rewrites: int = 0, passing: int = 0, failing: int = 0) -> VerifiedTask:
    """``task`` with ``mutants`` mutants, ``human`` human bugs, ``rewrites`` rewrites and user
    candidates that pass (``passing``) or fail (``failing``)."""
    n = int(task.task_id.rsplit("/", 1)[1])
    language = task.language
    item = VerifiedTask(task, LIMITS, 0.01)
    item.mutants = [kept_mutant(task, program(language, n, f"max(xs) + {n + i}")) for i in range(mutants)]
    item.human = [kept_mutant(task, program(language, n, f"min(xs) - {n + i}"), kind="human") for i in range(human)]
    edit = Edit(line=2, col=4, before="return", after="return")
    item.extras = [
        *(KeptExtra("rewrite", program(language, n, f"{n} + min(xs) + {i}"), 2, "commutative", "PASS", edit, 2) for i in range(rewrites)),
        *(KeptExtra("candidate", program(language, n, f"sorted(xs)[0] + {n} + {i}"), 2, "user-a", "PASS", edit, 3) for i in range(passing)),
        *(KeptExtra("candidate", program(language, n, f"xs[0] + {n} + {i}"), 1, "user-b", "TIMEOUT", edit, 2) for i in range(failing)),
    ]
    return item


def build_items() -> dict[str, list[VerifiedTask]]:
    """A two-language build: python problems 0-6, java problems 0-4 (5 and 6 python only); every
    problem has mutants and a rewrite (so c2c has positives); problem 2 has a human bug and user
    candidates; java problem 4 has no rewrite (its c2c anchor only has the python programs)."""
    python = [verified(make_task(n), rewrites=1, human=1 if n == 2 else 0, passing=1 if n == 2 else 0, failing=1 if n == 2 else 0) for n in range(7)]
    java = [verified(make_task(n, "java"), rewrites=0 if n == 4 else 1, mutants=1) for n in range(5)]
    return {"python": python, "java": java}


def collection_folders(items: dict[str, list[VerifiedTask]], *, distractors: Sequence[Distractor] = ()) -> list[FolderRecords]:
    """Every folder of a build, as :func:`execir.construct.pipeline.assemble_folders` makes them."""
    multi = len(items) > 1
    every = [v for group in items.values() for v in group]
    folders = [
        text_to_code(group, subtype, language=language if multi else None) for subtype in ("description", "full", "search") for language, group in items.items()
    ]
    folders.append(code_to_text(every, counterfactual_limit=2, seed=SEED, distractors=distractors))
    folders.append(code_to_code(every, constraint=None))
    if multi:
        folders += [code_to_code(every, constraint=language) for language in items]
    return [f for f in folders if f.queries]


def plan_for(items: dict[str, list[VerifiedTask]], *, seed: int = SEED) -> SplitPlan:
    """The build's split plan (one per build, over every problem of every language)."""
    return split_problems({v.task.problem or v.task.task_id for group in items.values() for v in group}, seed=seed)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every row of a JSONL file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def read_tsv(path: Path) -> list[tuple[str, str, int]]:
    """Rows of a BEIR qrels TSV (header checked and dropped)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "query-id\tcorpus-id\tscore"
    return [(q, d, int(s)) for q, d, s in (line.split("\t") for line in lines[1:])]


def nulls(value: Any, where: str = "") -> Iterable[str]:
    """Paths of every None inside a JSON value."""
    if value is None:
        yield where or "<root>"
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from nulls(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from nulls(item, f"{where}[{index}]")


def schema(value: Any) -> Any:
    """The key structure and leaf types of a JSON value (one schema per file means one of these)."""
    if isinstance(value, dict):
        return tuple(sorted((key, schema(item)) for key, item in value.items()))
    return type(value).__name__
