"""The ``execir eval --ray`` options for encoding and search, and the retrievers they select (no Ray
import here: Ray is imported only when ``--ray`` is given)."""

from __future__ import annotations

import argparse
from typing import Any

from execir.distributed.options import add_ray_option


def add_retrieve_options(parser: argparse.ArgumentParser) -> None:
    """``--encode-actors``, ``--encode-cpus``, ``--encode-gpus``, ``--encode-batch`` and ``--search-shards`` (with ``--ray``)."""
    add_ray_option(parser)
    group = parser.add_argument_group("dense retrieval on Ray (with --ray)")
    group.add_argument("--encode-actors", type=int, default=1, metavar="N", help="Ray Data encoder actors for embedding-cache misses")
    group.add_argument("--encode-cpus", type=float, default=1.0, metavar="C", help="CPUs per encoder actor (Ray sets the actor's torch threads from it)")
    group.add_argument("--encode-gpus", type=float, default=0.0, metavar="G", help="GPUs per encoder actor")
    group.add_argument("--encode-batch", type=int, default=256, metavar="N", help="texts per Ray Data batch")
    group.add_argument(
        "--search-shards",
        type=int,
        default=None,
        metavar="S",
        help="document shards searched by Ray actors, each loading its rows from the embedding cache, which every node must see (default: one per alive node)",
    )


def ray_retrievers(retrievers: dict[str, Any], args: argparse.Namespace, *, progress: bool = False) -> dict[str, Any]:
    """Under ``--ray``: connect, then every dense retriever (or hybrid part) encodes its cache misses on
    Ray Data and searches over shard actors. Without ``--ray``: ``retrievers`` unchanged."""
    address = getattr(args, "ray", None)
    if not address:
        return retrievers
    from execir.distributed_retrieve.connect import connect
    from execir.distributed_retrieve.encode import EncodeOptions
    from execir.distributed_retrieve.retriever import RayRetrieveOptions, distribute

    options = RayRetrieveOptions(
        encode=EncodeOptions(actors=args.encode_actors, num_cpus=args.encode_cpus, num_gpus=args.encode_gpus, batch_size=args.encode_batch),
        shards=args.search_shards,
    )
    connect(address, progress=progress)
    return {spec: distribute(retriever, options) for spec, retriever in retrievers.items()}
