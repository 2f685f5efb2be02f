"""Vector indexes against exact search: what a faiss index costs in exec@1, recall, time and memory.

For each index spec (``--kinds``) on the same embeddings as exact search, prints Δ exec@1 and
Δ nDCG@10 (indexed minus exact, paired bootstrap 95% CI), exact McNemar wins/losses, recall@100 of
exact search's top 100, ms/query (index search only), index memory (serialised bytes) and build
seconds, with exactly what ``execir eval --retriever dense@faiss:<kind>`` computes
(:func:`execir.evaluate.indexed.index_summary`).

Two settings:

* ``--docs 0``: the dataset folder itself (default: HumanEval ``t2c-description``, made with
  ``execir build humaneval --out /tmp/demo/humaneval --tasks t2c``) encoded by the bundled
  all-MiniLM-L6-v2.
* ``--docs N``: the pool of ``benchmarks/bench_scale.py`` (the folder plus seeded generated Python
  distractors, relevance 0) at N documents, encoded by bench_scale's static model (MiniLM's token
  embeddings: full MiniLM cannot encode a million documents on two cores in useful time), or by
  ``--model SPEC`` (e.g. ``dense@onnx,int8``, which encodes a few tens of thousands of documents in
  minutes). The static model's exec@1 on the pool is near 0, so there nDCG@10 and recall carry the signal.

Run: ``python benchmarks/bench_indexes.py --docs 0,100000``; ``--out indexes.json`` writes every row.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import DEFAULT_DATASET, peak_rss, pool, static_model  # noqa: E402

DEPTH = 100
KINDS = "hnsw;hnsw,efSearch=128;ivf;ivf,nprobe=32;ivfpq;sq8"


def _delta(e: Any) -> str:
    return f"{e.mean:+.3f} [{e.low:+.3f}, {e.high:+.3f}]"


def run_setting(dataset_path: Path, split: str, docs: int, kinds: list[str], cache: Path, seed: int, model: str) -> list[dict[str, Any]]:
    """Every index kind against exact search on one corpus; one row per kind."""
    from execir.dataset.read import load_dataset
    from execir.evaluate.config import EvalConfig
    from execir.evaluate.indexed import recall_of_exact
    from execir.evaluate.paired import paired_deltas
    from execir.evaluate.second_stage import truncate, without_identical
    from execir.metrics import evaluate
    from execir.retrieve import get_retriever
    from execir.retrieve.dense import DenseRetriever
    from execir.retrieve.faiss_index import parse_index_spec
    from execir.retrieve.indexed import IndexedRetriever

    dataset = load_dataset(dataset_path, split)
    corpus = pool(dataset.corpus, docs, seed) if docs else dataset.corpus
    static = f"dense:{cache / 'static'}"
    spec = model if model != "static" else static if docs else "dense"
    if spec == static and not (cache / "static").is_dir():
        static_model(cache / "static")
    exact = get_retriever(spec, cache_dir=cache / "emb", batch_size=1024 if spec == static else 64, device="cpu", progress=sys.stderr.isatty())
    assert isinstance(exact, DenseRetriever)
    started = time.perf_counter()
    exact.index(corpus)
    encode_s = time.perf_counter() - started
    config = EvalConfig(dataset=dataset_path, out=cache / "out", bootstrap_resamples=2000, seed=seed)
    top_k = min(len(corpus), DEPTH + int(any(q in corpus for q in dataset.queries)))
    base = IndexedRetriever(exact, parse_index_spec("hnsw", "hnsw"))
    base.exact_search(dataset.queries, top_k=top_k)  # encodes the queries once (kept for the timed search)
    started = time.perf_counter()
    exact_run = truncate(without_identical(base.exact_search(dataset.queries, top_k=top_k)), DEPTH)
    exact_ms = 1000 * (time.perf_counter() - started) / len(dataset.queries)
    measures = ("exec@1", "ndcg@10")
    exact_pq = evaluate(dataset.qrels, exact_run, measures)
    rows = [
        {
            "docs": len(corpus),
            "model": spec,
            "system": "exact",
            "exec@1": sum(exact_pq["exec@1"].values()) / len(exact_pq["exec@1"]),
            "ms_per_query": exact_ms,
            "memory_bytes": int(exact.doc_embeddings.nbytes),
            "encode_or_cache_s": encode_s,
        }
    ]
    for kind in kinds:
        retriever = IndexedRetriever(exact, parse_index_spec(kind, kind), seed=seed)
        retriever.build()
        run = truncate(without_identical(retriever.search(dataset.queries, top_k=top_k)), DEPTH)
        per_query = evaluate(dataset.qrels, run, measures)
        deltas, mcnemar = paired_deltas(exact_pq, per_query, measures, n_resamples=config.bootstrap_resamples, seed=seed)
        stats = retriever.stats()
        rows.append(
            {
                "docs": len(corpus),
                "model": spec,
                "system": f"faiss:{kind}",
                "params": stats.params,
                "exec@1": sum(per_query["exec@1"].values()) / len(per_query["exec@1"]),
                "delta_exec@1": [deltas["exec@1"].mean, deltas["exec@1"].low, deltas["exec@1"].high],
                "delta_ndcg@10": [deltas["ndcg@10"].mean, deltas["ndcg@10"].low, deltas["ndcg@10"].high],
                "mcnemar": [mcnemar.wins, mcnemar.losses, mcnemar.p_value],
                "recall@100_of_exact": recall_of_exact(run, exact_run),
                "ms_per_query": stats.ms_per_query,
                "memory_bytes": stats.memory_bytes,
                "build_s": stats.build_seconds,
                "text": (_delta(deltas["exec@1"]), _delta(deltas["ndcg@10"])),
            }
        )
        print(json.dumps({k: v for k, v in rows[-1].items() if k != "text"}), file=sys.stderr, flush=True)
    rows.append({"docs": len(corpus), "system": "peak_rss", "memory_bytes": peak_rss()})
    return rows


COLUMNS = (
    ("docs", 8),
    ("system", -26),
    ("exec@1", 6),
    ("Δ exec@1 [95% CI]", -26),
    ("Δ nDCG@10 [95% CI]", -26),
    ("W/L", 5),
    ("recall@100", 10),
    ("ms/q", 8),
    ("memory", 10),
    ("build s", 8),
)


def _line(cells: list[str]) -> str:
    return "  ".join(f"{c:<{-w}}" if w < 0 else f"{c:>{w}}" for c, (_, w) in zip(cells, COLUMNS))


def _cells(r: dict[str, Any]) -> list[str]:
    mem = f"{r['memory_bytes'] / 2**20:.1f}MiB"
    if r["system"] == "peak_rss":
        return [str(r["docs"]), "peak RSS", "", "", "", "", "", "", mem, ""]
    if r["system"] == "exact":
        return [str(r["docs"]), "exact (numpy float32)", f"{r['exec@1']:.3f}", "", "", "", "1.000", f"{r['ms_per_query']:.3f}", mem, ""]
    d1, d2 = r["text"]
    wl = f"{r['mcnemar'][0]}/{r['mcnemar'][1]}"
    return [
        str(r["docs"]),
        r["system"],
        f"{r['exec@1']:.3f}",
        d1,
        d2,
        wl,
        f"{r['recall@100_of_exact']:.3f}",
        f"{r['ms_per_query']:.3f}",
        mem,
        f"{r['build_s']:.2f}",
    ]


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a fixed-width table."""
    return "\n".join([_line([name for name, _ in COLUMNS]), *(_line(_cells(r)) for r in rows)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--docs", default="0", help="comma-separated pool sizes (0: the dataset folder alone, MiniLM)")
    parser.add_argument("--kinds", default=KINDS, help="semicolon-separated index specs (the part after @faiss:)")
    parser.add_argument("--cache", type=Path, help="embedding cache and static model folder (default: a temporary one)")
    parser.add_argument("--model", default="static", help="dense spec of the encoder (static: bench_scale's static model for a pool, MiniLM for --docs 0)")
    parser.add_argument("--split", default="all", help="qrels scored (all: every query; the systems are zero-shot)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    kinds = [k for k in args.kinds.split(";") if k]
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or Path(tmp)
        rows: list[dict[str, Any]] = []
        for docs in (int(d) for d in args.docs.split(",")):
            rows += run_setting(args.dataset, args.split, docs, kinds, cache, args.seed, args.model)
            print(table([r for r in rows if r["docs"] == rows[-1]["docs"]]), flush=True)
    if args.out:
        args.out.write_text(json.dumps([{k: v for k, v in r.items() if k != "text"} for r in rows], indent=2))


if __name__ == "__main__":
    main()
