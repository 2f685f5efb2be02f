"""CLI: ``execir doctor``: what this machine has of what the README promises, and what to install."""

from __future__ import annotations

import argparse
import json

from execir.doctor.checks import diagnose
from execir.doctor.render import table
from execir.errors import ExecIRError
from execir.execute.runtimes import LANGUAGES

EPILOG = """examples:
  execir doctor                      # the table; exit 1 when a language or the sandbox is missing
  execir doctor --json               # one JSON object (what `execir ray check` runs on every node)
  execir doctor --languages rust,cpp
  execir doctor --require-extras     # ray, faiss, onnxruntime, .venv-infinity and chromium too (make test)

Each language: its toolchain (found, version, every piece the runtime prepares: Rust's crates, Go's
testify archive, C++'s precompiled headers), a correct program that must PASS and a wrong one that
must FAIL, judged outside with the task's reference, and the libraries the public task sets import.
Run it once as root after installing: it also builds the root-owned caches the oracle uses.
Exit status: 0 when nothing promised is missing, 1 otherwise."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``doctor``."""
    doctor = subparsers.add_parser(
        "doctor",
        help="check the languages, the sandbox and the extras this machine has, and say what to install",
        epilog=EPILOG,
        description="Check every language the oracle runs, the sandbox level and the optional extras; print what to install for each gap.",
    )
    doctor.add_argument("--json", action="store_true", help="print one JSON object")
    doctor.add_argument("--languages", default="", help=f"comma-separated subset of {', '.join(LANGUAGES)} (default: all)")
    doctor.add_argument("--require-extras", action="store_true", help="a missing optional extra is a gap too (exit 1)")
    doctor.add_argument("--no-extras", action="store_true", help="check only the languages and the sandbox")
    doctor.set_defaults(handler=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    """Handler of ``execir doctor``."""
    languages = tuple(name.strip() for name in args.languages.split(",") if name.strip()) or LANGUAGES
    unknown = sorted(set(languages) - set(LANGUAGES))
    if unknown:
        raise ExecIRError(f"--languages: unknown {', '.join(unknown)}; choose from {', '.join(LANGUAGES)}")
    report = diagnose(languages=languages, extras=not args.no_extras, require_extras=args.require_extras)
    print(json.dumps(report.as_json(), indent=2) if args.json else table(report))
    return 0 if report.ok else 1
