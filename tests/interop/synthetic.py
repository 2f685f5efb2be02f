"""A synthetic dataset folder and run that exercise every trap: many tied scores, hard negatives
tied with correct documents, several correct documents per query, a query with no correct
document, and code-to-code queries whose id is a document id (the anchor, top-scored in the run)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from execir.dataset.records import Document, FolderRecords, Query, doc_id
from execir.dataset.splits import SplitPlan, split_problems
from execir.dataset.write import write_folder
from execir.types import Qrels, Run


@dataclass(frozen=True)
class Synthetic:
    """The records, the split plan and a raw run over every query."""

    records: FolderRecords
    plan: SplitPlan
    run: Run


def _doc(rng: random.Random, problem: str, kind: str, grade: int, language: str = "python") -> Document:
    text = f"def {problem}_{kind}_{rng.random():.12f}(): pass"
    return Document(
        id=doc_id(text),
        text=text,
        task_id=f"T/{problem}",
        problem=problem,
        kind=kind,
        language=language,
        grade=grade,
        operator="" if grade == 2 else "flip",
        verdict="PASS" if grade == 2 else "FAIL",
    )


def make_synthetic(seed: int = 7, n_problems: int = 30) -> Synthetic:
    """Records for ``n_problems`` problems, their split plan and a raw run with many ties."""
    rng = random.Random(seed)
    documents: list[Document] = []
    queries: list[Query] = []
    qrels: list[tuple[str, str, int]] = []
    for p in range(n_problems):
        problem = f"p{p:03d}"
        n_correct = 0 if p == 3 else rng.randint(1, 3)  # p003: no correct document at all
        correct = [_doc(rng, problem, "canonical" if i == 0 else "rewrite", 2) for i in range(n_correct)]
        wrong = [_doc(rng, problem, "mutant", 1) for _ in range(rng.randint(1 if n_correct == 0 else 0, 4))]
        documents += correct + wrong
        query = Query(id=f"q-{problem}", text=f"solve {problem}", task_id=f"T/{problem}", problem=problem, task="t2c-full", language="python")
        queries.append(query)
        qrels += [(query.id, d.id, d.grade) for d in correct + wrong]
        if len(correct) >= 2 and p % 2 == 0:  # a code-to-code query: the anchor is the first correct document
            anchor = correct[0]
            queries.append(Query(id=anchor.id, text=anchor.text, task_id=anchor.task_id, problem=problem, task="c2c", language="python"))
            qrels += [(anchor.id, d.id, d.grade) for d in correct[1:] + wrong]
    documents += [_doc(rng, f"x{i}", "canonical", 2, language="java") for i in range(40)]  # other tasks' documents
    records = FolderRecords(name="synthetic", task="t2c-full", language="python", documents=tuple(documents), queries=tuple(queries), qrels=tuple(qrels))
    plan = split_problems({q.problem for q in queries}, seed=seed)
    all_ids = [d.id for d in documents]
    run: Run = {}
    for query in queries:
        judged = [d for q, d, _ in qrels if q == query.id]
        pool = set(judged) | set(rng.sample(all_ids, 25))
        judged_set = set(judged)  # judged documents score higher on average; few values: ties everywhere
        scores = {doc: float(rng.choice([0.7, 0.8, 0.9] if doc in judged_set else [0.5, 0.6, 0.7, 0.8])) for doc in sorted(pool)}
        if query.id in scores or any(d.id == query.id for d in documents):
            scores[query.id] = 1.0  # the anchor retrieves itself first
        run[query.id] = scores
    return Synthetic(records=records, plan=plan, run=run)


def write_synthetic(folder: Path, synthetic: Synthetic) -> Path:
    """Write the folder with :func:`execir.dataset.write.write_folder`; returns ``folder``."""
    write_folder(folder, synthetic.records, synthetic.plan, {"source": {"name": "synthetic"}})
    return folder


def split_qrels(synthetic: Synthetic, split: str) -> Qrels:
    """The graded qrels of one split, built from the records (independently of the reader)."""
    problem_of = {q.id: q.problem for q in synthetic.records.queries}
    qrels: Qrels = {}
    for qid, doc, grade in synthetic.records.qrels:
        if synthetic.plan.assignment[problem_of[qid]] == split:
            qrels.setdefault(qid, {})[doc] = grade
    return qrels
