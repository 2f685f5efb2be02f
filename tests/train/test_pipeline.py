"""End to end on a tiny BERT: models per seed, the soup, OUT/model, training.json, CrossEncoder loading."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from execir.errors import ExecIRError
from execir.train.config import LoraSettings, RunConfig, TrainSettings
from execir.train.pipeline import train_reranker
from tests.train.helpers import write_build, write_tiny_base


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("e2e")
    return write_build(root / "build"), write_tiny_base(root / "base")


def _config(inputs: tuple[Path, Path], out: Path, **changes: object) -> RunConfig:
    build, base = inputs
    settings = TrainSettings(base=str(base), mode="lora", lora=LoraSettings(r=2, alpha=4), batch_size=8, max_length=32, lr=1e-3)
    values: dict[str, object] = {
        "datasets": (build,),
        "out": out,
        "settings": settings,
        "tasks": ("t2c-description", "c2t"),
        "seeds": (0, 1),
        "threads": 1,
        "dev_easy": 3,
        "progress": False,
    }
    values.update(changes)
    return RunConfig(**values)  # type: ignore[arg-type]


def _weights(path: Path) -> dict[str, torch.Tensor]:
    from safetensors.torch import load_file

    return load_file(str(path / "model.safetensors"))


def test_lora_seeds_soup_and_final_model(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    from sentence_transformers import CrossEncoder

    out = tmp_path / "out"
    result = train_reranker(_config(inputs, out))
    assert result.finished and result.final == out / "model"
    for name in ("seed-0", "seed-1", "soup", "model"):
        info = json.loads((out / name / "execir.json").read_text())
        assert info["pair_order"] == "text-code" and info["max_length"] == 32
        scores = CrossEncoder(str(out / name)).predict([("return the smallest even number", "def f(xs):\n    return min(xs)\n")])
        assert scores.shape == (1,) and bool(torch.isfinite(torch.tensor(scores)).all())
        assert not (out / name / "checkpoint").exists()
    one, two, soup, final = (_weights(out / n) for n in ("seed-0", "seed-1", "soup", "model"))
    assert not any(k.startswith("base_model") or "lora_" in k for k in one)
    assert not torch.equal(one["classifier.weight"], two["classifier.weight"])
    for key in one:
        if one[key].is_floating_point():
            assert torch.equal(soup[key], ((one[key].double() + two[key].double()) / 2).to(one[key].dtype)), key
        assert torch.equal(final[key], soup[key])
    training = json.loads((out / "training.json").read_text())
    assert training["pairs"]["pairs"] == result.counts.pairs > 0
    assert {f["task"] for f in training["folders"]} == {"t2c-description", "c2t"}
    assert all(f["manifest_sha256"] for f in training["datasets"])
    assert training["base"]["sha256"] and training["settings"]["lora"]["r"] == 2
    assert [s["seed"] for s in training["seeds"]] == [0, 1] and all(s["steps"] > 0 for s in training["seeds"])
    assert set(training["dev"]) == {"seed-0", "seed-1", "soup"}
    for metrics in training["dev"].values():
        assert {m["folder"] for m in metrics} == {"t2c-description", "c2t"}
        assert all(0.0 <= m[k] <= 1.0 for m in metrics for k in ("exec@1", "exec@10", "ndcg@10"))
    assert training["final_model"] == {"path": "model", "source": "soup"}
    from execir.rerank.prompts import read_pair_order  # the reader behind ce:<path>

    assert read_pair_order(out / "model") == "text-code"
    assert set(training["versions"]) == {"torch", "transformers", "peft", "sentence_transformers"}


def test_stopped_run_resumes_to_the_same_model(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    build, base = inputs
    settings = TrainSettings(base=str(base), batch_size=8, max_length=32, lr=1e-3)
    straight = train_reranker(_config(inputs, tmp_path / "a", settings=settings, seeds=(3,), tasks=("t2c-description",), dev_split=None))
    assert straight.final is not None and straight.dev == {}
    stopped = train_reranker(_config(inputs, tmp_path / "b", settings=settings, seeds=(3,), tasks=("t2c-description",), dev_split=None), stop_after=2)
    assert not stopped.finished and (tmp_path / "b" / "seed-3" / "checkpoint" / "state.safetensors").is_file()
    assert not (tmp_path / "b" / "training.json").exists()
    with pytest.raises(ExecIRError, match="not empty"):
        train_reranker(_config(inputs, tmp_path / "b", settings=settings, seeds=(3,), tasks=("t2c-description",), dev_split=None))
    resumed = train_reranker(_config(inputs, tmp_path / "b", settings=settings, seeds=(3,), tasks=("t2c-description",), dev_split=None, resume=True))
    assert resumed.seeds[0].resumed_at == 2
    a, b = _weights(tmp_path / "a" / "model"), _weights(tmp_path / "b" / "model")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    again = train_reranker(_config(inputs, tmp_path / "b", settings=settings, seeds=(3,), tasks=("t2c-description",), dev_split=None, resume=True))
    assert again.seeds == resumed.seeds  # a finished seed is read back, not retrained


def test_listwise_run_records_its_loss_and_group_shape(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    build, base = inputs
    settings = TrainSettings(base=str(base), batch_size=2, max_length=32, lr=1e-3, loss="listwise", group_hard=1, group_easy=2)
    result = train_reranker(_config(inputs, tmp_path / "lw", settings=settings, seeds=(0,), tasks=("c2t",)))
    training = json.loads((tmp_path / "lw" / "training.json").read_text())
    assert training["settings"]["loss"] == "listwise" and (training["settings"]["group_hard"], training["settings"]["group_easy"]) == (1, 2)
    assert result.counts.easy == 2 * result.counts.positives and result.counts.hard == result.counts.positives
    assert training["seeds"][0]["steps"] == -(-result.counts.positives // 2)  # two groups per update
    pointwise = TrainSettings(base=str(base)).to_json()
    assert pointwise["loss"] == "pointwise" and "group_hard" not in pointwise


def test_unknown_task_and_bad_soup_are_user_errors(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    with pytest.raises(ExecIRError, match="no such folder"):
        train_reranker(_config(inputs, tmp_path / "x", tasks=("t2c-nothing",)))
    with pytest.raises(ExecIRError, match="--soup"):
        _config(inputs, tmp_path / "x", soup="best")
    with pytest.raises(ExecIRError, match="needs a dev split"):
        _config(inputs, tmp_path / "x", soup="greedy", dev_split=None)


def test_greedy_soup_averages_the_seeds_it_kept_and_scores_at_least_the_best_seed(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    from execir.train.dev import DevMetrics, soup_score

    out = tmp_path / "greedy"
    result = train_reranker(_config(inputs, out, seeds=(0, 1, 2), soup="greedy"))
    training = json.loads((out / "training.json").read_text())
    assert training["soup"] == "greedy" and not (out / "soup-trial").exists()
    trials = training["soup_trials"]

    def score(name: str) -> list[float]:
        return list(soup_score([DevMetrics(m["folder"], m["queries"], m["pairs"], m) for m in training["dev"][name]]))

    best = max((0, 1, 2), key=lambda s: score(f"seed-{s}"))  # max keeps the first of equal scores, as the soup does
    assert trials[0]["seeds"] == [best] and trials[0]["kept"] and list(trials[0]["dev"].values()) == pytest.approx(score(f"seed-{best}"), abs=2e-6)
    assert len(trials) == 3 and all(len(t["seeds"]) == len(trials[i - 1]["seeds"]) + 1 - (not trials[i - 1]["kept"]) for i, t in enumerate(trials) if i)
    kept = [t for t in trials if t["kept"]]
    assert training["soup_seeds"] == kept[-1]["seeds"] == list(result.soup_seeds)
    assert score("soup") == pytest.approx(list(kept[-1]["dev"].values()), abs=2e-6)  # the decisions' numbers are the saved soup's
    assert list(kept[-1]["dev"].values()) >= list(trials[0]["dev"].values())  # never below the best seed
    for trial in trials[1:]:
        assert trial["kept"] == (list(trial["dev"].values()) >= list(kept[[t["seeds"] for t in kept].index(trial["seeds"][:-1])]["dev"].values()))
    members = [_weights(out / f"seed-{s}") for s in training["soup_seeds"]]
    soup = _weights(out / "soup")
    for key, value in soup.items():
        if value.is_floating_point():
            expected = sum(m[key].double() for m in members) / len(members)
            assert torch.equal(value, expected.to(value.dtype)), key
    assert json.loads((out / "soup" / "execir.json").read_text())["seeds"] == training["soup_seeds"]


def test_trunk_epochs_branch_every_seed_from_one_trained_model(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    from execir.train.model import local_weights_sha256

    build, base = inputs
    settings = TrainSettings(base=str(base), batch_size=8, max_length=32, lr=1e-3, epochs=2)
    out = tmp_path / "branched"
    result = train_reranker(_config(inputs, out, settings=settings, trunk_epochs=1))
    assert result.finished and result.trunk is not None and result.trunk.path == out / "trunk"
    training = json.loads((out / "training.json").read_text())
    per_epoch = result.trunk.steps
    assert training["trunk"]["epochs"] == 1 and training["trunk"]["seed"] == 0 and per_epoch > 0
    assert [s["steps"] for s in training["seeds"]] == [per_epoch, per_epoch]  # the remaining epoch only
    assert training["base"]["model"] == str(base) and set(training["dev"]) == {"trunk", "seed-0", "seed-1", "soup"}
    trunk_sha = local_weights_sha256(out / "trunk")
    for seed in (0, 1):
        info = json.loads((out / f"seed-{seed}" / "execir.json").read_text())
        assert info["base"]["sha256"] == trunk_sha and info["trunk"]["fingerprint"] == json.loads((out / "trunk" / "execir.json").read_text())["fingerprint"]
    one, two = _weights(out / "seed-0"), _weights(out / "seed-1")
    assert not torch.equal(one["classifier.weight"], two["classifier.weight"])
    # a seed branched from the trunk is what training seed 1 alone from the trunk as --base gives, bit for bit
    alone = train_reranker(_config(inputs, tmp_path / "alone", settings=replace(settings, base=str(out / "trunk"), epochs=1), seeds=(1,), dev_split=None))
    assert alone.final is not None
    solo = _weights(tmp_path / "alone" / "seed-1")
    assert solo.keys() == two.keys() and all(torch.equal(solo[k], two[k]) for k in two)
    # stopped inside the trunk, resumed: the same soup
    stopped = train_reranker(_config(inputs, tmp_path / "stop", settings=settings, trunk_epochs=1), stop_after=2)
    assert not stopped.finished and (tmp_path / "stop" / "trunk" / "checkpoint").is_dir() and not (tmp_path / "stop" / "seed-0").exists()
    resumed = train_reranker(_config(inputs, tmp_path / "stop", settings=settings, trunk_epochs=1, resume=True))
    assert resumed.trunk is not None and resumed.trunk.resumed_at == 2
    a, b = _weights(out / "soup"), _weights(tmp_path / "stop" / "soup")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    with pytest.raises(ExecIRError, match="trained with other settings"):  # a saved trunk trained otherwise is refused
        train_reranker(_config(inputs, out, settings=replace(settings, epochs=3), trunk_epochs=2, resume=True, dev_split=None))
    with pytest.raises(ExecIRError, match="--trunk-epochs"):
        _config(inputs, tmp_path / "x", settings=settings, trunk_epochs=2)
