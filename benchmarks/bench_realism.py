"""How many of HumanEvalPack's human-written bugs the mutation operators reproduce exactly.

For every HumanEvalPack task of a language, the canonical program (``prompt + canonical_solution``)
is mutated with every operator (``execir mutate --all``: no selection, no execution); the human bug
(``prompt + buggy_solution``) counts as reproduced when some candidate has exactly its token
sequence (comments and layout ignored). Printed per language: bugs, reproduced share (overall and
per HumanEvalPack bug type), candidates per task (median, max), and the token edit distance of the
human bugs beside that of the candidates.

Usage: ``python benchmarks/bench_realism.py [--languages python,cpp,java,go,js,rust] [--operators SPEC]
[--misses N] [--json OUT]``; needs ``../shared/data`` (or ``--data DIR``). A language without a
HumanEvalPack file (Ruby, PHP, TypeScript: their public set is MBXP, which has no human bugs) is
reported as not applicable.
"""

from __future__ import annotations

import argparse
import difflib
import json
import statistics
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from execir.languages import ParseError, get_language, select_operators
from execir.mutate import generate_mutants
from execir.mutate.distance import levenshtein
from execir.tasks.multilingual import read_jsonl, shared_data

PACK_LANGUAGES = ("python", "cpp", "java", "go", "js", "rust")


@dataclass
class LanguageRealism:
    """One language's figures."""

    language: str
    bugs: int = 0
    unparsed: int = 0
    reproduced: int = 0
    per_bug_type: dict[str, list[int]] = field(default_factory=dict)
    """bug type -> [reproduced, total]."""
    candidates: list[int] = field(default_factory=list)
    human_distance: list[int] = field(default_factory=list)
    candidate_distance: list[int] = field(default_factory=list)
    by_operator: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def share(self) -> float:
        return self.reproduced / self.bugs if self.bugs else 0.0


def measure(language: str, records: list[dict], operators: str | None, keep_misses: int) -> LanguageRealism:
    """Mutate every canonical and look for its human bug among the candidates."""
    lang = get_language(language)
    chosen = select_operators(lang, operators)
    result = LanguageRealism(language)
    started = time.perf_counter()
    for record in records:
        if not record.get("buggy_solution"):
            continue
        result.bugs += 1
        canonical = record["prompt"] + record["canonical_solution"]
        buggy = record["prompt"] + record["buggy_solution"]
        bug_type = record.get("bug_type", "unknown")
        tally = result.per_bug_type.setdefault(bug_type, [0, 0])
        tally[1] += 1
        try:
            mutants = generate_mutants(record["task_id"], canonical, language, chosen)
        except ParseError:
            result.unparsed += 1
            continue
        canonical_tokens, buggy_tokens = lang.tokens(canonical), lang.tokens(buggy)
        result.candidates.append(len(mutants))
        result.human_distance.append(levenshtein(canonical_tokens, buggy_tokens))
        result.candidate_distance.extend(m.edit_distance for m in mutants)
        hit = next((m for m in mutants if lang.tokens(m.text) == buggy_tokens), None)
        if hit is not None:
            result.reproduced += 1
            tally[0] += 1
            result.by_operator[hit.operator] += 1
        elif len(result.misses) < keep_misses:
            diff = difflib.unified_diff(canonical.splitlines(True), buggy.splitlines(True), n=0)
            body = "".join(line for line in diff if not line.startswith(("---", "+++", "@@")))
            result.misses.append(f"{record['task_id']} ({bug_type}):\n{body}")
    result.seconds = time.perf_counter() - started
    return result


def _quantiles(values: list[int]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"median {statistics.median(ordered):g}, p90 {ordered[int(0.9 * (len(ordered) - 1))]}, max {ordered[-1]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--languages", default=",".join(PACK_LANGUAGES))
    parser.add_argument("--data", type=Path, default=None, help="the shared data folder (default: ../shared/data)")
    parser.add_argument("--operators", default=None, help="operator/family spec as for execir mutate --operators")
    parser.add_argument("--misses", type=int, default=0, help="print up to N unreproduced bugs per language")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    data = args.data or shared_data()
    if data is None:
        print("bench_realism: skipped, ../shared/data is absent (pass --data DIR)", file=sys.stderr)
        return 0
    results = []
    for language in args.languages.split(","):
        pack = data / "humanevalpack" / f"humanevalpack_{language}.jsonl"
        if not pack.exists():
            get_language(language)  # an unknown name is still an error
            print(f"{language}: not applicable, no human-written bugs ({pack.name} is absent; MBXP has none)")
            continue
        records = read_jsonl(pack)
        result = measure(language, records, args.operators, args.misses)
        results.append(result)
        print(
            f"{language}: {result.reproduced}/{result.bugs} human bugs reproduced ({100 * result.share:.1f}%), "
            f"unparsed {result.unparsed}; candidates per task {_quantiles(result.candidates)}; {result.seconds:.1f} s"
        )
        print("  per bug type: " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(result.per_bug_type.items())))
        print(f"  token edit distance: human bugs {_quantiles(result.human_distance)}; candidates {_quantiles(result.candidate_distance)}")
        print("  reproduced by: " + ", ".join(f"{k} {v}" for k, v in result.by_operator.most_common()))
        for miss in result.misses:
            print("  MISS " + miss.replace("\n", "\n    "))
    if args.json:
        rows = [{**asdict(r), "share": r.share, "by_operator": dict(r.by_operator)} for r in results]
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
