"""HumanEval-X Rust / HumanEvalPack Rust (canonical and human-written buggy solutions).

HumanEvalPack's Rust prompt is the program's head as its harness compiles it: ``fn main(){}``, the
``use`` lines (``rand``, ``regex``, ``md5`` among them), the doc comment and the signature; the
program is ``prompt + canonical_solution`` (the buggy one ``prompt + buggy_solution``) and the test
is the ``#[cfg(test)] mod tests`` appended after it, run here as its own module
(:mod:`execir.execute.runtimes.rust`). HumanEval-X's file (same tests; its prompt is the doc
comment alone) is read where the pack is absent: ``declaration + canonical_solution``.
"""

from __future__ import annotations

import re
from pathlib import Path

from execir.tasks.multilingual import NativeTask, read_jsonl, shared_data

SOURCE = "humaneval-x/humaneval_rust.jsonl.gz"
PACK_SOURCE = "humanevalpack/humanevalpack_rust.jsonl"


def load(root: Path | None = None) -> list[NativeTask]:
    """The 164 tasks (empty when the shared data is absent)."""
    root = root or shared_data()
    if root is None:
        return []
    if (root / PACK_SOURCE).exists():
        return [_task(row, row["prompt"], "humanevalpack") for row in read_jsonl(root / PACK_SOURCE)]
    if (root / SOURCE).exists():
        return [_task(row, row["declaration"], "humaneval-x") for row in read_jsonl(root / SOURCE)]
    return []


def _task(row: dict, head: str, source: str) -> NativeTask:
    bug = row.get("buggy_solution")
    # the signature names the function: HumanEvalPack's ``entry_point`` is HumanEval's name where
    # the Rust function was renamed (Rust/85 ``add`` -> ``add_even_odd``, Rust/120 ``maximum_120``)
    entry = re.split(r"[(<]", row.get("signature") or "", maxsplit=1)[0].strip() or row.get("entry_point") or ""
    return NativeTask(
        task_id=row["task_id"],
        language="rust",
        program=head + row["canonical_solution"],
        tests=row["test"],
        source=source,
        buggy=head + bug if bug is not None else None,
        prompt=row["prompt"] if source == "humanevalpack" else row["prompt"] + row["declaration"],
        entry_point=entry,
    )
