"""``train-embedder`` end to end on a tiny BERT bi-encoder: determinism, resume, the in-batch guard
inside the loop, LoRA, soup, and the trained folder as ``dense:DIR`` in ``execir eval`` and in MTEB."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sentence_transformers")
pytest.importorskip("peft")

import torch  # noqa: E402

from execir.errors import ExecIRError  # noqa: E402
from execir.train import embedder_loop  # noqa: E402
from execir.train.config import LoraSettings  # noqa: E402
from execir.train.embedder import train_embedder  # noqa: E402
from execir.train.embedder_config import EmbedderRunConfig, EmbedderSettings  # noqa: E402
from tests.train.helpers import write_build, write_tiny_base  # noqa: E402


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("embedder")
    return write_build(root / "build", problems=8), write_tiny_base(root / "base", head=False)


def _config(inputs: tuple[Path, Path], out: Path, **changes: object) -> EmbedderRunConfig:
    build, base = inputs
    settings = EmbedderSettings(base=str(base), batch_size=2, epochs=2, max_length=32, lr=1e-3, negatives=2)
    values: dict[str, object] = {"datasets": (build,), "out": out, "settings": settings, "tasks": ("t2c-description",), "threads": 1, "progress": False}
    values.update(changes)
    return EmbedderRunConfig(**values)  # type: ignore[arg-type]


def _weights(path: Path) -> dict[str, torch.Tensor]:
    from safetensors.torch import load_file

    return load_file(str(path / "model.safetensors"))


def _same(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


@pytest.fixture(scope="module")
def trained(inputs: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("trained") / "out"
    result = train_embedder(_config(inputs, out))
    assert result.finished and result.final == out / "model"
    return out


def test_training_changes_the_weights_and_writes_provenance(inputs: tuple[Path, Path], trained: Path) -> None:
    from sentence_transformers import SentenceTransformer

    base = SentenceTransformer(str(inputs[1]), device="cpu").state_dict()
    model = SentenceTransformer(str(trained / "model"), device="cpu")
    assert any(not torch.equal(base[k], v) for k, v in model.state_dict().items())
    assert model.encode(["return the smallest even number"]).shape == (1, 16)
    record = json.loads((trained / "training.json").read_text())
    assert record["model_type"] == "bi-encoder" and record["base"]["model"] == str(inputs[1]) and record["base"]["sha256"]
    assert record["rows"]["rows"] > 0 and record["seeds"][0]["steps"] > 0 and record["seeds"][0]["peak_rss_mb"] > 0
    assert record["datasets"][0]["manifest_sha256"] and record["versions"]["sentence_transformers"]
    assert set(record["dev"]["seed-0"][0]) >= {"exec@1", "exec@10", "ndcg@10"}
    info = json.loads((trained / "model" / "execir.json").read_text())
    assert info["kind"] == "seed" and info["fingerprint"] and info["settings"]["max_length"] == 32
    # trained at 32 tokens, saved to retrieve at the base's own length (the tiny base's 128)
    assert info["max_length"] == 128 and model.max_seq_length == 128
    assert not (trained / "seed-0" / "checkpoint").exists()


def test_retrieval_length_is_chosen_apart_from_training_length(inputs: tuple[Path, Path], trained: Path, tmp_path: Path) -> None:
    from sentence_transformers import SentenceTransformer

    out = tmp_path / "short"
    result = train_embedder(_config(inputs, out, retrieval_max_length=24))
    assert SentenceTransformer(str(out / "model"), device="cpu").max_seq_length == 24
    assert json.loads((out / "model" / "execir.json").read_text())["max_length"] == 24
    assert _same(_weights(trained / "seed-0"), _weights(out / "seed-0"))  # the same training: only truncation differs
    assert result.finished and set(result.dev["seed-0"][0].means) >= {"exec@1", "ndcg@10"}
    with pytest.raises(ExecIRError, match="retrieve at 24 tokens, not --retrieval-max-length 64"):
        train_embedder(_config(inputs, out, retrieval_max_length=64, resume=True))
    with pytest.raises(ExecIRError, match="--retrieval-max-length must be at least 1"):
        _config(inputs, out, retrieval_max_length=0)


def test_two_runs_give_identical_weights(inputs: tuple[Path, Path], trained: Path, tmp_path: Path) -> None:
    train_embedder(_config(inputs, tmp_path / "again"))
    assert _same(_weights(trained / "seed-0"), _weights(tmp_path / "again" / "seed-0"))


def test_stop_and_resume_reaches_the_same_weights(inputs: tuple[Path, Path], trained: Path, tmp_path: Path) -> None:
    out = tmp_path / "resumed"
    first = train_embedder(_config(inputs, out, checkpoint_every=1), stop_after=2)
    assert not first.finished and (out / "seed-0" / "checkpoint").is_dir()
    with pytest.raises(ExecIRError, match="not empty"):
        train_embedder(_config(inputs, out))
    second = train_embedder(_config(inputs, out, resume=True))
    assert second.finished and second.seeds[0].resumed_at == 2
    assert _same(_weights(trained / "seed-0"), _weights(out / "seed-0"))


def test_the_loop_never_batches_two_rows_of_one_problem(inputs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[frozenset[str]]] = []
    real = embedder_loop.column_features

    def spy(model: object, batch: list, device: object) -> list:
        seen.append([row.problems for row in batch])
        return real(model, batch, device)

    monkeypatch.setattr(embedder_loop, "column_features", spy)
    train_embedder(_config(inputs, tmp_path / "spy", tasks=("t2c-description", "c2c"), dev_split=None))
    assert seen and any(len(batch) > 1 for batch in seen)
    for batch in seen:
        problems = [p for row in batch for p in row]
        assert len(problems) == len(set(problems)), f"a batch holds two rows of one problem: {batch}"


def test_lora_seeds_and_uniform_soup(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    from sentence_transformers import SentenceTransformer

    out = tmp_path / "lora"
    settings = replace(_config(inputs, out).settings, mode="lora", lora=LoraSettings(r=2, alpha=4), loss="cached-mnrl", mini_batch_size=3)
    result = train_embedder(_config(inputs, out, settings=settings, seeds=(0, 1), dev_split=None))
    assert result.soup_seeds == (0, 1) and json.loads((out / "training.json").read_text())["final_model"]["source"] == "soup"
    one, two, soup = (_weights(out / n) for n in ("seed-0", "seed-1", "soup"))
    assert not any("lora_" in k or k.startswith("base_model") for k in one)
    assert not _same(one, two) and _same(soup, _weights(out / "model"))
    for key, value in soup.items():
        if value.is_floating_point():
            expected = ((one[key].double() + two[key].double()) / 2).to(value.dtype)
            assert torch.allclose(value, expected, atol=1e-7), key
    base = SentenceTransformer(str(inputs[1]), device="cpu").state_dict()
    changed = [k for k in base if not torch.equal(base[k], SentenceTransformer(str(out / "seed-0"), device="cpu").state_dict()[k])]
    assert changed and all(("query" in k or "value" in k) for k in changed)  # LoRA's default BERT targets, merged


def test_trained_folder_is_a_dense_retriever_in_eval(inputs: tuple[Path, Path], trained: Path, tmp_path: Path) -> None:
    from execir.cli import main

    build, base = inputs
    out = tmp_path / "eval"
    assert (
        main(
            [
                "eval",
                str(build / "t2c-description"),
                "--split",
                "test",
                "--retriever",
                f"dense:{base}",
                "--retriever",
                f"dense:{trained / 'model'}",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    record = json.loads((out / "results.json").read_text())
    specs = [s["spec"] for s in record["systems"].values()]
    assert f"dense:{trained / 'model'}" in specs
    assert len(record["comparisons"]) == 1 and {"b10", "b01", "p_value"} <= set(record["comparisons"][0])


def test_trained_folder_is_an_mteb_model(inputs: tuple[Path, Path], trained: Path, tmp_path: Path) -> None:
    mteb = pytest.importorskip("mteb")
    from sentence_transformers import SentenceTransformer

    from execir.interop import mteb_task

    task = mteb_task(inputs[0] / "t2c-description", split="test")
    model = SentenceTransformer(str(trained / "model"), device="cpu")
    result = mteb.evaluate(model, tasks=[task], cache=mteb.ResultCache(tmp_path / "cache"), show_progress_bar=False)
    assert 0.0 <= result.task_results[0].scores["test"][0]["ndcg_at_10"] <= 1.0


def test_code_to_code_training_declares_its_query_prompt_and_adds_own_programs(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    from execir.retrieve.prompts import TRAINED_QUERY_PROMPTS

    prompted = replace(_config(inputs, tmp_path).settings, prompts="task")
    result = train_embedder(_config(inputs, tmp_path / "c2c", tasks=("t2c-description", "c2c"), dev_split="test", settings=prompted))
    info = json.loads((tmp_path / "c2c" / "model" / "execir.json").read_text())
    assert info["prompts"] == {"c2c": {"query": TRAINED_QUERY_PROMPTS["c2c"], "document": ""}}
    record = json.loads((tmp_path / "c2c" / "training.json").read_text())
    assert record["rows"]["self_positives"] > 0 and record["settings"]["prompts"] == "task" and record["settings"]["self_positives"]
    assert {m.folder for m in result.dev["seed-0"]} == {"t2c-description", "c2c"}
    train_embedder(_config(inputs, tmp_path / "bare", tasks=("c2c",)))  # the default: no prompts, and so no own-program rows
    assert json.loads((tmp_path / "bare" / "model" / "execir.json").read_text())["prompts"] == {}
    assert json.loads((tmp_path / "bare" / "training.json").read_text())["rows"]["self_positives"] == 0


def test_mteb_encodes_queries_with_the_declared_prompt(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    mteb = pytest.importorskip("mteb")

    from execir.interop import mteb_model, mteb_task
    from execir.retrieve.prompts import TRAINED_QUERY_PROMPTS

    train_embedder(_config(inputs, tmp_path / "out", tasks=("c2c",), dev_split=None, settings=replace(_config(inputs, tmp_path).settings, prompts="task")))
    c2c, t2c = mteb_task(inputs[0] / "c2c", split="test"), mteb_task(inputs[0] / "t2c-description", split="test")
    queries = {name: set(task._folder.beir()[1].values()) for name, task in (("c2c", c2c), ("t2c", t2c))}
    model = mteb_model(tmp_path / "out" / "model", device="cpu")
    seen: list[tuple[str | None, str]] = []
    encode = model.model.encode

    def spy(inputs: Any, **kwargs: Any) -> Any:
        seen.extend((kwargs.get("prompt"), str(t)) for t in inputs)
        return encode(inputs, **kwargs)

    model.model.encode = spy
    scores = mteb.evaluate(model, tasks=[c2c, t2c], cache=mteb.ResultCache(tmp_path / "cache"), show_progress_bar=False)
    prompted = {text for prompt, text in seen if prompt == TRAINED_QUERY_PROMPTS["c2c"]}
    assert queries["c2c"] and prompted == queries["c2c"]  # every code query prompted; its own program also encoded bare
    assert {prompt or None for prompt, _ in seen} == {None, TRAINED_QUERY_PROMPTS["c2c"]}
    assert not prompted & queries["t2c"] and all(0.0 <= r.scores["test"][0]["ndcg_at_10"] <= 1.0 for r in scores.task_results)
