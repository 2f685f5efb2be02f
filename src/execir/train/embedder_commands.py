"""``execir train-embedder``: fine-tune a bi-encoder on a dataset's verified hard negatives."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Literal

from execir.console import progress_enabled
from execir.errors import ExecIRError
from execir.train.commands import init_seed_arg, lora_targets
from execir.train.config import FULL_LR, LORA_LR, LoraSettings
from execir.train.embedder import EmbedderResult, train_embedder
from execir.train.embedder_config import (
    EMBEDDER_BATCH,
    EMBEDDER_LOSSES,
    EMBEDDER_NEGATIVES,
    EMBEDDER_PROMPTS,
    EMBEDDER_SOUPS,
    EmbedderRunConfig,
    EmbedderSettings,
)
from execir.train.pipeline import FINAL, TRAINING_JSON

EPILOG = """Rows (one per training query and positive): anchor = the query (a description for text-to-code, a
program for code-to-text and code-to-code), positive = a passing program or rewrite (code-to-text: the true
description), negative_1..N = N verified-failing documents of the same problem (mutants, human bugs, failing
candidates, counterfactual descriptions): a seeded sample, repeated when the problem has fewer than N; a query
with none gets N documents of other training problems. With --prompts task, code queries carry their direction's
query prompt, declared in the saved model so execir eval, rerankers' first stages and execir.interop.mteb_model encode
queries the same way, and a code-to-code anchor's own program is one more positive (--no-self-positives: not).
Batches never hold two rows that share a problem, so no in-batch negative is a correct program of the anchor's
problem. Loss: sentence-transformers' MultipleNegativesRankingLoss (mnrl) or its GradCache variant (cached-mnrl):
each anchor against its positive, its own negatives and every other row's positive and negatives.

Outputs: OUT/seed-<s>/ (one model per seed, LoRA merged), OUT/soup/ (two or more seeds, --soup uniform: the
uniform weight average), OUT/model/ (the final model: use it as dense:OUT/model in execir eval),
OUT/training.json (base identity, data hashes, versions, row counts, time and peak memory per seed, dev
exec@1/exec@10/nDCG@10). Every model folder loads with sentence_transformers.SentenceTransformer.

