"""The ``--ray`` command-line options and the oracle factory they select (no Ray import here)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from execir.errors import ExecIRError
from execir.execute.oracle import Oracle, OracleConfig

from .cluster import check_address

if TYPE_CHECKING:
    from .ray_oracle import RayOptions

RAY_HELP = (
    "run on a Ray cluster: auto (RAY_ADDRESS or the cluster 'ray start' left here), local (a private one-node Ray), "
    "or HOST:PORT (the head's GCS address); needs pip install 'execir[ray]' (see docs/cluster.md)"
)


def _address(text: str) -> str:
    try:
        return check_address(text)
    except ExecIRError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix(f"--ray {text!r}: ")) from None


def add_ray_option(parser: argparse.ArgumentParser) -> None:
    """``--ray ADDRESS`` (added once, whoever registers it first)."""
    if "--ray" not in parser._option_string_actions:
        parser.add_argument("--ray", type=_address, default=None, metavar="ADDRESS", help=RAY_HELP)


def add_oracle_options(parser: argparse.ArgumentParser) -> None:
    """``--ray`` plus the oracle's options on a cluster: slots per host and the largest batch."""
    add_ray_option(parser)
    parser.add_argument("--ray-slots", type=int, default=None, metavar="N", help="sandbox slots per Ray host (default: the node's CPUs)")
    parser.add_argument("--ray-batch", type=int, default=128, metavar="N", help="most jobs shipped to a Ray host in one batch")


def ray_options(args: argparse.Namespace) -> RayOptions | None:
    """The cluster options of parsed arguments (None without ``--ray``)."""
    address = getattr(args, "ray", None)
    if address is None:
        return None
    from .ray_oracle import RayOptions

    return RayOptions(address=address, slots=getattr(args, "ray_slots", None), batch=getattr(args, "ray_batch", 128))


def oracle_factory(args: argparse.Namespace) -> Callable[[OracleConfig], Oracle]:
    """What makes the oracle: the local :class:`Oracle`, or a :class:`RayOracle` under ``--ray``."""
    options = ray_options(args)
    if options is None:
        return Oracle
    from .cluster import require_ray
    from .ray_oracle import RayOracle

    require_ray()  # the install hint before any work

    def make(config: OracleConfig) -> Oracle:
        return RayOracle(config, options)

    return make


def use_oracle_factory(rerankers: Iterable[object], factory: Callable[[OracleConfig], Oracle]) -> int:
    """Make every ``exec`` reranker among ``rerankers`` (inside fusions and chains too) run its
    candidates with ``factory``; returns how many were found."""
    found = 0
    for reranker in rerankers:
        if hasattr(reranker, "oracle_factory"):
            reranker.oracle_factory = factory
            found += 1
        found += use_oracle_factory([getattr(reranker, "inner", None)] if hasattr(reranker, "inner") else [], factory)
        found += use_oracle_factory(getattr(reranker, "stages", ()), factory)
    return found
