"""The three derivations over the 164 bundled HumanEval tasks."""

from __future__ import annotations

import statistics
from functools import cache

from execir.edits import splice
from execir.tasks import load_humaneval
from execir.texts import counterfactuals, edit_span, full_query, search_query, token_count
from execir.types import Task


@cache
def _tasks() -> tuple[Task, ...]:
    return tuple(load_humaneval(None))


def test_search_queries_have_5_to_20_tokens() -> None:
    counts = [token_count(search_query(task.description, task.entry_point)) for task in _tasks()]
    assert len(counts) == 164
    assert min(counts) >= 5 and max(counts) <= 20
    assert 5 <= statistics.median(counts) <= 12


def test_most_tasks_get_a_counterfactual() -> None:
    tasks = _tasks()
    found = {task.task_id: counterfactuals(task.description) for task in tasks}
    assert sum(bool(items) for items in found.values()) >= 0.9 * len(tasks)
    for task in tasks:
        for item in found[task.task_id]:
            assert splice(task.description, edit_span(task.description, item.edit)) == item.text


def test_full_query_keeps_examples_and_no_code() -> None:
    for task in _tasks():
        text = full_query(task)
        assert text.strip()
        if ">>>" in task.prompt.split(f"def {task.entry_point}(")[-1]:
            assert ">>>" in text, task.task_id
        assert f"def {task.entry_point}(" not in text
        body = [line.strip() for line in task.solution.splitlines() if line.strip().startswith(("return ", "for ", "while "))]
        assert not any(line in text.splitlines() for line in body), task.task_id


def test_full_query_is_longer_than_description_typically() -> None:
    tasks = _tasks()
    full = statistics.median(token_count(full_query(task)) for task in tasks)
    description = statistics.median(token_count(task.description) for task in tasks)
    assert full > description
