"""Thin command-line entry point: parse, call one library function, write.

Each subsystem registers its own sub-commands through a ``register(subparsers)`` function in its
``commands`` module, so this file stays a dispatcher.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from execir import __version__
from execir.errors import ExecIRError

COMMAND_MODULES = (
    "execir.build.commands",
    "execir.execute.commands",
    "execir.evaluate.commands",
)


def build_parser() -> argparse.ArgumentParser:
    """Create the top-level parser with every registered sub-command."""
    parser = argparse.ArgumentParser(prog="execir", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"execir {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for module_name in COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; user errors print one line and exit with status 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except ExecIRError as exc:
        print(f"execir: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("execir: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
