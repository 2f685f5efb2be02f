"""The execution oracle on a Ray cluster (``--ray``): one long-lived oracle host actor per prepared
node, a driver-side :class:`~execir.distributed.ray_oracle.RayOracle` with the local oracle's
interface, ``execir ray check``.

Nothing here imports Ray at module import time: Ray is an optional extra (``execir[ray]``),
imported only when ``--ray`` is given (:func:`execir.distributed.cluster.require_ray`).
"""
