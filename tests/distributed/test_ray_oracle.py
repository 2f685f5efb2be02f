"""The oracle on a real two-node Ray cluster (two logical nodes of 1 CPU on this machine, one
module-scoped ``ray.cluster_utils.Cluster``): a --ray build equals the local one byte for byte,
a rerun executes nothing, a killed driver's committed verdicts are reused, hosts weaker than
unshare are refused, nothing of Ray reaches a candidate, and a node lost midway changes no label.
The node-loss test runs last: it removes the worker node."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from ray.cluster_utils import Cluster  # noqa: E402

from execir.construct.config import BuildConfig  # noqa: E402
from execir.construct.pipeline import build  # noqa: E402
from execir.distributed.oracle_host import HOST_ISOLATION_ENV  # noqa: E402
from execir.distributed.ray_oracle import RayOptions, RayOracle  # noqa: E402
from execir.distributed.selftest import LEAK_CHECK, RAY_CASES, ray_factory  # noqa: E402
from execir.execute import Job, Limits, Oracle, OracleConfig  # noqa: E402
from execir.execute.attacks.adversarial import ADD_CHECK, ADD_OK, CASES  # noqa: E402
from execir.execute.oracle import OracleError  # noqa: E402
from execir.execute.selftest import run_cases  # noqa: E402
from execir.types import Verdict  # noqa: E402

NODE = {"num_cpus": 1, "resources": {"execir_sandbox": 1}, "object_store_memory": 80 << 20}
LIMIT = 20


@pytest.fixture(scope="module")
def cluster():
    started = Cluster(initialize_head=True, head_node_args={**NODE, "include_dashboard": False})
    worker = started.add_node(**NODE)
    ray.init(address=started.address, log_to_driver=False)
    try:
        yield started, worker
    finally:
        ray.shutdown()
        started.shutdown()


def _options(cluster, **kw) -> RayOptions:
    return RayOptions(address=cluster[0].address, **kw)


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != "build_report.json"}


def _rows(cache: Path) -> int:
    if not cache.exists():
        return 0
    try:
        with sqlite3.connect(cache, timeout=5) as db:
            return int(db.execute("SELECT COUNT(*) FROM verdicts4").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _config(out: Path, limit: int = LIMIT) -> BuildConfig:
    return BuildConfig(source="humaneval", path=None, out=out, limit_tasks=limit)


def test_ray_build_equals_local_build_and_reruns_nothing(cluster, tmp_path: Path) -> None:
    local = build(_config(tmp_path / "local"), OracleConfig(workers=2, cache_path=tmp_path / "local.sqlite", progress=False))
    options = _options(cluster, batch=16)
    oracle = OracleConfig(cache_path=tmp_path / "ray.sqlite", progress=False)
    remote = build(_config(tmp_path / "ray"), oracle, oracle_factory=lambda c: RayOracle(c, options))
    mine, theirs = _files(tmp_path / "local"), _files(tmp_path / "ray")
    assert "t2c-description/corpus.jsonl" in mine and "manifest.json" in mine and set(mine) == set(theirs)
    for name, data in mine.items():  # corpus, queries, qrels, manifest: byte-identical
        assert theirs[name] == data, name
    assert remote.manifest == local.manifest
    dist = json.loads((tmp_path / "ray" / "build_report.json").read_text())["distributed"]
    assert dist["hosts"] == 2 and dist["nodes"] >= 2 and dist["resubmitted_batches"] == 0
    assert all(n > 0 for n in dist["executions_per_host"].values()), dist  # both hosts executed batches
    assert sum(dist["executions_per_host"].values()) == remote.report["oracle"]["runs_executed"] > 0
    again = build(_config(tmp_path / "again"), oracle, oracle_factory=lambda c: RayOracle(c, options))
    assert again.report["oracle"]["runs_executed"] == 0 and again.report["oracle"]["runs_cached"] > 0
    assert sum(again.report["distributed"]["executions_per_host"].values()) == 0
    assert _files(tmp_path / "again") == theirs


def test_killed_driver_resumes_without_redoing_committed_work(cluster, tmp_path: Path) -> None:
    cache = tmp_path / "verdicts.sqlite"

    def command(out: str) -> list[str]:
        return [sys.executable, "-m", "execir.cli", "build", "humaneval", "--limit", "12", "--out", str(tmp_path / out), "--cache", str(cache)] + [
            "--no-progress",
            "--ray",
            cluster[0].address,
            "--ray-batch",
            "8",
        ]

    proc = subprocess.Popen(command("killed"), start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 240
    while _rows(cache) < 30 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = _rows(cache)
    assert before >= 30, "the driver should have committed some verdicts before being killed"
    assert not (tmp_path / "killed" / "manifest.json").exists()
    done = subprocess.run(command("resumed"), capture_output=True, text=True, timeout=400)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads((tmp_path / "resumed" / "build_report.json").read_text())
    assert report["oracle"]["runs_cached"] >= before  # every verdict committed before the kill was reused
    assert report["oracle"]["runs_executed"] == _rows(cache) - before  # only the missing work ran


def test_weaker_host_is_refused_before_any_work(cluster, tmp_path: Path) -> None:
    weak = cluster[0].add_node(**NODE, env_vars={HOST_ISOLATION_ENV: "uid"})
    try:
        oracle = RayOracle(OracleConfig(cache_path=tmp_path / "c.sqlite", progress=False), _options(cluster))
        with pytest.raises(OracleError, match=r"isolation weaker than unshare refused under --ray \(.*: uid\)"):
            oracle.run([Job(ADD_OK, ADD_CHECK, "add", Limits(1.0, 3.0))])
        assert _rows(tmp_path / "c.sqlite") == 0 and not oracle.hosts
    finally:
        cluster[0].remove_node(weak)
    everywhere = RayOracle(OracleConfig(isolation="uid", progress=False), _options(cluster))
    with pytest.raises(OracleError, match="weaker than unshare"):
        everywhere.start()


def test_hosts_that_disagree_are_refused() -> None:
    oracle = RayOracle(OracleConfig(progress=False))
    facts = {"oracle_version": "execir-oracle/8", "isolation": "bwrap+uid", "level": "bwrap", "limits_policy": {}, "runtime": {"bwrap": "0.8"}}
    facts |= {"execir": "1", "ray": "2.60.0", "slots": 1}
    other = dict(facts, runtime={"bwrap": "0.9"})
    oracle.hosts = [_host("a/1", facts), _host("b/2", other)]
    assert oracle.problems() == [
        "oracle hosts disagree on runtime (refused before any work: verdicts would depend on the host): a/1: {'bwrap': '0.8'}; b/2: {'bwrap': '0.9'}"
    ]
    oracle.hosts = [_host("a/1", facts), _host("b/2", dict(facts, execir="2"))]
    assert "disagree on execir" in oracle.problems()[0]
    oracle.hosts = [_host("a/1", facts), _host("b/2", {"error": "OracleError: no isolation level could be started"})]
    assert oracle.problems() == ["oracle hosts failed to start: b/2: OracleError: no isolation level could be started"]


def _host(label: str, facts: dict):
    from execir.distributed.ray_oracle import _Host

    return _Host(label, None, facts)


def test_leak_case_fails_where_ray_leaks(tmp_path: Path) -> None:
    """The selftest cases can fail: outside the sandbox, a RAY_ variable, an inherited fd and Ray's
    session directory are each found (and the program then answers wrongly)."""
    script = tmp_path / "leak.py"
    script.write_text(LEAK_CHECK + "def add(a, b):\n    return a + b if not _leaks() else a - b\nprint(sorted(map(str, _leaks())), add(2, 3))\n")
    session = ["/tmp/ray"] if os.path.exists("/tmp/ray") else []

    def run(env: dict[str, str], fds: tuple[int, ...] = ()) -> str:
        return subprocess.run([sys.executable, "-S", str(script)], capture_output=True, text=True, env=env, pass_fds=fds).stdout

    assert run({"PATH": "/usr/bin"}) == f"{session} {-1 if session else 5}\n"
    assert run({"PATH": "/usr/bin", "RAY_ADDRESS": "x"}) == f"{sorted(session + ['RAY_ADDRESS'])} -1\n"
    read, write = os.pipe()
    try:
        assert run({"PATH": "/usr/bin"}, (write,)) == f"{sorted(session + [str(write)])} -1\n"
    finally:
        os.close(read)
        os.close(write)


def test_selftest_through_ray_has_no_mislabels(cluster) -> None:
    """The library equivalent of ``execir selftest --ray``, over a subset: the Ray leak cases and
    the core Python attacks that end without a timeout (the full suite takes minutes here)."""
    quick = tuple(c for c in CASES if Verdict.TIMEOUT not in c.expected)[:40]
    with ray_factory(_options(cluster))(OracleConfig(progress=False)) as oracle:
        outcomes = run_cases(oracle, RAY_CASES + quick)
        reliability = oracle.reliability()
    bad = [(o.case.name, o.result.verdict.value, o.result.detail) for o in outcomes if not o.ok]
    assert bad == [] and len(outcomes) == len(quick) + 2
    assert all(o.result.verdict is Verdict.PASS for o in outcomes[:2])
    assert reliability["surviving_processes"] == 0 and reliability["level"] in ("bwrap", "unshare")


def test_ray_check_prints_each_host(cluster, capsys) -> None:
    from execir.cli import main

    assert main(["ray", "check", "--ray", cluster[0].address, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["hosts"]) == 2 and report["refused"] == []
    for host in report["hosts"]:
        assert host["level"] in ("bwrap", "unshare") and host["slots"] == 1 and "toolchains" in host and host["ray"] == ray.__version__


def test_lost_node_changes_no_label(cluster, tmp_path: Path) -> None:
    """Removing the worker node mid-run: its batches are resubmitted and every label is as expected."""
    started, worker = cluster
    # each job takes a few tenths of a second of CPU, so the worker still holds batches in flight
    # when it is removed (with faster jobs an idle machine finished them all first: no host lost)
    busy = "def add(a, b):\n    n = 0\n    for i in range(2000000):\n        n += i\n    return a {} b\n"
    jobs = [Job(busy.format("+" if i % 2 else "-") + f"# {i}\n", ADD_CHECK, "add", Limits(5.0, 20.0)) for i in range(40)]
    oracle = RayOracle(OracleConfig(cache_path=tmp_path / "c.sqlite", progress=False), _options(cluster, batch=2))
    with oracle:
        label = next(h.label for h in oracle.hosts if h.facts["node_id"] == worker.node_id)

        def remove_when_busy() -> None:
            deadline = time.monotonic() + 120
            while oracle.executions[label] < 2 and time.monotonic() < deadline:
                time.sleep(0.02)
            started.remove_node(worker, allow_graceful=False)

        remover = threading.Thread(target=remove_when_busy, daemon=True)
        remover.start()
        results = oracle.run(jobs)
        remover.join(timeout=60)
        facts = oracle.distributed_facts()
    assert [r.verdict for r in results] == [Verdict.PASS if i % 2 else Verdict.FAIL for i in range(40)]
    assert facts["lost_hosts"] == [label] and facts["resubmitted_batches"] >= 1
    assert sum(facts["executions_per_host"].values()) >= 40
    assert _rows(tmp_path / "c.sqlite") == 40


def test_local_oracle_is_unchanged_by_the_option() -> None:
    """Without --ray the factory is the local Oracle, and Ray is not needed to choose it."""
    import argparse

    from execir.distributed.options import oracle_factory

    assert oracle_factory(argparse.Namespace(ray=None)) is Oracle


def test_eval_ray_reaches_exec_rerankers_inside_fusions_and_chains() -> None:
    from execir.distributed.options import use_oracle_factory
    from execir.rerank.registry import get_reranker

    def make(config: OracleConfig) -> Oracle:
        return Oracle(config)

    specs = ("exec", "fuse:0.5:exec:plain", "exec+exec:plain")
    rerankers = [get_reranker(spec, cache_dir=None, oracle_config=OracleConfig(), progress=False) for spec in specs]
    assert use_oracle_factory(rerankers, make) == 4
    assert rerankers[1].inner.oracle_factory is make and all(s.oracle_factory is make for s in rerankers[2].stages)


def test_clear_errors_without_ray_and_for_an_unreachable_address(monkeypatch: pytest.MonkeyPatch, capsys, tmp_path: Path) -> None:
    from execir.cli import main

    assert main(["ray", "check", "--ray", "127.0.0.1:1"]) == 2
    assert "--ray 127.0.0.1:1: unreachable" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the extra were not installed
    (tmp_path / "p.py").write_text("print(1)\n")
    (tmp_path / "c.json").write_text('[{"input": "", "output": "1\\n"}]')
    assert main(["exec", "--program", str(tmp_path / "p.py"), "--stdio-cases", str(tmp_path / "c.json"), "--ray", "auto"]) == 2
    assert "pip install 'execir[ray]'" in capsys.readouterr().err
