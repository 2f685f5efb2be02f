"""Benchmark: the oracle on Ray against the local oracle, cold cache, in one run.

Two figures, each a ratio of runs made back to back on the same machine:

1. **Per-job overhead by batch size.** The same HumanEval jobs (each canonical against its tests,
   made unique by a comment so nothing is cached) through the local ``Oracle(workers=S)`` and through
   ``RayOracle`` with ``--ray-batch`` 1, 16, 64, 256 (and more where given); executions/s of each and
   the overhead per job in ms.
2. **A HumanEval build** (``--limit N``, cold caches): local vs Ray; executions/s (runs executed /
   build wall time) and the ratio; the datasets must be byte-identical and every label equal.

Layouts (``--layouts``): ``HxS`` is H logical Ray nodes of S CPUs each (one oracle host of S slots
per node, ``ray.cluster_utils.Cluster``); the local oracle gets H*S workers. On one machine this
measures Ray's overhead, not scaling.

Run: ``python benchmarks/bench_ray.py [--limit 20] [--jobs 256] [--batches 1,16,64,256] [--layouts 2x1,1x2]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import ray
from ray.cluster_utils import Cluster

from execir.construct.config import BuildConfig
from execir.construct.pipeline import build
from execir.distributed.ray_oracle import RayOptions, RayOracle
from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.tasks import bundled_humaneval_path, load_humaneval


def jobs(count: int) -> list[Job]:
    tasks = load_humaneval(bundled_humaneval_path())
    stamp = time.time_ns()
    out = []
    for i in range(count):
        task = tasks[i % len(tasks)]
        out.append(Job(task.solution + f"\n# bench {stamp} {i}\n", task.tests, task.entry_point, Limits(2.0, 8.0), reference=task.solution))
    return out


def rate(oracle: Oracle, work: list[Job]) -> tuple[float, list[str]]:
    started = time.perf_counter()
    results = oracle.run(work)
    return len(work) / (time.perf_counter() - started), [r.verdict.value for r in results]


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != "build_report.json"}


def layout(text: str) -> tuple[int, int]:
    hosts, _, slots = text.partition("x")
    return int(hosts), int(slots)


def bench_layout(hosts: int, slots: int, args: argparse.Namespace, tmp: Path) -> None:
    node = {"num_cpus": slots, "resources": {"execir_sandbox": 1}, "object_store_memory": 100 << 20}
    cluster = Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
    for _ in range(hosts - 1):
        cluster.add_node(**node)
    ray.init(address=cluster.address, log_to_driver=False)
    try:
        print(f"== {hosts} host(s) x {slots} slot(s) vs local Oracle(workers={hosts * slots}) ==")
        with Oracle(OracleConfig(workers=hosts * slots, progress=False)) as local:
            rate(local, jobs(8))  # warm the slots
            base, expected = rate(local, jobs(args.jobs))
        print(f"local: {base:.1f} executions/s over {args.jobs} jobs")
        for batch in args.batches:
            with RayOracle(OracleConfig(progress=False), RayOptions(address=cluster.address, batch=batch)) as remote:
                rate(remote, jobs(8))
                got, labels = rate(remote, jobs(args.jobs))
            overhead_ms = 1000 * (1 / got - 1 / base) * hosts * slots
            print(
                f"ray batch {batch:>5}: {got:.1f} executions/s, ratio ray/local {got / base:.3f}, "
                f"overhead {overhead_ms:+.2f} ms per job per slot, labels equal {labels == expected}"
            )
        config = OracleConfig(workers=hosts * slots, progress=False)
        walls = {}
        reports = {}
        for name in ("local", "ray"):
            out = tmp / f"{hosts}x{slots}-{name}"
            cold = replace_cache(config, tmp / f"{hosts}x{slots}-{name}.sqlite")
            factory = (lambda c: RayOracle(c, RayOptions(address=cluster.address))) if name == "ray" else Oracle
            started = time.perf_counter()
            summary = build(BuildConfig(source="humaneval", path=None, out=out, limit_tasks=args.limit), cold, oracle_factory=factory)
            walls[name] = time.perf_counter() - started
            reports[name] = summary.report
        local_rate = reports["local"]["oracle"]["runs_executed"] / walls["local"]
        ray_rate = reports["ray"]["oracle"]["runs_executed"] / walls["ray"]
        same = files(tmp / f"{hosts}x{slots}-local") == files(tmp / f"{hosts}x{slots}-ray")
        print(
            f"build humaneval --limit {args.limit}: local {reports['local']['oracle']['runs_executed']} runs in {walls['local']:.1f} s "
            f"({local_rate:.1f}/s), ray {reports['ray']['oracle']['runs_executed']} runs in {walls['ray']:.1f} s ({ray_rate:.1f}/s), "
            f"ratio {ray_rate / local_rate:.3f}, datasets byte-identical {same}, per host {reports['ray']['distributed']['executions_per_host']}"
        )
    finally:
        ray.shutdown()
        cluster.shutdown()


def replace_cache(config: OracleConfig, path: Path) -> OracleConfig:
    from dataclasses import replace

    return replace(config, cache_path=path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=20, help="HumanEval tasks in the build comparison")
    parser.add_argument("--jobs", type=int, default=256, help="jobs per overhead measurement")
    parser.add_argument("--batches", type=lambda s: [int(x) for x in s.split(",")], default=[1, 16, 64, 256])
    parser.add_argument("--layouts", type=lambda s: [layout(x) for x in s.split(",")], default=[(2, 1), (1, 2)])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for hosts, slots in args.layouts:
            bench_layout(hosts, slots, args, Path(tmp))


if __name__ == "__main__":
    main()
