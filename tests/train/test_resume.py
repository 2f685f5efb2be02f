"""A run stopped after two updates and resumed ends with the same weights as an uninterrupted run."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from execir.errors import ExecIRError
from execir.train.config import TrainSettings
from execir.train.groups import build_groups
from execir.train.loop import LoopPlan, LoopResult, learning_rate, train_loop
from execir.train.model import load_base
from execir.train.pairs import build_pairs
from tests.train.helpers import source, write_build, write_tiny_base


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    root = tmp_path_factory.mktemp("resume")
    pairs, _ = build_pairs(source(write_build(root / "build"), "t2c-description"), seed=0)
    return write_tiny_base(root / "base"), [(p,) for p in pairs[:8]]


def _train(
    base: Path, pairs: list, folder: Path, *, resume: bool, stop_after: int | None, mode: str = "full", loss: str = "pointwise"
) -> tuple[dict, LoopResult]:
    from execir.train.model import add_lora

    settings = TrainSettings(base=str(base), mode=mode, batch_size=4, epochs=2, max_length=32, lr=1e-3, loss=loss)  # type: ignore[arg-type]
    model, tokenizer, _ = load_base(str(base), revision=None, init_seed=5)
    if mode == "lora":
        model = add_lora(model, settings.lora)
    plan = LoopPlan(folder, "fp", checkpoint_every=3, resume=resume, stop_after=stop_after)
    result = train_loop(model, tokenizer, pairs, settings, seed=5, device="cpu", plan=plan)
    return {k: v.detach().clone() for k, v in model.state_dict().items()}, result


@pytest.mark.parametrize("mode", ["full", "lora"])
def test_stop_and_resume_reaches_the_same_weights(setup: tuple[Path, list], tmp_path: Path, mode: str) -> None:
    base, pairs = setup
    straight, done = _train(base, pairs, tmp_path / "a", resume=False, stop_after=None, mode=mode)
    assert done.finished and done.steps == 4 and done.total_steps == 4  # 8 pairs / 4, two epochs
    _, stopped = _train(base, pairs, tmp_path / "b", resume=False, stop_after=2, mode=mode)
    assert not stopped.finished and stopped.steps == 2
    resumed, finished = _train(base, pairs, tmp_path / "b", resume=True, stop_after=None, mode=mode)
    assert finished.finished and finished.resumed_at == 2 and finished.steps == 4
    assert straight.keys() == resumed.keys()
    for name in straight:
        assert torch.equal(straight[name], resumed[name]), name


def test_listwise_groups_stop_and_resume_to_the_same_weights(tmp_path: Path) -> None:
    base = write_tiny_base(tmp_path / "base")
    groups, _ = build_groups(source(write_build(tmp_path / "build"), "c2t"), seed=0)
    groups = groups[:8]
    assert all(len(g) >= 2 for g in groups)
    straight, done = _train(base, groups, tmp_path / "a", resume=False, stop_after=None, loss="listwise")
    assert done.finished and done.steps == 4 and done.epoch_mean_loss[0] > 0
    _train(base, groups, tmp_path / "b", resume=False, stop_after=3, loss="listwise")
    resumed, finished = _train(base, groups, tmp_path / "b", resume=True, stop_after=None, loss="listwise")
    assert finished.resumed_at == 3
    assert all(torch.equal(straight[k], resumed[k]) for k in straight)


def test_checkpoint_of_other_settings_is_refused(setup: tuple[Path, list], tmp_path: Path) -> None:
    base, pairs = setup
    _train(base, pairs, tmp_path, resume=False, stop_after=1)
    model, tokenizer, _ = load_base(str(base), revision=None, init_seed=5)
    settings = TrainSettings(base=str(base), batch_size=4, max_length=32)
    with pytest.raises(ExecIRError, match="other settings"):
        train_loop(model, tokenizer, pairs, settings, seed=5, device="cpu", plan=LoopPlan(tmp_path, "other", 3, resume=True))


def test_learning_rate_warms_up_then_decays() -> None:
    rates = [learning_rate(s, 10, 1.0, 0.2) for s in range(10)]
    assert rates[:3] == [0.5, 1.0, 1.0] and rates[-1] == pytest.approx(1 / 8)
    assert all(a >= b for a, b in zip(rates[1:], rates[2:]))
    assert learning_rate(0, 4, 2.0, 0.0) == 2.0
