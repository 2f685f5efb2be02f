"""CLI: ``execir exec`` (run one program against tests) and ``execir selftest`` (adversarial suite)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from execir.distributed.options import add_oracle_options, oracle_factory, ray_options
from execir.errors import ExecIRError, InputError
from execir.execute.jobs import Job
from execir.execute.limits import WALL_FLOOR, WALL_MULTIPLIER, Limits
from execir.execute.oracle import OracleConfig
from execir.execute.runtimes import LANGUAGES, infer_language
from execir.execute.safe_text import printable
from execir.execute.sandbox.isolation import LEVELS
from execir.language_declarations import is_host_language
from execir.types import StdioCase, TestSuite, Verdict

EXEC_EPILOG = """examples:
  execir exec --program cand.py --tests test.py --entry-point add --json
  execir exec --program main.py --stdio-cases cases.json
  execir exec --program cand.py --tests test.py --entry-point add --reference ref.py --cpu-seconds 2
  execir exec --program sol.cpp --tests test.cpp --json            # C++: includes + main() with asserts
  execir exec --language java --program Solution.java --tests Main.java
  execir exec --program main.go --stdio-cases cases.json          # stdio works in every language

Tests by language (--tests): python: a file defining check(candidate) (HumanEval); cpp: includes + main()
with asserts, appended after the program (HumanEval-X); java: a Main class whose main checks a Solution;
go: Test...(t *testing.T) functions using testify; js: code run after the program (console.assert or
require('assert')); ruby: top-level checks that raise (MBXP). The language comes from the program's
extension (.py .cpp .cc .java .go .js .rb) unless --language is given.

Give exactly one of --tests or --stdio-cases. Exit status: 0 on PASS, 1 on any other verdict, 2 on a usage or input error."""

SELFTEST_EPILOG = """examples:
  execir selftest
  execir selftest --json
  execir selftest --isolation unshare --workers 4

Exit status: 0 when every case got an acceptable verdict and nothing was left behind (no surviving process, host artefact or \
loopback listener), else 1."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``exec`` and ``selftest``."""
    run = subparsers.add_parser(
        "exec",
        help="run one program against a task's tests in the sandbox",
        epilog=EXEC_EPILOG,
        description="Run one candidate program in the sandbox against a task's tests: HumanEval-style check(candidate) "
        "tests (--tests with --entry-point) or stdin/stdout cases (--stdio-cases), and print its verdict.",
    )
    run.add_argument("--program", type=Path, required=True, help="candidate program source")
    run.add_argument("--language", choices=LANGUAGES, help="language of the program (default: from its extension)")
    run.add_argument("--tests", type=Path, help="test code in the program's language (see below)")
    run.add_argument("--stdio-cases", type=Path, help='JSON list of {"input", "output"} cases')
    run.add_argument("--entry-point", default=None, help="function name the tests call (required with --tests)")
    run.add_argument("--reference", type=Path, help="canonical program the judge may use for helpers")
    run.add_argument("--cpu-seconds", type=float, default=5.0, help="CPU budget of the process tree")
    _common(run, workers_help="parallel execution slots (default: 2; exec itself runs its one program in one slot)")
    run.set_defaults(handler=run_exec)
    test = subparsers.add_parser(
        "selftest",
        help="run the adversarial suite through the real oracle",
        epilog=SELFTEST_EPILOG,
        description="Run the oracle's adversarial suite (timeouts, resource abuse, tampering, forged output, sandbox "
        "escapes, and false-negative controls) through the real sandbox, and report mislabels and anything left behind.",
    )
    cache = subparsers.add_parser("cache", help="verdict-cache maintenance", description="Maintain verdict caches (SQLite files of --cache).")
    actions = cache.add_subparsers(dest="cache_command", required=True)
    merge = actions.add_parser(
        "merge",
        help="combine verdict caches into a new file",
        description="Write the union of verdict caches to a new file. A key cached with different verdicts keeps the first "
        "file's verdict and is reported (never silently overwritten); the exit status is 1 when there are such conflicts.",
    )
    merge.add_argument("sources", type=Path, nargs="+", help="verdict caches (SQLite), earlier files win conflicts")
    merge.add_argument("--out", type=Path, required=True, help="the merged cache (must not exist)")
    merge.add_argument("--json", action="store_true", help="print one JSON object")
    merge.set_defaults(handler=run_cache_merge)
    _common(test)
    test.add_argument("--languages", help="comma-separated languages whose cases run (default: all; the slot poisoners run with python)")
    test.set_defaults(handler=run_selftest)


def _common(parser: argparse.ArgumentParser, workers_help: str = "parallel execution slots") -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--isolation", default="auto", choices=("auto", *LEVELS), help="sandbox level; auto = the strongest available of bwrap, unshare, uid, rlimits"
    )
    parser.add_argument("--workers", type=int, default=2, help=workers_help)
    add_oracle_options(parser)


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ExecIRError(f"cannot read {what} {path}: {exc}") from exc


def _stdio_cases(path: Path) -> tuple[StdioCase, ...]:
    try:
        data = json.loads(_read(path, "stdio cases"))
    except json.JSONDecodeError as exc:
        raise InputError(str(path), exc.lineno, None, f"invalid JSON: {exc.msg}") from exc
    if not isinstance(data, list):
        raise InputError(str(path), 1, None, "expected a JSON list of cases")
    cases = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("input"), str) or not isinstance(item.get("output"), str):
            raise InputError(str(path), 1, f"[{i}]", 'each case needs string "input" and "output"')
        cases.append(StdioCase(item["input"], item["output"]))
    return tuple(cases)


