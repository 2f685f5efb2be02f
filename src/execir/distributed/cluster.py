"""Connecting to Ray and finding the nodes prepared for sandboxing.

``--ray auto`` joins the running cluster (``RAY_ADDRESS``, or the one ``ray start`` left on this
machine); ``--ray local`` starts a private single-node Ray whose node offers the sandbox resource
(tests, one machine); ``--ray HOST:PORT`` joins the cluster whose GCS listens there.
"""

from __future__ import annotations

import re
import socket
from typing import Any

from execir.errors import ExecIRError, MissingDependencyError

INSTALL_HINT = "pip install 'execir[ray]'"
RESOURCE = "execir_sandbox"
"""The custom resource a node declares (``ray start --resources='{"execir_sandbox": 1}'``) when it is
prepared for sandboxing (root or a privileged container, bubblewrap, cgroups)."""
_ADDRESS = re.compile(r"^(ray://)?[A-Za-z0-9_.\-\[\]:]+:\d{1,5}$")


def require_ray() -> Any:
    """The ``ray`` module, or a :class:`MissingDependencyError` saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise MissingDependencyError(f"--ray needs Ray, an optional extra: {INSTALL_HINT}") from exc
    return ray


def check_address(address: str) -> str:
    """``auto``, ``local``, ``HOST:PORT`` or ``ray://HOST:PORT`` (argparse type of ``--ray``)."""
    if address in ("auto", "local") or _ADDRESS.match(address):
        return address
    raise ExecIRError(f"--ray {address!r}: expected auto, local, HOST:PORT (the head's GCS address) or ray://HOST:PORT")


def connect(address: str) -> Any:
    """Join (or, for ``local``, start) the Ray cluster at ``address``; returns the ``ray`` module.
    A driver already connected (``ray job submit``, tests) keeps its connection."""
    ray = require_ray()
    check_address(address)
    if address not in ("auto", "local"):
        _reachable(address)  # also when already connected: an explicit address must answer
    if ray.is_initialized():
        return ray
    try:
        if address == "local":
            ray.init(include_dashboard=False, resources={RESOURCE: 1}, configure_logging=False, log_to_driver=False)
        else:
            ray.init(address=address, configure_logging=False, log_to_driver=False)
    except ConnectionError as exc:
        where = "no running cluster was found (set RAY_ADDRESS or start one with 'ray start --head')" if address == "auto" else f"{address} is unreachable"
        raise ExecIRError(f"--ray {address}: {where}: {exc}") from exc
    return ray


def _reachable(address: str, seconds: float = 5.0) -> None:
    """Refuse at once an address nothing listens on (Ray itself retries for minutes)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError as exc:
        raise ExecIRError(f"--ray {address}: unreachable ({exc}); give the head node's GCS address (ray start --head prints it)") from exc


def sandbox_nodes(ray: Any) -> list[dict[str, Any]]:
    """Alive nodes offering :data:`RESOURCE`, in node-id order; an error naming the fix when none does."""
    nodes = [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get(RESOURCE, 0) > 0]
    if not nodes:
        alive = sum(1 for n in ray.nodes() if n.get("Alive"))
        raise ExecIRError(
            f"none of the cluster's {alive} alive nodes offers the resource {RESOURCE!r}: start each node prepared for "
            f"sandboxing (root, bubblewrap, cgroups) with ray start --resources='{{\"{RESOURCE}\": 1}}' (see docs/cluster.md)"
        )
    return sorted(nodes, key=lambda n: n["NodeID"])


def alive_nodes(ray: Any) -> int:
    """How many nodes of the cluster are alive."""
    return sum(1 for n in ray.nodes() if n.get("Alive"))
