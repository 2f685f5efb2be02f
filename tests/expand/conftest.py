"""A tiny GPT-2 causal LM built offline from a config (session-scoped): one layer, 32 dimensions,
a byte-level BPE tokenizer with no merges. It generates gibberish; the tests check plumbing."""

from __future__ import annotations

from pathlib import Path

import pytest


def make_tiny_gpt2(path: Path) -> Path:
    """Write a one-layer GPT-2 and its byte-level tokenizer to ``path`` (fixed seed)."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    backend = Tokenizer(models.BPE(vocab={c: i for i, c in enumerate(alphabet)}, merges=[]))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    backend.add_special_tokens(["<|endoftext|>"])
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=backend, eos_token="<|endoftext|>", pad_token="<|endoftext|>", model_max_length=1024)
    tokenizer.save_pretrained(path)
    config = transformers.GPT2Config(
        vocab_size=len(tokenizer), n_positions=1024, n_embd=32, n_layer=1, n_head=2, bos_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id
    )
    torch.manual_seed(0)
    transformers.GPT2LMHeadModel(config).save_pretrained(path)
    return path


@pytest.fixture(scope="session")
def tiny_gpt2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Path of the tiny GPT-2 directory."""
    return make_tiny_gpt2(tmp_path_factory.mktemp("tiny-gpt2"))
