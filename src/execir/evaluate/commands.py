"""``execir eval`` (evaluate retrievers on a dataset) and ``execir run`` (the main job)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from execir.console import progress_enabled
from execir.construct.commands import format_summary
from execir.construct.config import BuildConfig
from execir.construct.pipeline import build
from execir.dataset.read import SPLIT_CHOICES
from execir.distributed.options import add_oracle_options, oracle_factory, use_oracle_factory
from execir.distributed_retrieve.options import add_retrieve_options, ray_retrievers
from execir.evaluate.config import DEFAULT_DEPTH, DEFAULT_RETRIEVERS, HEADLINE_MEASURES, EvalConfig
from execir.evaluate.measures import DISPLAY_MEASURES, chosen_measures
from execir.evaluate.runner import eval_oracle, prepare_rerankers, prepare_retrievers, run_collection
from execir.execute import OracleConfig
from execir.expand import EXPAND_SPEC_HELP
from execir.paths import embedding_cache_dir, generation_cache_dir, verdict_cache_path
from execir.report.collection import format_collection
from execir.rerank.registry import RERANK_SPEC_HELP
from execir.retrieve.registry import SPEC_HELP

EVAL_EPILOG = f"""{SPEC_HELP}

{RERANK_SPEC_HELP}

{EXPAND_SPEC_HELP}

Without --retriever, eval runs {", ".join(DEFAULT_RETRIEVERS)}. Each retriever returns its top --depth documents per
query; metrics and analyses use that run (a document beyond the depth is unranked, as in trec_eval). Each --rerank
spec reorders every retriever's candidates into a system named <retriever>>><reranker> (e.g. bm25>>exec), reported
beside its first stage with the paired deltas (bootstrap CI) and the exact McNemar test on exec@1. Each --expand spec
adds <retriever>+<kind> (e.g. bm25+rm3) beside each retriever it applies to, reported the same way against the
unexpanded retriever; generated texts are cached ($EXECIR_CACHE_DIR/generations) and written to expansions/.

examples:
  execir eval data/he --out results/he                                  # {", ".join(DEFAULT_RETRIEVERS)}
  execir eval data/he --retriever bm25 --retriever dense:intfloat/e5-base-v2 --out results/he
  execir eval data/he --retriever hybrid:bm25+dense:./my-model --ties trec --out results/he-trec
  execir eval data/he --retriever api:voyage:voyage-code-3 --out results/he-voyage
  execir eval data/he/c2t --split all --out results/he-c2t                   # one folder, every split
  execir eval data/he --retriever dense --rerank exec --rerank ce:BAAI/bge-reranker-base --depth 50 --out results/he-rr
  execir eval data/he --retriever dense --depth 10 --rerank-depth 7 --rerank ce:models/mbpp-lw/soup --out results/he-top7
  execir eval data/he --retriever bm25 --retriever dense --expand rm3 --expand rocchio --out results/he-prf
  execir eval data/he --retriever dense --expand hyde:openai:http://127.0.0.1:8000/v1@qwen2.5-7b,n=4 --out results/he-hyde
  execir eval data/he --retriever dense:./my-model --name mine --metrics exec,ndcg,recall --k 1,10,100 --out results/mine

DATASET is a build's output (every task folder in it is evaluated: results per folder in OUT/<folder>/,
the collection's averages and per-task leaderboard in OUT/report.md) or one folder. Scores use the
--split qrels (default test); zero-shot systems may use --split all."""

RUN_EPILOG = f"""The main job (what 'make demo' runs): build the HumanEval benchmark (every task: text-to-code \
description/full/search, code-to-text, code-to-code) into OUT/humaneval (verdicts cached, so a second run executes \
nothing), then evaluate {", ".join(DEFAULT_RETRIEVERS)} on every split (zero-shot systems) into OUT/humaneval-eval.

examples:
  execir run
  execir run --out /tmp/execir --workers 4"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``eval`` and ``run`` commands."""
    parser = subparsers.add_parser(
        "eval",
        help="evaluate retrievers on a dataset",
        epilog=EVAL_EPILOG,
        description="Rank the corpus for every query with each retriever (to --depth), optionally rerank, then score (exec@k, nDCG, MRR, ...), "
        "bootstrap CIs, paired significance and near-clone gap analyses; writes results.json, runs/, per_query.jsonl, "
        "report.md and figures/.",
    )
    parser.add_argument("dataset", type=Path, help="a build's output folder (every task folder in it) or one dataset folder (BEIR layout)")
    parser.add_argument(
        "--retriever",
        action="append",
        dest="retrievers",
        metavar="SPEC",
        help=f"retriever spec, repeatable; see the grammar below (default: {' '.join(DEFAULT_RETRIEVERS)})",
    )
    parser.add_argument(
        "--rerank",
        action="append",
        dest="reranks",
        metavar="SPEC",
        default=[],
        help="rerank spec, repeatable, applied on top of every retriever; see the grammar below (default: none)",
    )
    parser.add_argument("--name", default=None, help="system name of the one --retriever (default: the retriever's own name)")
    parser.add_argument(
        "--metrics",
        default=None,
        metavar="LIST",
        help="comma list of measures to show and record per query, e.g. exec@1,ndcg@10,mrr@10,recall@100; "
        f"{', '.join(DISPLAY_MEASURES)} are always computed (default: {','.join(DISPLAY_MEASURES)})",
    )
    parser.add_argument(
        "--k",
        default=None,
        metavar="LIST",
        help="comma list of cut-offs for the --metrics names given without one, e.g. --metrics exec,ndcg --k 1,5,10 (default: none)",
    )
    parser.add_argument(
        "--rerank-depth",
        type=int,
        default=None,
        metavar="K",
        help="candidates each --rerank sees per query: the first stage's best K, the rest follow them in the first stage's order (default: all --depth)",
    )
    parser.add_argument("--workers", type=int, default=2, help="parallel execution sandboxes of the exec reranker")
    _add_eval_options(parser)
    add_oracle_options(parser)  # --ray (once, whoever adds it first), --ray-slots, --ray-batch: the exec reranker's oracle on Ray
    add_retrieve_options(parser)  # --encode-actors/-cpus/-gpus/-batch, --search-shards: dense encoding and search on Ray
    parser.set_defaults(handler=run_eval)
    main_job = subparsers.add_parser(
        "run",
        help="main job: build HumanEval (cached) and evaluate " + ", ".join(DEFAULT_RETRIEVERS),
        description="Build the HumanEval benchmark and evaluate " + ", ".join(DEFAULT_RETRIEVERS) + " on it.",
        epilog=RUN_EPILOG,
    )
    main_job.add_argument("--out", type=Path, default=Path("out"), help="where the dataset and report go")
    main_job.add_argument("--workers", type=int, default=2, help="parallel execution slots for the build")
    _add_eval_options(main_job, with_out=False)
    main_job.set_defaults(handler=run_main_job)


