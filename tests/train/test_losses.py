"""The training losses against hand-computed values."""

from __future__ import annotations

import math

import pytest
import torch

from execir.train.losses import batch_loss, listwise_loss, pointwise_loss


def test_listwise_is_the_positive_cross_entropy_of_each_group() -> None:
    logits = torch.tensor([2.0, 1.0, 0.0, 0.5, -1.0])
    loss = listwise_loss(logits, [3, 2])
    first = -math.log(math.exp(2.0) / (math.exp(2.0) + math.exp(1.0) + math.exp(0.0)))
    second = -math.log(math.exp(0.5) / (math.exp(0.5) + math.exp(-1.0)))
    assert float(loss) == pytest.approx((first + second) / 2, rel=1e-6)


def test_listwise_ignores_a_shift_within_a_group_and_pushes_the_positive_up() -> None:
    logits = torch.tensor([0.3, 0.1, -0.2], requires_grad=True)
    loss = listwise_loss(logits, [3])
    assert float(listwise_loss(logits.detach() + 5.0, [3])) == pytest.approx(float(loss.detach()), rel=1e-6)
    loss.backward()
    assert logits.grad is not None
    assert logits.grad[0] < 0 and bool((logits.grad[1:] > 0).all())


def test_pointwise_is_binary_cross_entropy() -> None:
    logits, labels = torch.tensor([0.0, 2.0]), torch.tensor([1.0, 0.0])
    expected = (math.log(2.0) + math.log(1 + math.exp(2.0))) / 2
    assert float(pointwise_loss(logits, labels)) == pytest.approx(expected, rel=1e-6)
    assert float(batch_loss("pointwise", logits, labels, [1, 1])) == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("sizes", [[2, 2], [4, 1], [1]])
def test_groups_that_do_not_cover_the_logits_or_lack_a_negative_are_refused(sizes: list[int]) -> None:
    with pytest.raises(ValueError, match="do not cover"):
        listwise_loss(torch.zeros(5 if sum(sizes) != 1 else 1), sizes)
