"""``execir mutate FILE``: print the mutants of a program without executing them."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from execir.construct.config import DEFAULT_MAX_MUTANTS, DEFAULT_SEED
from execir.errors import ExecIRError
from execir.jsonl import read_text
from execir.languages import EXTENSIONS, LANGUAGE_MODULES, ParseError, get_language, select_operators
from execir.languages.base import family_table
from execir.mutate.engine import generate_mutants
from execir.mutate.select import order_candidates
from execir.types import Mutant

MUTATE_EPILOG = """examples:
  execir mutate solution.py                      # the mutants a build would try first, as diffs
  execir mutate Solution.java --all --json       # every candidate before selection, one JSON object per line
  execir mutate prog.cpp --operators missing,variable --max 10 --seed 3
  execir mutate code.txt --language go --json

Nothing is executed: a build keeps only the candidates that verifiably fail the task's tests."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``mutate`` command."""
    parser = subparsers.add_parser(
        "mutate",
        help="print the single-edit mutants of a program (no execution)",
        epilog=MUTATE_EPILOG,
        description="Generate the single-edit mutants of a program with its language's operators and print them: "
        "by default the first --max in the seeded, family-weighted order a build uses; with --all every candidate.",
    )
    parser.add_argument("file", type=Path, help="the program")
    parser.add_argument("--language", choices=sorted(LANGUAGE_MODULES), default=None, help="default: from the file extension")
    parser.add_argument("--all", action="store_true", help="every candidate before selection, in operator then position order")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="selection seed")
    parser.add_argument("--max", type=int, default=DEFAULT_MAX_MUTANTS, help="how many selected candidates to print (ignored with --all)")
    parser.add_argument("--operators", default=None, help="operators or families, comma-separated; '-name' excludes; default: all")
    parser.add_argument("--json", action="store_true", help="one JSON object per line: operator, family, kind, edit, edit_distance, text")
    parser.set_defaults(handler=run_mutate)


def infer_language(path: Path, language: str | None) -> str:
    """``--language`` when given, else the language of the file extension."""
    if language:
        return language
    found = EXTENSIONS.get(path.suffix.lower())
    if found is None:
        raise ExecIRError(f"{path}: cannot tell the language from the extension '{path.suffix}'; pass --language ({', '.join(sorted(LANGUAGE_MODULES))})")
    return found


def select_mutants(text: str, language: str, *, operators: str | None, seed: int, limit: int | None) -> list[Mutant]:
    """The candidates of ``text``: all of them (``limit`` None) or the first ``limit`` in selection order."""
    lang = get_language(language)
    mutants = generate_mutants("input", text, language, select_operators(lang, operators))
    if limit is None:
        return mutants
    return order_candidates(mutants, seed=seed, families=family_table(lang))[:limit]


def mutant_json(mutant: Mutant, family: str) -> str:
    """One JSON line describing a candidate."""
    edit = mutant.edit
    return json.dumps(
        {
            "operator": mutant.operator,
            "family": family,
            "edit": {"line": edit.line, "col": edit.col, "before": edit.before, "after": edit.after},
            "edit_distance": mutant.edit_distance,
            "text": mutant.text,
        },
        ensure_ascii=False,
    )


def run_mutate(args: argparse.Namespace) -> int:
    """Handler of ``execir mutate``."""
    if args.max < 1:
        raise ExecIRError(f"--max must be >= 1, got {args.max}")
    language = infer_language(args.file, args.language)
    text = read_text(args.file)
    try:
        mutants = select_mutants(text, language, operators=args.operators, seed=args.seed, limit=None if args.all else args.max)
    except ParseError as error:
        raise ExecIRError(f"{args.file}: {error}") from None
    families = family_table(get_language(language))
    for mutant in mutants:
        if args.json:
            print(mutant_json(mutant, families[mutant.operator]))
        else:
            edit = mutant.edit
            print(
                f"{mutant.operator} ({families[mutant.operator]}) line {edit.line} col {edit.col + 1}: "
                f"{edit.before!r} -> {edit.after!r} (token distance {mutant.edit_distance})"
            )
    if not args.json:
        print(f"{len(mutants)} candidate(s) of {args.file} ({language})")
    return 0