def _add_eval_options(parser: argparse.ArgumentParser, *, with_out: bool = True) -> None:
    if with_out:
        parser.add_argument("--out", type=Path, required=True, help="output directory for results")
    parser.add_argument(
        "--ties",
        choices=("pessimistic", "trec"),
        default="pessimistic",
        help="tie policy: pessimistic ranks a correct document after every wrong one with the same score; "
        "trec orders ties by document id, descending, as trec_eval does",
    )
    parser.add_argument(
        "--depth", type=int, default=DEFAULT_DEPTH, help="documents each retriever returns per query; metrics, analyses, rerankers and runs/ use them"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the bootstrap and the density ablation (and of the build, for run)")
    if with_out:
        parser.add_argument("--split", choices=SPLIT_CHOICES, default="test", help="qrels to score (default test; 'all' for zero-shot systems)")
    parser.add_argument(
        "--expand",
        action="append",
        dest="expand",
        metavar="SPEC",
        default=[],
        help="query expansion spec, repeatable (rm3, rocchio, hyde:GEN, query2doc:GEN); adds <retriever>+<kind> beside every retriever "
        "it applies to, on text-to-code search and description folders; see the grammar below (default: none)",
    )
    parser.add_argument("--cache-dir", type=Path, default=None, help="embedding cache directory (default: $EXECIR_CACHE_DIR/embeddings)")
    parser.add_argument("--no-progress", action="store_true", help="hide progress bars (they are never shown when stderr is not a terminal)")


def _eval_config(args: argparse.Namespace, dataset: Path, out: Path, retrievers: tuple[str, ...]) -> EvalConfig:
    chosen = chosen_measures(getattr(args, "metrics", None), getattr(args, "k", None))
    return EvalConfig(
        dataset=dataset,
        out=out,
        retrievers=retrievers,
        ties=args.ties,
        seed=args.seed,
        split=getattr(args, "split", "all"),
        depth=args.depth,
        reranks=tuple(getattr(args, "reranks", ())),
        rerank_depth=getattr(args, "rerank_depth", None),
        name=getattr(args, "name", None),
        measures=chosen or HEADLINE_MEASURES,
        display=chosen or DISPLAY_MEASURES,
        cache_dir=args.cache_dir or embedding_cache_dir(),
        expansions=tuple(getattr(args, "expand", ())),
        generation_cache_dir=generation_cache_dir(),
        progress=progress_enabled(not args.no_progress),
    )


def run_eval(args: argparse.Namespace) -> int:
    """Handler of ``execir eval``."""
    config = _eval_config(args, args.dataset, args.out, tuple(args.retrievers or DEFAULT_RETRIEVERS))
    retrievers = prepare_retrievers(config)  # every spec and option is checked before any work starts
    retrievers = ray_retrievers(retrievers, args, progress=config.progress)  # --ray: dense cache misses on Ray Data, sharded search
    rerankers = prepare_rerankers(config, eval_oracle(config, args.workers))
    if getattr(args, "ray", None):  # the exec reranker's candidates run on the cluster's oracle hosts
        use_oracle_factory(rerankers.values(), oracle_factory(args))
    result, report = run_collection(config, retrievers, rerankers)
    print(format_collection(result))
    print(f"\nreport: {report}")
    return 0


def run_main_job(args: argparse.Namespace) -> int:
    """Handler of ``execir run``: build the HumanEval benchmark (verdicts cached), then evaluate."""
    started = time.perf_counter()
    dataset = args.out / "humaneval"
    eval_config = _eval_config(args, dataset, args.out / "humaneval-eval", DEFAULT_RETRIEVERS)
    retrievers = prepare_retrievers(eval_config)  # before the build, so a missing model fails in a second
    config = BuildConfig(source="humaneval", path=None, out=dataset, seed=args.seed)
    oracle = OracleConfig(workers=args.workers, cache_path=verdict_cache_path(), progress=eval_config.progress)
    print("== building the HumanEval benchmark (execution-verified) ==")
    print(format_summary(build(config, oracle)))
    print(f"\n== evaluating {', '.join(DEFAULT_RETRIEVERS)} on every folder (all splits: zero-shot systems) ==")
    result, report = run_collection(eval_config, retrievers, {})
    print(format_collection(result))
    print(f"\nreport: {report}\ntotal wall time: {time.perf_counter() - started:.1f} s")
    return 0
