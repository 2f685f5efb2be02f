"""Reranker training: CoREB-style pairs with verified hard negatives, a deterministic resumable
loop (full fine-tuning or LoRA), model soup, dev metrics.

* :func:`build_pairs` / :func:`dev_candidates`: the pure data recipe (:mod:`execir.train.pairs`).
* :func:`train_reranker`: the whole run from a :class:`RunConfig` (:mod:`execir.train.pipeline`).
* :func:`uniform_soup`: the element-wise mean of state dicts (:mod:`execir.train.soup`).
"""

from execir.train.config import LoraSettings, RunConfig, TrainSettings
from execir.train.pairs import PAIR_ORDER, Pair, PairCounts, PairSource, build_pairs, dev_candidates
from execir.train.pipeline import TrainingResult, train_reranker
from execir.train.soup import uniform_soup

__all__ = [
    "PAIR_ORDER",
    "LoraSettings",
    "Pair",
    "PairCounts",
    "PairSource",
    "RunConfig",
    "TrainSettings",
    "TrainingResult",
    "build_pairs",
    "dev_candidates",
    "train_reranker",
    "uniform_soup",
]
