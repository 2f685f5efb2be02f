"""Model soup: exact uniform averages, and LoRA adapters merged before averaging."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from execir.train.config import LoraSettings
from execir.train.model import add_lora, merged
from execir.train.soup import greedy_soup, uniform_soup
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


def test_greedy_soup_starts_from_the_best_model_and_keeps_what_does_not_hurt() -> None:
    scored = {"a": (0.5, 0.7), "b": (0.6, 0.1), "c": (0.6, 0.2), "d": (0.1, 0.0)}
    soups = {("c", "b"): (0.6, 0.2), ("c", "b", "a"): (0.55, 0.9), ("c", "b", "d"): (0.7, 0.0)}
    asked: list[tuple[str, ...]] = []

    def score(members: tuple[str, ...]) -> tuple[float, ...]:
        asked.append(members)
        return soups[members]

    soup = greedy_soup(scored, score)
    assert asked == [("c", "b"), ("c", "b", "a"), ("c", "b", "d")]  # best first (c beats b on the tie-breaker), then b, a, d
    assert soup.members == ("c", "b", "d") and soup.score == (0.7, 0.0)
    assert [(t.members, t.kept) for t in soup.trials] == [(("c",), True), (("c", "b"), True), (("c", "b", "a"), False), (("c", "b", "d"), True)]


def test_greedy_soup_of_one_model_or_of_none_helping_is_the_best_model() -> None:
    assert greedy_soup({"x": (0.3,)}, lambda members: pytest.fail("a single model needs no trial")).members == ("x",)
    soup = greedy_soup({"x": (0.3,), "y": (0.4,)}, lambda members: (0.35,))
    assert soup.members == ("y",) and soup.score == (0.4,) and [t.kept for t in soup.trials] == [True, False]
    assert greedy_soup({"x": (0.3,), "y": (0.3,)}, lambda members: (0.3,)).members == ("x", "y")  # equal keeps the model (>=)
    with pytest.raises(ValueError, match="at least one model"):
        greedy_soup({}, lambda members: (0.0,))
