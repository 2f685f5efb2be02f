"""Two oracles side by side (two processes, as two `execir` commands would be), both restarting
slots, never disturb each other: no launcher error, every verdict as expected, nothing left behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from execir.execute.sandbox import cgroups, reclaim

SCRIPT = r"""
import json, sys
from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.types import TestSuite
tests = TestSuite("check", "def check(candidate):\n    assert candidate(2, 3) == 5\n")
limits = Limits(1.0, 4.0)
# renicing the server taints the slot: the host restarts it after the run
# (relative to the server's niceness: an unprivileged uid may only raise it, and `nice make test` starts above 0)
taint = ("import os\ndef add(a, b):\n    server = os.getppid()\n"
         "    os.setpriority(os.PRIO_PROCESS, server, min(19, os.getpriority(os.PRIO_PROCESS, server) + 5))\n    return a + b  # {i}\n")
good = "def add(a, b):\n    return a + b  # {i}\n"
bad = "def add(a, b):\n    return a - b  # {i}\n"
jobs, expected = [], []
for i in range(int(sys.argv[1])):
    program, verdict = [(taint, "PASS"), (good, "PASS"), (bad, "FAIL")][(i // 3) % 3]
    jobs.append(Job(program.format(i=f"{sys.argv[2]}-{i}"), tests, "add", limits))
    expected.append(verdict)
totals = {"wrong": 0, "launcher_errors": 0, "tainted_restarts": 0}
for part in range(3):  # each start reclaims stale cgroups while the other oracle restarts slots
    with Oracle(OracleConfig(workers=2, progress=False)) as oracle:
        results = oracle.run(jobs[part::3])
        figures = oracle.reliability()
    totals["wrong"] += sum(r.verdict.value != e for r, e in zip(results, expected[part::3]))
    totals["launcher_errors"] += figures["launcher_errors"]
    totals["tainted_restarts"] += figures["tainted_restarts"]
print(json.dumps(totals))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="slot uids and cgroups need root")
def test_two_oracles_with_slot_restarts(tmp_path) -> None:
    script = tmp_path / "oracle.py"
    script.write_text(SCRIPT)
    procs = [subprocess.Popen([sys.executable, str(script), "30", name], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for name in ("a", "b")]
    outputs = [p.communicate(timeout=240) for p in procs]
    for proc, (out, err) in zip(procs, outputs):
        assert proc.returncode == 0, err[-3000:]
        figures = json.loads(out.strip().splitlines()[-1])
        assert figures["wrong"] == 0 and figures["launcher_errors"] == 0, figures
        assert figures["tainted_restarts"] >= 10  # every third job restarted its slot
    if cgroups.version() == 1:  # both removed their own slot cgroups (other oracles may be running)
        owners = {p.pid for p in procs}
        assert not [d for d in (cgroups.ROOT / "pids" / "execir").iterdir() if reclaim.cgroup_owner(d.name) in owners]
