"""Typed evaluation results, shared by the evaluation (which makes them) and the reports (which
render them): neither imports the other's internals. Serialised to JSON only at the edge."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% bootstrap interval."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, metric: Mapping[str, float]) -> Estimate:
        """From a ``{"mean", "ci_low", "ci_high"}`` record."""
        return cls(metric["mean"], metric["ci_low"], metric["ci_high"])


@dataclass(frozen=True)
class FolderScore:
    """One system's headline numbers on one folder."""

    system: str
    metrics: dict[str, Estimate]
    intrusion: float
    """ExecIR's intrusion@10: a hard negative above the first correct document in the top 10 (or none there)."""
    coreb_intrusion: float
    """CoREB's: a hard negative above a correct document, both in the top 10."""
    by_language: dict[str, dict[str, float]]
    first_stage: str | None = None
    """For a reranked system: the first-stage system whose candidates it reordered."""
    deltas: dict[str, Estimate] = field(default_factory=dict)
    """For a reranked or expanded system: measure -> mean difference to its first stage with a paired bootstrap 95% CI."""
    expanded_from: str | None = None
    """For a query-expanded system (``<retriever>+<expansion>``): the unexpanded first stage."""


@dataclass(frozen=True)
class Composition:
    """What a folder holds."""

    queries: int
    documents: int
    positives_per_query: float
    hard_negatives_per_query: float
    median_query_tokens: float
    documents_by_kind: dict[str, int]
    queries_by_language: dict[str, int]


@dataclass(frozen=True)
class FolderSummary:
    """One folder's identity, composition and scores."""

    name: str
    task: str
    direction: str
    subtype: str
    language: str
    split: str
    composition: Composition
    scores: tuple[FolderScore, ...]
    report: str
    """The folder report's path, relative to the collection's output."""


@dataclass(frozen=True)
class CollectionResult:
    """Every folder's summary and the averages over folders."""

    split: str
    ties: str
    folders: tuple[FolderSummary, ...]
    average: dict[str, dict[str, float]]
    """system -> ``t2c``/``c2t``/``c2c`` (mean nDCG@10 over that direction's folders) and ``overall``
    (mean over the directions present), as CoREB reports."""
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """JSON-able form (``results.json`` of the collection)."""
        return asdict(self)


# --- one folder's evaluation (``results.json`` of a folder) ------------------------------------


def _metric(estimate: Estimate) -> dict[str, float]:
    """``{"mean", "ci_low", "ci_high"}``: the per-folder ``results.json`` form of an estimate."""
    return {"mean": estimate.mean, "ci_low": estimate.low, "ci_high": estimate.high}


@dataclass(frozen=True)
class Share:
    """A share with its numerator and denominator (0.0 when the denominator is 0)."""

    share: float
    numerator: int
    denominator: int

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> Share:
        """From a ``{"share", "numerator", "denominator"}`` record."""
        return cls(float(record["share"]), int(record["numerator"]), int(record["denominator"]))


@dataclass(frozen=True)
class OperatorRate:
    """Of the ``n`` queries with a mutant of one operator in their pool, how many times it outranked the canonical."""

    n: int
    outranks: int
    rate: float

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> OperatorRate:
        """From a ``{"n", "outranks", "rate"}`` record."""
        return cls(int(record["n"]), int(record["outranks"]), float(record["rate"]))


