"""token_edit_distance: Levenshtein over significant Python tokens."""

from __future__ import annotations

from execir.mutate import token_edit_distance
from execir.mutate.distance import levenshtein


def test_basic_values() -> None:
    assert token_edit_distance("x = a < b\n", "x = a < b\n") == 0
    assert token_edit_distance("x = a < b\n", "x = a <= b\n") == 1
    assert token_edit_distance("x = a not in b\n", "x = a in b\n") == 1
    assert token_edit_distance("if c:\n    pass\n", "if not (c):\n    pass\n") == 3


def test_layout_and_comments_ignored() -> None:
    assert token_edit_distance("x = 1\n", "x  =  1  # note\n\n") == 0
    assert token_edit_distance("if a:\n    b()\n", "if a:\n        b()\n") == 0


def test_untokenizable_text_falls_back() -> None:
    assert token_edit_distance("x = (1\n", "x = (2\n") == 1
    assert token_edit_distance('s = """open\n', 's = """open\n') == 0


def test_levenshtein() -> None:
    assert levenshtein("kitten", "sitting") == 3
    assert levenshtein("", "abc") == 3
    assert levenshtein("abc", "abc") == 0
    assert levenshtein("abcd", "acbd") == 2
