"""Does training the bi-encoder on execution-verified hard negatives help? Trains ``execir train-embedder``
on a build's training split, evaluates the base and the trained model with ``execir eval`` on other
folders (by default the same build's test split: no test problem was trained on), and prints per folder
exec@1, exec@10 and nDCG@10 of both with bootstrap CIs, the paired Δ with its CI, McNemar on exec@1,
the density ablation (0..4 mutants per task) and the training time and peak memory per seed.

On code-to-code folders it also prints the own-program check. A c2c query is a passing program, its
hard negatives are single edits of it, and its own document is left out of every ranking, so a model
can gain exec@1 by learning "unlike the query" instead of "does what the query does". The check
scores each query's own program (correct, identical) against its verified-failing mutants: the share
of queries whose own program scores above every mutant. A model that understood the task keeps it
near 1; one that learned the shortcut drives it down. Its second half asks c2c without the shortcut:
each passing rewrite as the query, the task's own program against the same mutants (now edits of
the program sought, not of the query).

    python benchmarks/bench_train_embedder.py --train-data data/he --task t2c-description --work runs/emb-he
    python benchmarks/bench_train_embedder.py --train-data data/he --task t2c-description --task t2c-full \\
        --task t2c-search --work runs/emb-he-t2c --threads 1 \\
        --train-args "--epochs 1 --lr 1e-4 --max-length 128 --retrieval-max-length 128 --dev-split none"   # the README's best setting
    python benchmarks/bench_train_embedder.py --train-data data/mbpp --split train --work runs/emb-mbpp \\
        --eval data/he:all --eval data/hep-cpp:all          # transfer: train on MBPP, evaluate on HumanEval(Pack)
    python benchmarks/bench_train_embedder.py ... --rerank ce:models/he-ce/model   # the cross-encoder on top of both

Steps already done (a trained model with its training.json, an evaluation with its results.json) are
reused, so the script can be re-run to print the tables again. ``--train-args`` passes further options
to ``train-embedder`` (e.g. "--seeds 2 --lora").
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from execir.evaluate.paired import paired_deltas

MEASURES = ("exec@1", "exec@10", "ndcg@10")
PER_QUERY = "per_query.jsonl"


def execir(*args: str) -> float:
    """Run one execir command (this interpreter, this source tree); its wall seconds."""
    command = [sys.executable, "-m", "execir.cli", *args]
    print("$ execir " + " ".join(shlex.quote(a) for a in args), flush=True)
    started = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - started


def per_query(folder: Path) -> dict[str, dict[str, dict[str, float]]]:
    """system -> measure -> query id -> value, from an evaluation folder's ``per_query.jsonl``."""
    found: dict[str, dict[str, dict[str, float]]] = {}
    for line in (folder / PER_QUERY).read_text().splitlines():
        row = json.loads(line)
        for measure in MEASURES:
            found.setdefault(row["system"], {}).setdefault(measure, {})[row["query_id"]] = float(row[measure])
    return found


def eval_folders(root: Path) -> list[Path]:
    """The evaluation folder itself, or each task folder inside a collection's output."""
    return [root] if (root / PER_QUERY).is_file() else sorted(p for p in root.iterdir() if (p / PER_QUERY).is_file())


def pair_name(systems: Sequence[str], spec_suffix: str) -> str:
    """The one system whose name ends with ``spec_suffix`` (the base, ``dense``, ends with its model's name)."""
    names = [s for s in systems if s.endswith(spec_suffix)]
    if len(names) != 1:
        raise SystemExit(f"{len(names)} systems end with '{spec_suffix}': {', '.join(systems)}")
    return names[0]


def folder_table(folder: Path, base: str, trained: str) -> list[str]:
    """Markdown rows: base and trained means with CIs, Δ with CI, McNemar on exec@1, density ablation."""
    record = json.loads((folder / "results.json").read_text())
    systems = record["systems"]
    values = per_query(folder)
    deltas, mcnemar = paired_deltas(values[base], values[trained], MEASURES, n_resamples=1000, seed=0)
    lines = []
    for name in (base, trained):
        metrics = systems[name]["metrics"]
        cells = [f"{metrics[m]['mean']:.3f} [{metrics[m]['ci_low']:.3f}, {metrics[m]['ci_high']:.3f}]" for m in MEASURES]
        lines.append(f"| {folder.name} | {name} | {systems[name]['queries']} | " + " | ".join(cells) + " | |")
    delta = [f"{deltas[m].mean:+.3f} [{deltas[m].low:+.3f}, {deltas[m].high:+.3f}]" for m in MEASURES]
    lines.append(f"| {folder.name} | Δ | | " + " | ".join(delta) + f" | {mcnemar.wins}/{mcnemar.losses} p={mcnemar.p_value:.2g} |")
    return lines