@dataclass(frozen=True)
class GapAnalyses:
    """Where a system falls for near clones (see :mod:`execir.metrics.analyses` for the conventions)."""

    n_queries: int
    k: int
    ties: str
    paired_mutant_share_of_misses: Share
    canonical_below_distractor: Share
    intrusion: Share
    """ExecIR's ``intrusion@k``: a hard negative above the first correct document in the top k (or none there)."""
    coreb_intrusion: Share
    """CoREB's ``coreb_intrusion@k``: a hard negative above a correct document, both in the top k."""
    per_operator: dict[str, OperatorRate]

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> GapAnalyses:
        """From :func:`execir.metrics.analyses.gap_analyses`' output (its ``per_query`` is ignored)."""
        k = int(record["k"])
        return cls(
            n_queries=int(record["n_queries"]),
            k=k,
            ties=str(record["ties"]),
            paired_mutant_share_of_misses=Share.of(record["paired_mutant_share_of_misses"]),
            canonical_below_distractor=Share.of(record["canonical_below_distractor"]),
            intrusion=Share.of(record[f"intrusion@{k}"]),
            coreb_intrusion=Share.of(record[f"coreb_intrusion@{k}"]),
            per_operator={op: OperatorRate.of(row) for op, row in record["per_operator"].items()},
        )

    def to_json(self) -> dict[str, Any]:
        """The ``analyses`` record of ``results.json`` (``intrusion@<k>``, ``coreb_intrusion@<k>``...)."""
        return {
            "n_queries": self.n_queries,
            "k": self.k,
            "ties": self.ties,
            "paired_mutant_share_of_misses": asdict(self.paired_mutant_share_of_misses),
            "canonical_below_distractor": asdict(self.canonical_below_distractor),
            f"intrusion@{self.k}": asdict(self.intrusion),
            f"coreb_intrusion@{self.k}": asdict(self.coreb_intrusion),
            "per_operator": {op: asdict(rate) for op, rate in self.per_operator.items()},
        }


@dataclass(frozen=True)
class McNemar:
    """Exact McNemar test of a reranked system against its first stage on exec@1: ``wins`` (queries
    only the reranked system solves at rank 1), ``losses`` (only the first stage does), two-sided p."""

    wins: int
    losses: int
    p_value: float


@dataclass(frozen=True)
class ActedOn:
    """First stage and reranked means over the queries a reranker had a signal for (``exec``: the
    queries whose text carries examples)."""

    queries: int
    first: dict[str, float]
    """Measure -> the first stage's mean over those queries."""
    reranked: dict[str, float]
    """Measure -> the reranked system's mean over those queries."""

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> ActedOn:
        """From the ``acted_on`` record of a system's ``rerank`` in ``results.json``."""
        return cls(int(record["queries"]), {k: float(v) for k, v in record["first"].items()}, {k: float(v) for k, v in record["reranked"].items()})


@dataclass(frozen=True)
class RerankSummary:
    """How a reranked system was made from its first stage, what the reranker did, and what it changed."""

    first_stage: str
    """The first-stage system's name."""
    spec: str
    """The rerank spec (``exec``, ``ce:<model>``, ``exec+ce:<model>``...)."""
    config: dict[str, Any]
    """The reranker's own configuration."""
    queries: int
    pairs: int
    seconds: float
    """Wall time of the reranker's scoring."""
    extra: dict[str, float]
    """Reranker-specific counts (e.g. ``queries_with_examples``, ``candidates_executed``)."""
    seconds_per_query: float
    deltas: dict[str, Estimate]
    """Measure (exec@1, exec@10, nDCG@10) -> mean of reranked minus first stage, with a paired bootstrap 95% CI."""
    mcnemar: McNemar
    acted_on: ActedOn | None = None
    """The measures on the queries the reranker had a signal for (None when it acts on every query)."""

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> RerankSummary:
        """From the ``rerank`` record of a system in ``results.json``."""
        return cls(
            first_stage=str(record["first_stage"]),
            spec=str(record["spec"]),
            config=dict(record["config"]),
            queries=int(record["queries"]),
            pairs=int(record["pairs"]),
            seconds=float(record["seconds"]),
            extra={k: float(v) for k, v in record["extra"].items()},
            seconds_per_query=float(record["seconds_per_query"]),
            deltas={m: Estimate.of(v) for m, v in record["deltas"].items()},
            mcnemar=McNemar(**record["mcnemar"]),
            acted_on=ActedOn.of(record["acted_on"]) if record.get("acted_on") else None,
        )

    def to_json(self) -> dict[str, Any]:
        """The ``rerank`` record of a system in ``results.json``."""
        return {
            "first_stage": self.first_stage,
            "spec": self.spec,
            "config": self.config,
            "queries": self.queries,
            "pairs": self.pairs,
            "seconds": self.seconds,
            "extra": self.extra,
            "seconds_per_query": self.seconds_per_query,
            "deltas": {m: _metric(e) for m, e in self.deltas.items()},
            "mcnemar": asdict(self.mcnemar),
            "acted_on": asdict(self.acted_on) if self.acted_on is not None else None,
        }


