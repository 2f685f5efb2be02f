"""``RayOracle``: the execution oracle's interface, with the work done by one oracle host per node.

Same API as :class:`~execir.execute.oracle.Oracle` (it is one: ``construct`` and the ``exec``
reranker use it unchanged): ``start``/``close``, ``run``, ``run_repeated``, ``admit_canonicals``,
``toolchain``, ``isolation``, ``reliability``, ``stats``. What differs is where jobs run:

* **Preflight, before any work.** One :class:`~execir.distributed.oracle_host.OracleHost` actor
  per alive node offering ``execir_sandbox``, pinned with ``NodeAffinitySchedulingStrategy(soft=False)``
  and holding ``num_cpus`` = its slots. Every host must report the same oracle version, isolation
  string and level, limits policy, sandbox runtime, ExecIR and Ray versions, and a level of at least
  ``unshare`` (``uid`` and ``rlimits`` leave the Ray session directory and host processes visible
  to candidates); otherwise the run is refused, naming each host's value. A language's toolchain
  version is compared across hosts the first time a job of that language is keyed, before it runs.
* **The driver's SQLite verdict cache is the single writer.** Keys are computed here exactly as the
  local oracle computes them (same isolation string and toolchain versions), so a Ray build and a
  local one share a cache and hash alike. Cached verdicts never leave the driver.
* **Batches grouped by task**: each batch carries one copy of a task's tests and reference
  (:data:`~execir.distributed.oracle_host.Group`) and that task's programs; repeats of one job
  (admission of a canonical, positives) stay together in one batch, so they run on one host.
  About :data:`IN_FLIGHT` batches per host are in flight; results come back in job order whatever
  finished first.
* **A lost host's batches are resubmitted** to the others (at most :data:`MAX_RESUBMITS` times per
  batch); the count is recorded in :meth:`RayOracle.distributed_facts`.
"""

from __future__ import annotations

import math
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from tqdm import tqdm

from execir.errors import ExecIRError
from execir.execute.jobs import ExecResult, Job, tests_hash
from execir.execute.oracle import Oracle, OracleConfig, OracleError
from execir.execute.runtimes import Toolchain, ToolchainMissing

from .cluster import RESOURCE, alive_nodes, connect, sandbox_nodes
from .oracle_host import Group, OracleHost

IN_FLIGHT = 2
"""Batches in flight per host: one running, one queued beside it (so a host never waits for the driver)."""
DEFAULT_BATCH = 128
MAX_RESUBMITS = 3
START_SECONDS = 300
"""How long a host may take to be placed and start its slots before the run is refused."""
STRONG_LEVELS = ("bwrap", "unshare")
"""Levels accepted under ``--ray``: both give the candidate its own pid, network, ipc and mount
namespaces with a private /tmp, so no Ray socket, session directory or process is reachable."""
AGREED = ("oracle_version", "isolation", "level", "limits_policy", "runtime", "execir", "ray")
"""Facts every host must report identically (they enter verdict cache keys or the manifest)."""


@dataclass(frozen=True)
class RayOptions:
    """How the driver uses the cluster: ``address`` (auto, local, HOST:PORT), slots per host (None:
    the node's CPUs), the largest batch, and how many hosts to use at most (None: all)."""

    address: str = "auto"
    slots: int | None = None
    batch: int = DEFAULT_BATCH
    max_hosts: int | None = None


@dataclass
class _Host:
    label: str
    actor: Any
    facts: dict[str, Any]
    alive: bool = True
    in_flight: int = 0


@dataclass
class _Unit:
    """One distinct job and the cache keys (one per repeat still missing) its runs fill."""

    group: tuple[str, ...]
    job: Job
    keys: list[str]


@dataclass
class _Batch:
    units: list[_Unit]
    attempts: int = 0
    runs: int = field(init=False)

    def __post_init__(self) -> None:
        self.runs = sum(len(u.keys) for u in self.units)

    def payload(self) -> list[Group]:
        """The batch as groups: consecutive units of one task share one copy of its tests."""
        groups: list[Group] = []
        last: tuple[str, ...] | None = None
        for unit in self.units:
            if unit.group != last:
                groups.append((replace(unit.job, program=""), []))
                last = unit.group
            groups[-1][1].append((unit.job.program, len(unit.keys)))
        return groups


