"""Rerank specs: the grammar, lazy imports of the implementations, and clear errors for bad specs."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from execir.errors import ExecIRError
from execir.execute import OracleConfig
from execir.rerank.chain import RerankChain
from execir.rerank.registry import RERANK_SPEC_HELP, get_reranker

ORACLE = OracleConfig(workers=1, progress=False)


class _Recorder:
    """A stand-in reranker class that records how it was built."""

    kind = "?"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs
        self.name = f"{self.kind}:{args[0]}" if self.kind != "exec" else "exec"

    def use_task(self, task: object) -> None: ...

    def score(self, request: object) -> dict[str, dict[str, float]]:
        return {}

    def stats(self) -> object: ...

    def config(self) -> dict[str, object]:
        return {}


@pytest.fixture(autouse=True)
def fake_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    """The implementations replaced by recorders, so the registry is tested on its own."""
    for module, cls, kind in (("cross_encoder", "CrossEncoderReranker", "ce"), ("llm", "LLMReranker", "llm"), ("execution.reranker", "ExecReranker", "exec")):
        fake = types.ModuleType(f"execir.rerank.{module}")
        setattr(fake, cls, type(cls, (_Recorder,), {"kind": kind}))
        monkeypatch.setitem(sys.modules, f"execir.rerank.{module}", fake)


def _get(spec: str, **options: Any) -> Any:
    return get_reranker(spec, cache_dir=None, oracle_config=ORACLE, progress=False, **options)


def test_model_specs_with_revision_device_and_batch_size() -> None:
    ce = _get("ce:BAAI/bge-reranker-base@v1", device="cpu", batch_size=4)
    assert type(ce).__name__ == "CrossEncoderReranker"
    assert ce.args == ("BAAI/bge-reranker-base",) and ce.kwargs == {"revision": "v1", "device": "cpu", "progress": False, "batch_size": 4}
    llm = _get("llm:Qwen/Qwen2.5-0.5B-Instruct")
    assert type(llm).__name__ == "LLMReranker" and llm.kwargs == {"revision": None, "device": None, "progress": False}


def test_exec_gets_the_oracle_config() -> None:
    reranker = _get("exec")
    assert type(reranker).__name__ == "ExecReranker" and reranker.args == (ORACLE,) and reranker.kwargs == {"progress": False, "plain": False}
    assert _get("exec:plain").kwargs == {"progress": False, "plain": True}


def test_a_chain_keeps_its_stages_in_order() -> None:
    chain = _get("exec+ce:org/model")
    assert isinstance(chain, RerankChain) and chain.name == "exec+ce:org/model"
    assert [type(s).__name__ for s in chain.stages] == ["ExecReranker", "CrossEncoderReranker"]


def test_fuse_wraps_one_reranker_with_its_weight() -> None:
    fused = _get("fuse:0.3:ce:org/model@v2")
    assert type(fused).__name__ == "FusionReranker" and fused.weight == 0.3 and fused.name == "fuse:0.3:ce:org/model"
    assert type(fused.inner).__name__ == "CrossEncoderReranker" and fused.inner.kwargs["revision"] == "v2"
    per_task = _get("fuse:0.9,c2t=0.3:ce:org/model")
    assert per_task.name == "fuse:0.9,c2t=0.3:ce:org/model" and per_task.weights.per_task == {"c2t": 0.3}
    chain = _get("exec+fuse:1:ce:org/model")
    assert isinstance(chain, RerankChain) and [type(s).__name__ for s in chain.stages] == ["ExecReranker", "FusionReranker"]


def test_local_model_directories(tmp_path: Path) -> None:
    model = tmp_path / "model@2"
    model.mkdir()
    assert _get(f"ce:{model}").args == (str(model),)  # an existing directory is never split at '@'
    with pytest.raises(ExecIRError, match="the model directory ./no/such/model does not exist"):
        _get("llm:./no/such/model")
    (tmp_path / "file").write_text("x")
    with pytest.raises(ExecIRError, match="is not a directory"):
        _get(f"ce:{tmp_path / 'file'}")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty spec"),
        ("sparse", "'sparse' is not a reranker kind"),
        ("ce", "ce needs a model"),
        ("ce:", "ce needs a model"),
        ("exec:fast", "exec takes no argument but 'plain'"),
        ("exec++ce:m", "joins non-empty specs"),
        ("ce:model@", "non-empty revision"),
        ("fuse:0.5", "fuse needs a weight and a reranker"),
        ("fuse:0.5:", "fuse needs a weight and a reranker"),
        ("fuse:1.5:ce:m", "the fusion weight '1.5' must be a number from 0 to 1"),
        ("fuse:nan:ce:m", "the fusion weight 'nan'"),
        ("fuse:half:ce:m", "the fusion weight 'half'"),
        ("fuse:0.5:fuse:0.5:ce:m", "a fusion of a fusion"),
        ("fuse:0.5,c2x=0.1:ce:m", "unknown task 'c2x' in the fusion weights"),
        ("fuse:0.5:sparse", "'sparse' is not a reranker kind"),
    ],
)
def test_bad_specs_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(ExecIRError, match=message) as info:
        _get(spec)
    assert "valid forms" in str(info.value) or "does not exist" in str(info.value)


def test_help_lists_every_form() -> None:
    forms = (
        "ce:<model id>[@<revision>]",
        "ce:<local path>",
        "llm:<model id or path>[@rev]",
        "exec",
        "fuse:<w>:<spec>",
        "fuse:0.9,c2t=0.3",
        "<spec>+<spec>+...",
    )
    for form in forms:
        assert form in RERANK_SPEC_HELP
