"""``execir export``: ExecIR results in other tools' formats (``export mteb-results``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from execir.errors import ExecIRError

EXPORT_EPILOG = """examples:
  execir export mteb-results results/he/t2c-description/results.json --out mteb-results
  execir export mteb-results results/he --out mteb-results          # a collection: every folder's results.json
  execir export mteb-results results/he --out mteb-results --name dense-all-MiniLM-L6-v2=sentence-transformers/all-MiniLM-L6-v2

Files go to OUT/results/<model>/<revision>/<TaskName>.json (MTEB's cache layout); read them back with
mteb.ResultCache(OUT).load_results(). Task names are those execir.interop.mteb_task gives the same folder."""


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
