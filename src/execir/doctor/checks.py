"""What ``execir doctor`` checks: every language the oracle runs (toolchain, version, the libraries
the public task sets import, a tiny program judged outside that must PASS and a wrong one that must
FAIL), the sandbox level, and the optional extras; each gap with what to install."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from execir.doctor.probes import PROBES, Probe
from execir.execute.jobs import JUDGED_OUTSIDE, ExecResult, Job
from execir.execute.limits import Limits
from execir.execute.oracle import Oracle, OracleConfig
from execir.execute.runtimes import LANGUAGES, ToolchainMissing
from execir.execute.safe_text import printable
from execir.language_declarations import is_host_language

OK, GAP, ABSENT = "ok", "missing", "absent"
"""A check's status: ``ok``; ``missing`` (something promised is not there: exit 1); ``absent``
(an optional extra that is not installed)."""
PROBE_LIMITS = Limits(cpu_seconds=10.0, wall_seconds=60.0, memory_mb=1024)
"""Generous: a probe is the first run of a language on the machine (JVM and rustc start-up)."""
STRONGEST = "bwrap"


@dataclass(frozen=True)
class Check:
    """One line of the doctor's table."""

    area: str
    """``language``, ``sandbox`` or ``extra``."""
    name: str
    status: str
    detail: str
    fix: str = ""
    required: bool = True

    @property
    def gap(self) -> bool:
        """Something the README promises is missing."""
        return self.status != OK and self.required


@dataclass(frozen=True)
class Report:
    """Every check, in order."""

    checks: tuple[Check, ...]
    isolation: str = ""
    toolchains: dict[str, str] = field(default_factory=dict)

    @property
    def gaps(self) -> tuple[Check, ...]:
        return tuple(check for check in self.checks if check.gap)

    @property
    def ok(self) -> bool:
        return not self.gaps

    def as_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "isolation": self.isolation,
            "toolchains": dict(self.toolchains),
            "gaps": len(self.gaps),
            "checks": [asdict(check) for check in self.checks],
        }


def probe_check(probe: Probe, result: ExecResult) -> Check:
    """The check of one probe from its result: the expected verdict, judged outside."""
    name = f"{probe.language}: {probe.name}"
    if result.verdict is not probe.expected:
        detail = f"expected {probe.expected.value}, got {result.verdict.value}: {printable(result.detail or result.stderr_tail, 600)}"
        return Check("language", name, GAP, detail, probe.fix)
    if probe.reference and result.protocol != JUDGED_OUTSIDE:
        return Check("language", name, GAP, f"{result.verdict.value} but {result.protocol}, not judged outside", probe.fix)
    return Check("language", name, OK, f"{result.verdict.value}, {result.protocol}")


def check_languages(oracle: Oracle, languages: Sequence[str] = LANGUAGES) -> tuple[list[Check], dict[str, str]]:
    """Each language's toolchain (found, version, ready) and its probes, run through ``oracle``."""
    checks: list[Check] = []
    versions: dict[str, str] = {}
    ready: list[Probe] = []
    for language in languages:
        probes = [p for p in PROBES if p.language == language]
        fix = probes[0].fix if probes else ""
        if is_host_language(language):
            versions[language] = "host"
        else:
            try:
                versions[language] = oracle.toolchain(language).version
            except ToolchainMissing as exc:
                checks.append(Check("language", f"{language}: toolchain", GAP, str(exc), fix))
                continue
        checks.append(Check("language", f"{language}: toolchain", OK, versions[language]))
        ready += probes
    jobs = [Job(p.program, p.tests, p.entry_point, PROBE_LIMITS, reference=p.reference, language=p.language) for p in ready]
    results = oracle.run(jobs) if jobs else []
    by_language = {language: [probe_check(p, r) for p, r in zip(ready, results, strict=True) if p.language == language] for language in languages}
    ordered: list[Check] = []
    for check in checks:
        ordered.append(check)
        language = check.name.split(":")[0]
        if check.status == OK:
            ordered += by_language.get(language, [])
    return ordered, versions


