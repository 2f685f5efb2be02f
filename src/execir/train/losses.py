"""The two training losses over a batch's logits (one per text pair, groups laid end to end).

* ``pointwise``: binary cross-entropy of each pair's logit against its label (CoREB's recipe).
* ``listwise``: for each group (positive first, then its negatives) the softmax cross-entropy of
  the positive among the group's logits (the localized contrastive loss of Gao et al., 2021).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

LossName = Literal["pointwise", "listwise"]


def pointwise_loss(logits: Any, labels: Any) -> Any:
    """Mean binary cross-entropy with logits."""
    import torch

    return torch.nn.functional.binary_cross_entropy_with_logits(logits.float(), labels.float())


def listwise_loss(logits: Any, sizes: Sequence[int]) -> Any:
    """Mean over groups of ``-log softmax(group)[0]``; ``sizes`` are the groups' lengths in order."""
    import torch

    if sum(sizes) != logits.shape[0] or any(n < 2 for n in sizes):
        raise ValueError(f"groups of sizes {list(sizes)} do not cover {logits.shape[0]} logits with a positive and a negative each")
    width = max(sizes)
    padded = torch.full((len(sizes), width), float("-inf"), dtype=torch.float32, device=logits.device)
    start = 0
    for row, size in enumerate(sizes):
        padded[row, :size] = logits[start : start + size].float()
        start += size
    target = torch.zeros(len(sizes), dtype=torch.long, device=logits.device)
    return torch.nn.functional.cross_entropy(padded, target)


def batch_loss(name: LossName, logits: Any, labels: Any, sizes: Sequence[int]) -> Any:
    """The named loss of a batch (``labels`` for pointwise, ``sizes`` for listwise)."""
    return pointwise_loss(logits, labels) if name == "pointwise" else listwise_loss(logits, sizes)
