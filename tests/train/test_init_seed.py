"""New weights (the classification head, LoRA adapters) come from the init seed, shared by every training seed."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from execir.train.config import LoraSettings, RunConfig, TrainSettings
from execir.train.model import add_lora, load_base
from execir.train.pipeline import train_reranker
from tests.train.helpers import write_build, write_tiny_base


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("init")
    return write_build(root / "build"), write_tiny_base(root / "encoder", head=False)


def _new_weights(base: Path, init_seed: int) -> dict[str, torch.Tensor]:
    model, _, _ = load_base(str(base), revision=None, init_seed=init_seed)
    model = add_lora(model, LoraSettings(r=2, alpha=4))
    return {k: v.detach().clone() for k, v in model.state_dict().items() if "classifier" in k or "lora_A" in k}


def test_the_head_and_adapters_depend_on_the_init_seed_only(inputs: tuple[Path, Path]) -> None:
    _, base = inputs
    torch.manual_seed(123)  # whatever the generator held before
    first = _new_weights(base, 0)
    torch.manual_seed(456)
    again, other = _new_weights(base, 0), _new_weights(base, 1)
    assert any("lora_A" in k for k in first) and any("classifier" in k for k in first)
    assert all(torch.equal(first[k], again[k]) for k in first)
    assert all(not torch.equal(first[k], other[k]) for k in first if k.endswith("weight"))


def _heads(inputs: tuple[Path, Path], out: Path, seeds: tuple[int, ...], init_seed: int | None) -> list[torch.Tensor]:
    from safetensors.torch import load_file

    build, base = inputs
    settings = TrainSettings(base=str(base), batch_size=8, max_length=32, lr=1e-9, init_seed=init_seed)
    train_reranker(RunConfig(datasets=(build,), out=out, settings=settings, tasks=("t2c-description",), seeds=seeds, threads=1, dev_split=None, progress=False))
    return [load_file(str(out / f"seed-{s}" / "model.safetensors"))["classifier.weight"] for s in seeds]


def test_every_seed_starts_from_one_head(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    zero, one = _heads(inputs, tmp_path / "shared", (0, 1), init_seed=0)
    (moved,) = _heads(inputs, tmp_path / "other", (0,), init_seed=7)
    assert torch.allclose(zero, one, atol=1e-6)  # a near-zero learning rate: the heads are still their shared start
    assert not torch.allclose(zero, moved, atol=1e-3)
    own_zero, own_one = _heads(inputs, tmp_path / "own", (0, 1), init_seed=None)  # each seed its own head
    assert torch.allclose(own_zero, zero, atol=1e-6) and not torch.allclose(own_one, zero, atol=1e-3)


def test_a_new_head_is_recorded_quietly(inputs: tuple[Path, Path], capfd: pytest.CaptureFixture[str]) -> None:
    _, base = inputs
    _, _, identity = load_base(str(base), revision=None, init_seed=0)
    assert identity.new_weights == ("classifier.bias", "classifier.weight")
    assert identity.to_json()["new_weights"] == ["classifier.bias", "classifier.weight"]
    captured = capfd.readouterr()
    assert "LOAD REPORT" not in captured.err + captured.out and "warning" not in captured.err
    assert "[transformers]" not in captured.err  # nor the tensor-parallel plan check's "layers were not sharded"


def test_missing_encoder_weights_are_warned_about(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    from safetensors.torch import load_file, save_file

    base = write_tiny_base(tmp_path / "encoder", head=False)
    weights = load_file(str(base / "model.safetensors"))
    gone = next(k for k in weights if "attention.self.query.weight" in k)
    save_file({k: v for k, v in weights.items() if k != gone}, str(base / "model.safetensors"), metadata={"format": "pt"})
    _, _, identity = load_base(str(base), revision=None, init_seed=0)
    assert any(k.endswith("attention.self.query.weight") for k in identity.new_weights)
    assert "1 weights outside a classification head are not in the checkpoint" in capfd.readouterr().err


def test_the_bundled_base_loads_without_transformers_noise(capfd: pytest.CaptureFixture[str]) -> None:
    from execir.retrieve.registry import bundled_minilm_path

    _, _, identity = load_base(str(bundled_minilm_path()), revision=None, init_seed=0)
    assert identity.new_weights == ("classifier.bias", "classifier.weight")
    captured = capfd.readouterr()
    # neither the load report nor the tensor-parallel plan check that a raised logger level sets off
    assert "LOAD REPORT" not in captured.err and "not sharded" not in captured.err and "[transformers]" not in captured.err


def test_adding_lora_warns_nothing(inputs: tuple[Path, Path]) -> None:
    import warnings

    _, base = inputs
    model, _, _ = load_base(str(base), revision=None, init_seed=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        add_lora(model, LoraSettings(r=2, alpha=4))
    assert [str(w.message) for w in caught] == []
