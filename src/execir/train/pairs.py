"""Training pairs for a pointwise cross-encoder (the CoREB recipe) and dev candidate sets.

For every training query and every one of its positives (grade 2) the recipe emits two groups:
``(query, positive, 1)`` with one *easy* negative ``(query, doc of another training problem, 0)``,
and ``(query, positive, 1)`` with one *hard* negative ``(query, grade-1 doc of the same problem, 0)``
(a verified mutant, human bug or counterfactual description), so labels stay balanced. Mined hard
negatives replace the grade-1 choice by the highest-ranked non-positive of the query's own problem in
a first-stage ranking. Mined easy negatives replace the seeded random choice by the documents of
other training problems that a first stage ranks highest for the query (the first for the first
positive, the second for the second, ...): documents on a similar topic that do another job, which a
reranker must learn to put below the right one.

A query without any hard negative keeps its positive/easy group (the positive once) and is counted
in ``queries_without_hard``; a query without a positive gives no pairs and is counted in
``queries_without_positive``. Easy negatives come only from the training problems of the same
folder, so no document of a dev or test problem enters a training pair.

Every seeded choice is a sha256 of the seed and the ids involved (never Python's ``hash`` or a
shared RNG), so a query's pairs do not depend on which other queries are present.

Pairs are always ordered (text side, code side): for code-to-text folders the document (a
description) comes first and the query (a program); for text-to-code and code-to-code the query.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Literal

from execir.dataset.read import Dataset
from execir.dataset.spec import get_spec
from execir.errors import ExecIRError

PAIR_ORDER = "text-code"
"""How every pair is ordered: the text side first (``execir.json`` field ``pair_order``)."""

PairKind = Literal["positive", "easy", "hard", "counterfactual"]
"""``counterfactual``: the query's own description with one edit (:mod:`execir.texts.counterfactual`)
against a positive program (listwise text-side groups only)."""


@dataclass(frozen=True)
class Pair:
    """One labelled (first, second) input of the cross-encoder, in text-code order."""

    first: str
    second: str
    label: float
    query_id: str
    doc_id: str
    kind: PairKind
    folder: str


@dataclass(frozen=True)
class PairCounts:
    """How many pairs of each kind a folder (or several) gave, and the queries left short."""

    queries: int = 0
    positives: int = 0
    easy: int = 0
    hard: int = 0
    queries_without_positive: int = 0
    queries_without_hard: int = 0
    counterfactual: int = 0

    def __add__(self, other: PairCounts) -> PairCounts:
        return PairCounts(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)})

    @property
    def pairs(self) -> int:
        """Every pair (positives counted with their repeats)."""
        return self.positives + self.easy + self.hard + self.counterfactual

    def to_json(self) -> dict[str, int]:
        """The counts by name, plus ``pairs``."""
        return {**{f.name: getattr(self, f.name) for f in fields(self)}, "pairs": self.pairs}


@dataclass(frozen=True)
class PairSource:
    """What the recipe reads from one dataset folder (a split's queries and judgements)."""

    folder: str
    query_first: bool
    """True when the query is the text side (t2c, c2c); False for code-to-text."""
    queries: Mapping[str, str]
    qrels: Mapping[str, Mapping[str, int]]
    query_problem: Mapping[str, str]
    doc_problem: Mapping[str, str]
    corpus: Mapping[str, str]
    query_is_text: bool = False
    """True when queries are natural-language descriptions (text-to-code tasks)."""

    @classmethod
    def of(cls, dataset: Dataset) -> PairSource:
        """The recipe's view of a loaded folder (its task decides the pair order)."""
        task = dataset.task or next((info.task for info in dataset.query_info.values() if info.task), "")
        return cls(
            folder=dataset.name,
            query_first=query_is_text_side(task),
            queries=dataset.queries,
            qrels=dataset.qrels,
            query_problem=dataset.query_task,
            doc_problem={d: info.task_id for d, info in dataset.docs.items()},
            corpus=dataset.corpus,
            query_is_text=queries_are_text(task),
        )

    @property
    def problems(self) -> frozenset[str]:
        """The problems of this split's queries."""
        return frozenset(self.query_problem[q] for q in self.queries)

    def pair(self, query_id: str, doc_id: str, label: float, kind: PairKind) -> Pair:
        """``(query, document)`` in text-code order."""
        query, doc = self.queries[query_id], self.corpus[doc_id]
        first, second = (query, doc) if self.query_first else (doc, query)
        return Pair(first, second, label, query_id, doc_id, kind, self.folder)


def query_is_text_side(task: str) -> bool:
    """False only for code-to-text tasks (the document is the text side); unknown tasks keep (query, document)."""
    try:
        spec = get_spec(task)
    except ExecIRError:
        return True
    return not (spec.query_kind == "code" and spec.document_kind == "text")


def queries_are_text(task: str) -> bool:
    """True for tasks whose queries are descriptions (text-to-code); False for code queries and unknown tasks."""
    try:
        return get_spec(task).query_kind == "text"
    except ExecIRError:
        return False


def seeded_key(seed: int, *parts: str) -> int:
    """A stable 64-bit number for a seeded choice (sha256 of the seed and the parts)."""
    text = ":".join((str(seed), *parts))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def hard_negatives(ranking: Sequence[str], query_id: str, source: PairSource, limit: int) -> list[str]:
    """Up to ``limit`` documents of the query's own problem that are not positives, in ranking order (mined)."""
    problem, judged = source.query_problem[query_id], source.qrels[query_id]
    found = [d for d in ranking if d != query_id and source.doc_problem.get(d) == problem and judged.get(d, 0) < 2]
    return list(dict.fromkeys(found))[:limit]


def first_hard_negative(ranking: Sequence[str], query_id: str, source: PairSource) -> str | None:
    """The highest-ranked document of the query's own problem that is not a positive (mined)."""
    return next(iter(hard_negatives(ranking, query_id, source, 1)), None)


class EasyPool:
    """Documents of the training problems, for seeded rejection sampling of another problem's document."""

    def __init__(self, source: PairSource, problems: frozenset[str], mined: Mapping[str, Sequence[str]] | None = None) -> None:
        self.source, self.problems, self.mined = source, problems, mined
        self.docs = sorted(d for d, p in source.doc_problem.items() if p in problems and d in source.corpus)
        self.per_problem: dict[str, int] = {}
        for doc_id in self.docs:
            self.per_problem[source.doc_problem[doc_id]] = self.per_problem.get(source.doc_problem[doc_id], 0) + 1
        self.doc_problem = source.doc_problem

    def pick(self, seed: int, query_id: str, positive: str, problem: str, index: int = 0) -> str | None:
        """The easy negative of the query's ``index``-th positive: mined when rankings are given
        and long enough, else a seeded document of another problem."""
        if self.mined is not None:
            ranked = mined_easy_negatives(self.mined.get(query_id, ()), query_id, self.source, self.problems, index + 1)
            if len(ranked) > index:
                return ranked[index]
        return self.random(seed, query_id, positive, problem)

    def random(self, seed: int, query_id: str, key: str, problem: str) -> str | None:
        """A seeded document of another problem than ``problem`` (None when there is none); ``key``
        (the positive's id) makes each positive's choice its own."""
        if len(self.docs) - self.per_problem.get(problem, 0) <= 0:
            return None
        attempt = 0
        while True:
            doc_id = self.docs[seeded_key(seed, "easy", query_id, key, str(attempt)) % len(self.docs)]
            if self.doc_problem[doc_id] != problem and doc_id != query_id:
                return doc_id
            attempt += 1


def mined_easy_negatives(ranking: Sequence[str], query_id: str, source: PairSource, problems: frozenset[str], limit: int) -> list[str]:
    """Up to ``limit`` documents of other training problems, in the order of the query's ranking."""
    own = source.query_problem[query_id]
    found: list[str] = []
    for doc_id in ranking:
        problem = source.doc_problem.get(doc_id)
        if doc_id != query_id and problem != own and problem in problems and doc_id in source.corpus:
            found.append(doc_id)
            if len(found) == limit:
                break
    return found


def judged_docs(source: PairSource, query_id: str) -> tuple[list[str], list[str]]:
    """The query's positives (grade 2) and graded hard negatives (grade 1), sorted, never the query itself."""
    judged = source.qrels.get(query_id, {})
    return (sorted(d for d, g in judged.items() if g >= 2 and d != query_id), sorted(d for d, g in judged.items() if g == 1 and d != query_id))


def build_pairs(
    source: PairSource, *, seed: int, mined: Mapping[str, Sequence[str]] | None = None, mined_easy: Mapping[str, Sequence[str]] | None = None
) -> tuple[list[Pair], PairCounts]:
    """The training pairs of one folder's split (recipe in the module docstring) and their counts.

    ``mined`` (query id -> first-stage ranking, best first) switches hard negatives from the
    folder's grade-1 documents to the first same-problem non-positive of each query's ranking;
    ``mined_easy`` (the same shape) switches easy negatives to other training problems' documents
    in ranking order (a query whose ranking has too few keeps seeded random ones for the rest)."""
    pool = EasyPool(source, source.problems, mined_easy)
    pairs: list[Pair] = []
    counts = PairCounts()
    for query_id in sorted(source.queries):
        positives, graded_hard = judged_docs(source, query_id)
        mined_hard = first_hard_negative(mined.get(query_id, ()), query_id, source) if mined is not None else None
        query_pairs, query_counts = _query_pairs(source, pool, seed, query_id, positives, graded_hard if mined is None else [], mined_hard)
        pairs += query_pairs
        counts = counts + query_counts
    return pairs, counts


def _query_pairs(
    source: PairSource, pool: EasyPool, seed: int, query_id: str, positives: list[str], graded_hard: list[str], mined_hard: str | None
) -> tuple[list[Pair], PairCounts]:
    if not positives:
        return [], PairCounts(queries=1, queries_without_positive=1)
    problem = source.query_problem[query_id]
    pairs: list[Pair] = []
    for index, positive in enumerate(positives):
        easy = pool.pick(seed, query_id, positive, problem, index)
        if easy is not None:
            pairs += [source.pair(query_id, positive, 1.0, "positive"), source.pair(query_id, easy, 0.0, "easy")]
        hard = mined_hard or (graded_hard[seeded_key(seed, "hard", query_id, positive) % len(graded_hard)] if graded_hard else None)
        if hard is not None:
            pairs += [source.pair(query_id, positive, 1.0, "positive"), source.pair(query_id, hard, 0.0, "hard")]
    kinds = [p.kind for p in pairs]
    counts = PairCounts(
        queries=1,
        positives=kinds.count("positive"),
        easy=kinds.count("easy"),
        hard=kinds.count("hard"),
        queries_without_hard=int(kinds.count("hard") == 0),
    )
    return pairs, counts


def dev_candidates(source: PairSource, *, seed: int, easy: int = 20) -> dict[str, tuple[str, ...]]:
    """Each query's reranking candidates: its own pool (grades 2 and 1) plus ``easy`` seeded
    documents of other problems, sorted by id (the reranker's scores decide the order)."""
    others_by_query: dict[str, tuple[str, ...]] = {}
    docs = sorted(source.corpus)
    for query_id in sorted(source.queries):
        problem = source.query_problem[query_id]
        pool = [d for d, g in source.qrels.get(query_id, {}).items() if g >= 1 and d != query_id]
        others = sorted((d for d in docs if source.doc_problem.get(d) != problem and d != query_id), key=lambda d: seeded_key(seed, "dev", query_id, d))
        others_by_query[query_id] = tuple(sorted({*pool, *others[:easy]}))
    return others_by_query


def pair_texts(source: PairSource, query_id: str, doc_ids: Iterable[str]) -> list[tuple[str, str]]:
    """(first, second) inputs of the cross-encoder for a query's documents, in text-code order."""
    return [(p.first, p.second) for p in (source.pair(query_id, d, 0.0, "easy") for d in doc_ids)]
