"""Go judged outside the candidate's process (see :mod:`execir.execute.split`).

* **record** and **judge** (trusted code only): the reference program with its entry function
  renamed to ``execirReference<Name>`` (its recursive calls and its helpers then call the
  reference itself), the task's tests, and ``entry.go``, which declares
  ``var <Name> = split.Wrap(execirReference<Name>)``: a ``reflect.MakeFunc`` of the same type,
  set before any package variable that uses it. The recorder writes each call's arguments and calls
  the reference; the replayer returns the candidate's decoded results (see ``go_replay.go``). The
  tests' own ``testify`` checks decide, and the trusted test main writes the nonce only when every
  test completed. ``time.Now()`` in the tests reads a fixed clock in both runs (tests that seed a
  generator from the time make the same calls in the record and in every judge).
* **calls** (the candidate's run): the program as the library ``execir/prog`` with one added file,
  ``var ExecirEntry func(<the reference's signature>) = <Name>`` (a program whose entry has another
  type does not compile: ERROR), and a trusted main that hands it to ``execir/caller``. No test,
  no expected value and no helper of the tests is in this process, so it needs no nonce, no guard
  and no seccomp filter; whatever it writes to fd 3 is only decoded, by the judge, as values of the
  reference's types.

The wire (``go_wire.go``) is exact: floats round-trip (NaN, infinities, -0), integers are checked
against their width, strings keep their bytes (invalid UTF-8 as hex), nil slices and maps stay
apart from empty ones, and map entries are sorted, so the recorder and the replayer write the same
text for the same arguments. Arguments a call changed (slice elements, maps, pointees) are written
back into the judge's own arguments, so tests that look at an argument after the call see what the
candidate did to it. Generic entry functions and tests that never call the entry stay in-process.
"""

from __future__ import annotations

import re

from execir.execute.runtimes import go_judges, go_source
from execir.execute.runtimes.base import CALLS_FILE, RESULTS_FILE, Plan, harness_source
from execir.execute.runtimes.go import RUN_ENV, GoRuntime, GoToolchain, Library, _sh, library_steps

WIRE = Library("execir/wire", "wire.a", (("wire/wire.go", harness_source("go_wire.go")),))
SPLIT = Library(
    "execir/split",
    "split.a",
    tuple((f"split/{name}.go", harness_source(f"go_{name}.go")) for name in ("split", "record", "replay")),
)
CALLER = Library("execir/caller", "caller.a", (("caller/caller.go", harness_source("go_caller.go")),))
CALL_MAIN = 'package main\n\nimport (\n\tcaller "execir/caller"\n\tprog "execir/prog"\n)\n\nfunc main() { caller.Run(prog.ExecirEntry) }\n'
DATA = frozenset({CALLS_FILE, RESULTS_FILE})
HARNESS = tuple(text for library in (WIRE, SPLIT) for _, text in library.sources) + (harness_source("go_guard.go"), harness_source("go_testmain.go"))


def splittable(reference: str, tests: str, entry_point: str) -> bool:
    """The tests call ``entry_point``, a top-level non-generic function of the reference."""
    if not entry_point or not entry_point.isidentifier() or go_source.signature(reference, entry_point) is None:
        return False
    return re.search(rf"(?<![\w.]){entry_point}(?!\w)", go_source.masked(tests)) is not None


def trusted_plan(runtime: GoRuntime, toolchain: GoToolchain, reference: str, tests: str, entry_point: str, data: dict[str, str]) -> Plan:
    """The record run (no ``data``) or a judge run (``data``: the calls and the candidate's
    results): one executable, prebuilt once per task where it can be (:mod:`go_judges`)."""
    package = go_source.package_name(tests)
    renamed = go_source.REFERENCE_PREFIX + entry_point
    entry = (
        f'package {package}\n\nimport execirsplit "execir/split"\n\nvar {entry_point} = execirsplit.Wrap({renamed})\n\n'
        "func execirClock() int64 { return execirsplit.Clock() }\n"
    )
    sources = {"main.go": go_source.rename(reference, entry_point, renamed), "tests.go": go_source.fixed_clock(tests), "entry.go": entry}
    plan = runtime.tests_plan(toolchain, sources, tests, refuse_linkname=False, libraries=(WIRE, SPLIT), keep=DATA)
    name = go_judges.key(toolchain.version, toolchain.prepared, toolchain.std_cfg, reference, tests, entry_point, *HARNESS)
    built = go_judges.prebuilt(name, plan, DATA)
    if built is not None:
        return Plan(dict(data), (built,), (), dict(RUN_ENV))
    return Plan({**plan.files, **data}, plan.run, plan.compile, plan.env)


def call_plan(toolchain: GoToolchain, program: str, entry_point: str, reference: str) -> Plan:
    """The candidate's run: its program, the entry's type check and the trusted caller."""
    declared = go_source.func_type(reference, entry_point) or ""
    # the blank import makes the caller a dependency of the program, initialized before any of the
    # program's package variables and init functions
    entry = f'package {go_source.package_name(program)}\n\nimport _ "execir/caller"\n\nvar ExecirEntry {declared} = {entry_point}\n'
    files = {"main.go": program, "execir_entry.go": entry, "callmain.go": CALL_MAIN, "importcfg": toolchain.std_cfg}
    compile_ = [toolchain.paths["compile"], "-c=1", "-complete", "-importcfg", "importcfg", "-pack"]
    prebuilt = go_judges.prebuilt_libraries(toolchain, (WIRE, CALLER))
    if prebuilt is not None:  # the trusted libraries compiled once, root-owned, read-only here
        files["importcfg"] += prebuilt + "packagefile execir/prog=prog.a\n"
        steps: list[str] = []
    else:
        files["importcfg"] += "".join(library.cfg_line for library in (WIRE, CALLER)) + "packagefile execir/prog=prog.a\n"
        steps = library_steps(compile_, files, (WIRE, CALLER))
    steps.append(_sh([*compile_, "-p", "execir/prog", "-o", "prog.a", "main.go", "execir_entry.go"]))
    steps.append(_sh([*compile_, "-p", "main", "-o", "callmain.a", "callmain.go"]))
    steps.append(_sh([toolchain.paths["link"], "-s", "-w", "-buildmode=exe", "-importcfg", "importcfg", "-o", "prog", "callmain.a"]))
    files["build.sh"] = "set -e\n" + "\n".join(steps) + "\n"
    return Plan(files, ("./prog",), ("/bin/sh", "build.sh"), dict(RUN_ENV))
