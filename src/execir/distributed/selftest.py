"""``execir selftest --ray``: the adversarial suite through :class:`RayOracle`, plus cases proving
that nothing of Ray reaches a candidate.

A Ray worker holds dozens of open fds (gRPC, plasma, logs) and ``RAY_*`` variables in its
environment, runs at niceness 15 with SIGINT blocked, and the session directory ``/tmp/ray`` is
world-writable. The cases below are correct programs that turn into wrong answers when they see any
of that (an fd beyond 0-3, a ``RAY_*`` variable, ``/tmp/ray``, a blocked signal, a niceness other
than 0): each must PASS, so a leak is a mislabel.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from execir.execute.attacks.adversarial import ADD_CHECK, STDIO, Case, make_case
from execir.execute.oracle import Oracle, OracleConfig
from execir.types import Verdict

from .ray_oracle import RayOptions, RayOracle

LEAK_CHECK = '''import os
import signal


def _leaks():
    """Open fds beyond 0-3 (checked with fstat: nothing new is opened), RAY_* variables, /tmp/ray."""
    found = []
    for fd in range(4, 1024):
        try:
            os.fstat(fd)
        except OSError:
            continue
        found.append(fd)
    found += [name for name in os.environ if name.startswith("RAY") or "ray_" in name.lower()]
    if os.path.exists("/tmp/ray"):
        found.append("/tmp/ray")
    if signal.pthread_sigmask(signal.SIG_BLOCK, []):  # a Ray worker blocks SIGINT
        found.append("blocked signals")
    if os.getpriority(os.PRIO_PROCESS, 0) != 0:  # a Ray worker runs at niceness 15
        found.append("niceness")
    return found

'''
RAY_CASES: tuple[Case, ...] = (
    make_case("ray_nothing_leaks_call", "ray", LEAK_CHECK + "def add(a, b):\n    return a + b if not _leaks() else a - b\n", Verdict.PASS, ADD_CHECK),
    make_case(
        "ray_nothing_leaks_stdio",
        "ray",
        LEAK_CHECK + "a, b = map(int, input().split())\nprint(a + b if not _leaks() else a - b)\n",
        Verdict.PASS,
        STDIO,
        entry_point="",
    ),
)
"""Controls that PASS only in a candidate environment free of Ray's fds, variables and session dir."""


def ray_factory(options: RayOptions) -> Any:
    """Oracles for the selftest: the whole cluster, except that a one-worker oracle (the slot
    poisoners, each followed by a probe that must land in the same slot) gets one slot on one host."""

    def make(config: OracleConfig) -> Oracle:
        if config.workers == 1:
            return RayOracle(config, replace(options, slots=1, max_hosts=1))
        return RayOracle(config, options)

    return make


def ray_selftest(config: OracleConfig, options: RayOptions, languages: frozenset[str] | None = None) -> dict[str, Any]:
    """:func:`execir.execute.selftest.selftest` through Ray, with :data:`RAY_CASES` added."""
    from execir.execute.selftest import selftest

    figures = selftest(config, languages, factory=ray_factory(options), extra=RAY_CASES)
    figures["ray"] = {"address": options.address, "slots_per_host": options.slots}
    return figures
