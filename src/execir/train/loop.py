"""A plain, deterministic, resumable training loop over items: single pairs (pointwise binary
cross-entropy) or groups of a positive and its negatives (listwise softmax cross-entropy).

Each epoch visits the items in a permutation drawn from a generator seeded by (seed, epoch), so a
resumed run knows which batches are left without replaying any. Dropout draws from torch's global
generator, whose state every checkpoint carries. The learning rate is a pure function of the step
(linear warm-up, then linear decay to zero), so there is no scheduler state to save.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir.train.checkpoint import LoopState, load_checkpoint, save_checkpoint
from execir.train.config import TrainSettings
from execir.train.groups import Group
from execir.train.losses import batch_loss
from execir.train.pairs import Pair


@dataclass(frozen=True)
class LoopResult:
    """What a (possibly resumed) loop did: total updates, per-epoch seconds and mean loss, where it resumed."""

    steps: int
    total_steps: int
    epoch_seconds: tuple[float, ...]
    epoch_mean_loss: tuple[float, ...]
    resumed_at: int | None
    finished: bool


def learning_rate(step: int, total: int, base: float, warmup_ratio: float) -> float:
    """The rate of update ``step`` (0-based) of ``total``: linear warm-up over the first
    ``warmup_ratio`` of the updates, then linear decay (the last update still moves)."""
    warmup = int(warmup_ratio * total)
    if step < warmup:
        return base * (step + 1) / warmup
    return base * (total - step) / max(1, total - warmup)


def epoch_order(n: int, seed: int, epoch: int) -> list[int]:
    """The seeded permutation of ``n`` items for ``epoch``."""
    import torch

    generator = torch.Generator().manual_seed(seed * 1_000_003 + epoch)
    return [int(i) for i in torch.randperm(n, generator=generator)]


def batch_inputs(tokenizer: Any, batch: Sequence[Pair], max_length: int, device: Any) -> tuple[Any, Any]:
    """Tokenised (first, second) inputs and float labels of a batch."""
    import torch

    encoded = tokenizer([p.first for p in batch], [p.second for p in batch], truncation=True, max_length=max_length, padding=True, return_tensors="pt")
    labels = torch.tensor([p.label for p in batch], dtype=torch.float32)
    return encoded.to(device), labels.to(device)


@dataclass(frozen=True)
class LoopPlan:
    """Where a loop writes checkpoints and how it is driven."""

    checkpoint_dir: Path
    fingerprint: str
    checkpoint_every: int
    resume: bool
    stop_after: int | None = None
    """Stop (after writing a checkpoint) once this many updates are done; None runs to the end."""
    progress: bool = False


def train_loop(model: Any, tokenizer: Any, items: Sequence[Group], settings: TrainSettings, *, seed: int, device: Any, plan: LoopPlan) -> LoopResult:
    """Train ``model`` in place on ``items`` (one-pair groups for the pointwise loss, a positive and
    its negatives for the listwise one), ``settings.batch_size`` items per update; checkpoints every
    ``plan.checkpoint_every`` updates and at each epoch end; with ``plan.resume`` continues from the
    last checkpoint."""
    import torch

    torch.manual_seed(seed)
    model.to(device)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=settings.lr, weight_decay=settings.weight_decay)
    per_epoch = math.ceil(len(items) / settings.batch_size)
    total = per_epoch * settings.epochs
    state = LoopState(0, (0.0,) * settings.epochs, (0.0,) * settings.epochs)
    loaded = load_checkpoint(plan.checkpoint_dir, model=model, optimizer=optimizer, fingerprint=plan.fingerprint) if plan.resume else None
    state = loaded or state
    model.train()

    def save(current: LoopState) -> None:
        save_checkpoint(plan.checkpoint_dir, model=model, optimizer=optimizer, state=current, fingerprint=plan.fingerprint)

    for epoch in range(state.step // per_epoch, settings.epochs):
        order = epoch_order(len(items), seed, epoch)
        start_batch = state.step - epoch * per_epoch
        bar = progress_bar(plan.progress, per_epoch, start_batch, f"epoch {epoch + 1}/{settings.epochs} seed {seed}")
        started = time.perf_counter()
        for batch_index in range(start_batch, per_epoch):
            batch = [items[i] for i in order[batch_index * settings.batch_size : (batch_index + 1) * settings.batch_size]]
            loss = _update(
                model,
                optimizer,
                batch,
                batch_inputs(tokenizer, [p for item in batch for p in item], settings.max_length, device),
                settings,
                learning_rate(state.step, total, settings.lr, settings.warmup_ratio),
            )
            state = advance(state, epoch, loss, time.perf_counter() - started)
            started = time.perf_counter()
            bar(loss)
            done = plan.stop_after is not None and state.step >= plan.stop_after
            if state.step % plan.checkpoint_every == 0 or batch_index == per_epoch - 1 or done:
                save(state)
            if done and state.step < total:
                return _result(state, total, loaded, per_epoch, finished=False)
    model.eval()
    return _result(state, total, loaded, per_epoch, finished=True)


def _update(model: Any, optimizer: Any, batch: Sequence[Group], inputs: tuple[Any, Any], settings: TrainSettings, lr: float) -> float:
    import torch

    encoded, labels = inputs
    for group in optimizer.param_groups:
        group["lr"] = lr
    logits = model(**encoded).logits.view(-1)
    loss = batch_loss(settings.loss, logits, labels, [len(item) for item in batch])
    loss.backward()
    torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], settings.max_grad_norm)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return float(loss.detach())


def advance(state: LoopState, epoch: int, loss: float, seconds: float) -> LoopState:
    epoch_seconds, epoch_loss = list(state.epoch_seconds), list(state.epoch_loss)
    epoch_seconds[epoch] += seconds
    epoch_loss[epoch] += loss
    return LoopState(state.step + 1, tuple(epoch_seconds), tuple(epoch_loss))


def _result(state: LoopState, total: int, loaded: LoopState | None, per_epoch: int, *, finished: bool) -> LoopResult:
    done_per_epoch = [min(per_epoch, max(0, state.step - e * per_epoch)) for e in range(len(state.epoch_loss))]
    return LoopResult(
        steps=state.step,
        total_steps=total,
        epoch_seconds=state.epoch_seconds,
        epoch_mean_loss=tuple(loss / n if n else 0.0 for loss, n in zip(state.epoch_loss, done_per_epoch)),
        resumed_at=loaded.step if loaded else None,
        finished=finished,
    )


def progress_bar(enabled: bool, total: int, initial: int, label: str) -> Callable[[float], None]:
    """A per-epoch progress bar's update function (a no-op when bars are off)."""
    if not enabled:
        return lambda loss: None
    from tqdm import tqdm

    bar = tqdm(total=total, initial=initial, desc=label, unit="batch", leave=False)

    def update(loss: float) -> None:
        bar.update(1)
        bar.set_postfix(loss=f"{loss:.4f}")
        if bar.n >= total:
            bar.close()

    return update
