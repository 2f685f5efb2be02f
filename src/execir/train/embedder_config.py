"""The resolved configuration of a bi-encoder training run (saved in ``training.json``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from execir.errors import ExecIRError
from execir.train.config import FULL_LR, LoraSettings

EMBEDDER_LOSSES: tuple[str, ...] = ("mnrl", "cached-mnrl")
EMBEDDER_SOUPS: tuple[str, ...] = ("uniform", "none")
EMBEDDER_PROMPTS: tuple[str, ...] = ("task", "none")
"""``--prompts`` modes (:mod:`execir.train.embedder_prompts`)."""
EMBEDDER_BATCH = 16
"""Rows per update (each row: an anchor, its positive and ``negatives`` hard negatives)."""
EMBEDDER_NEGATIVES = 3


@dataclass(frozen=True)
class EmbedderSettings:
    """What changes the weights of one seed's bi-encoder (a checkpoint resumes only under the same settings)."""

    base: str
    revision: str | None = None
    mode: Literal["full", "lora"] = "full"
    lora: LoraSettings = field(default_factory=LoraSettings)
    epochs: int = 1
    batch_size: int = EMBEDDER_BATCH
    lr: float = FULL_LR
    warmup_ratio: float = 0.1
    weight_decay: float = 0.01
    max_grad_norm: float = 1.0
    max_length: int = 256
    negatives: int = EMBEDDER_NEGATIVES
    """Explicit ``negative_1..n`` columns of every row (:mod:`execir.train.embedder_rows`)."""
    loss: Literal["mnrl", "cached-mnrl"] = "mnrl"
    scale: float = 20.0
    """MultipleNegativesRankingLoss's inverse temperature on cosine similarities."""
    mini_batch_size: int = 8
    """Texts per GradCache forward pass (``cached-mnrl`` only)."""
    prompts: Literal["task", "none"] = "none"
    """``task``: code queries carry their direction's query prompt (:mod:`execir.train.embedder_prompts`)."""
    self_positives: bool = True
    """Under a query prompt, a code-to-code anchor's own program (it passes: it is the task's canonical) is one more positive."""
    mirror_rows: bool = False
    """Each passing rewrite of a code-to-code query is also an anchor whose positive is the query's own program."""
    init_seed: int = 0
    """Seed of the LoRA adapters (the same for every training seed, so the soup averages models from one start)."""

    def __post_init__(self) -> None:
        if self.mode not in ("full", "lora"):
            raise ExecIRError(f"training mode must be 'full' or 'lora', got '{self.mode}'")
        for name in ("epochs", "batch_size", "max_length", "mini_batch_size"):
            if getattr(self, name) < 1:
                raise ExecIRError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(self, name)}")
        if self.negatives < 0:
            raise ExecIRError(f"--negatives must be at least 0, got {self.negatives}")
        if not self.lr > 0:
            raise ExecIRError(f"--lr must be positive, got {self.lr}")
        if self.loss not in EMBEDDER_LOSSES:
            raise ExecIRError(f"--loss must be one of {', '.join(EMBEDDER_LOSSES)}, got '{self.loss}'")
        if not 0 <= self.warmup_ratio < 1:
            raise ExecIRError(f"warmup ratio must be in [0, 1), got {self.warmup_ratio}")
        if self.prompts not in EMBEDDER_PROMPTS:
            raise ExecIRError(f"--prompts must be one of {', '.join(EMBEDDER_PROMPTS)}, got '{self.prompts}'")
        if not self.scale > 0:
            raise ExecIRError(f"--scale must be positive, got {self.scale}")

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON values (LoRA only when used, the GradCache size only with ``cached-mnrl``)."""
        data = asdict(self)
        if self.loss != "cached-mnrl":
            del data["mini_batch_size"]
        data["lora"] = self.lora.json_for(self.mode)
        return data


@dataclass(frozen=True)
class EmbedderRunConfig:
    """One ``train-embedder`` run: data, outputs, seeds, soup, device, dev evaluation."""

    datasets: tuple[Path, ...]
    out: Path
    settings: EmbedderSettings
    split: str = "train"
    dev_split: str | None = "dev"
    tasks: tuple[str, ...] = ()
    seeds: tuple[int, ...] = (0,)
    soup: str = "uniform"
    resume: bool = False
    device: str | None = None
    threads: int | None = None
    checkpoint_every: int = 500
    eval_batch_size: int = 64
    progress: bool = True
    retrieval_max_length: int | None = None
    """Tokens per text the saved models truncate at when they retrieve (and in the dev evaluation);
    None: the base model's own length. Training truncates at ``settings.max_length``, often shorter
    for speed; a retriever kept at that length would tie a program with a mutant that differs only
    past it."""

    def __post_init__(self) -> None:
        if self.retrieval_max_length is not None and self.retrieval_max_length < 1:
            raise ExecIRError(f"--retrieval-max-length must be at least 1, got {self.retrieval_max_length}")
        if self.soup not in EMBEDDER_SOUPS:
            raise ExecIRError(f"--soup must be one of {', '.join(EMBEDDER_SOUPS)}, got '{self.soup}'")
        if not self.seeds or len(set(self.seeds)) != len(self.seeds):
            raise ExecIRError(f"seeds must be distinct and at least one, got {list(self.seeds)}")
        if self.checkpoint_every < 1:
            raise ExecIRError(f"--checkpoint-every must be at least 1, got {self.checkpoint_every}")
        if self.threads is not None and self.threads < 1:
            raise ExecIRError(f"--threads must be at least 1, got {self.threads}")
        if self.dev_split is not None and self.dev_split == self.split:
            raise ExecIRError(f"the dev split must differ from the training split ('{self.split}')")
