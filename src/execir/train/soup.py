"""Model soup: the uniform average of several fine-tuned models' weights (Wortsman et al., 2022)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def uniform_soup(states: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The element-wise mean of state dicts with the same keys and shapes.

    Floating tensors are summed in float64 and cast back to their dtype; any other tensor (integer
    buffers such as position ids) must be identical in every state and is kept as is. Raises
    ValueError on mismatched keys, shapes or differing non-float tensors."""
    import torch

    if not states:
        raise ValueError("a soup needs at least one state dict")
    keys = list(states[0])
    for index, state in enumerate(states[1:], start=1):
        if set(state) != set(keys):
            differ = sorted(set(state) ^ set(keys))
            raise ValueError(f"state dict {index} has other keys than state dict 0: {', '.join(differ[:5])}")
    soup: dict[str, Any] = {}
    for key in keys:
        tensors = [state[key] for state in states]
        if any(t.shape != tensors[0].shape for t in tensors):
            raise ValueError(f"'{key}': shapes differ ({[tuple(t.shape) for t in tensors]})")
        if tensors[0].is_floating_point():
            total = torch.zeros(tensors[0].shape, dtype=torch.float64)
            for tensor in tensors:
                total += tensor.detach().to("cpu", torch.float64)
            soup[key] = (total / len(tensors)).to(tensors[0].dtype)
        elif all(torch.equal(t.cpu(), tensors[0].cpu()) for t in tensors):
            soup[key] = tensors[0].detach().cpu().clone()
        else:
            raise ValueError(f"'{key}': a non-float tensor differs between models, cannot be averaged")
    return soup
