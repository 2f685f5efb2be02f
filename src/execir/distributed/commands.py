"""CLI: ``execir ray check``: the preflight of a cluster before a long ``--ray`` run."""

from __future__ import annotations

import argparse
import json

from execir.execute.oracle import OracleConfig
from execir.execute.sandbox.isolation import LEVELS

from .options import add_ray_option

CHECK_EPILOG = """examples:
  execir ray check                       # the cluster RAY_ADDRESS (or 'ray start') names
  execir ray check --ray 10.0.0.1:6379 --json
  execir ray check --ray local           # this machine as a one-node cluster

Starts one oracle host on every alive node offering the resource execir_sandbox and prints each one's isolation, \
toolchains, versions and slots, runs `execir doctor` on each (every language judged outside on that node; --json \
holds each node's full report), then whether a --ray run would be refused. Exit status: 0 when the hosts agree \
(same oracle, isolation, runtime, versions; bwrap or unshare) and no node lacks a language, 1 otherwise, 2 on a \
usage error or an unreachable cluster."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ray check``."""
    ray = subparsers.add_parser("ray", help="Ray cluster tools (see docs/cluster.md)", description="Tools for running ExecIR on a Ray cluster.")
    actions = ray.add_subparsers(dest="ray_command", required=True)
    check = actions.add_parser(
        "check",
        help="preflight: each sandbox node's isolation, toolchains, versions and slots",
        description="Start an oracle host on every sandbox node and report what a --ray run would use, or why it would be refused.",
        epilog=CHECK_EPILOG,
    )
    add_ray_option(check)
    check.set_defaults(ray="auto")
    check.add_argument("--ray-slots", type=int, default=None, metavar="N", help="sandbox slots per host (default: the node's CPUs)")
    check.add_argument("--isolation", default="auto", choices=("auto", *LEVELS), help="the level every host must start")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(handler=run_check)


def run_check(args: argparse.Namespace) -> int:
    """Handler of ``execir ray check``."""
    from .ray_oracle import RayOptions, RayOracle

    oracle = RayOracle(OracleConfig(isolation=args.isolation, progress=False), RayOptions(address=args.ray, slots=args.ray_slots))
    try:
        oracle.launch()
        hosts = []
        # every node's `execir doctor` at once (its languages judged outside; its level is compared below)
        pending = {host.label: host.actor.doctor.remote() for host in oracle.hosts if "error" not in host.facts}
        for host in oracle.hosts:
            facts = dict(host.facts)
            if host.label in pending:
                facts["doctor"] = oracle._ray.get(pending[host.label])
                facts["toolchains"] = facts["doctor"]["toolchains"]
            hosts.append({"host": host.label, **facts})
        problems = oracle.problems()
        missing = [
            f"{item['host']}: {check['name']} ({check['fix']})"
            for item in hosts
            for check in item.get("doctor", {}).get("checks", [])
            if check["status"] != "ok" and check["required"] and check["area"] != "sandbox"
        ]
        distributed = oracle.distributed_facts()
    finally:
        oracle.close()
    if args.json:
        print(json.dumps({"hosts": hosts, "refused": problems, "missing": missing, "nodes": distributed["nodes"], "ray": distributed["ray_version"]}, indent=2))
    else:
        print(f"ray {distributed['ray_version']}: {distributed['nodes']} alive nodes, {len(hosts)} sandbox hosts")
        for item in hosts:
            print(f"{item['host']} (pid {item['pid']})")
            if "error" in item:
                print(f"  FAILED TO START: {item['error']}")
                continue
            runtime = item["runtime"]
            print(f"  isolation: {item['isolation']} (level {item['level']}{', pinned by EXECIR_HOST_ISOLATION' if item['pinned_level'] else ''})")
            print(f"  slots: {item['slots']} of {item['cpus']} CPUs ({item['cpu_model']})")
            python = f"python {runtime['python_host']} (sandbox {runtime['python_sandbox']})"
            print(f"  versions: execir {item['execir']}, {item['oracle_version']}, ray {item['ray']}, {python}, {runtime['bwrap'] or 'no bwrap'}")
            print("  toolchains: " + "; ".join(f"{name} {version}" for name, version in item["toolchains"].items()))
            doctor = item["doctor"]
            print(
                f"  doctor: {len(doctor['checks']) - doctor['gaps']} of {len(doctor['checks'])} checks ok"
                + ("" if doctor["ok"] else f", {doctor['gaps']} missing")
            )
        for line in missing:
            print(f"  MISSING {line}")
        print("refused: " + " | ".join(problems) if problems else "ok: the hosts agree; a --ray run would use them")
    return 1 if problems or missing else 0
