"""The ``distributed`` section of ``results.json`` for retrievers that ran on Ray."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def _ray_parts(retriever: Any) -> Iterable[Any]:
    """``retriever`` and its parts (hybrids), depth first, those with a ``ray_record``."""
    if callable(getattr(retriever, "ray_record", None)):
        yield retriever
    for part in getattr(retriever, "parts", ()) or ():
        yield from _ray_parts(part)


def cluster_record() -> dict[str, Any]:
    """Ray version and the alive nodes (id, host, address, CPUs, GPUs) of the connected cluster."""
    from execir.distributed_retrieve.connect import require_ray

    ray = require_ray()
    nodes = [
        {
            "node_id": n["NodeID"],
            "host": n.get("NodeManagerHostname"),
            "address": n.get("NodeManagerAddress"),
            "cpus": n.get("Resources", {}).get("CPU", 0.0),
            "gpus": n.get("Resources", {}).get("GPU", 0.0),
        }
        for n in ray.nodes()
        if n.get("Alive")
    ]
    return {"ray_version": ray.__version__, "nodes": sorted(nodes, key=lambda n: n["node_id"])}


def distributed_section(retrievers: Iterable[Any]) -> dict[str, Any] | None:
    """``{"ray_version", "nodes", "retrievers": {name: record}}`` when any retriever ran on Ray, else None
    (Ray is not imported then)."""
    records = {part.name: part.ray_record() for retriever in retrievers for part in _ray_parts(retriever)}
    if not records:
        return None
    return {**cluster_record(), "retrievers": records}
