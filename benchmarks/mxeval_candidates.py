"""Turn mxeval's model samples into an ExecIR candidates file (``--candidates FILE.jsonl``).

mxeval ships one model completion per MBXP task (``mbxp/examples/{mbrbp,mbgp,mbpp}_samples.jsonl``:
``task_id``, ``completion``, ``language``). A completion continues its task's ``prompt`` (doc comment
and signature), so each candidate's ``code`` is ``prompt + completion``: the whole program, the same
shape as the canonical program ``prompt + canonical_solution`` that ExecIR's loaders build (the doc
comment is kept, as in the published prompt; strip it with the language's ``strip_comments`` before
putting the program in a corpus, as the loaders do for canonicals).

Task ids are those of ExecIR's loaders: ``MBRBP/<n>`` (MBXP Ruby,
``load_multilingual('mbxp', 'ruby', data)``), ``MBPP/<n>`` (``load_mbpp`` on ``mbpp/mbpp.jsonl``: the
974 MBPP tasks, with the same entry-point names as MBXP's Python prompts), ``MBGP/<n>`` (MBXP Go; no
ExecIR loader, MBGP has no canonical solutions). By default only samples of tasks the loader keeps are
written (Ruby: tasks with a canonical solution); ``--all`` keeps every sample.

Usage: ``python benchmarks/mxeval_candidates.py --language ruby|python|go --data ../shared/data
--out FILE.jsonl [--all]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from execir.errors import ExecIRError, InputError
from execir.jsonl import iter_jsonl, require

FILES = {
    "ruby": ("mbrbp_release_v1.2.jsonl", "mbrbp_samples.jsonl"),
    "go": ("mbgp_release_v1.1.jsonl", "mbgp_samples.jsonl"),
    "python": ("mbpp_release_v1.jsonl", "mbpp_samples.jsonl"),
}
"""Language -> (MBXP release file, samples file) under ``mxeval/mbxp``."""


def prompts(path: Path) -> dict[str, tuple[str, bool]]:
    """Task id -> (prompt, has a canonical solution) of an MBXP release file."""
    found = {}
    for line, record in iter_jsonl(path):
        task_id = require(record, "task_id", str, path, line)
        found[task_id] = (require(record, "prompt", str, path, line), bool(record.get("canonical_solution")))
    return found


def convert(language: str, data: Path, *, keep_all: bool = False) -> tuple[list[dict[str, Any]], int]:
    """The candidate records of ``language``'s samples under ``data`` (``../shared/data``), and how
    many samples were left out (their task has no canonical, so ExecIR's loader does not load it)."""
    release, samples = FILES[language]
    folder = data / "mxeval" / "mbxp"
    known = prompts(folder / release)
    path = folder / "examples" / samples
    source = f"mxeval-{path.stem}"
    records, skipped = [], 0
    for line, record in iter_jsonl(path):
        task_id = require(record, "task_id", str, path, line)
        completion = require(record, "completion", str, path, line)
        if require(record, "language", str, path, line) != language:
            raise InputError(str(path), line, "language", f"expected {language!r}")
        if task_id not in known:
            raise InputError(str(path), line, "task_id", f"{task_id!r} is not a task of {release}")
        prompt, has_canonical = known[task_id]
        if language == "ruby" and not has_canonical and not keep_all:
            skipped += 1
            continue
        records.append({"task_id": task_id, "language": language, "code": prompt + completion, "source": source})
    return records, skipped


def write_jsonl(records: list[dict[str, Any]], out: Path) -> None:
    """Write ``records`` atomically (a temporary file renamed over ``out``)."""
    tmp = out.with_name(out.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    os.replace(tmp, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", required=True, choices=sorted(FILES))
    parser.add_argument("--data", type=Path, required=True, help="the folder holding mxeval/ (../shared/data)")
    parser.add_argument("--out", type=Path, required=True, help="the candidates JSONL file to write")
    parser.add_argument("--all", action="store_true", help="keep samples of tasks without a canonical solution")
    args = parser.parse_args(argv)
    try:
        records, skipped = convert(args.language, args.data, keep_all=args.all)
    except ExecIRError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    write_jsonl(records, args.out)
    print(f"{len(records)} {args.language} candidates -> {args.out}" + (f" ({skipped} samples of tasks without a canonical left out)" if skipped else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
