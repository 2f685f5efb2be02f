"""One definition of judgements per query and query length, shared by the manifest and the report."""

from __future__ import annotations

import pytest

from execir.dataset.stats import judgement_means, median_tokens
from execir.languages import get_language


@pytest.mark.parametrize(
    ("grades", "expected"),
    [([], (0.0, 0.0)), ([[2, 1, 1], [2, 2]], (1.5, 1.0)), ([[2], [], [1, 1, 1]], (0.3333, 1.0))],
)
def test_judgement_means(grades: list[list[int]], expected: tuple[float, float]) -> None:
    assert judgement_means(grades) == expected


def test_median_tokens() -> None:
    assert median_tokens([]) == 0.0
    assert median_tokens(["a b", "a b c d", "a"]) == 2.0
    assert median_tokens(["a b", "a b c d"]) == 3.0


@pytest.mark.parametrize("language", ["python", "cpp", "java", "go", "js", "ruby"])
def test_strip_comments_returns_unparsable_code_without_raising(language: str) -> None:
    # candidates' document text relies on it: a program that does not parse keeps its text and is judged by running it
    broken = "def f(:\n  return ((( }\n"
    assert isinstance(get_language(language).strip_comments(broken), str)
