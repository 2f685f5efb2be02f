"""faiss vector indexes over normalised embeddings (inner product): parse, build, search.

Kinds and their parameters (defaults in :data:`DEFAULTS`; ``nlist`` defaults to ``4 * sqrt(n)``
for ``n`` indexed vectors, faiss's guideline, and ``m`` to ``dim / 8``)::

    hnsw    M, efConstruction, efSearch     IndexHNSWFlat (graph, exact vectors)
    ivf     nlist, nprobe                   IndexIVFFlat (inverted lists, exact vectors)
    ivfpq   nlist, m, nbits, nprobe         IndexIVFPQ (inverted lists, product-quantised codes)
    sq8     (none)                          IndexScalarQuantizer QT_8bit (8-bit codes, brute force)

Determinism: faiss 1.15.1 has no ``cvar.hnsw_deterministic_build`` (checked at build time and used
when a later faiss has it), and a multithreaded HNSW ``add`` or k-means sums in thread order, so
every build runs on one OpenMP thread; training uses a sample of at most :data:`TRAIN_SAMPLE` rows
drawn with ``numpy.random.default_rng(seed)`` and faiss's own k-means seed is set from ``seed``.
Search is per query and runs multithreaded; it is deterministic either way.

faiss is imported lazily; without it :class:`~execir.errors.MissingDependencyError` says how to install it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from execir.errors import ExecIRError, MissingDependencyError

INSTALL_HINT = "pip install 'execir[index]' (faiss-cpu==1.15.1)"
KINDS = ("hnsw", "ivf", "ivfpq", "sq8")
DEFAULTS: dict[str, dict[str, int | None]] = {
    "hnsw": {"M": 32, "efConstruction": 40, "efSearch": 16},
    "ivf": {"nlist": None, "nprobe": 8},
    "ivfpq": {"nlist": None, "m": None, "nbits": 8, "nprobe": 8},
    "sq8": {},
}
"""Every kind's parameters and defaults (None: derived from the data, see the module docstring)."""
TRAIN_SAMPLE = 100_000
"""Most rows an IVF, PQ or SQ index is trained on."""


@dataclass(frozen=True)
class IndexSpec:
    """One faiss index kind with the parameters the spec set (the rest take :data:`DEFAULTS`)."""

    kind: str
    params: tuple[tuple[str, int], ...] = ()

    @property
    def label(self) -> str:
        """``kind[,param=value...]`` as written in a spec (parameters in sorted order)."""
        return ",".join([self.kind, *(f"{k}={v}" for k, v in self.params)])

    def value(self, name: str) -> int | None:
        """The parameter's value: the spec's, else the default (None: derived from the data)."""
        return dict(self.params).get(name, DEFAULTS[self.kind][name])


def parse_index_spec(text: str, spec: str) -> IndexSpec:
    """``hnsw`` / ``ivf,nprobe=16`` ... -> :class:`IndexSpec`, with errors naming the bad kind or parameter."""
    kind, *pairs = text.split(",")
    if kind not in KINDS:
        raise ExecIRError(f"retriever '{spec}': unknown faiss index kind '{kind}' (valid: {', '.join(KINDS)})")
    params: dict[str, int] = {}
    for pair in pairs:
        name, eq, raw = pair.partition("=")
        if name not in DEFAULTS[kind]:
            valid = ", ".join(DEFAULTS[kind]) or "none"
            raise ExecIRError(f"retriever '{spec}': unknown parameter '{name}' for faiss '{kind}' (valid: {valid})")
        if not eq or not raw.isdigit() or int(raw) < 1:
            raise ExecIRError(f"retriever '{spec}': parameter '{name}' needs a positive integer, got '{pair}'")
        params[name] = int(raw)
    return IndexSpec(kind, tuple(sorted(params.items())))


def _faiss() -> Any:
    try:
        import faiss
    except ImportError as exc:
        raise MissingDependencyError(f"vector indexes need faiss: {INSTALL_HINT}") from exc
    return faiss


@contextmanager
def single_threaded(faiss: Any) -> Iterator[None]:
    """Run the block on one OpenMP thread (deterministic builds), restoring the thread count after."""
    before = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(before)


@dataclass(frozen=True)
class ResolvedIndex:
    """The parameters a built index used (derived ones filled in), for the results."""

    kind: str
    params: dict[str, int] = field(default_factory=dict)


