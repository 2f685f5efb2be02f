"""Which prompts a trained bi-encoder's rows use and its folder declares, and how retrieval reads them back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execir.dataset.spec import TASK_SPECS
from execir.errors import ExecIRError
from execir.retrieve.prompts import JINA_PREFIXES, TRAINED_QUERY_PROMPTS, trained_profile
from execir.retrieve.st import SentenceTransformerEncoder
from execir.train.embedder_prompts import model_prompts, task_query_prompt

C2C = JINA_PREFIXES["code2code"][0]
C2T = JINA_PREFIXES["code2nl"][0]


@pytest.mark.parametrize(("task", "expected"), [("t2c-description", ""), ("t2c-search", ""), ("c2c", C2C), ("c2t", C2T), ("no-such-task", "")])
def test_only_code_queries_get_a_prompt(task: str, expected: str) -> None:
    assert task_query_prompt(task, "task") == expected
    assert task_query_prompt(task, "none") == ""


def test_a_model_declares_only_the_directions_it_was_trained_on() -> None:
    assert model_prompts(["t2c-description", "t2c-full", "c2c"], "task") == {"c2c": {"query": C2C, "document": ""}}
    assert model_prompts(["c2c", "c2t"], "none") == {}
    assert set(TRAINED_QUERY_PROMPTS) == {"c2c", "c2t"}


def _folder(tmp_path: Path, info: object) -> Path:
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(b"w")
    (folder / "execir.json").write_text(json.dumps(info))
    return folder


def test_the_declared_prompts_are_the_profile_of_the_folder(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"model_type": "bi-encoder", "prompts": model_prompts(["t2c-full", "c2c"], "task")})
    profile = trained_profile(str(folder))
    assert profile is not None
    assert profile.prompts(TASK_SPECS["c2c"]) == {"query": C2C, "document": ""}
    for task in ("t2c-description", "t2c-search", "c2t"):
        assert profile.prompts(TASK_SPECS[task]) == {"query": "", "document": ""}
    assert profile.prompts(None) == {"query": "", "document": ""}


def test_a_folder_without_declared_prompts_keeps_the_family_profile(tmp_path: Path) -> None:
    assert trained_profile(str(tmp_path / "absent")) is None
    assert trained_profile("sentence-transformers/all-MiniLM-L6-v2") is None
    e5 = _folder(tmp_path, {"model_type": "bi-encoder"}).rename(tmp_path / "my-e5-small")
    assert trained_profile(str(e5)) is None
    assert SentenceTransformerEncoder(str(e5)).cache_key("query")["prompt"] == "query: "


@pytest.mark.parametrize(("prompts", "field"), [(["c2c"], "'prompts'"), ({"c2c": "Find: "}, "'prompts.c2c'"), ({"c2c": {"query": 3}}, "'prompts.c2c'")])
def test_a_malformed_declaration_names_the_file_and_field(tmp_path: Path, prompts: object, field: str) -> None:
    folder = _folder(tmp_path, {"prompts": prompts})
    with pytest.raises(ExecIRError, match=field) as info:
        trained_profile(str(folder))
    assert str(folder / "execir.json") in str(info.value)


def test_the_encoder_of_a_trained_folder_follows_its_declaration_per_task(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"prompts": model_prompts(["t2c-description", "c2c"], "task")}).rename(tmp_path / "e5-trained")
    encoder = SentenceTransformerEncoder(str(folder))
    assert encoder.cache_key("query")["prompt"] == ""
    encoder.use_task(TASK_SPECS["c2c"])
    assert encoder.cache_key("query")["prompt"] == C2C and encoder.cache_key("document")["prompt"] == ""
    encoder.use_task(TASK_SPECS["t2c-full"])
    assert encoder.cache_key("query")["prompt"] == ""
