"""Keyword search queries: each step of the documented method, the bounds and the fallbacks."""

from __future__ import annotations

import pytest

from execir.texts.search import search_query, sentences, split_identifier, token_count


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("has_close_elements", ["has", "close", "elements"]),
        ("HasCloseElements", ["has", "close", "elements"]),
        ("minSubArraySum", ["min", "sub", "array", "sum"]),
        ("XMLParser2", ["xml", "parser", "2"]),
        ("_private__name", ["private", "name"]),
        ("", []),
    ],
)
def test_split_identifier(name: str, words: list[str]) -> None:
    assert split_identifier(name) == words


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("Sort the list. Then reverse it!", [["sort", "the", "list"], ["then", "reverse", "it"]]),
        ("Use `sorted(x)` or 'abc' or \"q\" here", [["use", "or", "or", "here"]]),
        ("Call f(3) on [1, 2] and {a} from (0, 0) (or later)", [["call", "on", "and", "from", "or", "later"]]),
        ("Return -1 or 2.5 but keep digit 7", [["return", "or", "but", "keep", "digit", "7"]]),
        ("E.g. count them\n>>> f(1) == 2\nfor x -> y", [["count", "them"]]),
        ("the upper characters only' ASCII codes", [["the", "upper", "characters", "only", "ascii", "codes"]]),
        ("sum_to_n adds numbers", [["sum", "to", "n", "adds", "numbers"]]),
    ],
)
def test_sentences_remove_code(description: str, expected: list[list[str]]) -> None:
    assert sentences(description) == expected


@pytest.mark.parametrize(
    ("description", "entry_point", "query"),
    [
        # content words of the first sentence, then the entry point's new words
        (
            "Check if in given list of numbers, are any two numbers closer to each other than given threshold.",
            "has_close_elements",
            "check list numbers two closer threshold close elements",
        ),
        # padded from the next sentence while short
        ("You are given a list of integers. Return None if there is no such element.", "next_smallest", "list integers none element next smallest"),
        # boilerplate admitted when content words are too few
        ("Return length of given string", "strlen", "return length given string strlen"),
        # every word admitted as a last resort
        ("Checks if given string is a palindrome", "is_palindrome", "checks if given string is a palindrome"),
    ],
)
def test_search_query_examples(description: str, entry_point: str, query: str) -> None:
    assert search_query(description, entry_point) == query


def test_cap_keeps_entry_point_words() -> None:
    description = " ".join(f"word{chr(97 + i)}x" for i in range(30))
    query = search_query(description, "find_needle", max_tokens=10).split()
    assert len(query) == 10
    assert query[-2:] == ["find", "needle"]


def test_entry_point_word_in_description_keeps_its_place() -> None:
    query = search_query("Sort alpha beta gamma delta epsilon zeta numbers", "sort_numbers", min_tokens=2, max_tokens=4).split()
    assert query == ["sort", "alpha", "beta", "numbers"]


def test_duplicates_removed_first_kept() -> None:
    query = search_query("Strings strings and more Strings with vowels counted vowels in every English word", "count_vowels").split()
    assert len(query) == len(set(query))
    assert query[:2] == ["strings", "vowels"]


@pytest.mark.parametrize(("description", "entry_point"), [("", "fooBar"), ("the a of", "x"), (">>> f(1) == 2", "solve"), ("", "")])
def test_never_empty(description: str, entry_point: str) -> None:
    query = search_query(description, entry_point)
    assert query.strip()
    assert token_count(query) <= 20


def test_bad_bounds() -> None:
    with pytest.raises(ValueError):
        search_query("x", "f", min_tokens=5, max_tokens=4)
    with pytest.raises(ValueError):
        search_query("x", "f", max_tokens=0)


@pytest.mark.parametrize(("text", "count"), [("", 0), ("a", 1), ("  a  b\nc\t", 3)])
def test_token_count(text: str, count: int) -> None:
    assert token_count(text) == count
