"""Load a base model as a one-logit sequence classifier, wrap it with LoRA, and save loadable directories.

A saved directory is a plain transformers sequence-classification model with its tokenizer (its
``model_max_length`` set to the training ``max_length``), which
``sentence_transformers.CrossEncoder(path)`` loads as a cross-encoder, plus ``execir.json``
(``pair_order``: ``text-code`` and the training provenance). ``execir.json`` is written last:
a directory without it is incomplete.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir.dataset.files import atomic_write_bytes, json_bytes
from execir.errors import ExecIRError, MissingDependencyError
from execir.model_identity import MODEL_FILE
from execir.train.config import LoraSettings
from execir.train.pairs import PAIR_ORDER

INSTALL_HINT = "pip install 'execir[rerank]' (torch, transformers, peft, sentence-transformers)"
MODEL_INFO = MODEL_FILE
WEIGHT_SUFFIXES = (".safetensors", ".bin")
HEAD_PREFIXES = ("classifier.", "score.", "pre_classifier.", "head.", "pooler.")
"""Where sequence-classification architectures keep the weights they add to a base (BERT and
DistilBERT ``classifier``/``pre_classifier``, Qwen and Llama ``score``, ModernBERT ``head``, DeBERTa ``pooler``)."""


@dataclass(frozen=True)
class BaseIdentity:
    """Which base model was trained: as given, the hub commit when known, a content hash for local folders."""

    model: str
    revision: str | None
    commit: str | None
    sha256: str | None
    new_weights: tuple[str, ...] = ()
    """Weights the checkpoint lacked, initialised under the init seed (the bundled MiniLM: the head)."""

    def to_json(self) -> dict[str, str | list[str] | None]:
        """The identity as JSON values."""
        return {"model": self.model, "revision": self.revision, "commit": self.commit, "sha256": self.sha256, "new_weights": list(self.new_weights)}

    @classmethod
    def of(cls, record: dict[str, Any]) -> BaseIdentity:
        """The identity from :meth:`to_json`'s values."""
        return cls(record["model"], record.get("revision"), record.get("commit"), record.get("sha256"), tuple(record.get("new_weights", ())))


def require_training_stack() -> None:
    """Raise :class:`MissingDependencyError` naming the install command when a training library is missing."""
    for name in ("torch", "transformers", "peft", "sentence_transformers"):
        try:
            __import__(name)
        except ImportError as exc:
            raise MissingDependencyError(f"training a reranker needs {name}: {INSTALL_HINT}") from exc


def local_weights_sha256(path: Path) -> str:
    """sha256 over the config and weight files of a local model folder (names and bytes, sorted)."""
    digest = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file() and (p.name == "config.json" or p.name.endswith(WEIGHT_SUFFIXES))):
        digest.update(str(file.relative_to(path)).encode("utf-8") + b"\0")
        with file.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def load_base(base: str, *, revision: str | None, init_seed: int) -> tuple[Any, Any, BaseIdentity]:
    """(model, tokenizer, identity): ``base`` as a ``num_labels=1`` sequence classifier whose new
    head is initialised under ``torch.manual_seed(init_seed)``; the generator is left where the head
    leaves it, so LoRA adapters added next are drawn from the same seed."""
    import torch
    from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer

    local = Path(base).expanduser()
    if base.startswith(("/", "./", "../", "~")) and not local.is_dir():
        raise ExecIRError(f"base model {base}: not a directory")
    try:
        config = AutoConfig.from_pretrained(base, revision=revision, num_labels=1)
        tokenizer = AutoTokenizer.from_pretrained(base, revision=revision)
    except OSError as exc:
        raise ExecIRError(f"cannot load base model '{base}': {exc}") from None
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if getattr(config, "pad_token_id", None) is None:
        config.pad_token_id = tokenizer.pad_token_id
    torch.manual_seed(init_seed)
    with _quiet_load_report():
        model, loading = AutoModelForSequenceClassification.from_pretrained(base, config=config, revision=revision, output_loading_info=True)
    new = tuple(sorted(loading.get("missing_keys", ())))
    unusual = [k for k in new if not k.startswith(HEAD_PREFIXES)]
    if unusual:
        print(
            f"warning: base model {base}: {len(unusual)} weights outside a classification head are not in the checkpoint "
            f"and start random ({', '.join(unusual[:3])}{', ...' if len(unusual) > 3 else ''})",
            file=sys.stderr,
        )
    identity = BaseIdentity(
        model=base,
        revision=revision,
        commit=getattr(config, "_commit_hash", None),
        sha256=local_weights_sha256(local) if local.is_dir() else None,
        new_weights=new,
    )
    return model, tokenizer, identity


@contextmanager
def _quiet_load_report() -> Iterator[None]:
    """Hold back transformers' load report (a warning-level table, for the bundled base only the new
    head): :func:`load_base` records the new weights and warns itself when more than a head is new.

    A filter drops the logger's records below ERROR; the logger's level stays as it was, because
    transformers runs (and logs) a tensor-parallel plan check whenever that level is WARNING or above."""
    logger = logging.getLogger("transformers.modeling_utils")

    def errors_only(record: logging.LogRecord) -> bool:
        return record.levelno >= logging.ERROR

    logger.addFilter(errors_only)
    try:
        yield
    finally:
        logger.removeFilter(errors_only)


def add_lora(model: Any, settings: LoraSettings) -> Any:
    """``model`` with LoRA adapters (task SEQ_CLS: peft keeps the classification head trainable and saved)."""
    from peft import LoraConfig, TaskType, get_peft_model

    targets: list[str] | str | None = list(settings.targets) if isinstance(settings.targets, tuple) else settings.targets
    config = LoraConfig(task_type=TaskType.SEQ_CLS, r=settings.r, lora_alpha=settings.alpha, lora_dropout=settings.dropout, target_modules=targets)
    try:
        with warnings.catch_warnings():  # peft reads transformers' deprecated is_gradient_checkpointing
            warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning)
            return get_peft_model(model, config)
    except ValueError as exc:
        raise ExecIRError(f"LoRA: {exc} (pass --lora-targets with the model's linear layer names, or all-linear)") from None


def merged(model: Any) -> Any:
    """The plain model: LoRA adapters merged into the base weights (a full model is returned as is)."""
    from peft import PeftModel

    return model.merge_and_unload() if isinstance(model, PeftModel) else model


def save_model(model: Any, tokenizer: Any, out: Path, *, max_length: int, info: dict[str, Any]) -> None:
    """Write a CrossEncoder-loadable directory: weights, config, tokenizer, then ``execir.json``."""
    stale = out / MODEL_INFO
    if stale.exists():
        stale.unlink()
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out, safe_serialization=True)
    tokenizer.model_max_length = max_length
    tokenizer.save_pretrained(out)
    atomic_write_bytes(out / MODEL_INFO, json_bytes({"pair_order": PAIR_ORDER, "max_length": max_length, **info}))


def is_complete(path: Path) -> bool:
    """True when ``path`` holds a saved model (its ``execir.json`` was written)."""
    return (path / MODEL_INFO).is_file()


def read_info(path: Path) -> dict[str, Any]:
    """A saved model's ``execir.json``."""
    data = json.loads((path / MODEL_INFO).read_bytes())
    if not isinstance(data, dict):
        raise ExecIRError(f"{path / MODEL_INFO}: expected a JSON object")
    return data
