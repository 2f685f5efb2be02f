"""Pure assembly of dataset folders from verified tasks (no I/O): one function per task direction.

Document ids are opaque content hashes (``d-`` code, ``t-`` text) so neither a retriever nor a tie
breaker can tell a correct document from a hard negative by its id; the kind lives in the metadata.
A text that occurs twice in a folder is one document, owned by the first problem that had it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from execir.construct.verify import VerifiedTask
from execir.dataset.layout import folder_name
from execir.dataset.records import Document, FolderRecords, Query, doc_id
from execir.texts.counterfactual import counterfactuals
from execir.texts.distractors import Distractor
from execir.texts.full import full_query
from execir.texts.search import search_query
from execir.types import Task, problem_of

TEXT_LANGUAGE = "en"

QUERY_TEXT: dict[str, Callable[[Task], str]] = {
    "description": lambda task: task.description,
    "full": full_query,
    "search": lambda task: search_query(task.description, task.entry_point),
}
"""How each text-to-code subtype derives its query from a task."""


def code_documents(item: VerifiedTask) -> list[Document]:
    """Every verified program of a task: correct ones (grade 2) first, then hard negatives (grade 1)."""
    task = item.task
    problem = problem_of(task)
    docs: list[Document] = []
    if item.has_canonical:
        docs.append(
            Document(
                doc_id(task.solution),
                task.solution,
                task.task_id,
                problem,
                "canonical",
                task.language,
                2,
                verdict="PASS",
                source=task.source,
                entry_point=task.entry_point,
            )
        )
    for extra in sorted(item.extras, key=lambda e: -e.grade):
        docs.append(
            Document(
                doc_id(extra.text),
                extra.text,
                task.task_id,
                problem,
                extra.kind,
                task.language,
                extra.grade,
                operator=extra.operator,
                edit=extra.edit,
                edit_distance=extra.edit_distance,
                verdict=extra.verdict,
                source=extra.operator if extra.kind == "candidate" else task.source,
                entry_point=task.entry_point,
            )
        )
    for kept in [*item.human, *item.mutants]:
        mutant = kept.mutant
        docs.append(
            Document(
                doc_id(mutant.text),
                mutant.text,
                task.task_id,
                problem,
                mutant.kind,
                task.language,
                1,
                operator=mutant.operator,
                edit=mutant.edit,
                edit_distance=mutant.edit_distance,
                verdict=kept.result.verdict.value,
                source=task.source,
                entry_point=task.entry_point,
            )
        )
    return docs


@dataclass
class _Folder:
    """A folder being assembled: documents deduplicated by id, qrels in order."""

    documents: dict[str, Document]
    queries: list[Query]
    qrels: list[tuple[str, str, int]]

    @classmethod
    def empty(cls) -> _Folder:
        return cls({}, [], [])

    def add(self, document: Document) -> Document:
        """The document now in the folder with this text (the first one added wins)."""
        return self.documents.setdefault(document.id, document)

    def records(self, name: str, task: str, language: str, facts: dict[str, object]) -> FolderRecords:
        return FolderRecords(name, task, language, tuple(self.documents.values()), tuple(self.queries), tuple(self.qrels), facts)


def text_to_code(items: Sequence[VerifiedTask], subtype: str, *, language: str | None) -> FolderRecords:
    """``t2c-<subtype>``: the task's text -> its programs. A task needs a correct program to have a query."""
    folder = _Folder.empty()
    task_name = f"t2c-{subtype}"
    derive = QUERY_TEXT[subtype]
    for item in items:
        own = [folder.add(d) for d in code_documents(item)]
        judged = [(d.id, d.grade) for d in own if d.problem == problem_of(item.task)]
        if not any(grade == 2 for _, grade in judged):
            continue
        task = item.task
        folder.queries.append(Query(task.task_id, derive(task), task.task_id, problem_of(task), task_name, subtype, task.language))
        folder.qrels.extend((task.task_id, d, grade) for d, grade in judged)
    return folder.records(folder_name(task_name, language), task_name, language or _single(items), {"query": _query_method(subtype)})


def _query_method(subtype: str) -> str:
    return {
        "description": "the task's prose description (docstring without examples)",
        "full": "the whole problem text with its examples (execir.texts.full)",
        "search": "a short keyword query derived from the description and the function name (execir.texts.search)",
    }[subtype]


def _single(items: Sequence[VerifiedTask]) -> str:
    languages = sorted({v.task.language for v in items})
    return languages[0] if len(languages) == 1 else "multi"


