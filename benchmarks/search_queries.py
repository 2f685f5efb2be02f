"""Do short keyword queries collapse retrieval (CoREB's finding)? The t2c-search folder of a
HumanEval build, scored with its queries as built (description words plus the function name's) and
with the function name's words left out, every split.

    python benchmarks/search_queries.py --dataset out/humaneval/t2c-search
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from execir.dataset import load_dataset
from execir.evaluate.second_stage import search_depth, without_identical
from execir.metrics import evaluate
from execir.paths import embedding_cache_dir
from execir.retrieve import get_retriever
from execir.tasks import load_humaneval
from execir.texts.search import search_query


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=Path("out/humaneval/t2c-search"), help="a t2c-search folder of a HumanEval build")
    parser.add_argument("--retriever", action="append", default=None, help="retriever specs (default: bm25, dense)")
    args = parser.parse_args()
    dataset = load_dataset(args.dataset, "all")
    tasks = {t.task_id: t for t in load_humaneval(None)}
    variants = {
        "as built": dataset.queries,
        "without the function name": {q: search_query(tasks[q].description, "") for q in dataset.queries},
    }
    for spec in args.retriever or ["bm25", "dense"]:
        retriever = get_retriever(spec, cache_dir=embedding_cache_dir(), progress=False)
        retriever.index(dataset.corpus)
        for name, queries in variants.items():
            run = without_identical(retriever.search(queries, top_k=search_depth(dataset, 100)))
            values = evaluate(dataset.qrels, run, ["exec@1", "ndcg@10"])
            means = {m: statistics.mean(v.values()) for m, v in values.items()}
            tokens = statistics.median(len(q.split()) for q in queries.values())
            print(f"{retriever.name:<28} {name:<28} median tokens {tokens:>4g}  exec@1 {means['exec@1']:.3f}  nDCG@10 {means['ndcg@10']:.3f}")


if __name__ == "__main__":
    main()
