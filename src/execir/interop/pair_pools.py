"""Each query's verified pool of one dataset split: the documents a preference or triplet row may use.

A query's *positives* are its grade-2 documents and its *negatives* its grade-1 documents (same
problem), read from the split's graded qrels. For code documents (t2c, c2c) the grade is checked
against the oracle verdict the corpus records: a positive must say ``PASS`` and a negative one of
``FAIL``, ``TIMEOUT`` or ``ERROR``; a disagreement (or no verdict) is an error naming the corpus line,
never a silently kept or dropped row, so no failing program can become ``chosen`` and no passing one
``rejected``. Descriptions (c2t) carry no verdict: their grades come from recorded edits (the task's
own description 2, a counterfactual or a distractor 1). The query itself (a c2c anchor) is never in
its own pool.
"""

from __future__ import annotations

from dataclasses import dataclass

from execir.dataset.layout import CORPUS, MANIFEST
from execir.dataset.read import Dataset
from execir.dataset.spec import TaskSpec, get_spec
from execir.errors import ExecIRError, InputError
from execir.types import Relevance, Verdict

FAILING_VERDICTS: frozenset[str] = frozenset({Verdict.FAIL.value, Verdict.TIMEOUT.value, Verdict.ERROR.value})
"""The verdicts a grade-1 program may carry (FLAKY and UNDECIDED are never labels)."""


@dataclass(frozen=True)
class Judged:
    """One judged document of a query's pool."""

    doc_id: str
    text: str
    problem: str
    passing: bool
    """Grade 2: passes the task's tests (code) or is the task's own description (text)."""
    kind: str
    """``canonical``, ``rewrite``, ``candidate``, ``mutant``, ``human``; ``description``, ``counterfactual``, ``distractor``."""
    operator: str
    """The mutation operator, rewrite rule, counterfactual rule or candidate source (``human`` for a human bug)."""
    verdict: str
    """The oracle's verdict for code; empty for descriptions."""


@dataclass(frozen=True)
class QueryPool:
    """One query of a split with its verified positives and negatives (each sorted by id)."""

    folder: str
    spec: TaskSpec
    query_id: str
    query: str
    problem: str
    task_id: str
    language: str
    """The language of the code side (the documents' for t2c, the anchor's for c2t and c2c)."""
    positives: tuple[Judged, ...]
    negatives: tuple[Judged, ...]


@dataclass(frozen=True)
class SplitPools:
    """Every query pool of one folder's split, and the split's documents (for filling triplets)."""

    folder: str
    split: str
    pools: tuple[QueryPool, ...]
    documents: tuple[Judged, ...]
    """Every judged document of the split's problems, sorted by id (each with its highest grade)."""


def folder_spec(dataset: Dataset) -> TaskSpec:
    """The task spec of a loaded folder; a folder without a known task is not an ExecIR dataset."""
    try:
        return get_spec(dataset.task)
    except ExecIRError:
        where = str(dataset.root / MANIFEST)
        raise InputError(where, 0, "task", f"unknown or missing task '{dataset.task}' (export pairs reads folders `execir build` wrote)") from None


def split_pools(dataset: Dataset) -> SplitPools:
    """The verified pools of the loaded split's queries (sorted by query id)."""
    spec = folder_spec(dataset)
    lines = {doc_id: number for number, doc_id in enumerate(dataset.corpus, start=1)}
    best: dict[str, Judged] = {}
    pools: list[QueryPool] = []
    for query_id in sorted(dataset.queries):
        judged = [_judged(dataset, spec, lines, query_id, d, g) for d, g in sorted(dataset.qrels[query_id].items()) if g >= 1 and d != query_id]
        for item in judged:
            if item.passing or item.doc_id not in best:
                best[item.doc_id] = item
        info = dataset.query_info[query_id]
        pools.append(
            QueryPool(
                folder=dataset.name,
                spec=spec,
                query_id=query_id,
                query=dataset.queries[query_id],
                problem=info.problem,
                task_id=info.task_id,
                language=info.language,
                positives=tuple(j for j in judged if j.passing),
                negatives=tuple(j for j in judged if not j.passing),
            )
        )
    return SplitPools(dataset.name, dataset.split, tuple(pools), tuple(best[d] for d in sorted(best)))


def _judged(dataset: Dataset, spec: TaskSpec, lines: dict[str, int], query_id: str, doc_id: str, grade: int) -> Judged:
    meta = dataset.doc_meta[doc_id]
    verdict = str(meta.get("verdict") or "")
    passing = grade >= Relevance.CORRECT
    if spec.document_kind == "code":
        expected = Verdict.PASS.value if passing else "FAIL, TIMEOUT or ERROR"
        if (passing and verdict != Verdict.PASS.value) or (not passing and verdict not in FAILING_VERDICTS):
            raise InputError(
                str(dataset.root / CORPUS),
                lines[doc_id],
                "metadata.verdict",
                f"document '{doc_id}' has grade {grade} for query '{query_id}' in the {dataset.split} qrels "
                f"but its recorded verdict is {verdict or 'missing'} (expected {expected})",
            )
    return Judged(
        doc_id=doc_id,
        text=dataset.corpus[doc_id],
        problem=dataset.docs[doc_id].task_id,
        passing=passing,
        kind=str(meta.get("kind") or ""),
        operator=str(meta.get("operator") or ""),
        verdict=verdict,
    )