def run_exec(args: argparse.Namespace) -> int:
    """Handler of ``execir exec``."""
    if (args.tests is None) == (args.stdio_cases is None):
        raise ExecIRError("give exactly one of --tests or --stdio-cases")
    language = args.language or infer_language(args.program)
    if args.tests is not None and is_host_language(language) and not args.entry_point:
        raise ExecIRError("--tests needs --entry-point NAME (the function check() is called with)")
    if args.stdio_cases:
        tests = TestSuite("stdio", stdio_cases=_stdio_cases(args.stdio_cases))
    else:
        tests = TestSuite("check" if is_host_language(language) else "native", _read(args.tests, "tests"))
    if args.cpu_seconds <= 0:
        raise ExecIRError("--cpu-seconds must be positive")
    limits = Limits(args.cpu_seconds, max(WALL_FLOOR, WALL_MULTIPLIER * args.cpu_seconds))
    reference = _read(args.reference, "reference") if args.reference else ""
    job = Job(_read(args.program, "program"), tests, args.entry_point or "", limits, reference=reference, language=language)
    with oracle_factory(args)(OracleConfig(workers=1, isolation=args.isolation, progress=False)) as oracle:
        if not is_host_language(language):
            oracle.toolchain(language)  # a missing toolchain is one clear error naming the package
        (result,) = oracle.run([job])
    record = {
        "verdict": result.verdict.value,
        "language": language,
        "protocol": result.protocol,
        "seconds": result.seconds,
        "compile_seconds": result.compile_seconds,
        "wall_seconds": result.wall_seconds,
        "per_test": list(result.per_test) if result.per_test is not None else None,
        "detail": result.detail,
        "isolation": result.isolation,
        "stderr_tail": result.stderr_tail,
    }
    print(json.dumps(record) if args.json else f"{record['verdict']} in {result.seconds:.3f} CPU s ({result.isolation}): {printable(result.detail, 2000)}")
    return 0 if result.verdict is Verdict.PASS else 1


def run_selftest(args: argparse.Namespace) -> int:
    """Handler of ``execir selftest``."""
    from execir.execute.selftest import selftest

    languages = frozenset(name.strip() for name in args.languages.split(",")) if args.languages else None
    if languages is not None and not languages <= set(LANGUAGES):
        raise ExecIRError(f"--languages: unknown {', '.join(sorted(languages - set(LANGUAGES)))}; choose from {', '.join(LANGUAGES)}")
    config = OracleConfig(workers=args.workers, isolation=args.isolation, progress=False)
    options = ray_options(args)
    if options is not None:  # through the cluster, with the cases proving no Ray fd or variable reaches a candidate
        from execir.distributed.selftest import ray_selftest

        figures = ray_selftest(config, options, languages)
    else:
        figures = selftest(config, languages)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        over = figures["overhead"]
        print(f"isolation: {figures['isolation']}")
        print(f"cases: {figures['cases']}  mislabels: {figures['mislabels']}  false PASS: {figures['false_pass']}")
        print("cases per class: " + ", ".join(f"{name} {n}" for name, n in figures["cases_per_category"].items()))
        wrong = figures["mislabels_per_language"]
        print("cases per language: " + ", ".join(f"{name} {n} ({wrong.get(name, 0)} mislabelled)" for name, n in figures["cases_per_language"].items()))
        protocols = figures["protocols_per_language"]
        print("protocol per language: " + "; ".join(f"{name} " + ", ".join(f"{p} {n}" for p, n in counts.items()) for name, counts in protocols.items()))
        print(
            f"surviving processes: {figures['surviving_processes']}  host artefacts: {figures['host_artefacts']}  "
            f"loopback listener: {figures['loopback_listener']}"
        )
        print(f"per-run overhead: median {over['median_run_ms']} ms, {over['checks_per_second']} checks/s")
        for bad in figures["mislabelled"]:
            print(f"  MISLABEL {bad['case']}: expected {'/'.join(bad['expected'])}, got {bad['got']} ({bad['detail']})")
    clean = not (figures["mislabels"] or figures["false_pass"] or figures["surviving_processes"] or figures["host_artefacts"] or figures["loopback_listener"])
    return 0 if clean else 1


def run_cache_merge(args: argparse.Namespace) -> int:
    """Handler of ``execir cache merge``."""
    from execir.execute.cache import merge

    report = merge(list(args.sources), args.out)
    if args.json:
        conflicts = [{"key": c.key, "verdicts": c.verdicts} for c in report.conflicts]
        print(json.dumps({"rows_per_source": report.rows_per_source, "rows_written": report.rows_written, "conflicts": conflicts}, indent=2))
    else:
        for source, rows in report.rows_per_source.items():
            print(f"{source}: {rows} verdicts")
        print(f"{args.out}: {report.rows_written} verdicts written, {len(report.conflicts)} keys with differing verdicts")
        for conflict in report.conflicts:
            print(f"  CONFLICT {conflict.key[:16]}: " + ", ".join(f"{name} {verdict}" for name, verdict in conflict.verdicts.items()))
    return 1 if report.conflicts else 0