class RayOracle(Oracle):
    """The oracle on a Ray cluster (see the module docstring). ``config.workers`` is ignored: each
    host runs ``options.slots`` slots (default: its node's CPUs)."""

    def __init__(self, config: OracleConfig | None = None, options: RayOptions | None = None) -> None:
        config = config or OracleConfig()
        super().__init__(replace(config, workers=1))
        self.config = config
        self.options = options or RayOptions()
        if self.options.batch < 1:
            raise ExecIRError(f"--ray-batch must be at least 1, got {self.options.batch}")
        if self.options.slots is not None and self.options.slots < 1:
            raise ExecIRError(f"--ray-slots must be at least 1, got {self.options.slots}")
        self.hosts: list[_Host] = []
        self._ray: Any = None
        self.executions: Counter[str] = Counter()
        self.batches: Counter[str] = Counter()
        self.resubmitted = 0
        self.lost: list[str] = []
        self._started = False

    # ---- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        if self._started:
            return
        self.launch()
        try:
            self._agree()
        except BaseException:
            self.close()
            raise
        first = self.hosts[0].facts
        self.level = first["level"]
        self.layers = first["isolation"].split("+")

    def launch(self) -> None:
        """Start one host per sandbox node and collect each one's facts (no agreement checked)."""
        ray = self._ray = connect(self.options.address)
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        nodes = sandbox_nodes(ray)[: self.options.max_hosts]
        remote = ray.remote(max_concurrency=2, max_restarts=0)(OracleHost)
        pending = []
        for node in nodes:
            cpus = int(node["Resources"].get("CPU", 0))
            slots = self.options.slots or max(1, cpus)
            strategy = NodeAffinitySchedulingStrategy(node_id=node["NodeID"], soft=False)
            actor = remote.options(num_cpus=min(slots, cpus), resources={RESOURCE: 1}, scheduling_strategy=strategy).remote(
                replace(self.config, workers=slots), node["NodeID"]
            )
            pending.append((node, actor, actor.start.remote()))
        self._started = True
        try:
            for node, actor, ref in pending:
                label = f"{node.get('NodeManagerHostname', '?')}/{node['NodeID'][:8]}"
                try:
                    facts = ray.get(ref, timeout=START_SECONDS)
                except ray.exceptions.GetTimeoutError:
                    raise OracleError(
                        f"the oracle host on node {label} did not start within {START_SECONDS} s: is its {RESOURCE} resource "
                        f"or are its CPUs held by another run? (--ray-slots asks for {self.options.slots or 'all its'} CPUs)"
                    ) from None
                except ray.exceptions.RayActorError as exc:
                    raise OracleError(f"the oracle host on node {label} could not be created: {exc}") from exc
                self.hosts.append(_Host(label, actor, facts))
        except BaseException:
            self.close()
            for _, actor, _ in pending:  # hosts not yet started still hold their node's resource
                ray.kill(actor)
            raise

    def problems(self) -> list[str]:
        """Why these hosts would be refused (empty: they agree, at a strong enough level)."""
        try:
            self._agree()
        except OracleError as exc:
            return [str(exc)]
        return []

    def _agree(self) -> None:
        """Refuse hosts that failed to start, disagree on any :data:`AGREED` fact, or run weaker
        than ``unshare``: before any job is sent."""
        broken = [f"{h.label}: {h.facts['error']}" for h in self.hosts if "error" in h.facts]
        if broken:
            raise OracleError("oracle hosts failed to start: " + "; ".join(broken))
        weak = [f"{h.label}: {h.facts['level']}" for h in self.hosts if h.facts["level"] not in STRONG_LEVELS]
        if weak:
            raise OracleError(
                f"isolation weaker than unshare refused under --ray ({'; '.join(weak)}): at the uid and rlimits levels a candidate "
                "sees the host's filesystem and processes, including Ray's session directory; prepare the node for bwrap or unshare "
                "(root or a privileged container), see docs/cluster.md"
            )
        for key in AGREED:
            seen = {repr(h.facts.get(key)): h.facts.get(key) for h in self.hosts}
            if len(seen) > 1:
                each = "; ".join(f"{h.label}: {h.facts.get(key)}" for h in self.hosts)
                raise OracleError(f"oracle hosts disagree on {key} (refused before any work: verdicts would depend on the host): {each}")

    def close(self) -> None:
        ray = self._ray
        for host in self.hosts:
            if host.alive and ray is not None:
                try:
                    ray.get(host.actor.close.remote(), timeout=60)
                except Exception:  # noqa: BLE001 - a lost or stuck host is killed below
                    pass
            if ray is not None:
                ray.kill(host.actor)
        self.hosts = []
        self._started = False
        self._cache.close()

    # ---- keys and toolchains ---------------------------------------------------------------
    def toolchain(self, language: str) -> Toolchain:
        """The toolchain version every host agrees on (refused when they differ, before any job of
        ``language`` runs); :class:`ToolchainMissing` when a host lacks it."""
        self.start()
        with self._lock:
            found = self._toolchains.get(language)
        if found is not None:
            return found
        answers = [(h.label, self._ray.get(h.actor.toolchain.remote(language))) for h in self._live()]
        missing = [f"{label}: {why}" for label, (state, why) in answers if state != "ok"]
        if missing:
            raise ToolchainMissing("; ".join(missing))
        versions = {version for _, (_, version) in answers}
        if len(versions) > 1:
            raise OracleError(f"oracle hosts disagree on the {language} toolchain (refused): " + "; ".join(f"{label}: {v}" for label, (_, v) in answers))
        found = Toolchain(language, versions.pop(), {})
        with self._lock:
            self._toolchains[language] = found
        return found

    # ---- running ---------------------------------------------------------------------------
    def _run_keyed(self, jobs: list[Job], keys: list[str], desc: str) -> list[ExecResult]:
        self.start()
        results: dict[str, ExecResult] = {}
        units: dict[str, _Unit] = {}
        hashes: dict[int, str] = {}
        for job, key in zip(jobs, keys):
            if key in results:
                continue
            cached = self._cache.get(key)
            if cached is not None:
                results[key] = cached
                self._count(cached)
                continue
            base = key.split(":", 1)[0]
            unit = units.get(base)
            if unit is None:
                digest = hashes.setdefault(id(job.tests), tests_hash(job.tests))
                units[base] = unit = _Unit((digest, job.reference, job.entry_point, job.language, job.limits.key()), job, [])
            if key not in unit.keys:
                unit.keys.append(key)
        if units:
            self._dispatch(self._batches(list(units.values())), results, desc)
        self._cache.flush()
        return [results[key] for key in keys]

    def _batches(self, units: list[_Unit]) -> list[_Batch]:
        """Units in task order (a task's units together, tasks in first-seen order), cut into
        batches of about total / (4 x hosts) runs, at most ``options.batch``, never splitting a unit."""
        order: dict[tuple[str, ...], int] = {}
        for unit in units:
            order.setdefault(unit.group, len(order))
        units = sorted(units, key=lambda u: order[u.group])
        total = sum(len(u.keys) for u in units)
        target = max(1, min(self.options.batch, math.ceil(total / (2 * IN_FLIGHT * max(1, len(self._live()))))))
        batches: list[_Batch] = []
        current: list[_Unit] = []
        runs = 0
        for unit in units:
            current.append(unit)
            runs += len(unit.keys)
            if runs >= target:
                batches.append(_Batch(current))
                current, runs = [], 0
        if current:
            batches.append(_Batch(current))
        return batches

    def _live(self) -> list[_Host]:
        return [h for h in self.hosts if h.alive]

    def _dispatch(self, batches: list[_Batch], results: dict[str, ExecResult], desc: str) -> None:
        """Keep :data:`IN_FLIGHT` batches per live host busy until every batch is done."""
        ray = self._ray
        todo = list(reversed(batches))
        running: dict[Any, tuple[_Batch, _Host]] = {}
        show = self.config.progress and sys.stderr.isatty()
        with tqdm(total=sum(b.runs for b in batches), desc=desc, disable=not show, leave=False) as bar:
            while todo or running:
                for host in self._live():
                    while todo and host.in_flight < IN_FLIGHT:
                        batch = todo.pop()
                        batch.attempts += 1
                        running[host.actor.run_batch.remote(batch.payload())] = (batch, host)
                        host.in_flight += 1
                if not running:
                    raise OracleError(f"every oracle host was lost ({', '.join(self.lost)}); {sum(b.runs for b in todo)} runs left undone")
                ready, _ = ray.wait(list(running), num_returns=1)
                batch, host = running.pop(ready[0])
                host.in_flight -= 1
                try:
                    answer = ray.get(ready[0])
                except (ray.exceptions.RayActorError, ray.exceptions.ActorUnavailableError) as exc:
                    self._lose(host, batch, todo, exc)
                    continue
                except ray.exceptions.RayTaskError as exc:
                    raise OracleError(f"oracle host {host.label} failed: {exc.cause if exc.cause is not None else exc}") from exc
                for unit, runs in zip(batch.units, answer):
                    for key, result in zip(unit.keys, runs):
                        self._finish(key, result, results)
                self.executions[host.label] += batch.runs
                self.batches[host.label] += 1
                bar.update(batch.runs)
                bar.set_postfix({h.label.split("/")[-1]: self.executions[h.label] for h in self.hosts}, refresh=False)

    def _lose(self, host: _Host, batch: _Batch, todo: list[_Batch], exc: BaseException) -> None:
        """Mark ``host`` lost and put ``batch`` back (bounded)."""
        if host.alive:
            host.alive = False
            self.lost.append(host.label)
        if batch.attempts > MAX_RESUBMITS:
            raise OracleError(f"a batch of {batch.runs} runs was lost {batch.attempts} times (last on {host.label}: {exc})")
        self.resubmitted += 1
        todo.append(batch)
        time.sleep(0)  # let the loop pick another host

    # ---- reporting -------------------------------------------------------------------------
    def reliability(self) -> dict[str, Any]:
        """The local oracle's figures: the stable facts the hosts agreed on, the driver's counts,
        the hosts' sandbox counters summed (hosts lost midway contribute nothing)."""
        self.start()
        reports = [self._ray.get(h.actor.reliability.remote()) for h in self._live()]
        first = self.hosts[0].facts
        summed: tuple[str, ...] = ("record_runs", "reruns", "timeouts", "undecided", "launcher_errors", "reclaimed_stale")
        summed += ("surviving_processes", "tainted_restarts", "unclean_restarts")
        out: dict[str, Any] = {
            "oracle_version": first["oracle_version"],
            "isolation": self.isolation,
            "level": self.level,
            "guarantees": reports[0]["guarantees"] if reports else "",
            "label_integrity": reports[0]["label_integrity"] if reports else {},
            "toolchains": {name: tc.version for name, tc in sorted(self._toolchains.items())},
            "workers": sum(h.facts["slots"] for h in self.hosts),
            "limits_policy": first["limits_policy"],
            "runtime": first["runtime"],
            "runs_executed": self.stats["executed"],
            "protocols": dict(sum((Counter(r["protocols"]) for r in reports), Counter())),
            "in_process_reasons": dict(sorted(sum((Counter(r.get("in_process_reasons", {})) for r in reports), Counter()).items())),
            "runs_cached": self.stats["cached"],
            "verdicts": dict(sorted(self.verdicts.items())),
            "flaky": [f for r in reports for f in r["flaky"]],
            "near_limit_timeout_share": 0.0,
            "host_artefacts": sum(r["host_artefacts"] or 0 for r in reports),
        }
        for key in summed:
            out[key] = sum(r[key] for r in reports)
        near = sum(r["near_limit_timeout_share"] * r["timeouts"] for r in reports)
        out["near_limit_timeout_share"] = round(near / out["timeouts"], 4) if out["timeouts"] else 0.0
        return out

    def distributed_facts(self) -> dict[str, Any]:
        """The ``distributed`` section of ``build_report.json`` and ``results.json``."""
        ray = self._ray
        return {
            "engine": "ray",
            "ray_version": ray.__version__ if ray is not None else "",
            "address": self.options.address,
            "nodes": alive_nodes(ray) if ray is not None else 0,
            "hosts": len(self.hosts),
            "slots": {h.label: h.facts["slots"] for h in self.hosts},
            "cpu_models": {h.label: h.facts["cpu_model"] for h in self.hosts},
            "executions_per_host": {h.label: self.executions[h.label] for h in self.hosts},
            "batches_per_host": {h.label: self.batches[h.label] for h in self.hosts},
            "resubmitted_batches": self.resubmitted,
            "lost_hosts": list(self.lost),
            "batch_max": self.options.batch,
            "in_flight_per_host": IN_FLIGHT,
        }
