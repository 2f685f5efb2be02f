"""The resolved configuration of a reranker training run (saved in ``training.json``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from execir.errors import ExecIRError

SOUPS: tuple[str, ...] = ("uniform", "greedy", "none")
LOSSES: tuple[str, ...] = ("pointwise", "listwise")
POINTWISE_BATCH = 16
"""Pairs per update of the pointwise loss."""
LISTWISE_BATCH = 4
"""Groups per update of the listwise loss (four texts each with the default shape: 16 texts, as pointwise)."""
FULL_LR = 2e-5
LORA_LR = 2e-4
DEV_EASY = 20


@dataclass(frozen=True)
class LoraSettings:
    """LoRA adapter settings; ``targets`` None lets peft choose the architecture's usual modules
    (``query``/``value`` for BERT, ``q_proj``/``v_proj`` for Qwen), ``all-linear`` adapts every linear layer."""

    r: int = 8
    alpha: int = 16
    dropout: float = 0.1
    targets: tuple[str, ...] | Literal["all-linear"] | None = None

    def json_for(self, mode: str) -> dict[str, Any] | None:
        """These settings as JSON values in a run of ``mode`` (None when the run trains no adapters)."""
        if mode != "lora":
            return None
        data = asdict(self)
        if isinstance(self.targets, tuple):
            data["targets"] = list(self.targets)
        return data


@dataclass(frozen=True)
class TrainSettings:
    """What changes the weights of one seed's model (a checkpoint is resumable only under the same settings)."""

    base: str
    revision: str | None = None
    mode: Literal["full", "lora"] = "full"
    lora: LoraSettings = field(default_factory=LoraSettings)
    epochs: int = 1
    batch_size: int = POINTWISE_BATCH
    """Items per update: pairs (pointwise) or groups (listwise)."""
    lr: float = FULL_LR
    warmup_ratio: float = 0.1
    weight_decay: float = 0.01
    max_grad_norm: float = 1.0
    max_length: int = 256
    hard_negatives: str = "dataset"
    """``dataset`` (grade-1 documents) or ``mined:<retriever spec>``."""
    easy_negatives: str = "random"
    """``random`` (a seeded document of another training problem) or ``mined:<retriever spec>``
    (the other training problems' documents the retriever ranks highest for the query)."""
    loss: Literal["pointwise", "listwise"] = "pointwise"
    """``pointwise``: CoREB's labelled pairs, binary cross-entropy; ``listwise``: one group per positive
    (the positive, ``group_hard`` same-problem negatives, ``group_easy`` other problems'), softmax
    cross-entropy of the positive (:mod:`execir.train.groups`)."""
    group_hard: int = 2
    group_easy: int = 1
    group_text: int = 0
    """Counterfactual descriptions in each text-to-code positive's text-side group (0: none)."""
    init_seed: int | None = 0
    """Seed of every newly initialised weight (the classification head, LoRA adapters). Shared by
    all training seeds, so their models start from one point and differ only by data order,
    sampled negatives and dropout (model soups average models fine-tuned from one initialisation,
    Wortsman et al., 2022). None: each seed draws its own new weights under its training seed."""

    def __post_init__(self) -> None:
        if self.mode not in ("full", "lora"):
            raise ExecIRError(f"training mode must be 'full' or 'lora', got '{self.mode}'")
        for name in ("epochs", "batch_size", "max_length"):
            if getattr(self, name) < 1:
                raise ExecIRError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(self, name)}")
        if not self.lr > 0:
            raise ExecIRError(f"--lr must be positive, got {self.lr}")
        if self.loss not in LOSSES:
            raise ExecIRError(f"--loss must be one of {', '.join(LOSSES)}, got '{self.loss}'")
        if self.loss == "listwise" and (self.group_hard < 0 or self.group_easy < 0 or self.group_hard + self.group_easy < 1):
            raise ExecIRError(f"--group-hard and --group-easy must be at least 0 and give a group one negative, got {self.group_hard} and {self.group_easy}")
        if self.group_text < 0 or (self.group_text and self.loss != "listwise"):
            raise ExecIRError(f"--group-text must be at least 0 and needs --loss listwise, got {self.group_text} with {self.loss}")
        if not 0 <= self.warmup_ratio < 1:
            raise ExecIRError(f"warmup ratio must be in [0, 1), got {self.warmup_ratio}")
        if self.hard_negatives != "dataset" and not (self.hard_negatives.startswith("mined:") and len(self.hard_negatives) > len("mined:")):
            raise ExecIRError(f"--hard-negatives must be 'dataset' or 'mined:<retriever spec>', got '{self.hard_negatives}'")
        if self.easy_negatives != "random" and not (self.easy_negatives.startswith("mined:") and len(self.easy_negatives) > len("mined:")):
            raise ExecIRError(f"--easy-negatives must be 'random' or 'mined:<retriever spec>', got '{self.easy_negatives}'")

    def init_seed_for(self, seed: int) -> int:
        """The seed the new weights of training seed ``seed`` are drawn under."""
        return seed if self.init_seed is None else self.init_seed

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON values (LoRA only when used)."""
        data = asdict(self)
        if self.loss == "pointwise":
            del data["group_hard"], data["group_easy"], data["group_text"]
        data["lora"] = self.lora.json_for(self.mode)
        return data


@dataclass(frozen=True)
class RunConfig:
    """One ``train-reranker`` run: where data and outputs are, seeds, soup, device, evaluation."""

    datasets: tuple[Path, ...]
    out: Path
    settings: TrainSettings
    split: str = "train"
    dev_split: str | None = "dev"
    tasks: tuple[str, ...] = ()
    """Folder task names to train on (empty: every folder)."""
    seeds: tuple[int, ...] = (0, 1)
    soup: str = "uniform"
    trunk_epochs: int = 0
    """Epochs trained once, under the first seed, into a shared *trunk* model from which every seed
    then trains the remaining ``settings.epochs - trunk_epochs`` (each stage with its own warm-up and
    decay); 0: every seed trains every epoch from the base."""
    resume: bool = False
    device: str | None = None
    threads: int | None = None
    checkpoint_every: int = 500
    dev_easy: int = DEV_EASY
    eval_batch_size: int = 64
    progress: bool = True

    def __post_init__(self) -> None:
        if self.soup not in SOUPS:
            raise ExecIRError(f"--soup must be one of {', '.join(SOUPS)}, got '{self.soup}'")
        if not self.seeds or len(set(self.seeds)) != len(self.seeds):
            raise ExecIRError(f"seeds must be distinct and at least one, got {list(self.seeds)}")
        if not 0 <= self.trunk_epochs < self.settings.epochs:
            raise ExecIRError(f"--trunk-epochs must be at least 0 and below --epochs ({self.settings.epochs}), got {self.trunk_epochs}")
        if self.checkpoint_every < 1:
            raise ExecIRError(f"--checkpoint-every must be at least 1, got {self.checkpoint_every}")
        if self.threads is not None and self.threads < 1:
            raise ExecIRError(f"--threads must be at least 1, got {self.threads}")
        if self.soup == "greedy" and self.dev_split is None:
            raise ExecIRError("--soup greedy chooses the seeds to average by their dev metrics; it needs a dev split (not --dev-split none)")
        if self.dev_split is not None and self.dev_split == self.split:
            raise ExecIRError(f"the dev split must differ from the training split ('{self.split}')")
