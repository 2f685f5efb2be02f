"""``execir train-reranker``: fine-tune a cross-encoder on a dataset's verified hard negatives."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Literal

from execir.console import progress_enabled
from execir.errors import ExecIRError
from execir.train.config import DEV_EASY, FULL_LR, LISTWISE_BATCH, LORA_LR, LOSSES, POINTWISE_BATCH, SOUPS, LoraSettings, RunConfig, TrainSettings
from execir.train.dev import SOUP_MEASURES, soup_score
from execir.train.pipeline import FINAL, TRAINING_JSON, TrainingResult, train_reranker

EPILOG = f"""Pairs (per training query and positive): (query, positive, 1) with one easy negative (another training
problem's document) and (query, positive, 1) with one hard negative (a verified-failing document of the same
problem, or with --hard-negatives mined:<retriever spec> the retriever's highest-ranked one). With --loss listwise,
one group per positive instead: the positive, --group-hard distinct hard negatives and --group-easy easy ones,
trained by the softmax cross-entropy of the positive within its group; --group-text N adds, per text-to-code
positive, the program against N counterfactuals of its own description. Pairs are always (text, code): for
code-to-text folders the description comes first. Weights the base lacks (a new head, LoRA adapters) start
from --init-seed, the same for every seed.

Outputs: OUT/trunk/ (with --trunk-epochs: the shared first epochs), OUT/seed-<s>/ (one model per seed, LoRA
merged), OUT/soup/ (two or more seeds: the uniform weight average of every seed, or with --soup greedy of the
best seed on dev and each further seed, best first, whose addition keeps the dev score (mean exec@1, then
nDCG@10) from dropping), OUT/model/ (the final model: use it as ce:OUT/model), OUT/{TRAINING_JSON} (provenance,
pair counts, times, dev metrics, the greedy soup's trials). Every model folder loads with
sentence_transformers.CrossEncoder and carries execir.json (pair_order: text-code).

examples:
  execir train-reranker --train data/he --task t2c-description --out models/he-ce
  execir train-reranker --train data/mbpp --out models/mbpp-ce --lora --seeds 3 --epochs 2
  execir train-reranker --train data/mbpp --out models/mbpp-g --seeds 3 --soup greedy
  execir train-reranker --train data/mbpp --out models/mbpp-t --epochs 2 --trunk-epochs 1   # seeds branch after epoch 1
  execir train-reranker --train data/mbpp --task c2t --task t2c-description --out models/mbpp-si2 --loss listwise --group-text 3 --lr 1e-4 --epochs 2
  execir train-reranker --train data/mbpp --out models/qwen --base Qwen/Qwen3-Reranker-0.6B --lora --device cuda
  execir train-reranker --train data/he --out models/he-ce --resume          # continue an interrupted run"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``train-reranker`` command."""
    parser = subparsers.add_parser(
        "train-reranker",
        help="fine-tune a cross-encoder reranker on a dataset's hard negatives",
        epilog=EPILOG,
        description="Fine-tune a cross-encoder (fully or with LoRA) on pairs from the training split, one model per seed, "
        "average them (model soup) and report dev exec@1, exec@10 and nDCG@10.",
    )
    parser.add_argument(
        "--train",
        type=Path,
        action="append",
        required=True,
        dest="datasets",
        metavar="DATASET",
        help="a dataset folder or a build's output (every folder's pairs together); repeatable",
    )
    parser.add_argument(
        "--task", action="append", default=[], dest="tasks", metavar="NAME", help="train only on the folder(s) of this task (e.g. t2c-description); repeatable"
    )
    parser.add_argument("--split", default="train", help="training split (default: train)")
    parser.add_argument("--dev-split", default="dev", help="split for dev metrics, or 'none' (default: dev)")
    parser.add_argument("--out", type=Path, required=True, help="output folder (must be empty unless --resume)")
    parser.add_argument("--base", default=None, help="base model: hub id or local folder (default: the bundled all-MiniLM-L6-v2)")
    parser.add_argument("--revision", default=None, help="hub revision (branch, tag or commit) of --base")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--lora", dest="mode", action="store_const", const="lora", help="train LoRA adapters (merged after training)")
    mode.add_argument("--full", dest="mode", action="store_const", const="full", help="fine-tune every weight (default)")
    parser.add_argument("--seeds", type=int, default=2, help="number of seeds, trained as seed, seed+1, ... (default: 2)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default: 0)")
    parser.add_argument(
        "--init-seed",
        type=init_seed_arg,
        default=0,
        metavar="N|seed",
        help="seed of the new weights (classification head, LoRA adapters), the same for every seed so their "
        "models start from one point; the seeds vary data order, negatives and dropout; 'seed': each seed "
        "draws its own (default: 0)",
    )
    parser.add_argument(
        "--soup",
        default="uniform",
        help=f"combine the seeds' models: {', '.join(SOUPS)}; greedy averages the seeds that do not lower the "
        "dev score, starting from the best one (default: uniform)",
    )
    parser.add_argument("--epochs", type=int, default=1, help="epochs (default: 1)")
    parser.add_argument(
        "--trunk-epochs",
        type=int,
        default=0,
        metavar="K",
        help="train the first K epochs once, under the first seed (OUT/trunk), and every seed the remaining ones "
        "from that model, so the soup averages models that share a fine-tuned start (default: 0: every seed "
        "trains every epoch from the base)",
    )
    parser.add_argument(
        "--batch-size",
        type=int,
        default=None,
        help=f"pairs per update (pointwise, default {POINTWISE_BATCH}) or groups per update (listwise, default {LISTWISE_BATCH})",
    )
    parser.add_argument(
        "--loss",
        default="pointwise",
        choices=LOSSES,
        help="pointwise: labelled pairs, binary cross-entropy (CoREB); listwise: a positive against its group of "
        "negatives, softmax cross-entropy (default: pointwise)",
    )
    parser.add_argument("--group-hard", type=int, default=2, help="hard negatives per listwise group (default: 2)")
    parser.add_argument("--group-easy", type=int, default=1, help="easy negatives per listwise group (default: 1)")
    parser.add_argument(
        "--group-text",
        type=int,
        default=0,
        help="listwise: also a text-side group per text-to-code positive, the program against up to N counterfactuals of its description (default: 0, none)",
    )
    parser.add_argument("--lr", type=float, default=None, help=f"peak learning rate (default: {FULL_LR} full, {LORA_LR} LoRA)")
    parser.add_argument("--max-length", type=int, default=256, help="tokens per pair (default: 256)")
    parser.add_argument("--hard-negatives", default="dataset", help="'dataset' (grade-1 documents) or 'mined:<retriever spec>' (default: dataset)")
    parser.add_argument(
        "--easy-negatives",
        default="random",
        help="'random' (a seeded document of another training problem) or 'mined:<retriever spec>' (the other "
        "training problems' documents the retriever ranks highest for the query) (default: random)",
    )
    parser.add_argument("--lora-r", type=int, default=8, help="LoRA rank (default: 8)")
    parser.add_argument("--lora-alpha", type=int, default=16, help="LoRA alpha (default: 16)")
    parser.add_argument("--lora-dropout", type=float, default=0.1, help="LoRA dropout (default: 0.1)")
    parser.add_argument(
        "--lora-targets", default=None, help="comma-separated module names, or all-linear (default: the architecture's usual ones, query/value for BERT)"
    )
    parser.add_argument("--device", default=None, help="torch device (default: cuda when available, else cpu)")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads for torch (fixed for reproducible results; default: torch's)")
    parser.add_argument("--checkpoint-every", type=int, default=500, help="updates between checkpoints (default: 500; also at each epoch end)")
    parser.add_argument("--dev-easy", type=int, default=DEV_EASY, help=f"easy negatives added to each dev query's pool (default: {DEV_EASY})")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out from its last checkpoint")
    parser.add_argument("--no-progress", action="store_true", help="hide progress bars (never shown when stderr is not a terminal)")
    parser.set_defaults(handler=run_train_reranker)


def init_seed_arg(text: str) -> int | None:
    """``--init-seed``: an integer, or ``seed`` (None: each training seed draws its own new weights)."""
    if text == "seed":
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer or 'seed', got '{text}'") from None


def lora_targets(text: str | None) -> tuple[str, ...] | str | None:
    if text is None or text == "all-linear":
        return text
    names = tuple(t.strip() for t in text.split(",") if t.strip())
    if not names:
        raise ExecIRError("--lora-targets: expected module names or all-linear")
    return names


def config_from_args(args: argparse.Namespace) -> RunConfig:
    """The run's configuration from parsed arguments (bad values raise :class:`ExecIRError`)."""
    from execir.retrieve.registry import bundled_minilm_path

    if args.seeds < 1:
        raise ExecIRError(f"--seeds must be at least 1, got {args.seeds}")
    mode: Literal["full", "lora"] = "lora" if args.mode == "lora" else "full"
    targets = lora_targets(args.lora_targets)
    settings = TrainSettings(
        base=args.base or str(bundled_minilm_path()),
        revision=args.revision,
        mode=mode,
        lora=LoraSettings(r=args.lora_r, alpha=args.lora_alpha, dropout=args.lora_dropout, targets=targets),  # type: ignore[arg-type]
        epochs=args.epochs,
        batch_size=args.batch_size or (LISTWISE_BATCH if args.loss == "listwise" else POINTWISE_BATCH),
        lr=args.lr if args.lr is not None else (LORA_LR if mode == "lora" else FULL_LR),
        max_length=args.max_length,
        hard_negatives=args.hard_negatives,
        easy_negatives=args.easy_negatives,
        loss=args.loss,
        group_hard=args.group_hard,
        group_easy=args.group_easy,
        group_text=args.group_text,
        init_seed=args.init_seed,
    )
    return RunConfig(
        datasets=tuple(args.datasets),
        out=args.out,
        settings=settings,
        split=args.split,
        dev_split=None if args.dev_split == "none" else args.dev_split,
        tasks=tuple(args.tasks),
        seeds=tuple(range(args.seed, args.seed + args.seeds)),
        soup=args.soup,
        trunk_epochs=args.trunk_epochs,
        resume=args.resume,
        device=args.device,
        threads=args.threads,
        checkpoint_every=args.checkpoint_every,
        dev_easy=args.dev_easy,
        progress=progress_enabled(not args.no_progress),
    )


def format_result(result: TrainingResult) -> str:
    """A short summary: pairs, seconds per seed, dev metrics per model and folder, the final model."""
    counts = result.counts
    lines = [
        f"pairs: {counts.pairs} ({counts.positives} positive, {counts.easy} easy, {counts.hard} hard, {counts.counterfactual} counterfactual; "
        f"{counts.queries} queries, {counts.queries_without_hard} without a hard negative, {counts.queries_without_positive} without a positive)"
    ]
    if result.trunk is not None:
        lines.append(f"trunk (seed {result.trunk.seed}): {result.trunk.steps} updates, {sum(result.trunk.epoch_seconds):.1f} s")
    lines += [f"seed {r.seed}: {r.steps} updates, {sum(r.epoch_seconds):.1f} s" for r in result.seeds]
    for name, metrics in result.dev.items():
        lines += [f"dev {name} {m.folder}: " + ", ".join(f"{k} {v:.4f}" for k, v in m.means.items()) for m in metrics]
    if result.greedy is not None:
        trials = "; ".join(
            f"{'+'.join(map(str, t.members))}: {'/'.join(f'{v:.4f}' for v in t.score)} {'kept' if t.kept else 'dropped'}" for t in result.greedy.trials
        )
        lines.append(f"greedy soup of seeds {', '.join(map(str, result.soup_seeds))} (dev {'/'.join(SOUP_MEASURES)}: {trials})")
    lines += run_notes(result)
    lines.append(f"model: {result.out / FINAL} (use as ce:{result.out / FINAL}); provenance: {result.out / TRAINING_JSON}; {result.seconds:.1f} s")
    return "\n".join(lines)


def run_notes(result: TrainingResult) -> list[str]:
    """Warnings a run's own numbers support (pure): a seed whose mean loss did not fall from its
    first epoch to its last (it may have diverged), and a uniform soup whose dev score is below its
    best seed's (``--soup greedy --resume`` averages only the seeds that do not lower it)."""
    notes = [
        f"note: seed {r.seed}'s mean loss did not fall ({r.epoch_mean_loss[0]:.4f} -> {r.epoch_mean_loss[-1]:.4f}): it may have "
        "diverged (a lower --lr, or more warm-up)"
        for r in result.seeds
        if len(r.epoch_mean_loss) > 1 and r.epoch_mean_loss[-1] >= r.epoch_mean_loss[0]
    ]
    seeds = {r.seed: result.dev[f"seed-{r.seed}"] for r in result.seeds if result.dev.get(f"seed-{r.seed}")}
    if result.greedy is None and result.dev.get("soup") and len(seeds) > 1:
        best = max(seeds, key=lambda seed: soup_score(seeds[seed]))
        soup, top = soup_score(result.dev["soup"]), soup_score(seeds[best])
        if soup < top:
            notes.append(
                f"note: the uniform soup's dev {'/'.join(SOUP_MEASURES)} {'/'.join(f'{v:.4f}' for v in soup)} is below seed {best}'s "
                f"{'/'.join(f'{v:.4f}' for v in top)}; --soup greedy --resume keeps only the seeds that do not lower it"
            )
    return notes


def run_train_reranker(args: argparse.Namespace) -> int:
    """Handler of ``execir train-reranker``."""
    result = train_reranker(config_from_args(args))
    print(format_result(result))
    return 0