def code_to_text(items: Sequence[VerifiedTask], *, counterfactual_limit: int, seed: int, distractors: Sequence[Distractor] = ()) -> FolderRecords:
    """``c2t``: a canonical program -> task descriptions. Every distinct description of the problem
    (one per language version) is correct; counterfactuals of its first description and the user's
    distractors are hard negatives."""
    folder = _Folder.empty()
    by_problem: dict[str, list[VerifiedTask]] = defaultdict(list)
    for item in items:
        by_problem[problem_of(item.task)].append(item)
    problem_of_task = {v.task.task_id: problem_of(v.task) for v in items}
    extra: dict[str, list[Distractor]] = defaultdict(list)
    for distractor in distractors:
        if distractor.task_id in problem_of_task:
            extra[problem_of_task[distractor.task_id]].append(distractor)
    rules: Counter[str] = Counter()
    judged: dict[str, list[tuple[str, int]]] = {}
    # every description first: a counterfactual or distractor whose text is another problem's
    # description must not take that description's document (and leave its problem without a positive)
    descriptions = {problem: [folder.add(_description(v.task, problem)) for v in group] for problem, group in by_problem.items()}
    for problem, group in by_problem.items():
        first = group[0].task
        docs = list(descriptions[problem])
        for counterfactual in counterfactuals(first.description, limit=counterfactual_limit, seed=seed):
            docs.append(
                folder.add(
                    Document(
                        doc_id(counterfactual.text, "t"),
                        counterfactual.text,
                        first.task_id,
                        problem,
                        "counterfactual",
                        TEXT_LANGUAGE,
                        1,
                        operator=counterfactual.rule,
                        edit=counterfactual.edit,
                        source=first.source,
                    )
                )
            )
            rules[counterfactual.rule] += 1
        for distractor in extra.get(problem, []):
            docs.append(
                folder.add(
                    Document(
                        doc_id(distractor.text, "t"),
                        distractor.text,
                        distractor.task_id,
                        problem,
                        "distractor",
                        TEXT_LANGUAGE,
                        1,
                        operator=distractor.source,
                        source=distractor.source,
                    )
                )
            )
        judged[problem] = list(dict.fromkeys((d.id, d.grade) for d in docs if d.problem == problem))
    without_positive = 0
    for item in items:
        if not item.has_canonical:
            continue
        task = item.task
        if not any(grade == 2 for _, grade in judged[problem_of(task)]):
            without_positive += 1  # its description is another problem's too (owned by the first)
            continue
        folder.queries.append(Query(task.task_id, task.solution, task.task_id, problem_of(task), "c2t", "", task.language))
        folder.qrels.extend((task.task_id, d, grade) for d, grade in judged[problem_of(task)])
    facts = {
        "counterfactuals_per_task": counterfactual_limit,
        "counterfactuals_by_rule": dict(sorted(rules.items())),
        "distractors": sum(len(v) for v in extra.values()),
        "distractors_unmatched": len(distractors) - sum(len(v) for v in extra.values()),
        "queries_without_a_positive": without_positive,
    }
    return folder.records("c2t", "c2t", _single(items), facts)


def _code_queries(item: VerifiedTask, *, rewrites: bool) -> list[tuple[str, str]]:
    """(query id, text) of a task's c2c queries: its canonical program, or (``rewrites``) each
    passing program that is not it. A query's id is its document id."""
    if not rewrites:
        return [(doc_id(item.task.solution), item.task.solution)] if item.has_canonical else []
    canonical = doc_id(item.task.solution) if item.has_canonical else None
    passing = [(d.id, d.text) for d in code_documents(item) if d.grade == 2 and d.id != canonical]
    return list(dict.fromkeys(passing))


def _description(task: Task, problem: str) -> Document:
    return Document(doc_id(task.description, "t"), task.description, task.task_id, problem, "description", TEXT_LANGUAGE, 2, source=task.source)


def code_to_code(items: Sequence[VerifiedTask], *, constraint: str | None, subtype: str = "") -> FolderRecords:
    """``c2c`` (``constraint`` None: documents in every language) or ``c2c-<language>`` (documents in
    that language only): a canonical program (the anchor) -> the problem's other programs. The
    anchor's query id is its document id, so it is never judged, and every evaluator drops it.

    ``subtype`` ``rewrite`` (``c2c-rewrite``): every passing program that is not a canonical one is
    a query instead, judged against the rest of its problem's pool in the same way; the canonical
    program is then a positive and its mutants are hard negatives that are not edits of the query."""
    rewrites = subtype == "rewrite"
    task_name = f"c2c-{subtype}" if subtype else "c2c"
    folder = _Folder.empty()
    pools: dict[str, list[Document]] = defaultdict(list)
    for item in items:
        for document in code_documents(item):
            if constraint is None or document.language == constraint:
                kept = folder.add(document)
                if kept.problem == document.problem and kept not in pools[kept.problem]:
                    pools[kept.problem].append(kept)
    asked: set[str] = set()
    for item in items:
        task = item.task
        problem = problem_of(task)
        for anchor, text in _code_queries(item, rewrites=rewrites):
            if anchor in asked:
                continue  # the same program text is already another task's query
            judged = [(d.id, d.grade) for d in pools.get(problem, []) if d.id != anchor]
            if not any(grade == 2 for _, grade in judged):
                continue
            asked.add(anchor)
            folder.queries.append(Query(anchor, text, task.task_id, problem, task_name, subtype, task.language, constraint or "any"))
            folder.qrels.extend((anchor, d, grade) for d, grade in judged)
    name = folder_name(task_name, constraint) if constraint and _single(items) == "multi" else task_name
    facts: dict[str, object] = {"constraint": constraint or "any"}
    if rewrites:
        facts["problems_with_a_query"] = len({q.problem for q in folder.queries})
    else:
        facts["anchors_without_a_positive"] = sum(1 for v in items if v.has_canonical) - len(folder.queries)
    return folder.records(name, task_name, constraint or _single(items), facts)