def resolve(spec: IndexSpec, n: int, dim: int, where: str) -> ResolvedIndex:
    """Fill in derived defaults and check the parameters against ``n`` vectors of ``dim`` dimensions."""
    params = {name: spec.value(name) for name in DEFAULTS[spec.kind]}
    if "nlist" in params and params["nlist"] is None:
        params["nlist"] = max(1, min(n, round(4 * math.sqrt(n))))
    if "m" in params and params["m"] is None:
        params["m"] = max(1, dim // 8)
    nlist, m, nbits = params.get("nlist"), params.get("m"), params.get("nbits")
    if nlist is not None and nlist > n:
        raise ExecIRError(f"{where}: faiss '{spec.kind}' nlist={nlist} needs at least {nlist} documents, the corpus has {n}")
    if m is not None and dim % m:
        raise ExecIRError(f"{where}: faiss 'ivfpq' m={m} must divide the embedding dimension {dim}")
    if nbits is not None and (nbits > 16 or 2**nbits > n):
        raise ExecIRError(f"{where}: faiss 'ivfpq' nbits={nbits} needs at least {2**nbits} documents (and nbits <= 16), the corpus has {n}")
    return ResolvedIndex(spec.kind, {k: int(v) for k, v in params.items() if v is not None})


def _make(faiss: Any, resolved: ResolvedIndex, dim: int) -> tuple[Any, Any]:
    """``(index, quantizer)``: the quantizer is kept alive beside an IVF index that references it."""
    p, ip = resolved.params, faiss.METRIC_INNER_PRODUCT
    if resolved.kind == "hnsw":
        index = faiss.IndexHNSWFlat(dim, p["M"], ip)
        index.hnsw.efConstruction = p["efConstruction"]
        index.hnsw.efSearch = p["efSearch"]
        return index, None
    if resolved.kind == "sq8":
        return faiss.IndexScalarQuantizer(dim, faiss.ScalarQuantizer.QT_8bit, ip), None
    quantizer = faiss.IndexFlatIP(dim)
    if resolved.kind == "ivf":
        index = faiss.IndexIVFFlat(quantizer, dim, p["nlist"], ip)
    else:
        index = faiss.IndexIVFPQ(quantizer, dim, p["nlist"], p["m"], p["nbits"], ip)
    index.nprobe = p["nprobe"]
    return index, quantizer


def _train(index: Any, vectors: np.ndarray, seed: int) -> None:
    if index.is_trained:
        return
    sample = vectors
    if vectors.shape[0] > TRAIN_SAMPLE:
        rows = np.sort(np.random.default_rng(seed).choice(vectors.shape[0], TRAIN_SAMPLE, replace=False))
        sample = vectors[rows]
    if hasattr(index, "nlist"):  # IVF kinds: seeded k-means over the whole sample
        index.cp.seed = seed
        index.cp.max_points_per_centroid = max(index.cp.max_points_per_centroid, -(-sample.shape[0] // max(index.nlist, 1)))
        index.cp.min_points_per_centroid = 1  # small corpora are legitimate here: no faiss warning on stderr
    if hasattr(index, "pq"):
        index.pq.cp.seed = seed
        index.pq.cp.min_points_per_centroid = 1
    index.train(np.ascontiguousarray(sample, dtype=np.float32))


class FaissIndex:
    """A built faiss index over the rows of a float32 matrix (row ``i`` has faiss id ``i``)."""

    def __init__(self, spec: IndexSpec, vectors: np.ndarray, *, seed: int = 0, where: str = "faiss") -> None:
        faiss = _faiss()
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        n, dim = vectors.shape
        self.resolved = resolve(spec, n, dim, where)
        self._index, self._quantizer = _make(faiss, self.resolved, dim)
        if hasattr(faiss.cvar, "hnsw_deterministic_build"):
            faiss.cvar.hnsw_deterministic_build = True
        with single_threaded(faiss):
            _train(self._index, vectors, seed)
            self._index.add(vectors)
        self.memory_bytes = int(faiss.serialize_index(self._index).size)
        """The serialised index's size: its vectors or codes plus graph, lists and quantisers."""

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """``(scores, ids)``, ``(queries, k)`` each; ids are ``-1`` where the index found fewer than ``k``.
        HNSW searches with ``max(efSearch, k)`` candidates, so the depth is always honoured."""
        if self.resolved.kind == "hnsw":
            self._index.hnsw.efSearch = max(self.resolved.params["efSearch"], k)
        scores, ids = self._index.search(np.ascontiguousarray(queries, dtype=np.float32), k)
        return np.asarray(scores, dtype=np.float32), np.asarray(ids, dtype=np.int64)
