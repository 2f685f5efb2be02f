"""Pure folder assembly from hand-built verified tasks: t2c (three subtypes), c2t, c2c, and the
invariants every folder keeps (a positive per query, no document judged for two problems, the c2c
anchor never judged for itself)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from execir.construct.assemble import QUERY_TEXT, code_documents, code_to_code, code_to_text, text_to_code
from execir.construct.verify import VerifiedTask
from execir.dataset.records import FolderRecords, doc_id
from execir.texts.counterfactual import edit_span
from execir.texts.distractors import Distractor
from execir.texts.full import full_query
from execir.texts.search import search_query
from execir.types import problem_of
from tests.dataset.builders import build_items, collection_folders, kept_mutant, make_task, nulls, schema, verified


def check_invariants(folder: FolderRecords) -> None:
    """What every assembled folder must hold."""
    docs = {d.id: d for d in folder.documents}
    assert len(docs) == len(folder.documents), "document ids are unique"
    assert len({d.text for d in folder.documents}) == len(folder.documents), "a text is one document"
    queries = {q.id: q for q in folder.queries}
    assert len(queries) == len(folder.queries), "query ids are unique"
    assert len({(q, d) for q, d, _ in folder.qrels}) == len(folder.qrels), "a (query, document) pair is judged once"
    judged: dict[str, set[str]] = defaultdict(set)
    grades: dict[str, list[int]] = defaultdict(list)
    for q, d, grade in folder.qrels:
        assert q in queries and d in docs
        assert grade in (1, 2) and grade == docs[d].grade
        assert docs[d].problem == queries[q].problem, "documents are judged only for their own problem"
        judged[d].add(queries[q].problem)
        grades[q].append(grade)
        assert d != q, "a query is never judged against itself"
    assert all(len(problems) == 1 for problems in judged.values()), "no document judged for two problems"
    assert all(2 in grades[q] for q in queries), "every query has a correct document"
    for document in folder.documents:
        assert document.id == doc_id(document.text, "t" if document.language == "en" else "d")
    rows = [d.to_json() for d in folder.documents]
    assert not [p for row in rows for p in nulls(row)] and len({schema(r) for r in rows}) == 1
    rows = [q.to_json() for q in folder.queries]
    assert not [p for row in rows for p in nulls(row)] and len({schema(r) for r in rows}) == 1


def test_every_folder_of_a_two_language_build_keeps_the_invariants() -> None:
    folders = collection_folders(build_items())
    assert [f.name for f in folders] == [
        "t2c-description-python",
        "t2c-description-java",
        "t2c-full-python",
        "t2c-full-java",
        "t2c-search-python",
        "t2c-search-java",
        "c2t",
        "c2c",
        "c2c-python",
        "c2c-java",
    ]
    for folder in folders:
        check_invariants(folder)


# code_documents


def test_code_documents_order_and_provenance() -> None:
    item = verified(make_task(2), mutants=2, human=1, rewrites=1, passing=1, failing=1)
    docs = code_documents(item)
    assert [d.kind for d in docs] == ["canonical", "rewrite", "candidate", "candidate", "human", "mutant", "mutant"]
    assert [d.grade for d in docs] == [2, 2, 2, 1, 1, 1, 1]
    assert all(d.problem == "HumanEval/2" and d.task_id == "HumanEval/2" and d.language == "python" and d.entry_point == "f2" for d in docs)
    canonical, rewrite, passing, failing, human, mutant = docs[:6]
    assert canonical.text == item.task.solution and canonical.verdict == "PASS" and canonical.source == "humaneval"
    assert rewrite.operator == "commutative" and rewrite.source == "humaneval"
    assert passing.source == passing.operator == "user-a" and failing.source == "user-b" and failing.verdict == "TIMEOUT"
    assert human.operator == "human" and human.verdict == "FAIL"
    assert mutant.operator == "min_max" and mutant.edit.before == "min" and mutant.edit_distance == 1


def test_a_task_without_a_reference_has_no_canonical_document() -> None:
    item = verified(make_task(3, canonical=False), mutants=0, passing=1, failing=1)
    assert [(d.kind, d.grade) for d in code_documents(item)] == [("candidate", 2), ("candidate", 1)]


# text to code


@pytest.mark.parametrize("subtype", ["description", "full", "search"])
def test_text_to_code_queries(subtype: str) -> None:
    items = [verified(make_task(n), rewrites=n % 2) for n in range(4)]
    folder = text_to_code(items, subtype, language=None)
    assert (folder.name, folder.task, folder.language) == (f"t2c-{subtype}", f"t2c-{subtype}", "python")
    check_invariants(folder)
    derive = {"description": lambda t: t.description, "full": full_query, "search": lambda t: search_query(t.description, t.entry_point)}[subtype]
    for item, query in zip(items, folder.queries):
        assert (query.id, query.task_id, query.problem) == (item.task.task_id, item.task.task_id, "HumanEval/" + item.task.task_id[-1])
        assert query.text == derive(item.task) == QUERY_TEXT[subtype](item.task)
        assert (query.task, query.subtype, query.language, query.constraint) == (f"t2c-{subtype}", subtype, "python", "any")
        judged = {(d, g) for q, d, g in folder.qrels if q == query.id}
        assert judged == {(d.id, d.grade) for d in code_documents(item)}


def test_text_to_code_full_keeps_the_examples_and_description_drops_them() -> None:
    items = [verified(make_task(0))]
    assert ">>> f0([2])" in text_to_code(items, "full", language=None).queries[0].text
    assert ">>>" not in text_to_code(items, "description", language=None).queries[0].text


def test_text_to_code_language_suffix_in_a_multi_language_build() -> None:
    folder = text_to_code([verified(make_task(0, "java"))], "search", language="java")
    assert (folder.name, folder.language) == ("t2c-search-java", "java")


def test_a_task_without_a_correct_program_has_no_query_but_keeps_its_documents() -> None:
    no_reference = verified(make_task(1, canonical=False), mutants=0, failing=2)
    folder = text_to_code([verified(make_task(0)), no_reference], "description", language=None)
    assert [q.id for q in folder.queries] == ["HumanEval/0"]
    assert sum(d.problem == "HumanEval/1" for d in folder.documents) == 2  # still distractors for the other queries
    check_invariants(folder)


def test_a_task_judged_only_by_its_user_candidates() -> None:
    item = verified(make_task(5, canonical=False), mutants=0, passing=1, failing=1)
    folder = text_to_code([item], "description", language=None)
    assert [(g, d == doc_id(item.extras[0].text)) for _, d, g in folder.qrels] == [(2, True), (1, False)]


def test_a_text_shared_by_two_problems_is_judged_for_the_first_only() -> None:
    first = verified(make_task(0), mutants=1)
    second = verified(make_task(1), mutants=1)
    shared = first.mutants[0].mutant.text
    second.mutants[0] = kept_mutant(second.task, shared)
    folder = text_to_code([first, second], "description", language=None)
    owners = [d.problem for d in folder.documents if d.text == shared]
    assert owners == ["HumanEval/0"]
    assert [q for q, d, _ in folder.qrels if d == doc_id(shared)] == ["HumanEval/0"]
    check_invariants(folder)


# code to text


def test_code_to_text_grades_descriptions_counterfactuals_and_distractors() -> None:
    items = [verified(make_task(n)) for n in range(3)]
    distractors = [
        Distractor("HumanEval/1", "Return the odd numbers of the list.", "llm", 1),
        Distractor("HumanEval/99", "Not a task of this build.", "llm", 2),
    ]
    folder = code_to_text(items, counterfactual_limit=2, seed=3, distractors=distractors)
    check_invariants(folder)
    assert (folder.name, folder.task, folder.language) == ("c2t", "c2t", "python")
    assert folder.facts["distractors"] == 1 and folder.facts["distractors_unmatched"] == 1 and folder.facts["queries_without_a_positive"] == 0
    docs = {d.id: d for d in folder.documents}
    for item, query in zip(items, folder.queries):
        assert (query.id, query.text, query.task, query.language) == (item.task.task_id, item.task.solution, "c2t", "python")
        judged = [(docs[d], g) for q, d, g in folder.qrels if q == query.id]
        assert [d.text for d, g in judged if g == 2] == [item.task.description]
        counterfactuals = [d for d, _ in judged if d.kind == "counterfactual"]
        assert 1 <= len(counterfactuals) <= 2
        for doc in counterfactuals:
            assert doc.grade == 1 and doc.language == "en" and doc.operator in ("antonym", "number", "negation") and doc.edit.before
            start, end, replacement = edit_span(item.task.description, doc.edit)
            assert item.task.description[:start] + replacement + item.task.description[end:] == doc.text
    distractor = next(d for d in folder.documents if d.kind == "distractor")
    assert (distractor.problem, distractor.grade, distractor.operator, distractor.source) == ("HumanEval/1", 1, "llm", "llm")
    assert ("HumanEval/1", distractor.id, 1) in folder.qrels


def test_code_to_text_counterfactual_rules_are_counted() -> None:
    folder = code_to_text([verified(make_task(n)) for n in range(4)], counterfactual_limit=3, seed=0)
    kinds = [d.kind for d in folder.documents]
    assert sum(folder.facts["counterfactuals_by_rule"].values()) >= kinds.count("counterfactual") > 0


def test_code_to_text_two_languages_of_one_problem() -> None:
    same = [verified(make_task(0)), verified(make_task(0, "java"))]
    folder = code_to_text(same, counterfactual_limit=0, seed=0)
    assert folder.language == "multi" and [q.id for q in folder.queries] == ["HumanEval/0", "Java/0"]
    assert [d.kind for d in folder.documents] == ["description"]  # one description text, one document
    different = [verified(make_task(0)), verified(make_task(0, "java", description="Return the smallest even value."))]
    folder = code_to_text(different, counterfactual_limit=0, seed=0)
    assert all(sorted(g for q2, _, g in folder.qrels if q2 == q) == [2, 2] for q in ("HumanEval/0", "Java/0"))
    check_invariants(folder)


def test_a_counterfactual_equal_to_another_problems_description_does_not_take_it() -> None:
    items = [verified(make_task(0, description="Return the smallest item.")), verified(make_task(1, description="Return the largest item."))]
    folder = code_to_text(items, counterfactual_limit=2, seed=1)
    check_invariants(folder)
    largest = next(d for d in folder.documents if d.text == "Return the largest item.")
    assert (largest.kind, largest.problem, largest.grade) == ("description", "HumanEval/1", 2)
    assert [q.id for q in folder.queries] == ["HumanEval/0", "HumanEval/1"]


def test_two_problems_with_one_description_leave_the_second_without_a_query() -> None:
    items = [verified(make_task(0)), verified(make_task(1, description=make_task(0).description)), verified(make_task(2))]
    folder = code_to_text(items, counterfactual_limit=1, seed=0)
    check_invariants(folder)
    assert [q.id for q in folder.queries] == ["HumanEval/0", "HumanEval/2"]
    assert folder.facts["queries_without_a_positive"] == 1


def test_code_to_text_tasks_without_a_reference_give_descriptions_but_no_query() -> None:
    items = [verified(make_task(0)), verified(make_task(1, canonical=False), mutants=0, passing=1)]
    folder = code_to_text(items, counterfactual_limit=0, seed=0)
    assert [q.id for q in folder.queries] == ["HumanEval/0"]
    assert {d.problem for d in folder.documents} == {"HumanEval/0", "HumanEval/1"}


# code to code


def _c2c_items() -> list[VerifiedTask]:
    return [
        verified(make_task(0), rewrites=1),
        verified(make_task(0, "java"), mutants=1),
        verified(make_task(1)),  # python only, no second correct program anywhere
        verified(make_task(2, "java"), mutants=1),
        verified(make_task(2)),
    ]


def test_code_to_code_anchor_is_its_document_and_never_judged_for_itself() -> None:
    items = _c2c_items()
    folder = code_to_code(items, constraint=None)
    check_invariants(folder)
    assert (folder.name, folder.task, folder.language) == ("c2c", "c2c", "multi")
    docs = {d.id for d in folder.documents}
    by_task = {q.task_id: q for q in folder.queries}
    assert sorted(by_task) == ["HumanEval/0", "HumanEval/2", "Java/0", "Java/2"]  # HumanEval/1 has no other correct program
    assert folder.facts == {"constraint": "any", "anchors_without_a_positive": 1}
    for item in items:
        query = by_task.get(item.task.task_id)
        if query is None:
            continue
        assert query.id == doc_id(item.task.solution) and query.id in docs and query.text == item.task.solution
        assert (query.task, query.constraint, query.language, query.problem) == ("c2c", "any", item.task.language, problem_of(item.task))
        judged = {d: g for q, d, g in folder.qrels if q == query.id}
        assert query.id not in judged
        pool = {d.id: d.grade for other in items if problem_of(other.task) == problem_of(item.task) for d in code_documents(other)}
        assert judged == {d: g for d, g in pool.items() if d != query.id}  # cross-language: the whole problem's pool
    java0 = {d: g for q, d, g in folder.qrels if q == by_task["Java/0"].id}
    assert java0[doc_id(items[0].task.solution)] == 2  # the python canonical answers the java anchor


@pytest.mark.parametrize("language", ["python", "java"])
def test_code_to_code_constraint_keeps_one_language_of_documents(language: str) -> None:
    items = _c2c_items()
    folder = code_to_code(items, constraint=language)
    check_invariants(folder)
    assert (folder.name, folder.language) == (f"c2c-{language}", language)
    assert {d.language for d in folder.documents} == {language}
    assert all(q.constraint == language for q in folder.queries)
    docs = {d.id: d for d in folder.documents}
    assert all(docs[d].language == language for _, d, _ in folder.qrels)
    anchors = {q.task_id for q in folder.queries}
    # python constraint: java anchors of problems 0 and 2 are answered by python canonicals; java: python anchors by java ones
    expected = {"python": {"HumanEval/0", "Java/0", "Java/2"}, "java": {"HumanEval/0", "HumanEval/2"}}[language]
    assert anchors == expected
    assert folder.facts["anchors_without_a_positive"] == 5 - len(expected)


def test_code_to_code_single_language_build_keeps_the_plain_name() -> None:
    items = [verified(make_task(0), rewrites=1), verified(make_task(1), passing=1)]
    assert code_to_code(items, constraint=None).name == "c2c"
    folder = code_to_code(items, constraint="python")
    assert (folder.name, folder.language) == ("c2c", "python")
    check_invariants(folder)


def test_code_to_code_rewrite_queries_are_the_passing_programs_that_are_not_canonical() -> None:
    items = [verified(make_task(0), rewrites=2, passing=1), verified(make_task(1)), verified(make_task(2), rewrites=1)]
    folder = code_to_code(items, constraint=None, subtype="rewrite")
    check_invariants(folder)
    assert (folder.name, folder.task, folder.language) == ("c2c-rewrite", "c2c-rewrite", "python")
    passing = {d.id: d for item in items for d in code_documents(item) if d.grade == 2 and d.kind != "canonical"}
    assert {q.id for q in folder.queries} == set(passing)  # 2 rewrites + 1 candidate of problem 0, 1 rewrite of problem 2
    assert folder.facts == {"constraint": "any", "problems_with_a_query": 2}
    for query in folder.queries:
        assert query.text == passing[query.id].text and (query.task, query.subtype) == ("c2c-rewrite", "rewrite")
        item = next(i for i in items if problem_of(i.task) == query.problem)
        judged = {d: g for q, d, g in folder.qrels if q == query.id}
        assert query.id not in judged
        assert judged[doc_id(item.task.solution)] == 2  # the canonical program answers it
        mutants = {d.id for d in code_documents(item) if d.kind == "mutant"}
        assert mutants and all(judged[m] == 1 for m in mutants)  # edits of the canonical, not of the query
        assert judged == {d.id: d.grade for d in code_documents(item) if d.id != query.id}
    anchors = code_to_code(items, constraint=None)
    assert {d.id for d in anchors.documents} == {d.id for d in folder.documents}  # the same corpus as c2c


def test_code_to_code_rewrite_in_a_multi_language_build_names_its_language_folders() -> None:
    items = _c2c_items()
    whole = code_to_code(items, constraint=None, subtype="rewrite")
    java = code_to_code(items, constraint="java", subtype="rewrite")
    check_invariants(whole)
    check_invariants(java)
    assert (whole.name, java.name, java.language) == ("c2c-rewrite", "c2c-rewrite-java", "java")
    rewrites = {doc_id(e.text) for item in items for e in item.extras if e.grade == 2}
    assert {q.id for q in whole.queries} == rewrites
    # the python rewrite of problem 0 is answered by the java canonical in the java folder
    assert {q.task_id for q in java.queries} == {"HumanEval/0"}
    assert java.documents and all(d.language == "java" for d in java.documents)


def test_code_to_code_rewrite_without_a_rewrite_is_empty() -> None:
    folder = code_to_code([verified(make_task(n)) for n in range(3)], constraint=None, subtype="rewrite")
    assert folder.queries == () and folder.qrels == () and len(folder.documents) == 9


def test_code_to_code_without_any_second_correct_program_is_empty() -> None:
    folder = code_to_code([verified(make_task(n)) for n in range(3)], constraint=None)
    assert folder.queries == () and folder.qrels == () and len(folder.documents) == 9
    assert folder.facts["anchors_without_a_positive"] == 3
