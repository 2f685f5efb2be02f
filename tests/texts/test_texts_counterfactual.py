"""Counterfactual descriptions: each rule, protected code, edit records, selection and determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from execir.edits import splice
from execir.texts.counterfactual import ANTONYMS, RULES, Counterfactual, counterfactuals, edit_span, match_case, protected_spans

SAMPLES = (
    "Return the smallest even number in the list, or -1 if there is none.",
    "Given a positive integer n, return True if it is not a prime and False otherwise.\nNote: 1. n is at least 2.",
    "Count the vowels in the first three words that don't start with a capital letter.",
    "Sort the numbers in ascending order; if two numbers are equal, keep the one that comes before.",
    "Return the sum of all elements greater than 5 that are non-negative. For example: f([1, 2]) == 3",
    "You cannot use `max` or 'min' here.\n>>> smallest([1, 2]) == 1\nReturn the longest one.",
    "Ruby: find the maximum.\nirb> maximum([1, 2])\n=> 2",
)


def _texts(description: str, rule: str | None = None) -> list[str]:
    return [c.text for c in counterfactuals(description) if rule is None or c.rule == rule]


@pytest.mark.parametrize(
    ("description", "rule", "expected"),
    [
        ("Return the smallest element", "antonym", ["Return the largest element"]),
        ("Sort in Ascending order", "antonym", ["Sort in Descending order"]),
        ("return TRUE", "antonym", ["return FALSE"]),
        ("Return True if even", "antonym", ["Return False if even", "Return True if odd"]),
        ("the last vowel", "antonym", ["the first vowel", "the last consonant"]),
        ("x greater than y", "antonym", ["x less than y", "x greater than or equal to y"]),
        ("x less than or equal the maximum", "antonym", ["x greater than or equal the maximum", "x less than the maximum", "x less than or equal the minimum"]),
        ("x is smaller than or equal to y", "antonym", ["x is larger than or equal to y", "x is smaller than y"]),
        ("at least one", "antonym", ["at most one"]),
        ("use max_len and x.max and maximum2 and _min", "antonym", []),
        ("exactly 3 items", "number", ["exactly 2 items", "exactly 4 items"]),
        ("index 0 first", "number", ["index 1 first"]),
        ("words of length two", "number", ["words of length one", "words of length three"]),
        ("Exactly One element", "number", ["Exactly Two element", "Exactly Zero element"]),
        ("list1, 2.5, -1, x2 and 3rd", "number", []),
        ("Note:\n1. The length is\n 2) more", "number", []),
        ("Return the longest one. The first one in case. Each one by one.", "number", []),
        ("if it is sorted", "negation", ["if it is not sorted"]),
        ("if it is not sorted", "negation", ["if it is sorted"]),
        ("It's not.", "negation", ["It's."]),
        ("it doesn't matter", "negation", ["it does matter"]),
        ("It cannot be", "negation", ["It can be"]),
        ("You can use it", "negation", ["You cannot use it"]),
        ("Words Won't fit", "negation", ["Words Will fit"]),
        ("a non-negative integer", "negation", ["a negative integer"]),
        ("This isn't is", "negation", ["This is is"]),
    ],
)
def test_rules(description: str, rule: str, expected: list[str]) -> None:
    assert _texts(description, rule) == expected


@pytest.mark.parametrize(
    "description",
    [
        "Return `smallest` or 'first' or \"even\"",
        "Use sorted(x, reverse=True) and [1, 2, 3] and {4} and (0, 1)",
        "smallest(3) == 2 is true",
        ">>> first is 3",
        "irb> first is 3",
        "odd -> even is 3",
        "x => not 4",
        ">>> first(2)\n3 is odd\n",
        "For example: f(3) == 5 is odd",
    ],
)
def test_code_is_never_edited(description: str) -> None:
    assert counterfactuals(description) == []


def test_protected_spans_cover_quotes_and_example_lines() -> None:
    text = "Keep 'a b' out\n>>> f(1)\nok\n\nSo 1. Here f == 2! Then"
    spans = protected_spans(text)
    assert (5, 10) in spans
    assert (15, 23) in spans
    assert (24, 26) in spans
    assert (34, 47) in spans
    assert not any(start <= 47 < end for start, end in spans)


def test_sentence_with_code_protects_only_that_sentence() -> None:
    assert _texts("Return the smallest. For example: f(3) == 5") == ["Return the largest. For example: f(3) == 5"]


def test_apostrophes_are_not_quotes() -> None:
    assert "the digits' largest sum" in _texts("the digits' smallest sum")


@pytest.mark.parametrize("description", SAMPLES)
def test_edits_locate_single_splices(description: str) -> None:
    found = counterfactuals(description)
    assert found
    assert len({c.text for c in found}) == len(found)
    for item in found:
        assert item.rule in RULES
        assert item.text != description
        span = edit_span(description, item.edit)
        assert description[span.start : span.end] == item.edit.before
        assert splice(description, span) == item.text


@pytest.mark.parametrize("description", SAMPLES)
def test_text_order_and_determinism(description: str) -> None:
    found = counterfactuals(description)
    positions = [(c.edit.line, c.edit.col) for c in found]
    assert positions == sorted(positions)
    assert found == counterfactuals(description)


def test_multiline_edit_record() -> None:
    found = counterfactuals("First line.\nSecond is odd.")
    odd = next(c for c in found if c.edit.before == "odd")
    assert (odd.edit.line, odd.edit.col, odd.edit.after) == (2, 10, "even")


def test_lexicon_pairs_are_distinct_words() -> None:
    words = [word for pair in ANTONYMS for word in pair]
    assert len(ANTONYMS) >= 30
    assert len(words) == len(set(words))
    assert all(word == word.lower() for word in words)


@pytest.mark.parametrize(("word", "model", "expected"), [("odd", "even", "odd"), ("odd", "Even", "Odd"), ("odd", "EVEN", "ODD"), ("odd", "A", "Odd")])
def test_match_case(word: str, model: str, expected: str) -> None:
    assert match_case(word, model) == expected


def test_limit_spreads_over_rules_and_nests() -> None:
    description = SAMPLES[1]
    everything = counterfactuals(description)
    assert {c.rule for c in everything} == set(RULES)
    for seed in range(5):
        three = counterfactuals(description, limit=3, seed=seed)
        assert {c.rule for c in three} == set(RULES)
        previous: list[Counterfactual] = []
        for limit in range(len(everything) + 2):
            chosen = counterfactuals(description, limit=limit, seed=seed)
            assert len(chosen) == min(limit, len(everything))
            assert set(previous) <= set(chosen)
            assert chosen == [c for c in everything if c in chosen]
            previous = chosen
    assert len({tuple(counterfactuals(description, limit=2, seed=seed)) for seed in range(10)}) > 1


def test_limit_rejects_negative() -> None:
    with pytest.raises(ValueError):
        counterfactuals("it is odd", limit=-1)


def test_nothing_to_flip() -> None:
    assert counterfactuals("") == []
    assert counterfactuals("Compute the median value", limit=3) == []


_SCRIPT = """
import json, sys
from execir.texts import counterfactuals, search_query
samples = json.load(sys.stdin)
out = [[[c.rule, c.edit.line, c.edit.col, c.edit.after] for c in counterfactuals(s, limit=4, seed=7)] for s in samples]
out.append([search_query(s, "some_entryPoint") for s in samples])
print(json.dumps(out))
"""


def test_independent_of_hash_seed() -> None:
    outputs = set()
    for hash_seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        result = subprocess.run([sys.executable, "-c", _SCRIPT], input=json.dumps(SAMPLES), env=env, capture_output=True, text=True, check=True)
        outputs.add(result.stdout)
    assert len(outputs) == 1
    expected = [[[c.rule, c.edit.line, c.edit.col, c.edit.after] for c in counterfactuals(s, limit=4, seed=7)] for s in SAMPLES]
    assert json.loads(outputs.pop())[:-1] == expected