def density_rows(folder: Path, names: Sequence[str]) -> list[str]:
    """Markdown rows: exec@1 with 0..N mutants kept per task, per system."""
    systems = json.loads((folder / "results.json").read_text())["systems"]
    rows = []
    for name in names:
        ablation: Mapping[str, Mapping[str, float]] = systems[name].get("density_ablation") or {}
        cells = ", ".join(f"{k}: {v.get('exec@1', float('nan')):.3f}" for k, v in sorted(ablation.items(), key=lambda kv: int(kv[0])))
        rows.append(f"| {folder.name} | {name} | {cells} |")
    return rows


def training_rows(training: Mapping[str, Any]) -> list[str]:
    """Markdown rows: per seed updates, seconds, peak memory, mean loss."""
    return [
        f"| seed {s['seed']} | {s['steps']} | {s['seconds']:.0f} | {s['peak_rss_mb']} | {', '.join(f'{v:.3f}' for v in s['epoch_mean_loss'])} |"
        for s in training["seeds"]
    ]


def own_program_check(folder: Path, split: str, model: str) -> tuple[list[bool], list[bool]]:
    """The own-program check of a c2c ``folder``'s ``split`` under ``model`` (a sentence-transformers
    folder or hub id; queries under its declared prompt), as two lists of outcomes: per query, whether
    its own program scores above every one of its mutants; per passing rewrite as the query, whether
    the task's own program scores above every mutant. The second is c2c without the shortcut: the
    mutants are edits of the program sought, not of the query."""
    import numpy as np
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    from execir.dataset import get_spec
    from execir.dataset.read import load_dataset
    from execir.retrieve.prompts import trained_profile

    transformers_logging.disable_progress_bar()  # the weight-loading bar, once per model
    dataset = load_dataset(folder, split)
    profile = trained_profile(model)
    prompt = profile.prompt("query", get_spec("c2c")) if profile else ""
    encoder = SentenceTransformer(model, device="cpu")

    own: list[bool] = []
    mirrored: list[bool] = []
    for query_id, judged in sorted(dataset.qrels.items()):
        mutants = [dataset.corpus[d] for d, grade in sorted(judged.items()) if grade == 1]
        rewrites = [dataset.corpus[d] for d, grade in sorted(judged.items()) if grade == 2 and d != query_id]
        if query_id not in dataset.corpus or not mutants:
            continue
        queries = np.asarray(encoder.encode([prompt + t for t in (dataset.queries[query_id], *rewrites)], normalize_embeddings=True))
        docs = np.asarray(encoder.encode([dataset.corpus[query_id], *mutants], normalize_embeddings=True))
        scores = docs @ queries.T  # program, then mutants (rows) x the query, then its rewrites (columns)
        above = [bool(x) for x in scores[0] > scores[1:].max(axis=0)]
        own.append(above[0])
        mirrored += above[1:]
    return own, mirrored