def check_sandbox(isolation: str) -> Check:
    """The level the oracle started (``bwrap+uid+cgroup+seccomp+rlimits``: the level, then the
    mechanisms under it): anything weaker than bubblewrap is a gap."""
    if isolation.split("+")[0] == STRONGEST:
        return Check("sandbox", "isolation level", OK, isolation)
    why = "not root: " if os.geteuid() != 0 else ("bwrap not found: " if shutil.which("bwrap") is None else "bwrap did not start: ")
    return Check("sandbox", "isolation level", GAP, f"{why}the oracle runs at {isolation!r}, weaker than bwrap", "bubblewrap (run as root)")


def _module(name: str, module: str, distribution: str, extra: str) -> Check:
    if importlib.util.find_spec(module) is None:
        return Check("extra", name, ABSENT, f"{module} not importable", f"pip install 'execir[{extra}]'", required=False)
    try:
        version = importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        version = "installed"
    return Check("extra", name, OK, f"{distribution} {version}", required=False)


def infinity_binary() -> Path | None:
    """The Infinity server of ``.venv-infinity`` (``$EXECIR_INFINITY_BIN``; else beside the current
    folder or the source checkout)."""
    if os.environ.get("EXECIR_INFINITY_BIN"):
        return Path(os.environ["EXECIR_INFINITY_BIN"])
    for root in (Path.cwd(), Path(__file__).resolve().parents[3]):
        candidate = root / ".venv-infinity" / "bin" / "infinity_emb"
        if candidate.exists():
            return candidate
    return None


def _program(name: str, programs: Iterable[str], fix: str) -> Check:
    found = [shutil.which(p) for p in programs]
    if all(found):
        return Check("extra", name, OK, ", ".join(str(f) for f in found), required=False)
    return Check("extra", name, ABSENT, "not found: " + ", ".join(p for p, f in zip(programs, found, strict=True) if not f), fix, required=False)


def check_extras() -> list[Check]:
    """The optional extras: Ray, faiss, ONNX Runtime, the Infinity server's venv, Chromium."""
    infinity = infinity_binary()
    return [
        _module("ray (--ray, execir ray check)", "ray", "ray", "ray"),
        _module("faiss (dense@faiss:KIND)", "faiss", "faiss-cpu", "index"),
        _module("onnxruntime (dense@onnx)", "onnxruntime", "onnxruntime", "onnx"),
        Check("extra", "Infinity server (.venv-infinity)", OK, str(infinity), required=False)
        if infinity is not None and os.access(infinity, os.X_OK)
        else Check("extra", "Infinity server (.venv-infinity)", ABSENT, "no .venv-infinity/bin/infinity_emb", "make setup", required=False),
        _program("chromium (the HTML report's browser test)", ("chromium", "chromedriver"), "apt-get install chromium chromium-driver"),
    ]


def diagnose_with(oracle: Oracle, *, languages: Sequence[str] = LANGUAGES, extras: bool = True, require_extras: bool = False) -> Report:
    """Every check, through a started ``oracle`` (``execir ray check`` runs this on each node);
    ``require_extras`` makes a missing extra a gap too (``make test`` needs them)."""
    checks = [check_sandbox(oracle.isolation)]
    found, versions = check_languages(oracle, languages)
    checks += found
    if extras:
        checks += [replace(check, required=True) if require_extras else check for check in check_extras()]
    return Report(tuple(checks), oracle.isolation, versions)


def diagnose(
    *,
    languages: Sequence[str] = LANGUAGES,
    extras: bool = True,
    require_extras: bool = False,
    oracle_factory: Callable[[OracleConfig], Oracle] = Oracle,
    workers: int = 2,
) -> Report:
    """:func:`diagnose_with` an oracle of its own (``auto`` isolation: the strongest that starts)."""
    with oracle_factory(OracleConfig(workers=workers, isolation="auto", progress=False)) as oracle:
        return diagnose_with(oracle, languages=languages, extras=extras, require_extras=require_extras)


__all__ = ["ABSENT", "GAP", "OK", "Check", "Report", "check_extras", "check_languages", "check_sandbox", "diagnose", "diagnose_with", "probe_check"]
