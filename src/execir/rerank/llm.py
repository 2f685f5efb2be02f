"""LLM reranker (``llm:<model>``): yes/no next-token judgements of a causal LM (Qwen3-Reranker kind).

Each (query, candidate) pair becomes the family's prompt (:class:`~execir.rerank.prompts.LLMFamily`:
for Qwen3-Reranker a system message asking for "yes" or "no", then ``<Instruct>: {instruction}
<Query>: {query} <Document>: {document}``, then the assistant turn with an empty think block). The
instruction is the task spec's (:meth:`LLMReranker.use_task`; no task means text to code). The
score is P(yes) = softmax(logit[no], logit[yes])[yes] at the last position, computed in float64
(so confident judgements do not tie at 1.0).

Prefix, body and suffix are tokenized separately and joined, as in Qwen's reference code. A pair
longer than ``max_length`` tokens loses tokens from the end of the query and of the document,
longest first (:func:`~execir.rerank.prompts.truncate_segments`); the template is never cut.
Batches are padded on the left, with position ids counted from each sequence's first real token,
and sorted by length (so a pair's score does not depend on its neighbours beyond float noise).

Weights run in float32 on CPU and in the checkpoint's dtype on an accelerator. The model family
comes from ``family`` or the model name; a name matching no family gets Qwen3's template and
``config()`` says it was guessed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from execir.console import disable_loaded_library_bars
from execir.errors import ExecIRError, MissingDependencyError
from execir.model_identity import directory_fingerprint, resolve_hub_revision

from .base import RerankRequest, RerankStats, model_label
from .cross_encoder import INSTALL_HINT, local_model_dir, versions
from .prompts import DEFAULT_INSTRUCTION, assemble, infer_family, plan_pairs, truncate_segments

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


def single_token_id(tokenizer: Any, token: str) -> int:
    """The id of ``token`` when the tokenizer has it as one token, else :class:`ExecIRError`."""
    token_id = tokenizer.convert_tokens_to_ids(token)
    unknown = getattr(tokenizer, "unk_token_id", None)
    if not isinstance(token_id, int) or token_id == unknown or tokenizer.convert_ids_to_tokens(token_id) != token:
        raise ExecIRError(f"llm reranker: the tokenizer has no single token '{token}' (a yes/no reranker scores that token)")
    return token_id


class LLMReranker:
    """Reranks with a causal LM's P(yes) for each (query, candidate) prompt (hub id or local directory)."""

    def __init__(
        self,
        model: str,
        *,
        revision: str | None = None,
        device: str | None = None,
        batch_size: int = 8,
        max_length: int = 4096,
        progress: bool = True,
        family: str | None = None,
    ) -> None:
        if batch_size < 1:
            raise ExecIRError(f"llm reranker batch size must be positive, got {batch_size}")
        self.model = model
        self.local = local_model_dir(model)
        self.requested_revision = revision
        self.device = device
        self.batch_size = batch_size
        self.max_length = max_length
        self.progress = progress
        self.family, self.family_guessed = infer_family(model, family)
        self.name = "llm:" + model_label(model)
        self.instruction = DEFAULT_INSTRUCTION
        self._loaded: tuple[Any, Any, int, int] | None = None
        self._stats = RerankStats(queries=0, pairs=0, seconds=0.0)

    @cached_property
    def revision(self) -> str:
        """Content hash (local directory) or commit sha (hub id) of the weights."""
        if self.local is not None:
            return directory_fingerprint(self.local)
        return resolve_hub_revision(self.model, self.requested_revision)

    def use_task(self, task: TaskSpec | None) -> None:
        """Use ``task``'s instruction from now on (None: text to code)."""
        self.instruction = task.instruction if task is not None else DEFAULT_INSTRUCTION

    def _load(self) -> tuple[Any, Any, int, int]:
        """(tokenizer, model, id of the yes token, id of the no token), loaded once."""
        if self._loaded is not None:
            return self._loaded
        try:  # transformers first: a missing one fails before torch's slow import
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError as exc:
            raise MissingDependencyError(f"LLM reranking needs torch and transformers: {INSTALL_HINT}") from exc
        try:
            import torch
        except ImportError as exc:
            raise MissingDependencyError(f"LLM reranking needs torch and transformers: {INSTALL_HINT}") from exc
        if not self.progress:
            disable_loaded_library_bars()
        device = self.device or ("cuda" if torch.cuda.is_available() else "cpu")
        source = str(self.local) if self.local is not None else self.model
        where: dict[str, Any] = {"revision": None if self.local is not None else self.revision, "local_files_only": self.local is not None}
        try:
            tokenizer = AutoTokenizer.from_pretrained(source, padding_side="left", **where)
            yes, no = single_token_id(tokenizer, self.family.yes), single_token_id(tokenizer, self.family.no)
            model: Any = AutoModelForCausalLM.from_pretrained(source, dtype=torch.float32 if device == "cpu" else "auto", **where)
        except (OSError, ValueError) as exc:
            raise ExecIRError(f"cannot load LLM reranker '{self.model}': {exc}") from exc
        if not getattr(tokenizer, "is_fast", False):
            raise ExecIRError(f"llm reranker '{self.model}': needs a fast tokenizer (tokenizer.json) to truncate documents")
        if tokenizer.pad_token_id is None and tokenizer.eos_token_id is None:
            raise ExecIRError(f"llm reranker '{self.model}': the tokenizer has neither a pad nor an eos token")
        self._loaded = (tokenizer, model.to(device).eval(), yes, no)
        return self._loaded

    def encode(self, query: str, document: str) -> tuple[list[int], bool]:
        """Token ids of the prompt for one pair, and whether the query or document was truncated."""
        tokenizer = self._load()[0]
        prefix, suffix = self._template_ids
        body, query_span, document_span = self.family.segments(self.instruction, query, document)
        encoded = tokenizer(body, add_special_tokens=False, return_offsets_mapping=True)
        ids, offsets = encoded["input_ids"], encoded["offset_mapping"]
        keep = truncate_segments(offsets, query_span, document_span, self.max_length - len(prefix) - len(suffix))
        if keep is None:
            raise ExecIRError(f"llm reranker: max_length {self.max_length} is too short for the prompt template and instruction")
        return prefix + [ids[i] for i in keep] + suffix, len(keep) < len(ids)

    @cached_property
    def _template_ids(self) -> tuple[list[int], list[int]]:
        tokenizer = self._load()[0]
        return (tokenizer.encode(self.family.prefix, add_special_tokens=False), tokenizer.encode(self.family.suffix, add_special_tokens=False))

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        """query id -> candidate id -> P(yes)."""
        start = time.perf_counter()
        plan = plan_pairs(request)
        encoded = [self.encode(query, document) for query, document in plan.texts]
        scores = self.score_ids([ids for ids, _ in encoded])
        result = assemble(plan, scores)
        self._stats = RerankStats(
            queries=len(plan.slots),
            pairs=plan.pairs,
            seconds=time.perf_counter() - start,
            extra={"unique_pairs": float(len(plan.texts)), "truncated_pairs": float(sum(cut for _, cut in encoded))},
        )
        return result

    def score_ids(self, sequences: Sequence[list[int]]) -> list[float]:
        """P(yes) after each token sequence, in batches of similar length padded on the left."""
        if not sequences:
            return []
        import torch
        from tqdm.auto import tqdm

        tokenizer, model, yes, no = self._load()
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        order = sorted(range(len(sequences)), key=lambda i: -len(sequences[i]))
        scores = [0.0] * len(sequences)
        starts = range(0, len(order), self.batch_size)
        for begin in tqdm(starts, desc=f"rerank {self.name}", unit="batch", disable=not self.progress):
            batch = order[begin : begin + self.batch_size]
            width = max(len(sequences[i]) for i in batch)
            ids = torch.tensor([[pad] * (width - len(sequences[i])) + sequences[i] for i in batch], device=model.device)
            mask = torch.tensor([[0] * (width - len(sequences[i])) + [1] * len(sequences[i]) for i in batch], device=model.device)
            positions = (mask.cumsum(-1) - 1).clamp(min=0)
            with torch.inference_mode():
                logits = model(input_ids=ids, attention_mask=mask, position_ids=positions, logits_to_keep=1).logits[:, -1, :]
            pair = torch.stack([logits[:, no], logits[:, yes]], dim=1).double()
            for i, p in zip(batch, torch.softmax(pair, dim=1)[:, 1].tolist()):
                scores[i] = float(p)
        return scores

    def stats(self) -> RerankStats:
        """Counts of the last :meth:`score` call (``extra``: distinct pairs scored, pairs truncated)."""
        return self._stats

    def config(self) -> dict[str, object]:
        """Model, revision, prompt family and template, instruction, lengths, device and versions."""
        loaded = self._loaded is not None
        model = self._loaded[1] if self._loaded is not None else None
        return {
            "kind": "llm",
            "model": self.model,
            "path": str(self.local) if self.local is not None else None,
            "requested_revision": self.requested_revision,
            "revision": self.revision if loaded or self.local is not None else None,
            "family": self.family.name,
            "family_guessed": self.family_guessed,
            "warning": f"'{self.model}' matches no known prompt family; using {self.family.name}'s template" if self.family_guessed else None,
            "prefix": self.family.prefix,
            "body": self.family.body,
            "suffix": self.family.suffix,
            "instruction": self.instruction,
            "score": f"P({self.family.yes}) over {{{self.family.yes}, {self.family.no}}}",
            "max_length": self.max_length,
            "batch_size": self.batch_size,
            "device": str(model.device) if model is not None else self.device,
            "dtype": str(model.dtype) if model is not None else None,
            "versions": versions(),
        }
