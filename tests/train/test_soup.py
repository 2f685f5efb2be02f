"""Model soup: exact uniform averages, and LoRA adapters merged before averaging."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from execir.train.config import LoraSettings
from execir.train.model import add_lora, merged
from execir.train.soup import uniform_soup
from tests.train.helpers import write_tiny_base


def test_average_of_two_state_dicts_is_exact() -> None:
    generator = torch.Generator().manual_seed(0)
    a = {"w": torch.randn(3, 4, generator=generator), "h": torch.randn(2, generator=generator, dtype=torch.float64), "ids": torch.arange(5)}
    b = {"w": torch.randn(3, 4, generator=generator), "h": torch.randn(2, generator=generator, dtype=torch.float64), "ids": torch.arange(5)}
    soup = uniform_soup([a, b])
    assert torch.equal(soup["w"], (a["w"] + b["w"]) / 2) and soup["w"].dtype == torch.float32
    assert torch.equal(soup["h"], (a["h"] + b["h"]) / 2) and soup["h"].dtype == torch.float64
    assert torch.equal(soup["ids"], torch.arange(5))
    assert torch.equal(uniform_soup([a])["w"], a["w"])


def test_soup_of_three_is_the_mean() -> None:
    states = [{"w": torch.full((2,), float(v))} for v in (1, 2, 6)]
    assert torch.equal(uniform_soup(states)["w"], torch.tensor([3.0, 3.0]))


@pytest.mark.parametrize(
    ("other", "message"),
    [
        ({"w": torch.zeros(2), "x": torch.zeros(1)}, "other keys"),
        ({"w": torch.zeros(3)}, "shapes differ"),
    ],
)
def test_mismatched_states_are_refused(other: dict[str, torch.Tensor], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        uniform_soup([{"w": torch.zeros(2)}, other])


def test_differing_integer_buffers_are_refused() -> None:
    with pytest.raises(ValueError, match="non-float"):
        uniform_soup([{"ids": torch.arange(3)}, {"ids": torch.arange(1, 4)}])


def _lora_merged(base: Path, seed: int) -> dict[str, torch.Tensor]:
    from transformers import AutoModelForSequenceClassification

    torch.manual_seed(seed)
    model = add_lora(AutoModelForSequenceClassification.from_pretrained(base), LoraSettings(r=2, alpha=4, dropout=0.0))
    with torch.no_grad():  # lora_B starts at zero: give the adapters and the head something to merge
        for p in model.parameters():
            if p.requires_grad:
                p.add_(torch.randn_like(p))
    return {k: v.clone() for k, v in merged(model).state_dict().items()}


def test_lora_adapters_are_merged_then_averaged(tmp_path: Path) -> None:
    from transformers import AutoModelForSequenceClassification

    base_path = write_tiny_base(tmp_path / "base")
    base = AutoModelForSequenceClassification.from_pretrained(base_path).state_dict()
    one, two = _lora_merged(base_path, 1), _lora_merged(base_path, 2)
    assert set(one) == set(base)  # merged: plain architecture, no lora_ keys
    query = next(k for k in base if k.endswith("attention.self.query.weight"))
    key = next(k for k in base if k.endswith("attention.self.key.weight"))
    assert not torch.equal(one[query], base[query]) and torch.equal(one[key], base[key])
    assert not torch.equal(one["classifier.weight"], two["classifier.weight"])
    soup = uniform_soup([one, two])
    for name in (query, "classifier.weight", "classifier.bias"):
        assert torch.equal(soup[name], ((one[name].double() + two[name].double()) / 2).float())
