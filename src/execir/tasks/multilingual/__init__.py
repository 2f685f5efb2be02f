"""Tasks in other languages with their own test code (HumanEval-X, HumanEvalPack, MBXP): one module
per language turns the public files into :class:`NativeTask` records the oracle can run."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from execir.language_declarations import DECLARATIONS


@dataclass(frozen=True)
class NativeTask:
    """A task whose tests are code in the solution's own language.

    ``program`` is the complete canonical program (what enters a corpus); ``tests`` is the test code
    run with it (``TestSuite("native", tests)``); ``buggy`` is a human-written buggy program for the
    same tests where the source has one (HumanEvalPack), else None."""

    task_id: str
    language: str
    program: str
    tests: str
    source: str
    buggy: str | None = None
    prompt: str = ""
    """The published prompt (signature and doc comment): where the query text comes from."""
    entry_point: str = ""


def read_jsonl(path: Path) -> list[dict]:
    """The records of a JSONL file, plain or gzip-compressed."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def humanevalx_with_pack(root: Path, language: str) -> list[tuple[dict, dict | None]]:
    """HumanEval-X's records of ``language`` (file suffix: cpp, java, go, js), each with the
    HumanEvalPack record of the same task (None when the pack or the task is absent)."""
    records = read_jsonl(root / "humaneval-x" / f"humaneval_{language}.jsonl.gz")
    pack_path = root / "humanevalpack" / f"humanevalpack_{language}.jsonl"
    pack = {r["task_id"]: r for r in read_jsonl(pack_path)} if pack_path.exists() else {}
    return [(record, pack.get(record["task_id"])) for record in records]


def shared_data() -> Path | None:
    """``../shared/data`` beside the checkout, when present (public task sets; never copied)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent.parent / "shared" / "data"
        if (parent / "pyproject.toml").exists() and candidate.is_dir():
            return candidate
    return None


def load_mbxp(file_name: str, language: str, root: Path | None = None) -> list[NativeTask]:
    """The tasks of one MBXP release file (``mxeval/mbxp/<file_name>`` under ``root``, default
    ``../shared/data``) that have a canonical solution, in file order: program = ``prompt +
    canonical_solution``, tests = ``test``."""
    data = root or shared_data()
    if data is None:
        raise FileNotFoundError("../shared/data not found beside the checkout")
    tasks = []
    for record in read_jsonl(data / "mxeval" / "mbxp" / file_name):
        if record.get("canonical_solution"):
            program = record["prompt"] + record["canonical_solution"]
            tasks.append(NativeTask(record["task_id"], language, program, record["test"], "mbxp", None, record["prompt"], record.get("entry_point", "")))
    return tasks


SOURCES = {name: d.tasks.rsplit(".", 1)[1] for name, d in DECLARATIONS.items() if d.tasks}
"""The public task set of each language, by loader module."""


def native_tasks(language: str, data_dir: Path) -> list[NativeTask]:
    """Every task of ``language``'s public set under ``data_dir`` (``../shared/data``)."""
    import importlib

    if language not in SOURCES:
        raise ValueError(f"no public task set for {language!r}; choose one of {', '.join(SOURCES)}")
    module = importlib.import_module(f"execir.tasks.multilingual.{SOURCES[language]}")
    tasks: list[NativeTask] = module.load(data_dir)
    return tasks