def own_program_rows(data: str, split: str, base: str, trained: str) -> list[str]:
    """The own-program check of the base and the trained model on every c2c folder of ``data``, with
    the trained model's exact McNemar against the base on each half."""
    from execir.metrics.stats import mcnemar_exact

    root = Path(data)
    folders = [root] if root.name == "c2c" else [root / "c2c"] if (root / "c2c").is_dir() else []
    rows = []
    for folder in folders:
        (own_b, mir_b), (own_t, mir_t) = own_program_check(folder, split, base), own_program_check(folder, split, trained)
        for name, own, mirrored in (("base", own_b, mir_b), ("trained", own_t, mir_t)):
            rows.append(f"| {folder.name} | {name} | {len(own)} | {sum(own) / len(own):.3f} | {len(mirrored)} | {sum(mirrored) / max(1, len(mirrored)):.3f} |")
        tests = [mcnemar_exact(own_b, own_t), mcnemar_exact(mir_b, mir_t)]
        rows.append(f"| {folder.name} | McNemar wins/losses | | " + " | | ".join(f"{t['b01']}/{t['b10']} p={t['p_value']:.2g}" for t in tests) + " |")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train-data", type=Path, required=True, help="a build (or folder) whose training split trains the model")
    parser.add_argument("--task", action="append", default=[], help="train only on these task folders (repeatable; default: every folder)")
    parser.add_argument("--eval", action="append", default=[], metavar="DATA[:SPLIT]", help="evaluate on DATA's SPLIT (default: --train-data:test)")
    parser.add_argument("--work", type=Path, required=True, help="folder for the model and the evaluations")
    parser.add_argument("--rerank", default=None, help="also rerank both first stages with this reranker spec (e.g. ce:models/he-ce/model)")
    parser.add_argument("--depth", type=int, default=100, help="first-stage depth (default: 100)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads for training (default: 2)")
    parser.add_argument("--train-args", default="", help="further train-embedder options, e.g. '--seeds 2 --lora'")
    args = parser.parse_args(argv)

    model = args.work / "embedder"
    if not (model / "training.json").is_file():
        tasks = [a for t in args.task for a in ("--task", t)]
        extra = shlex.split(args.train_args)
        execir("train-embedder", "--train", str(args.train_data), *tasks, "--out", str(model), "--threads", str(args.threads), "--no-progress", *extra)
    training = json.loads((model / "training.json").read_text())
    trained_spec = f"dense:{model / 'model'}"
    print(f"\ntraining: rows {training['rows']}, total {training['seconds']['total']:.0f} s")
    print("| seed | updates | seconds | peak RSS MiB | mean loss per epoch |\n|---|---|---|---|---|")
    print("\n".join(training_rows(training)))

    for index, target in enumerate(args.eval or [f"{args.train_data}:test"]):
        data, _, split = target.rpartition(":") if ":" in target else (target, "", "test")
        out = args.work / f"eval-{index}-{Path(data).name}-{split}"
        if not any(out.glob(f"**/{PER_QUERY}")):
            rerank = ["--depth", "10", "--rerank", args.rerank] if args.rerank else ["--depth", str(args.depth)]
            seconds = execir("eval", data, "--split", split, "--retriever", "dense", "--retriever", trained_spec, *rerank, "--out", str(out), "--no-progress")
            print(f"eval: {seconds:.0f} s")
        print(f"\n### {data} split {split}\n")
        print("| folder | system | queries | exec@1 | exec@10 | nDCG@10 | McNemar exec@1 wins/losses |\n|---|---|---|---|---|---|---|")
        density: list[str] = []
        for folder in eval_folders(out):
            names = list(per_query(folder))
            firsts = [n for n in names if ">>" not in n]
            base = pair_name(firsts, "MiniLM-L6-v2")
            trained = next(n for n in firsts if n != base)
            print("\n".join(folder_table(folder, base, trained)))
            pairs = [(base, trained)]
            if args.rerank:
                reranked = [n for n in names if ">>" in n]
                pairs.append((pair_name(reranked, base_suffix(base, reranked)), pair_name(reranked, base_suffix(trained, reranked))))
                print("\n".join(folder_table(folder, *pairs[1])))
            density += density_rows(folder, [n for pair in pairs for n in pair])
        print("\n| folder | system | exec@1 by mutants kept per task |\n|---|---|---|")
        print("\n".join(density))
        own = own_program_rows(data, split, training["base"]["model"], str(model / "model"))
        if own:
            print(
                "\n| folder | model | queries | own program above every mutant | rewrites as queries | own program above every mutant |"
                "\n|---|---|---|---|---|---|"
            )
            print("\n".join(own))
    return 0


def base_suffix(first: str, reranked: Sequence[str]) -> str:
    """The ending of the reranked system built on ``first`` (its name up to ``>>`` is ``first``)."""
    match = [n for n in reranked if n.split(">>", 1)[0] == first]
    if len(match) != 1:
        raise SystemExit(f"{len(match)} reranked systems start with '{first}'")
    return match[0]


if __name__ == "__main__":
    raise SystemExit(main())