@dataclass(frozen=True)
class IndexSummary:
    """A system searched through a vector index, against exact search on the same embeddings."""

    exact: str
    """The exact system's name (the index's embeddings searched exactly; computed even when that
    system is not itself evaluated)."""
    kind: str
    params: dict[str, int]
    documents: int
    indexed_vectors: int
    """Distinct vectors indexed (bit-identical document vectors share one entry)."""
    build_seconds: float
    memory_bytes: int
    ms_per_query: float
    """faiss search milliseconds per query (query encoding excluded)."""
    recall_k: int
    recall_of_exact: float
    """Mean over queries of the share of exact search's top ``recall_k`` the index also returns."""
    deltas: dict[str, Estimate]
    """Measure (exec@1, nDCG@10) -> mean of indexed minus exact, with a paired bootstrap 95% CI."""
    mcnemar: McNemar
    """Exact McNemar on exec@1: ``wins`` (queries only the index solves at rank 1), ``losses`` (only exact search does)."""

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> IndexSummary:
        """From the ``index`` record of a system in ``results.json``."""
        return cls(
            exact=str(record["exact"]),
            kind=str(record["kind"]),
            params={k: int(v) for k, v in record["params"].items()},
            documents=int(record["documents"]),
            indexed_vectors=int(record["indexed_vectors"]),
            build_seconds=float(record["build_seconds"]),
            memory_bytes=int(record["memory_bytes"]),
            ms_per_query=float(record["ms_per_query"]),
            recall_k=int(record["recall_k"]),
            recall_of_exact=float(record["recall_of_exact"]),
            deltas={m: Estimate.of(v) for m, v in record["deltas"].items()},
            mcnemar=McNemar(**record["mcnemar"]),
        )

    def to_json(self) -> dict[str, Any]:
        """The ``index`` record of a system in ``results.json``."""
        return {**asdict(self), "deltas": {m: _metric(e) for m, e in self.deltas.items()}}


@dataclass(frozen=True)
class ExpansionSummary:
    """How a query-expanded system was made from its unexpanded first stage, and what it changed."""

    first_stage: str
    """The unexpanded first-stage system's name."""
    spec: str
    """The ``--expand`` spec as given."""
    config: dict[str, Any]
    """The resolved spec (kind, parameters, generator identity; never a key)."""
    generator_calls: int
    """Generation requests made for this folder (0 when every text came from the cache)."""
    cached_prompts: int
    """Prompts whose generated texts all came from the cache."""
    seconds: float
    seconds_per_query: float
    deltas: dict[str, Estimate]
    """Measure (exec@1, exec@10, nDCG@10) -> mean of expanded minus first stage, with a paired bootstrap 95% CI."""
    mcnemar: McNemar

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> ExpansionSummary:
        """From the ``expansion`` record of a system in ``results.json``."""
        return cls(
            first_stage=str(record["first_stage"]),
            spec=str(record["spec"]),
            config=dict(record["config"]),
            generator_calls=int(record["generator_calls"]),
            cached_prompts=int(record["cached_prompts"]),
            seconds=float(record["seconds"]),
            seconds_per_query=float(record["seconds_per_query"]),
            deltas={m: Estimate.of(v) for m, v in record["deltas"].items()},
            mcnemar=McNemar(**record["mcnemar"]),
        )

    def to_json(self) -> dict[str, Any]:
        """The ``expansion`` record of a system in ``results.json``."""
        return {
            "first_stage": self.first_stage,
            "spec": self.spec,
            "config": self.config,
            "generator_calls": self.generator_calls,
            "cached_prompts": self.cached_prompts,
            "seconds": self.seconds,
            "seconds_per_query": self.seconds_per_query,
            "deltas": {m: _metric(e) for m, e in self.deltas.items()},
            "mcnemar": asdict(self.mcnemar),
        }


