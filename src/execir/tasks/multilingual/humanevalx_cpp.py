"""HumanEval-X C++ (canonical solutions) with HumanEvalPack C++'s buggy solutions.

Assembled as CodeGeeX's harness does (``evaluate_humaneval_x.py``): the helper includes
(``IMPORT_HELPER["cpp"]``) missing from the prompt, a blank line, ``prompt + canonical_solution``;
the test (``#undef NDEBUG``, ``#include<assert.h>``, ``int main(){ assert ... }``) follows. Here the
test is its own translation unit (see :mod:`execir.execute.runtimes.cpp`), so it is preceded by a
header derived from the prompt: its includes, typedefs and ``using`` lines, and a prototype of every
function the prompt defines or opens (the entry point and helpers such as ``encode_cyclic`` that the
tests call too).

HumanEvalPack renamed two misspelled entry points (CPP/27 ``filp_case`` -> ``flip_case``, CPP/78
``iscuber`` -> ``iscube``); its buggy bodies do not mention the name, so the buggy program is
HumanEval-X's prompt + HumanEvalPack's ``buggy_solution`` and runs against the same tests.
"""

from __future__ import annotations

from pathlib import Path

from execir.tasks.multilingual import NativeTask, read_jsonl, shared_data

IMPORT_HELPER = (
    "#include<stdlib.h>",
    "#include<algorithm>",
    "#include<math.h>",
    "#include<stdio.h>",
    "#include<vector>",
    "#include<string>",
    "#include<climits>",
    "#include<cstring>",
    "#include<iostream>",
)
SOURCE = "humaneval-x/humaneval_cpp.jsonl.gz"
BUGGY_SOURCE = "humanevalpack/humanevalpack_cpp.jsonl"


def assemble(prompt: str, body: str) -> str:
    """The program CodeGeeX's harness builds (everything before the test)."""
    setup = "".join(line + "\n" for line in IMPORT_HELPER if line not in prompt)
    return setup + "\n" + prompt + body


def strip_comments(code: str) -> str:
    """``code`` with comments replaced by a space (string and character literals kept)."""
    out: list[str] = []
    i, n = 0, len(code)
    while i < n:
        ch = code[i]
        if ch in "\"'":
            j = i + 1
            while j < n and code[j] != ch:
                j += 2 if code[j] == "\\" else 1
            out.append(code[i : j + 1])
            i = j + 1
        elif code.startswith("//", i):
            j = code.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif code.startswith("/*", i):
            j = code.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def tests_header(prompt: str) -> str:
    """Declarations the tests need, from the prompt: preprocessor lines and top-level statements
    (``using``, ``typedef``) as they are, each function definition as a prototype, in order."""
    code = strip_comments(prompt)
    parts: list[str] = []
    pending = ""
    depth = 0
    i, n = 0, len(code)
    at_line_start = True
    while i < n:
        ch = code[i]
        if depth == 0 and at_line_start and code[i:].lstrip(" \t").startswith("#"):
            end = code.find("\n", i)
            end = n if end < 0 else end
            parts.append(code[i:end].strip() + "\n")
            i = end
            continue
        at_line_start = ch == "\n"
        if ch in "\"'":
            j = i + 1
            while j < n and code[j] != ch:
                j += 2 if code[j] == "\\" else 1
            if depth == 0:
                pending += code[i : j + 1]
            i = j + 1
            continue
        if depth > 0:
            depth += (ch == "{") - (ch == "}")
        elif ch == "{":
            parts.append(" ".join(pending.split()) + ";\n")
            pending, depth = "", 1
        elif ch == ";":
            parts.append(" ".join((pending + ";").split()) + "\n")
            pending = ""
        else:
            pending += ch
        i += 1
    return "".join(parts)


def native_tests(prompt: str, test: str) -> str:
    """The tests' translation unit: the header derived from ``prompt``, then the test as given."""
    return tests_header(prompt) + "\n" + test


def load(root: Path | None = None) -> list[NativeTask]:
    """The 164 tasks (empty when the shared data is absent)."""
    root = root or shared_data()
    if root is None or not (root / SOURCE).exists():
        return []
    pack: dict[str, dict] = {}
    if (root / BUGGY_SOURCE).exists():
        pack = {row["task_id"]: row for row in read_jsonl(root / BUGGY_SOURCE)}
    tasks = []
    for row in read_jsonl(root / SOURCE):
        prompt = row["prompt"]
        extra = pack.get(row["task_id"])
        bug = extra["buggy_solution"] if extra else None
        tasks.append(
            NativeTask(
                task_id=row["task_id"],
                language="cpp",
                program=assemble(prompt, row["canonical_solution"]),
                tests=native_tests(prompt, row["test"]),
                source="humaneval-x",
                buggy=assemble(prompt, bug) if bug is not None else None,
                prompt=prompt,
                entry_point=extra["entry_point"] if extra else "",
            )
        )
    return tasks
