"""ExecIR: build execution-verified code-retrieval benchmarks and evaluate retrievers on them.

Each subsystem registers its own sub-commands through a ``register(subparsers)`` function in its
``commands`` module, so this file stays a dispatcher.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from execir import __version__
from execir.cli_help import HelpFormatter, apply_formatter
from execir.console import progress_enabled, silence_library_bars
from execir.errors import ExecIRError

COMMAND_MODULES = (
    "execir.construct.commands",
    "execir.mutate.commands",
    "execir.execute.commands",
    "execir.evaluate.commands",
    "execir.train.commands",
    "execir.train.embedder_commands",
    "execir.interop.commands",
    "execir.distributed.commands",
    "execir.doctor.commands",
)

DESCRIPTION = "Build execution-verified code-retrieval benchmarks and evaluate retrievers on them."
EPILOG = """examples:
  execir run                                           # the main job: build HumanEval, evaluate bm25, dense, hybrid
  execir build humaneval --out data/he                 # an execution-verified benchmark
  execir build humanevalpack --language java --out data/java   # other languages, with human-written bugs
  execir mutate solution.go --all --json               # the mutants of your own code (nothing runs)
  execir eval data/he --retriever bm25 --out results/he
  execir exec --program P.py --tests T.py --entry-point NAME --json
  execir selftest                                      # the oracle's adversarial suite
  execir doctor                                        # what this machine lacks, and what to install

Run 'execir COMMAND --help' for a command's options."""


def build_parser() -> argparse.ArgumentParser:
    """Create the top-level parser with every registered sub-command."""
    parser = argparse.ArgumentParser(prog="execir", description=DESCRIPTION, epilog=EPILOG, formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"execir {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for module_name in COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (module_name == exc.name or module_name.startswith(exc.name + ".")):
                raise
            continue
        module.register(subparsers)
    apply_formatter(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; user errors print one line and exit with status 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not progress_enabled():
        silence_library_bars()
    try:
        return int(args.handler(args) or 0)
    except ExecIRError as exc:
        print(f"execir: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("execir: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (``execir mutate ... | head``): stop quietly, as other tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
