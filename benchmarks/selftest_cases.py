"""One selftest module's cases through the oracle: each case's verdict, protocol and detail, and the
mislabels (a verdict outside the case's expected set).

    .venv/bin/python benchmarks/selftest_cases.py execir.execute.attacks.adversarial_cpp_exceptions
    .venv/bin/python benchmarks/selftest_cases.py execir.execute.attacks.adversarial_js --only identity,shape

Run against an older checkout (``PYTHONPATH=OLD/src`` with the module copied in) to count what a
mechanism changed: the closing notes' "before" numbers are made that way.
"""

from __future__ import annotations

import argparse
import importlib
import time

from execir.execute import Oracle, OracleConfig
from execir.execute.selftest import run_cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", help="a module of execir.execute.attacks exporting CASES")
    parser.add_argument("--only", default="", help="comma-separated substrings of the case names to keep")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    cases = importlib.import_module(args.module).CASES
    if args.only:
        cases = tuple(c for c in cases if any(part in c.name for part in args.only.split(",")))
    started = time.perf_counter()
    with Oracle(OracleConfig(workers=args.workers, progress=False)) as oracle:
        outcomes = run_cases(oracle, cases)
    bad = [o for o in outcomes if not o.ok]
    for o in outcomes:
        print(f"{'ok ' if o.ok else 'BAD'} {o.case.name:55s} {o.result.verdict.value:9s} {o.result.protocol:14s} {o.result.detail[:160]!r}")
    passes = sum(o.result.verdict.value == "PASS" for o in bad)
    print(f"{len(outcomes)} cases, {len(bad)} mislabels ({passes} false PASS, {len(bad) - passes} other), {time.perf_counter() - started:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
