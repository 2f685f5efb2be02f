"""Model soups (Wortsman et al., 2022): the uniform average of several fine-tuned models' weights,
and the greedy soup, which adds models to the average only while a held-out score does not drop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")
Score = tuple[float, ...]
"""A held-out score, compared as a tuple (a primary measure, then its tie-breakers); higher is better."""


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


@dataclass(frozen=True)
class SoupTrial(Generic[T]):
    """One step of the greedy soup: the models averaged, their held-out score, and whether the
    soup kept the last one."""

    members: tuple[T, ...]
    score: Score
    kept: bool


@dataclass(frozen=True)
class GreedySoup(Generic[T]):
    """The greedy soup's ingredients (best model first) and every trial made to choose them."""

    members: tuple[T, ...]
    score: Score
    trials: tuple[SoupTrial[T], ...]


def greedy_soup(scored: Mapping[T, Score], soup_score: Callable[[tuple[T, ...]], Score]) -> GreedySoup[T]:
    """Wortsman et al.'s greedy soup: start from the best single model of ``scored`` (model -> its own
    held-out score; ties keep ``scored``'s order), then try the others from best to worst, keeping
    each whose uniform average with the models kept so far scores at least the soup's current score
    (``soup_score`` scores a tuple of models averaged). The soup's held-out score is never below the
    best single model's."""
    if not scored:
        raise ValueError("a soup needs at least one model")
    order = sorted(scored, key=lambda model: scored[model], reverse=True)  # stable: ties keep the given order
    members: tuple[T, ...] = (order[0],)
    score = scored[order[0]]
    trials: list[SoupTrial[T]] = [SoupTrial(members, score, True)]
    for model in order[1:]:
        candidate = (*members, model)
        trial_score = soup_score(candidate)
        kept = trial_score >= score
        trials.append(SoupTrial(candidate, trial_score, kept))
        if kept:
            members, score = candidate, trial_score
    return GreedySoup(members, score, tuple(trials))
