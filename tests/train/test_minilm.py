"""A few updates of the bundled all-MiniLM-L6-v2 as a cross-encoder, LoRA merged, loaded back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execir.retrieve.registry import bundled_minilm_path
from execir.train.config import RunConfig, TrainSettings
from execir.train.pipeline import train_reranker
from tests.train.helpers import write_build


@pytest.mark.slow
def test_bundled_minilm_trains_with_lora_and_loads_as_cross_encoder(tmp_path: Path) -> None:
    from sentence_transformers import CrossEncoder

    settings = TrainSettings(base=str(bundled_minilm_path()), mode="lora", batch_size=16, max_length=48, lr=2e-4)
    config = RunConfig(
        datasets=(write_build(tmp_path / "build", problems=6),),
        out=tmp_path / "out",
        settings=settings,
        tasks=("t2c-description",),
        seeds=(0,),
        dev_easy=2,
        threads=1,
        progress=False,
    )
    result = train_reranker(config)
    assert result.finished and result.seeds[0].steps >= 1
    model = CrossEncoder(str(tmp_path / "out" / "model"))
    scores = model.predict([("Return the smallest even number in the list.", "def f0(xs):\n    return min(xs) + 0\n")])
    assert scores.shape == (1,)
    training = json.loads((tmp_path / "out" / "training.json").read_text())
    assert training["base"]["sha256"] and training["settings"]["mode"] == "lora"
    assert set(training["dev"]["seed-0"][0]) >= {"exec@1", "exec@10", "ndcg@10"}
