"""The deterministic, resumable loop of a bi-encoder: sentence-transformers' MultipleNegativesRankingLoss
(or its GradCache variant) over problem-disjoint batches of rows.

It keeps :mod:`execir.train.loop`'s conventions: each epoch's row order is the seeded permutation
of (seed, epoch), here cut into batches by :func:`~execir.train.embedder_rows.problem_disjoint_batches`
(a pure function, so a resumed run rebuilds the same batches); the learning rate is a pure function
of the step; checkpoints are one safetensors file (:mod:`execir.train.checkpoint`) with the
trainable weights, the optimizer and the generators, so ``--resume`` reaches the same weights.

The loss modules are sentence-transformers' own; the loop calls them as its trainer does
(``loss(features, labels)`` then ``backward``), so the cached variant's GradCache hook runs as it
would there.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

from execir.train.checkpoint import LoopState, load_checkpoint, save_checkpoint
from execir.train.embedder_config import EmbedderSettings
from execir.train.embedder_rows import Row, problem_disjoint_batches
from execir.train.loop import LoopPlan, LoopResult, advance, epoch_order, learning_rate, progress_bar


def epoch_batches(rows: Sequence[Row], settings: EmbedderSettings, seed: int) -> list[list[list[int]]]:
    """Every epoch's problem-disjoint batches of row indices (pure: the same for a resumed run)."""
    return [problem_disjoint_batches(rows, epoch_order(len(rows), seed, epoch), settings.batch_size) for epoch in range(settings.epochs)]


def make_loss(model: Any, settings: EmbedderSettings) -> Any:
    """sentence-transformers' MultipleNegativesRankingLoss, or its cached (GradCache) variant."""
    from sentence_transformers.sentence_transformer.losses import CachedMultipleNegativesRankingLoss, MultipleNegativesRankingLoss

    if settings.loss == "cached-mnrl":
        return CachedMultipleNegativesRankingLoss(model, scale=settings.scale, mini_batch_size=settings.mini_batch_size)
    return MultipleNegativesRankingLoss(model, scale=settings.scale)


def column_features(model: Any, batch: Sequence[Row], device: Any) -> list[dict[str, Any]]:
    """The tokenised inputs of each column (anchor, positive, negative_1 ..), on ``device``."""
    columns = len(batch[0].texts)
    features = []
    for column in range(columns):
        encoded = model.preprocess([row.texts[column] for row in batch])
        features.append({k: v.to(device) if hasattr(v, "to") else v for k, v in encoded.items()})
    return features


def embedder_loop(model: Any, rows: Sequence[Row], settings: EmbedderSettings, *, seed: int, device: Any, plan: LoopPlan) -> LoopResult:
    """Train the SentenceTransformer ``model`` in place on ``rows``; checkpoints every
    ``plan.checkpoint_every`` updates and at each epoch end; with ``plan.resume`` continues from the last checkpoint."""
    import torch

    torch.manual_seed(seed)
    model.to(device)
    loss_fn = make_loss(model, settings)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=settings.lr, weight_decay=settings.weight_decay)
    schedule = epoch_batches(rows, settings, seed)
    sizes = [len(batches) for batches in schedule]
    starts = [0, *accumulate(sizes)]
    total = starts[-1]
    state = LoopState(0, (0.0,) * settings.epochs, (0.0,) * settings.epochs)
    loaded = load_checkpoint(plan.checkpoint_dir, model=model, optimizer=optimizer, fingerprint=plan.fingerprint) if plan.resume else None
    state = loaded or state
    model.train()
    for epoch in range(settings.epochs):
        first = state.step - starts[epoch]
        if first >= sizes[epoch]:
            continue
        bar = progress_bar(plan.progress, sizes[epoch], first, f"epoch {epoch + 1}/{settings.epochs} seed {seed}")
        started = time.perf_counter()
        for batch_index in range(first, sizes[epoch]):
            for group in optimizer.param_groups:
                group["lr"] = learning_rate(state.step, total, settings.lr, settings.warmup_ratio)
            batch = [rows[i] for i in schedule[epoch][batch_index]]
            loss = loss_fn(column_features(model, batch, device), torch.zeros(len(batch), device=device))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, settings.max_grad_norm)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            state = advance(state, epoch, float(loss.detach()), time.perf_counter() - started)
            started = time.perf_counter()
            bar(float(loss.detach()))
            done = plan.stop_after is not None and state.step >= plan.stop_after
            if state.step % plan.checkpoint_every == 0 or batch_index == sizes[epoch] - 1 or done:
                save_checkpoint(plan.checkpoint_dir, model=model, optimizer=optimizer, state=state, fingerprint=plan.fingerprint)
            if done and state.step < total:
                return _result(state, total, loaded, starts, finished=False)
    model.eval()
    return _result(state, total, loaded, starts, finished=True)


def _result(state: LoopState, total: int, loaded: LoopState | None, starts: Sequence[int], *, finished: bool) -> LoopResult:
    done = [min(starts[e + 1] - starts[e], max(0, state.step - starts[e])) for e in range(len(state.epoch_loss))]
    return LoopResult(
        steps=state.step,
        total_steps=total,
        epoch_seconds=state.epoch_seconds,
        epoch_mean_loss=tuple(loss / n if n else 0.0 for loss, n in zip(state.epoch_loss, done)),
        resumed_at=loaded.step if loaded else None,
        finished=finished,
    )