examples:
  execir train-embedder --train data/he --task t2c-description --out models/he-emb
  execir train-embedder --train data/mbpp --out models/mbpp-emb --seeds 2 --soup uniform
  execir train-embedder --train data/mbpp --out models/mbpp-emb-lora --lora --loss cached-mnrl
  execir train-embedder --train data/he --task t2c-description --out models/he-emb --resume   # continue
  execir eval data/he --retriever dense --retriever dense:models/he-emb/model --out results/he-emb"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``train-embedder`` command."""
    parser = subparsers.add_parser(
        "train-embedder",
        help="fine-tune a bi-encoder (dense retriever) on a dataset's hard negatives",
        epilog=EPILOG,
        description="Fine-tune a sentence-transformers bi-encoder (fully or with LoRA) on (query, positive, hard negatives) rows "
        "from the training split, one model per seed, average them (model soup) and report dev exec@1, exec@10 and nDCG@10.",
    )
    parser.add_argument(
        "--train", type=Path, action="append", required=True, dest="datasets", metavar="DATASET", help="a dataset folder or a build's output; repeatable"
    )
    parser.add_argument("--task", action="append", default=[], dest="tasks", metavar="NAME", help="train only on the folder(s) of this task; repeatable")
    parser.add_argument("--split", default="train", help="training split (default: train)")
    parser.add_argument("--dev-split", default="dev", help="split for dev metrics, or 'none' (default: dev)")
    parser.add_argument("--out", type=Path, required=True, help="output folder (must be empty unless --resume)")
    parser.add_argument("--base", default=None, help="base sentence-transformers model: hub id or local folder (default: the bundled all-MiniLM-L6-v2)")
    parser.add_argument("--revision", default=None, help="hub revision of --base")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--lora", dest="mode", action="store_const", const="lora", help="train LoRA adapters (merged after training)")
    mode.add_argument("--full", dest="mode", action="store_const", const="full", help="fine-tune every weight (default)")
    parser.add_argument("--seeds", type=int, default=1, help="number of seeds, trained as seed, seed+1, ... (default: 1)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default: 0)")
    parser.add_argument(
        "--soup", default="uniform", choices=EMBEDDER_SOUPS, help="combine two or more seeds by the uniform weight average, or not (default: uniform)"
    )
    parser.add_argument(
        "--loss", default="mnrl", choices=EMBEDDER_LOSSES, help="mnrl: MultipleNegativesRankingLoss; cached-mnrl: its GradCache variant (default: mnrl)"
    )
    parser.add_argument("--negatives", type=int, default=EMBEDDER_NEGATIVES, help=f"explicit negative columns per row (default: {EMBEDDER_NEGATIVES})")
    parser.add_argument(
        "--prompts",
        default="none",
        choices=EMBEDDER_PROMPTS,
        help="task: code queries (code-to-code, code-to-text) carry their direction's query prompt in training and, declared in "
        "the model's execir.json, in every later retrieval; none: every text bare (default: none; on HumanEval a prompted "
        "code-to-code model learned 'unlike the query', which the README's own-program check shows)",
    )
    parser.add_argument(
        "--no-self-positives",
        dest="self_positives",
        action="store_false",
        help="with --prompts task, do not add the code-to-code anchor's own program as a positive (by default it is one, against learning 'unlike the query')",
    )
    parser.add_argument(
        "--mirror-rows",
        action="store_true",
        help="also train each passing rewrite of a code-to-code query as an anchor whose positive is the query's own program",
    )
    parser.add_argument("--epochs", type=int, default=1, help="epochs (default: 1)")
    parser.add_argument("--batch-size", type=int, default=EMBEDDER_BATCH, help=f"rows per update (default: {EMBEDDER_BATCH})")
    parser.add_argument("--mini-batch-size", type=int, default=8, help="texts per GradCache pass with cached-mnrl (default: 8)")
    parser.add_argument("--scale", type=float, default=20.0, help="inverse temperature of the cosine similarities (default: 20)")
    parser.add_argument("--lr", type=float, default=None, help=f"peak learning rate (default: {FULL_LR} full, {LORA_LR} LoRA)")
    parser.add_argument("--max-length", type=int, default=256, help="tokens per text in training (default: 256)")
    parser.add_argument(
        "--retrieval-max-length",
        type=int,
        default=None,
        metavar="N",
        help="tokens per text the saved model truncates at when it retrieves (default: the base model's own length, whatever --max-length training used)",
    )
    parser.add_argument("--lora-r", type=int, default=8, help="LoRA rank (default: 8)")
    parser.add_argument("--lora-alpha", type=int, default=16, help="LoRA alpha (default: 16)")
    parser.add_argument("--lora-dropout", type=float, default=0.1, help="LoRA dropout (default: 0.1)")
    parser.add_argument("--lora-targets", default=None, help="comma-separated module names, or all-linear (default: query/value for BERT)")
    parser.add_argument("--init-seed", type=init_seed_arg, default=0, metavar="N", help="seed of the LoRA adapters, the same for every seed (default: 0)")
    parser.add_argument("--device", default=None, help="torch device (default: cuda when available, else cpu)")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads for torch (fixed for reproducible results; default: torch's)")
    parser.add_argument("--checkpoint-every", type=int, default=500, help="updates between checkpoints (default: 500; also at each epoch end)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out from its last checkpoint")
    parser.add_argument("--no-progress", action="store_true", help="hide progress bars (never shown when stderr is not a terminal)")
    parser.set_defaults(handler=run_train_embedder)


def embedder_config_from_args(args: argparse.Namespace) -> EmbedderRunConfig:
    """The run's configuration from parsed arguments (bad values raise :class:`ExecIRError`)."""
    from execir.retrieve.registry import bundled_minilm_path

    if args.seeds < 1:
        raise ExecIRError(f"--seeds must be at least 1, got {args.seeds}")
    if args.init_seed is None:
        raise ExecIRError("--init-seed: expected an integer (every seed's adapters start from one point)")
    mode: Literal["full", "lora"] = "lora" if args.mode == "lora" else "full"
    settings = EmbedderSettings(
        base=args.base or str(bundled_minilm_path()),
        revision=args.revision,
        mode=mode,
        lora=LoraSettings(r=args.lora_r, alpha=args.lora_alpha, dropout=args.lora_dropout, targets=lora_targets(args.lora_targets)),  # type: ignore[arg-type]
        epochs=args.epochs,
        batch_size=args.batch_size,
        lr=args.lr if args.lr is not None else (LORA_LR if mode == "lora" else FULL_LR),
        max_length=args.max_length,
        negatives=args.negatives,
        loss=args.loss,
        scale=args.scale,
        mini_batch_size=args.mini_batch_size,
        prompts=args.prompts,
        self_positives=args.self_positives,
        mirror_rows=args.mirror_rows,
        init_seed=args.init_seed,
    )
    return EmbedderRunConfig(
        datasets=tuple(args.datasets),
        out=args.out,
        settings=settings,
        split=args.split,
        dev_split=None if args.dev_split == "none" else args.dev_split,
        retrieval_max_length=args.retrieval_max_length,
        tasks=tuple(args.tasks),
        seeds=tuple(range(args.seed, args.seed + args.seeds)),
        soup=args.soup,
        resume=args.resume,
        device=args.device,
        threads=args.threads,
        checkpoint_every=args.checkpoint_every,
        progress=progress_enabled(not args.no_progress),
    )


def format_embedder_result(result: EmbedderResult) -> str:
    """A short summary: rows, seconds and memory per seed, dev metrics per model and folder, the final model."""
    c = result.counts
    lines = [
        f"rows: {c.rows} ({c.queries} queries, {c.queries_without_positive} without a positive; negatives: {c.hard} hard, "
        f"{c.padded} repeated hard, {c.easy} from other problems in {c.rows_without_hard} rows without a hard negative; "
        f"{c.self_positives} rows with the anchor's own program as positive, {c.mirrored} mirrored from a rewrite)"
    ]
    lines += [f"seed {r.seed}: {r.steps} updates, {sum(r.epoch_seconds):.1f} s, peak memory {r.peak_rss_mb} MiB" for r in result.seeds]
    for name, metrics in result.dev.items():
        lines += [f"dev {name} {m.folder}: " + ", ".join(f"{k} {v:.4f}" for k, v in m.means.items()) for m in metrics]
    lines.append(f"model: {result.out / FINAL} (use as dense:{result.out / FINAL}); provenance: {result.out / TRAINING_JSON}; {result.seconds:.1f} s")
    return "\n".join(lines)


def run_train_embedder(args: argparse.Namespace) -> int:
    """Handler of ``execir train-embedder``."""
    print(format_embedder_result(train_embedder(embedder_config_from_args(args))))
    return 0
