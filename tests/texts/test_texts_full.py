"""Full problem texts: one case per task shape, the fallbacks, and no solution code."""

from __future__ import annotations

from pathlib import Path

import pytest

from execir.texts.full import MAX_ASSERTS, documentation, full_query
from execir.types import Task, TestSuite

PY_PROMPT = '''from typing import List


def helper(x):
    """Not this one."""
    return x


def below_zero(operations: List[int]) -> bool:
    """ You're given a list of deposit and withdrawal operations.
    Detect if the balance falls below zero.
    >>> below_zero([1, 2, 3])
    False
    """
'''


def _task(
    *,
    prompt: str = "",
    language: str = "python",
    tests: TestSuite | None = None,
    description: str = "Describe it.",
    solution: str = "def f():\n    return 42\n",
    entry_point: str = "below_zero",
) -> Task:
    return Task(
        task_id="t/1",
        description=description,
        solution=solution,
        entry_point=entry_point,
        tests=tests or TestSuite(kind="check", code="def check(c): pass"),
        source="test",
        language=language,
        prompt=prompt,
    )


def test_python_docstring_with_examples_dedented() -> None:
    text = full_query(_task(prompt=PY_PROMPT))
    assert text == ("You're given a list of deposit and withdrawal operations.\nDetect if the balance falls below zero.\n>>> below_zero([1, 2, 3])\nFalse")


@pytest.mark.parametrize("prompt", ["", "def below_zero(x):\n    return 1\n", "def broken(:\n", "def other():\n    '''doc'''\n"])
def test_python_falls_back_to_description(prompt: str) -> None:
    assert documentation(prompt, "python", "below_zero") == ""
    assert full_query(_task(prompt=prompt)) == "Describe it."


def test_asserts_shows_three_examples() -> None:
    asserts = tuple(f"assert f({i}) == {i}" for i in range(5))
    text = full_query(_task(tests=TestSuite(kind="asserts", asserts=asserts), description="Write f. "))
    assert MAX_ASSERTS == 3
    assert text == "Write f.\n\nExamples:\nassert f(0) == 0\nassert f(1) == 1\nassert f(2) == 2"


def test_asserts_without_asserts_is_description() -> None:
    assert full_query(_task(tests=TestSuite(kind="asserts"), description="Write f.")) == "Write f."


def test_stdio_is_description_as_is() -> None:
    description = "Read n.\n\nSample Input 1\n3\n\nSample Output 1\n6\n"
    assert full_query(_task(tests=TestSuite(kind="stdio"), description=description)) == description


CPP = """/*
Return the longest one.
>>> longest({"a", "bb"})
"bb"
*/
#include<vector>
string longest(vector<string> strings){
"""
JAVA = """import java.util.*;

class Solution {
    /**
    Return the longest one.
    >>> longest(Arrays.asList("a", "bb"))
    Optional[bb]
     */
    public Optional<String> longest(List<String> strings) {
"""
GO = """import (
    "math"
)

// Return the longest one.
// >>> Longest(['a', 'bb'])
// 'bb'
func Longest(strings []string) interface{}{
"""
JS = """/* Return the longest one.
  >>> longest(['a', 'bb'])
  'bb'
  */
const longest = (strings) => {
"""
RUBY = """##
# You are an expert Ruby programmer, and here is your task.
# # Return the longest one.
#
# irb> longest(["a", "bb"])
# => "bb"
def longest(strings)
"""


@pytest.mark.parametrize(
    ("language", "prompt", "example"),
    [
        ("cpp", CPP, '>>> longest({"a", "bb"})\n"bb"'),
        ("java", JAVA, '>>> longest(Arrays.asList("a", "bb"))\nOptional[bb]'),
        ("go", GO, ">>> Longest(['a', 'bb'])\n'bb'"),
        ("js", JS, ">>> longest(['a', 'bb'])\n'bb'"),
        ("ruby", RUBY, '\nirb> longest(["a", "bb"])\n=> "bb"'),
    ],
)
def test_native_doc_comment(language: str, prompt: str, example: str) -> None:
    text = full_query(_task(prompt=prompt, language=language, tests=TestSuite(kind="native"), entry_point="longest"))
    assert text == "Return the longest one.\n" + example


@pytest.mark.parametrize(("language", "prompt"), [("cpp", "int f(){\n"), ("go", ""), ("kotlin", "// doc\nfun f() {")])
def test_native_falls_back_to_description(language: str, prompt: str) -> None:
    assert documentation(prompt, language, "f") == ""
    assert full_query(_task(prompt=prompt, language=language, tests=TestSuite(kind="native"))) == "Describe it."


def _body_lines(solution: str) -> list[str]:
    return [line.strip() for line in solution.splitlines()[1:] if len(line.strip()) > 12]


@pytest.mark.shared
def test_multilingual_full_queries_have_examples_not_code(shared_data: Path) -> None:
    from execir.tasks.multilingual.sources import load_multilingual

    for language in ("cpp", "java", "go", "js"):
        tasks = load_multilingual("humaneval-x", language, shared_data)
        texts = [full_query(task) for task in tasks]
        assert sum(text == task.description for task, text in zip(tasks, texts)) <= 2
        for task, text in zip(tasks, texts):
            assert (">>>" in text) == (">>>" in task.prompt), task.task_id
            assert not any(line in text for line in _body_lines(task.solution) if "{" in line or ";" in line)
    rubies = load_multilingual("mbxp", "ruby", shared_data)
    assert all("irb>" in full_query(task) and "expert Ruby" not in full_query(task) for task in rubies[:50])


PHP = """<?php

/**
 * Return the longest one.
 * php > longest(["a", "bb"])
 * "bb"
 */
function longest($strings){
"""
TS = """/**
 * Return the longest one.
 * >>> longest(["a", "bb"])
 * "bb"
 */
const longest = function (strings: Array<string>) : string  {
"""
RUST = """
/*
 Return the longest one.
 >>> longest(vec!["a", "bb"])
 "bb"
*/
fn longest(strings: Vec<String>) -> String {
"""


@pytest.mark.parametrize(
    ("language", "prompt", "example"),
    [
        ("php", PHP, 'php > longest(["a", "bb"])\n"bb"'),
        ("typescript", TS, '>>> longest(["a", "bb"])\n"bb"'),
        ("rust", RUST, '>>> longest(vec!["a", "bb"])\n"bb"'),
    ],
)
def test_every_declared_language_reads_its_doc_comment(language: str, prompt: str, example: str) -> None:
    text = full_query(_task(prompt=prompt, language=language, tests=TestSuite(kind="native"), entry_point="longest"))
    assert text == "Return the longest one.\n" + example