@dataclass(frozen=True)
class SystemSummary:
    """Everything measured for one retrieval system on one folder (per-query vectors aside)."""

    name: str
    spec: str
    config: dict[str, Any]
    """The retriever's own resolved configuration."""
    encoded_texts: int
    """Texts encoded in this run (0 when every embedding came from the cache)."""
    queries: int
    metrics: dict[str, Estimate]
    tie_rate: float
    """Share of queries whose canonical's score equals one of its own mutants'."""
    density_ablation: dict[int, dict[str, float]]
    """Mutants kept per task -> measure -> mean."""
    analyses: GapAnalyses
    by_language: dict[str, dict[str, float]]
    """Query language -> ``n`` and measure means."""
    rerank: RerankSummary | None = None
    """For a reranked system (``<first stage>>><reranker>``): its first stage, reranker and deltas; None for a first stage."""
    usage: dict[str, Any] | None = None
    """For an embedding API (``api:``/``http:``): ``requests``, ``inputs``, ``tokens`` (of which
    ``estimated_tokens`` were counted, not reported), ``retries``, ``estimated_cost_usd`` (null
    without a known price), the price and its source, and ``cached_texts`` (served from the cache,
    not paid for); a hybrid's is keyed by part. None for local models."""
    expansion: ExpansionSummary | None = None
    """For a query-expanded system (``<retriever>+<expansion>``): its unexpanded first stage and deltas; None otherwise."""
    index: IndexSummary | None = None
    """For a system searched through a vector index (``dense@faiss:<kind>``): its cost and deltas against exact search."""

    @classmethod
    def of(cls, name: str, record: Mapping[str, Any]) -> SystemSummary:
        """From one entry of ``results.json``'s ``systems``."""
        return cls(
            name=name,
            spec=str(record["spec"]),
            config=dict(record["config"]),
            encoded_texts=int(record["encoded_texts"]),
            queries=int(record["queries"]),
            metrics={m: Estimate.of(v) for m, v in record["metrics"].items()},
            tie_rate=float(record["tie_rate"]),
            density_ablation={int(level): dict(v) for level, v in record["density_ablation"].items()},
            analyses=GapAnalyses.of(record["analyses"]),
            by_language={g: dict(v) for g, v in record["by_language"].items()},
            rerank=RerankSummary.of(record["rerank"]) if record.get("rerank") is not None else None,
            usage=dict(record["usage"]) if record.get("usage") is not None else None,
            expansion=ExpansionSummary.of(record["expansion"]) if record.get("expansion") is not None else None,
            index=IndexSummary.of(record["index"]) if record.get("index") is not None else None,
        )

    def to_json(self) -> dict[str, Any]:
        """One entry of ``results.json``'s ``systems`` (keyed there by :attr:`name`)."""
        return {
            "spec": self.spec,
            "config": self.config,
            "encoded_texts": self.encoded_texts,
            "queries": self.queries,
            "metrics": {m: _metric(e) for m, e in self.metrics.items()},
            "tie_rate": self.tie_rate,
            "density_ablation": {str(level): values for level, values in self.density_ablation.items()},
            "analyses": self.analyses.to_json(),
            "by_language": self.by_language,
            "rerank": self.rerank.to_json() if self.rerank is not None else None,
            "usage": self.usage,
            **({"expansion": self.expansion.to_json()} if self.expansion is not None else {}),
            **({"index": self.index.to_json()} if self.index is not None else {}),
        }


@dataclass(frozen=True)
class Comparison:
    """Two systems compared on per-query exec@1: bootstrap CI of the mean difference (a - b),
    win/tie/loss of a, exact McNemar over the discordant queries (``b10``: a only, ``b01``: b only), Holm's p."""

    a: str
    b: str
    n: int
    mean_a: float
    mean_b: float
    mean_diff: float
    ci_low: float
    ci_high: float
    win: int
    tie: int
    loss: int
    b10: int
    b01: int
    p_value: float
    p_holm: float

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> Comparison:
        """From a :func:`execir.metrics.stats.paired_comparisons` row (or ``results.json``'s ``comparisons``)."""
        return cls(**{f.name: record[f.name] for f in fields(cls)})


