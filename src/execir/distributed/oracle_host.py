"""The per-node oracle host: a plain class that Ray runs as one long-lived actor per prepared node.

It owns an ordinary :class:`~execir.execute.oracle.Oracle` (no verdict cache: the driver's SQLite
file is the single writer) and makes every call into it on **one dedicated thread** created here
and kept until :meth:`OracleHost.close`: bwrap's ``--die-with-parent`` fires when the *thread*
that started a slot exits, so a Ray call thread must never be that parent.

A node's administrator may pin its isolation level with ``EXECIR_HOST_ISOLATION`` in the
environment of ``ray start`` (used when the driver asks for ``auto``); the driver refuses a cluster
whose hosts then disagree.
"""

from __future__ import annotations

import os
import platform
import socket
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, TypeVar

from execir import __version__
from execir.execute.jobs import ExecResult, Job
from execir.execute.oracle import Oracle, OracleConfig
from execir.execute.runtimes import LANGUAGES, ToolchainMissing
from execir.language_declarations import is_host_language

HOST_ISOLATION_ENV = "EXECIR_HOST_ISOLATION"
T = TypeVar("T")

Group = tuple[Job, list[tuple[str, int]]]
"""One task's share of a batch: the job without its program (tests, reference, limits: shipped
once) and each program with how many times to run it (more than 1: admission or positive repeats)."""


def cpu_model() -> str:
    """The node's CPU model name (``/proc/cpuinfo``), or the platform's processor string."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


class OracleHost:
    """One node's oracle (see the module docstring); every method is safe to call over Ray."""

    def __init__(self, config: OracleConfig, node_id: str = "") -> None:
        level = os.environ.get(HOST_ISOLATION_ENV) if config.isolation == "auto" else None
        self._config = replace(config, isolation=level or config.isolation, cache_path=None, progress=False)
        self._node_id = node_id
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="execir-host")
        self._oracle: Oracle | None = None

    def _call(self, fn: Callable[..., T], *args: Any) -> T:
        return self._thread.submit(fn, *args).result()

    def start(self) -> dict[str, Any]:
        """Start the slots (on the dedicated thread); the node's facts, or ``{"error": why}``."""
        try:
            self._oracle = self._call(_started, self._config)
        except Exception as exc:  # noqa: BLE001 - reported to the driver as this node's refusal
            return {"error": f"{type(exc).__name__}: {exc}", **self._identity()}
        return self.describe()

    def _identity(self) -> dict[str, Any]:
        return {"node_id": self._node_id, "hostname": socket.gethostname(), "pid": os.getpid()}

    def describe(self) -> dict[str, Any]:
        """What the driver compares across hosts before any work, and ``execir ray check`` prints."""
        oracle = self._require()
        facts = oracle.reliability()
        ray_version = sys.modules["ray"].__version__ if "ray" in sys.modules else ""
        return {
            **self._identity(),
            "slots": len(oracle.slots),
            "cpus": len(os.sched_getaffinity(0)),
            "cpu_model": cpu_model(),
            "execir": __version__,
            "ray": ray_version,
            "oracle_version": facts["oracle_version"],
            "isolation": facts["isolation"],
            "level": facts["level"],
            "limits_policy": facts["limits_policy"],
            "runtime": facts["runtime"],
            "pinned_level": os.environ.get(HOST_ISOLATION_ENV, ""),
        }

    def toolchain(self, language: str) -> tuple[str, str]:
        """``("ok", version)`` of ``language``'s toolchain here, or ``("missing", why)``."""
        oracle = self._require()
        try:
            return "ok", self._call(oracle.toolchain, language).version
        except ToolchainMissing as exc:
            return "missing", str(exc)

    def toolchains(self) -> dict[str, str]:
        """Every language's toolchain version here (``missing: why`` where absent)."""
        found = {}
        for name in LANGUAGES:
            if not is_host_language(name):
                state, version = self.toolchain(name)
                found[name] = version if state == "ok" else f"missing: {version}"
        return found

    def doctor(self) -> dict[str, Any]:
        """``execir doctor --json`` on this node, through its own oracle (its sandbox level, every
        language judged outside, the extras)."""
        from execir.doctor.checks import diagnose_with

        oracle = self._require()
        return self._call(lambda: diagnose_with(oracle).as_json())

    def run_batch(self, groups: Sequence[Group]) -> list[list[ExecResult]]:
        """Each program of ``groups`` run its number of times; one list of results per program, in order."""
        oracle = self._require()
        jobs: list[Job] = []
        repeats: list[int] = []
        for template, items in groups:
            for program, count in items:
                jobs.append(replace(template, program=program))
                repeats.append(count)
        return self._call(_run, oracle, jobs, repeats)

    def reliability(self) -> dict[str, Any]:
        return self._call(self._require().reliability)

    def ping(self) -> str:
        return self._node_id

    def close(self) -> None:
        if self._oracle is not None:
            self._call(self._oracle.close)
            self._oracle = None
        self._thread.shutdown(wait=True)

    def _require(self) -> Oracle:
        if self._oracle is None:
            raise RuntimeError("the oracle host was not started")
        return self._oracle


def _started(config: OracleConfig) -> Oracle:
    # Ray starts workers at niceness 15; the dedicated thread (whose sandboxes inherit it; Linux
    # niceness is per thread) runs at a plain process's 0, as a local oracle does
    os.setpriority(os.PRIO_PROCESS, 0, 0)
    oracle = Oracle(config)
    try:
        oracle.start()
    except BaseException:
        oracle.close()
        raise
    return oracle


def _run(oracle: Oracle, jobs: list[Job], repeats: list[int]) -> list[list[ExecResult]]:
    """Run ``jobs`` (each ``repeats[i]`` times) on ``oracle``: the single runs in one parallel call,
    the repeated ones grouped by their count."""
    out: list[list[ExecResult]] = [[] for _ in jobs]
    by_count: dict[int, list[int]] = defaultdict(list)
    for i, count in enumerate(repeats):
        by_count[count].append(i)
    for count, indices in sorted(by_count.items()):
        chosen = [jobs[i] for i in indices]
        if count == 1:
            for i, result in zip(indices, oracle.run(chosen, desc="host")):
                out[i] = [result]
        else:
            for i, results in zip(indices, oracle.run_repeated(chosen, count, desc="host")):
                out[i] = list(results)
    return out
