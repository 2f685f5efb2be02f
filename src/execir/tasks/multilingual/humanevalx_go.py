"""HumanEval-X Go (canonical solutions) with HumanEvalPack Go's human-written buggy solutions.

CodeGeeX's evaluator builds one ``main_test.go``: ``test_setup + "\\n" + import_other_pkgs + "\\n" +
prompt.replace(import, "") + body + "\\n" + test`` where ``import_other_pkgs`` imports each package of
its helper list (math, strings, fmt, strconv, time, bytes, regexp, sort, math/rand, crypto/md5) that
``test_setup`` lacks and the body uses (``name.`` in the body), then runs ``go test``.

Here the same text is split in two files of ``package main`` (the candidate's program is what enters
a corpus, the tests run beside it; see :mod:`execir.execute.runtimes.go`). Go imports are per file,
so each file imports exactly the packages of that assembly it uses: the program the helper packages
and ``test_setup`` packages its body uses (CodeGeeX looks at the body only: a prompt's comment says
"a list of strings."); the tests ``testing``, testify and the ones the
test code uses. Every name resolves to the same package as in CodeGeeX's single file. (A package is
"used" when ``name.`` occurs after a word boundary: CodeGeeX's plain substring test would also
import ``sort`` for ``quicksort.``, which only breaks a build.)

HumanEvalPack Go has the same prompts, imports, tests and canonical solutions as HumanEval-X Go
(checked when loading); its ``buggy_solution`` is assembled like a canonical body.
"""

from __future__ import annotations

import re
from pathlib import Path

from execir.tasks.multilingual import NativeTask, humanevalx_with_pack, shared_data

HELPERS = ("math", "strings", "fmt", "strconv", "time", "bytes", "regexp", "sort", "math/rand", "crypto/md5")
"""CodeGeeX's ``IMPORT_HELPER["go"]``."""
TEST_PACKAGES = ("testing", "github.com/stretchr/testify/assert")
SOURCE = "humaneval-x/humaneval_go.jsonl.gz + humanevalpack/humanevalpack_go.jsonl"


def _uses(code: str, package: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(package.rsplit('/', 1)[-1])}\.", code) is not None


def _import_block(packages: list[str]) -> str:
    if not packages:
        return ""
    return "import (\n" + "".join(f'    "{p}"\n' for p in packages) + ")\n"


def assemble(record: dict, body: str) -> tuple[str, str]:
    """The program (prompt without its import block + ``body``) and the test file of one record."""
    setup = record["test_setup"]
    declared = re.findall(r'"([^"]+)"', setup)
    candidates = [p for p in dict.fromkeys([*declared, *HELPERS]) if p not in TEST_PACKAGES]
    prompt = record["prompt"].replace(record["import"], "")
    # test_setup's packages are always in CodeGeeX's file (a prompt's helper may use them); the helper
    # list's are added when the body uses them
    used = [p for p in candidates if _uses(prompt + body if p in declared else body, p)]
    program = "package main\n\n" + _import_block(used) + "\n" + prompt + body
    test_imports = [*TEST_PACKAGES, *(p for p in candidates if _uses(record["test"], p))]
    tests = "package main\n\n" + _import_block(test_imports) + "\n" + record["test"]
    return program, tests


def load(data: Path | None = None) -> list[NativeTask]:
    """The 164 Go tasks, canonical program + tests, with HumanEvalPack's buggy program."""
    root = data or shared_data()
    if root is None:
        return []
    tasks = []
    for record, other in humanevalx_with_pack(root, "go"):
        program, tests = assemble(record, record["canonical_solution"])
        buggy = None
        if other is not None and all(other[k] == record[k] for k in ("prompt", "import", "test_setup", "test", "canonical_solution")):
            buggy = assemble(record, other["buggy_solution"])[0]
        tasks.append(NativeTask(record["task_id"], "go", program, tests, SOURCE, buggy, record["prompt"], other["entry_point"] if other else ""))
    return tasks
