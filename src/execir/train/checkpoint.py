"""Resumable training state in one safetensors file (no pickles), written atomically.

``<seed dir>/checkpoint/state.safetensors`` holds the trainable parameters, the optimizer's state
tensors and the random generators' states; its metadata holds the loop position (global step,
seconds and loss sums per epoch), the optimizer's parameter groups and a fingerprint of everything
that decides the weights, so a checkpoint is only resumed by the run that wrote it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir.dataset.files import atomic_write_bytes
from execir.errors import ExecIRError

STATE_FILE = "state.safetensors"


@dataclass(frozen=True)
class LoopState:
    """Where a training loop stands: updates done, and per epoch its seconds and summed loss so far."""

    step: int
    epoch_seconds: tuple[float, ...]
    epoch_loss: tuple[float, ...]


def trainable(model: Any) -> dict[str, Any]:
    """Name -> parameter for every parameter that training changes."""
    return {name: p for name, p in model.named_parameters() if p.requires_grad}


def save_checkpoint(folder: Path, *, model: Any, optimizer: Any, state: LoopState, fingerprint: str) -> None:
    """Write the whole training state to ``folder/state.safetensors`` (atomically)."""
    import torch
    from safetensors.torch import save

    tensors = {f"param.{name}": p.detach().to("cpu").contiguous().clone() for name, p in trainable(model).items()}
    optim = optimizer.state_dict()
    for index, values in optim["state"].items():
        for key, value in values.items():
            tensors[f"optim.{index}.{key}"] = value.detach().to("cpu").contiguous().clone()
    tensors["rng.cpu"] = torch.get_rng_state()
    if torch.cuda.is_available():
        tensors["rng.cuda"] = torch.stack(torch.cuda.get_rng_state_all())
    meta = {
        "step": state.step,
        "epoch_seconds": list(state.epoch_seconds),
        "epoch_loss": list(state.epoch_loss),
        "param_groups": optim["param_groups"],
        "fingerprint": fingerprint,
    }
    atomic_write_bytes(folder / STATE_FILE, save(tensors, metadata={"execir": json.dumps(meta, sort_keys=True)}))


def load_checkpoint(folder: Path, *, model: Any, optimizer: Any, fingerprint: str) -> LoopState | None:
    """Restore parameters, optimizer and generators from ``folder``; None when there is no checkpoint."""
    import torch
    from safetensors import safe_open

    path = folder / STATE_FILE
    if not path.is_file():
        return None
    with safe_open(str(path), framework="pt") as handle:
        meta = json.loads((handle.metadata() or {}).get("execir", "{}"))
        tensors = {key: handle.get_tensor(key) for key in handle.keys()}
    if meta.get("fingerprint") != fingerprint:
        raise ExecIRError(f"{path}: written by a run with other settings or data; start a new output folder or drop --resume")
    params = trainable(model)
    missing = [name for name in params if f"param.{name}" not in tensors]
    if missing:
        raise ExecIRError(f"{path}: checkpoint lacks parameter(s) {', '.join(missing[:3])}")
    with torch.no_grad():
        for name, p in params.items():
            p.copy_(tensors[f"param.{name}"])
    state: dict[int, dict[str, Any]] = {}
    for key, value in tensors.items():
        if key.startswith("optim."):
            _, index, name = key.split(".", 2)
            state.setdefault(int(index), {})[name] = value
    optimizer.load_state_dict({"state": state, "param_groups": meta["param_groups"]})
    torch.set_rng_state(tensors["rng.cpu"])
    if "rng.cuda" in tensors and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(list(tensors["rng.cuda"]))
    return LoopState(int(meta["step"]), tuple(meta["epoch_seconds"]), tuple(meta["epoch_loss"]))
