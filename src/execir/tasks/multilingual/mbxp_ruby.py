"""MBXP Ruby (amazon-science/mxeval ``mbrbp_release_v1.2.jsonl``): the 784 tasks with a canonical solution.

Program = ``prompt + canonical_solution``; tests = ``test`` (top-level code that raises
``StandardError`` on a mismatch), run after the program as mxeval does (``prompt + solution + "\\n" +
test`` in one file, ``ruby file.rb``, exit status 0 = pass; here the trusted runner of
:mod:`execir.execute.runtimes.ruby` loads the two and proves completion with the nonce).

Four canonicals (MBRBP/...) use ``Set`` without ``require 'set'``: they pass on Ruby >= 3.2, where
``Set`` is available without a ``require``, and fail on 3.1 (the ruby here). The runner requires
``set`` before the program (what Ruby 3.2+ provides), so they pass; the tests never depended on it.
MBXP has no buggy solutions.
"""

from __future__ import annotations

import json
from pathlib import Path

from execir.tasks.multilingual import NativeTask, shared_data

SOURCE = "mbxp"


def load(root: Path | None = None) -> list[NativeTask]:
    """The MBXP Ruby tasks that have a canonical solution, in file order."""
    data = root or shared_data()
    if data is None:
        raise FileNotFoundError("../shared/data not found beside the checkout")
    tasks = []
    with open(data / "mxeval" / "mbxp" / "mbrbp_release_v1.2.jsonl", encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            record = json.loads(line)
            if not record.get("canonical_solution"):
                continue
            program = record["prompt"] + record["canonical_solution"]
            tasks.append(NativeTask(record["task_id"], "ruby", program, record["test"], SOURCE, None, record["prompt"], record.get("entry_point", "")))
    return tasks
