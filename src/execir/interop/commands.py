"""``execir export``: ExecIR results and datasets in other tools' formats (``export mteb-results``, ``export pairs``)."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from execir.errors import ExecIRError

EXPORT_EPILOG = """examples:
  execir export mteb-results results/he/t2c-description/results.json --out mteb-results
  execir export mteb-results results/he --out mteb-results          # a collection: every folder's results.json
  execir export mteb-results results/he --out mteb-results --name dense-all-MiniLM-L6-v2=sentence-transformers/all-MiniLM-L6-v2

Files go to OUT/results/<model>/<revision>/<TaskName>.json (MTEB's cache layout); read them back with
mteb.ResultCache(OUT).load_results(). Task names are those execir.interop.mteb_task gives the same folder."""

PAIRS_EPILOG = """examples:
  execir export pairs out/humaneval/t2c-description --format dpo --out pairs/he-dpo
  execir export pairs out/humaneval --format triplets --negatives 5 --out pairs/he-triplets   # every folder
  execir export pairs out/humaneval/c2t --format kto --conversational --out pairs/he-c2t-kto
  execir export pairs out/humaneval/t2c-full --format reward --instruction "" --out pairs/he-reward

Writes OUT/<split>.jsonl per split of the dataset (problem-disjoint), OUT/README.md (columns, counts,
source fingerprint, this command) and OUT/export.json; load with
datasets.load_dataset("json", data_files={"train": "OUT/train.jsonl", ...}).
dpo: prompt, chosen (passes), rejected (verified-failing near-clone of the same problem)  (TRL DPOTrainer, RewardTrainer)
kto: prompt, completion, label (bool)                                                      (TRL KTOTrainer)
reward: prompt, completion, label (1 passes / 0 fails) and verdict, every judged document   (pointwise)
triplets: anchor, positive, negative_1..n (metadata in OUT/<split>.meta.jsonl)              (sentence-transformers)"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``export`` command and its ``mteb-results`` sub-command."""
    parser = subparsers.add_parser("export", help="export results in another tool's format", description="Export ExecIR results in another tool's format.")
    formats = parser.add_subparsers(dest="format", required=True)
    mteb = formats.add_parser(
        "mteb-results",
        help="MTEB result files (one per system and folder)",
        epilog=EXPORT_EPILOG,
        description="Write each system's scores on each folder as an MTEB TaskResult JSON: measures whose definitions agree "
        "under MTEB's names (ndcg_at_10, mrr_at_10, recall_at_10, map_at_10, hit_rate_at_k, precision_at_1), "
        "everything else under execir_ keys.",
    )
    mteb.add_argument("results", type=Path, help="an evaluation's results.json (a folder's or a collection's) or the directory holding it")
    mteb.add_argument("--out", type=Path, required=True, help="output directory (MTEB cache layout under OUT/results/)")
    mteb.add_argument(
        "--name",
        action="append",
        default=[],
        metavar="SYSTEM=ORG/MODEL",
        help="MTEB model name for a system, repeatable (default: execir/<system>)",
    )
    mteb.set_defaults(handler=run_export_mteb)
    _register_pairs(formats)


def _register_pairs(formats: argparse._SubParsersAction) -> None:
    from execir.interop.pair_rows import DEFAULT_NEGATIVES, PAIR_FORMATS

    pairs = formats.add_parser(
        "pairs",
        help="verified preference pairs / triplets / reward rows for other trainers (TRL, sentence-transformers)",
        epilog=PAIRS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Write a built dataset's verified documents as training rows for other trainers, one JSONL file per "
        "problem-disjoint split: chosen/positive documents pass (or are the task's own description), rejected ones are "
        "verified-failing near-clones (or counterfactual descriptions) of the same problem.",
    )
    pairs.add_argument("dataset", type=Path, help="a built dataset folder (out/he/t2c-description) or a collection (every folder)")
    pairs.add_argument("--format", dest="pair_format", required=True, choices=PAIR_FORMATS, help="which trainer's rows")
    pairs.add_argument("--out", type=Path, required=True, help="output directory")
    pairs.add_argument(
        "--negatives",
        type=int,
        default=None,
        metavar="N",
        help=f"dpo/kto: negatives per positive, at most; triplets: negative columns, exactly (default {DEFAULT_NEGATIVES}; not for reward)",
    )
    pairs.add_argument("--seed", type=int, default=0, help="seed of the negatives' choice (default %(default)s)")
    pairs.add_argument(
        "--instruction", default=None, metavar="TEXT", help='dpo/kto/reward: the instruction above the query ("" for none); triplets: prepended to the anchor'
    )
    pairs.add_argument("--conversational", action="store_true", help="dpo/kto/reward: TRL's conversational format (message lists)")
    pairs.set_defaults(handler=run_export_pairs)


def run_export_pairs(args: argparse.Namespace) -> int:
    """Write the rows and print the counts per split."""
    from execir.interop.pair_rows import DEFAULT_NEGATIVES, PairOptions
    from execir.interop.pairs_export import export_pairs

    if args.pair_format == "reward" and args.negatives is not None:
        raise ExecIRError("--negatives does not apply to --format reward (it writes every judged document of every query)")
    negatives = DEFAULT_NEGATIVES if args.negatives is None else args.negatives
    options = PairOptions(args.pair_format, negatives, args.seed, args.instruction, args.conversational)
    result = export_pairs(args.dataset, args.out, options, command=pairs_command(args))
    print(f"{args.out}: " + ", ".join(f"{split} {len(rows)} rows" for split, rows in result.rows.items()) + f" ({args.pair_format})")
    return 0


def pairs_command(args: argparse.Namespace) -> str:
    """The command line that reproduces an export (for its card)."""
    words = ["execir", "export", "pairs", str(args.dataset), "--format", args.pair_format, "--out", str(args.out)]
    if args.negatives is not None:
        words += ["--negatives", str(args.negatives)]
    words += ["--seed", str(args.seed)]
    if args.instruction is not None:
        words += ["--instruction", args.instruction]
    if args.conversational:
        words.append("--conversational")
    return shlex.join(words)


def run_export_mteb(args: argparse.Namespace) -> int:
    """Write the MTEB result files and list them."""
    from execir.interop.mteb_export import export_mteb_results, format_written

    files = export_mteb_results(args.results, args.out, names=parse_names(args.name))
    print(format_written(files, args.out))
    return 0


def parse_names(pairs: list[str]) -> dict[str, str]:
    """``["bm25=execir/bm25-lucene"]`` -> ``{"bm25": "execir/bm25-lucene"}``."""
    names: dict[str, str] = {}
    for pair in pairs:
        system, sep, model = pair.partition("=")
        if not sep or not system.strip() or "/" not in model:
            raise ExecIRError(f"--name {pair!r}: expected SYSTEM=ORG/MODEL")
        names[system.strip()] = model.strip()
    return names
