"""HumanEval-X Java (canonical solutions) with HumanEvalPack Java's human-written buggy solutions.

CodeGeeX's evaluator writes one ``Main.java``: ``prompt + body + "\\n" + test`` (the prompt's
``import`` lines, ``class Solution`` with the body, then ``public class Main``), compiles it with
``javac`` and runs ``java Main``; a failing check throws ``AssertionError``.

Here the same text is split in two (see :mod:`execir.execute.runtimes.java`): the program
``prompt + body`` (what enters a corpus) and the tests, ``test`` verbatim (so ``program + "\n" +
tests`` is still CodeGeeX's file). The tests have no ``import`` of their own; the runtime gives them
``java.util.*``, ``java.lang.*``, ``java.util.function.*``, ``java.util.stream.*``, ``java.math.*``,
``java.security.*`` (a superset of every prompt's imports that the tests use), so every name in the tests resolves to
the same JDK class as in CodeGeeX's single file.

HumanEvalPack Java equals HumanEval-X Java except Java/22, where HumanEvalPack fixed the method name
typo (``filterIntergers`` -> ``filterIntegers``) in prompt and test. The bodies never mention the
method name, so every ``buggy_solution`` is assembled after the HumanEval-X prompt (checked when
loading: HumanEval-X's tests and canonical bodies must match HumanEvalPack's up to that rename).
"""

from __future__ import annotations

from pathlib import Path

from execir.tasks.multilingual import NativeTask, humanevalx_with_pack, shared_data

SOURCE = "humaneval-x/humaneval_java.jsonl.gz + humanevalpack/humanevalpack_java.jsonl"
_RENAMES = {"filterIntegers": "filterIntergers"}
"""HumanEvalPack's name -> HumanEval-X's, where HumanEvalPack fixed a typo."""


def assemble(record: dict, body: str) -> tuple[str, str]:
    """The program (``prompt + body``) and the tests (``test``) of one record."""
    return record["prompt"] + body, record["test"]


def _unrenamed(text: str) -> str:
    for new, old in _RENAMES.items():
        text = text.replace(new, old)
    return text


def load(data: Path | None = None) -> list[NativeTask]:
    """The 164 Java tasks, canonical program + tests, with HumanEvalPack's buggy program."""
    root = data or shared_data()
    if root is None:
        return []
    tasks = []
    for record, other in humanevalx_with_pack(root, "java"):
        program, tests = assemble(record, record["canonical_solution"])
        buggy = None
        if other is not None and all(_unrenamed(other[k]) == record[k] for k in ("prompt", "test", "canonical_solution")):
            buggy = assemble(record, other["buggy_solution"])[0]
        tasks.append(NativeTask(record["task_id"], "java", program, tests, SOURCE, buggy, record["prompt"], other["entry_point"] if other else ""))
    return tasks
