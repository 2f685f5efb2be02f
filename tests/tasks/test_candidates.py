"""Candidates loader: valid files, defaults, and errors naming file:line:field."""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from execir.errors import ExecIRError, InputError
from execir.tasks import multilingual
from execir.tasks.candidates import Candidate, load_candidates

GOOD = {"task_id": "MBRBP/2", "language": "ruby", "code": "def f(x)\n  x\nend\n"}


def _write(tmp_path: Path, *records: dict[str, Any] | str, name: str = "model-a.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records), encoding="utf-8")
    return path


def test_loads_in_order_with_default_source(tmp_path: Path) -> None:
    other = {"task_id": "HumanEval/0", "language": "python", "code": "def f():\n    return 1\n", "source": "gpt"}
    path = _write(tmp_path, GOOD, "", other)
    assert load_candidates(path) == [
        Candidate("MBRBP/2", "ruby", GOOD["code"], "model-a", 1),
        Candidate("HumanEval/0", "python", other["code"], "gpt", 3),
    ]


def test_gzip_stem_is_the_default_source(tmp_path: Path) -> None:
    path = tmp_path / "samples.jsonl.gz"
    path.write_bytes(gzip.compress((json.dumps(GOOD) + "\n").encode()))
    assert load_candidates(path)[0].source == "samples"


def test_same_code_for_another_task_or_language_is_no_duplicate(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD, {**GOOD, "task_id": "MBRBP/3"}, {**GOOD, "language": "python"})
    assert len(load_candidates(path)) == 3


@pytest.mark.parametrize(
    ("record", "field", "needle"),
    [
        ({k: v for k, v in GOOD.items() if k != "code"}, "code", "missing required field"),
        ({**GOOD, "code": "  \n"}, "code", "must not be empty"),
        ({**GOOD, "task_id": 7}, "task_id", "expected str"),
        ({**GOOD, "task_id": "MBRBP 2"}, "task_id", "whitespace"),
        ({**GOOD, "language": "cobol"}, "language", "not one of"),
        ({**GOOD, "language": ""}, "language", "must not be empty"),
        ({**GOOD, "source": ""}, "source", "must not be empty"),
        (GOOD, "code", "repeats the candidate of line 1"),
    ],
)
def test_bad_records_name_file_line_field(tmp_path: Path, record: dict[str, Any], field: str, needle: str) -> None:
    path = _write(tmp_path, GOOD, record)
    with pytest.raises(InputError) as caught:
        load_candidates(path)
    assert (caught.value.path, caught.value.line, caught.value.field) == (str(path), 2, field)
    assert needle in str(caught.value)


def test_languages_narrow_the_accepted_names(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD)
    with pytest.raises(InputError, match=r"model-a.jsonl:1: field 'language': 'ruby' is not one of go, python"):
        load_candidates(path, languages=["python", "go"])
    with pytest.raises(ExecIRError, match="unknown languages"):
        load_candidates(path, languages=["cobol"])


def test_missing_file_and_bad_json(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="file not found"):
        load_candidates(tmp_path / "absent.jsonl")
    with pytest.raises(InputError, match=r"model-a.jsonl:2: invalid JSON"):
        load_candidates(_write(tmp_path, GOOD, "{"))
    with pytest.raises(InputError, match=r"model-a.jsonl:1: expected a JSON object"):
        load_candidates(_write(tmp_path, "[1]"))


def _script() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "mxeval_candidates.py"
    spec = importlib.util.spec_from_file_location("mxeval_candidates", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.shared
def test_mxeval_ruby_samples_match_the_loader_ids(tmp_path: Path) -> None:
    data = multilingual.shared_data()
    if data is None or not (data / "mxeval").is_dir():
        pytest.skip("../shared/data/mxeval is not present")
    from execir.tasks.multilingual.sources import load_multilingual

    out = tmp_path / "ruby.jsonl"
    assert _script().main(["--language", "ruby", "--data", str(data), "--out", str(out)]) == 0
    candidates = load_candidates(out, languages={"ruby"})
    tasks = {t.task_id: t for t in load_multilingual("mbxp", "ruby", data)}
    assert len(candidates) == len(tasks) == 784 and {c.task_id for c in candidates} == set(tasks)
    assert all(c.source == "mxeval-mbrbp_samples" and c.code.lstrip().startswith("#") for c in candidates[:5])
