"""ONNX Runtime against torch for the bundled all-MiniLM-L6-v2: texts/s and what int8 costs.

Encodes the same texts (a HumanEval ``t2c-description`` folder's documents and queries) with the
torch backend, ``@onnx`` (fp32) and ``@onnx,int8`` in one process, each after a warm-up batch and
without an embedding cache, and prints texts/s with the ratio to torch (best of ``--repeats``).
Then it ranks the folder with each backend's vectors (exact search to depth 100, as ``execir eval``
does) and prints exec@1 and nDCG@10 with the paired delta to torch (bootstrap 95% CI, McNemar) and
the minimum and mean cosine of each backend's vectors to torch's.

Exports are made from the local model folder (no hub) into a temporary folder, so the export and
quantisation times are printed too. Run: ``python benchmarks/bench_onnx.py``
(``--dataset``, ``--split``, ``--batch-size``, ``--repeats``, ``--threads``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import DEFAULT_DATASET  # noqa: E402

BACKENDS = (("torch", "torch", None), ("onnx", "onnx", None), ("onnx-int8", "onnx", "int8"))
DEPTH = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--split", default="all")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    args = parser.parse_args()

    import torch

    from execir.dataset.read import load_dataset
    from execir.evaluate.paired import paired_deltas
    from execir.evaluate.second_stage import search_depth, truncate, without_identical
    from execir.metrics import evaluate
    from execir.retrieve.dense import search_embeddings
    from execir.retrieve.registry import bundled_minilm_path
    from execir.retrieve.st import SentenceTransformerEncoder

    if args.threads:
        torch.set_num_threads(args.threads)
    dataset = load_dataset(args.dataset, args.split)
    doc_ids, qids = sorted(dataset.corpus), sorted(dataset.queries)
    docs, queries = [dataset.corpus[d] for d in doc_ids], [dataset.queries[q] for q in qids]
    print(f"{len(docs)} documents + {len(queries)} queries from {args.dataset}; torch threads {torch.get_num_threads()}")
    vectors: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    speed: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, backend, quantize in BACKENDS:
            encoder = SentenceTransformerEncoder(str(bundled_minilm_path()), progress=False, backend=backend, quantize=quantize, export_root=Path(tmp))
            started = time.perf_counter()
            encoder.encode(docs[:32], role="document", batch_size=args.batch_size)  # load (export, quantise) and warm up
            setup = time.perf_counter() - started
            best = float("inf")
            for _ in range(args.repeats):
                started = time.perf_counter()
                d = encoder.encode(docs, role="document", batch_size=args.batch_size)
                q = encoder.encode(queries, role="query", batch_size=args.batch_size)
                best = min(best, time.perf_counter() - started)
            vectors[label], speed[label] = (d, q), (len(docs) + len(queries)) / best
            print(
                f"{label:<10} {speed[label]:8.1f} texts/s  x{speed[label] / speed['torch']:.2f} vs torch  (load/export/quantise+warm-up {setup:.1f} s)",
                flush=True,
            )
    measures = ("exec@1", "ndcg@10")
    per_query = {}
    for label, (d, q) in vectors.items():
        run = search_embeddings(qids, q, doc_ids, d, top_k=search_depth(dataset, DEPTH))
        per_query[label] = evaluate(dataset.qrels, truncate(without_identical(run), DEPTH), measures)
    print(f"\n{'backend':<10} {'exec@1':>7} {'nDCG@10':>8}  {'Δ exec@1 [95% CI]':<26} {'Δ nDCG@10 [95% CI]':<26} {'W/L':>5}  cos to torch min/mean")
    for label, values in per_query.items():
        means = [float(np.mean(list(values[m].values()))) for m in measures]
        deltas, test = paired_deltas(per_query["torch"], values, measures, n_resamples=2000, seed=0)
        cells = [f"{deltas[m].mean:+.3f} [{deltas[m].low:+.3f}, {deltas[m].high:+.3f}]" for m in measures]
        d, t = vectors[label][0], vectors["torch"][0]
        cos = (d * t).sum(axis=1)
        print(f"{label:<10} {means[0]:7.3f} {means[1]:8.3f}  {cells[0]:<26} {cells[1]:<26} {test.wins}/{test.losses:<3}  {cos.min():.4f}/{cos.mean():.4f}")


if __name__ == "__main__":
    main()