@dataclass(frozen=True)
class DatasetFacts:
    """The evaluated folder's identity."""

    path: str
    name: str
    task: str
    language: str
    split: str
    manifest_sha256: str | None
    source: dict[str, Any] | None
    """The manifest's ``source`` record (None for a folder made elsewhere)."""
    queries: int
    documents: int

    @property
    def source_name(self) -> str:
        """The source's name, ``?`` when unknown."""
        return str((self.source or {}).get("name", "?"))


@dataclass(frozen=True)
class FolderResult:
    """One folder's evaluation: every system's summary and the pairwise comparisons."""

    toolkit_version: str
    dataset: DatasetFacts
    config: dict[str, Any]
    """The resolved evaluation config."""
    tie_policy: str
    systems: tuple[SystemSummary, ...]
    """In configured order."""
    comparisons: tuple[Comparison, ...]
    timing_seconds: dict[str, float]
    distributed: dict[str, Any] | None = None
    """Where retrievers ran on Ray (``--ray``): Ray version, nodes, encoder actors, search shards; None locally
    (and then absent from ``results.json``)."""
    expansion_notes: tuple[str, ...] = ()
    """Why a ``--expand`` spec added no system on this folder (its task, or no retriever it applies to)."""

    def system(self, name: str) -> SystemSummary:
        """The summary of the system called ``name``."""
        found = next((s for s in self.systems if s.name == name), None)
        if found is None:
            raise KeyError(f"no system named '{name}' (have {', '.join(s.name for s in self.systems)})")
        return found

    def to_json(self) -> dict[str, Any]:
        """The JSON-able ``results.json`` content."""
        return {
            "toolkit": {"name": "execir", "version": self.toolkit_version},
            "dataset": asdict(self.dataset),
            "config": self.config,
            "tie_policy": self.tie_policy,
            "systems": {s.name: s.to_json() for s in self.systems},
            "comparisons": [asdict(c) for c in self.comparisons],
            "timing_seconds": self.timing_seconds,
            **({"distributed": self.distributed} if self.distributed is not None else {}),
            **({"expansion_notes": list(self.expansion_notes)} if self.expansion_notes else {}),
        }

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> FolderResult:
        """Read back what :meth:`to_json` wrote."""
        return cls(
            toolkit_version=str(document["toolkit"]["version"]),
            dataset=DatasetFacts(**document["dataset"]),
            config=dict(document["config"]),
            tie_policy=str(document["tie_policy"]),
            systems=tuple(SystemSummary.of(name, record) for name, record in document["systems"].items()),
            comparisons=tuple(Comparison.of(c) for c in document["comparisons"]),
            timing_seconds=dict(document["timing_seconds"]),
            distributed=document.get("distributed"),
            expansion_notes=tuple(document.get("expansion_notes", ())),
        )


@dataclass(frozen=True)
class RankedDoc:
    """One of a query's top documents, with its grade and provenance."""

    doc_id: str
    score: float | None
    """The system's own score; None for a candidate its reranker never scored (beyond ``--rerank-depth``)."""
    rel: int
    kind: str
    operator: str | None
    task_id: str


@dataclass(frozen=True)
class QueryRecord:
    """One system on one query: its exec@1, the canonical's rank and score, the mutants above it and the top 10.

    ``canonical_rank`` and ``canonical_score`` are None when the canonical is beyond the evaluation
    depth (not among the retrieved documents). ``measures`` holds every computed measure's value
    (``ndcg@10``, ``mrr@10``...), written as top-level keys of the ``per_query.jsonl`` line."""

    system: str
    query_id: str
    task_id: str | None
    exec_at_1: float
    canonical_rank: int | None
    canonical_score: float | None
    beaten_by: tuple[str, ...]
    top10: tuple[RankedDoc, ...]
    measures: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """One line of ``per_query.jsonl``."""
        return {
            **self.measures,
            "system": self.system,
            "query_id": self.query_id,
            "task_id": self.task_id,
            "exec@1": self.exec_at_1,
            "canonical_rank": self.canonical_rank,
            "canonical_score": self.canonical_score,
            "beaten_by": list(self.beaten_by),
            "top10": [asdict(doc) for doc in self.top10],
        }
