"""Encoding and exact search on Ray (``execir eval --ray``).

* :mod:`.connect`: join a Ray cluster (``auto``, ``local``, ``HOST:PORT``); Ray is imported only here,
  lazily, with an install hint when it is missing.
* :mod:`.encode`: embedding-cache misses (and only those) go through Ray Data ``map_batches`` with an
  actor pool; vectors come back with their row ids and are written into the existing cache layout.
* :mod:`.search`: exact inner-product top-k over document shards held by actors, merged on
  (score desc, global index asc), so the run equals the single-machine search, ties included.
* :mod:`.retriever`: :class:`~.retriever.RayDenseRetriever` (the dense retriever's contract on Ray)
  and :func:`~.retriever.distribute`, which swaps it into dense and hybrid retrievers.
* :mod:`.record`: the ``distributed`` section of ``results.json``.

Importing this package never imports Ray.
"""
