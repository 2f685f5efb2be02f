"""HumanEval-X JavaScript (THUDM/CodeGeeX) canonicals with HumanEvalPack's human-written buggy solutions.

Program = ``prompt + canonical_solution`` (HumanEval-X); tests = ``test`` (HumanEval-X), run after the
program as CodeGeeX does (``prompt + solution + "\\n" + test``; see :mod:`execir.execute.runtimes.js`
for how the two are run). The HumanEval-X copy here already carries HumanEvalPack's fixes to the
tests of JS/33, /113, /120 and /154. HumanEvalPack differs from it in four tasks:

* JS/107, /136, /155: HumanEvalPack changed ``return [e, o]`` to ``return (e, o)`` (the comma
  operator: only ``o`` is returned) and the tests to match, so those tests no longer check the first
  value. We keep HumanEval-X's tests and port the buggy solution onto HumanEval-X's canonical (the
  same lines are replaced), so the buggy differs from the canonical only by its injected bug;
* JS/112: HumanEvalPack rewrote the canonical (HumanEval-X's returns ``(z, false)``, i.e. a boolean,
  where the test expects ``[string, boolean]``); its buggy is a bug injected into the rewrite and is
  used as is. HumanEval-X's canonical is kept: it fails its own test (found by the oracle; a plain
  ``node`` run hides it, since a failed ``console.assert`` only prints).
"""

from __future__ import annotations

from pathlib import Path

from execir.tasks.multilingual import NativeTask, read_jsonl, shared_data

SOURCE = "humaneval-x"


def _port_buggy(pack_canonical: str, hx_canonical: str, buggy: str) -> str:
    """HumanEvalPack's buggy solution moved onto HumanEval-X's canonical where the two canonicals
    differ line by line (same number of lines): each line that differs is replaced in the buggy."""
    pack_lines, hx_lines = pack_canonical.splitlines(), hx_canonical.splitlines()
    if len(pack_lines) != len(hx_lines):
        return buggy
    lines = buggy.splitlines(keepends=True)
    for old, new in zip(pack_lines, hx_lines):
        if old != new:
            lines = [new + line[len(line.rstrip("\r\n")) :] if line.rstrip("\r\n") == old else line for line in lines]
    return "".join(lines)


def load(root: Path | None = None) -> list[NativeTask]:
    """The 164 HumanEval-X JavaScript tasks, each with HumanEvalPack's buggy solution."""
    data = root or shared_data()
    if data is None:
        raise FileNotFoundError("../shared/data not found beside the checkout")
    records = read_jsonl(data / "humaneval-x" / "humaneval_js.jsonl.gz")
    pack = {r["task_id"]: r for r in read_jsonl(data / "humanevalpack" / "humanevalpack_js.jsonl")}
    tasks = []
    for record in records:
        extra = pack.get(record["task_id"])
        buggy = None
        if extra is not None and extra.get("buggy_solution"):
            body = extra["buggy_solution"]
            if extra["canonical_solution"] != record["canonical_solution"]:
                body = _port_buggy(extra["canonical_solution"], record["canonical_solution"], body)
            buggy = record["prompt"] + body
        program = record["prompt"] + record["canonical_solution"]
        tasks.append(NativeTask(record["task_id"], "js", program, record["test"], SOURCE, buggy, record["prompt"], extra["entry_point"] if extra else ""))
    return tasks
