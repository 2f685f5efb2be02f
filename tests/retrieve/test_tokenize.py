import pytest

from execir.retrieve import CodeTokenizer
from execir.retrieve.tokenize import split_identifier


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("has_close_elements", ["has", "close", "elements"]),
        ("parseHTTPResponse", ["parse", "http", "response"]),
        ("XMLHttpRequest", ["xml", "http", "request"]),
        ("getX", ["get", "x"]),
        ("sha256", ["sha", "256"]),
        ("IDs", ["ids"]),
        ("__init__", ["init"]),
        ("MAX_VALUE2", ["max", "value", "2"]),
        ("x", ["x"]),
    ],
)
def test_split_identifier(word: str, parts: list[str]) -> None:
    assert [p for w in word.split("_") for p in split_identifier(w)] == parts


def test_code_drops_operators_and_stopwords_keeps_numbers() -> None:
    text = "def count_upper(s: str) -> int:\n    return sum(1 for c in s if c.isUpper()) <= 10"
    assert CodeTokenizer()(text) == [
        "def",
        "count",
        "upper",
        "s",
        "str",
        "int",
        "return",
        "sum",
        "1",
        "c",
        "s",
        "c",
        "upper",
        "10",
    ]


def test_keep_operators() -> None:
    assert CodeTokenizer(keep_operators=True)("a <= b**2 != c") == ["<=", "b", "**", "2", "!=", "c"]


def test_prose_and_empty() -> None:
    tok = CodeTokenizer(stopwords=frozenset())
    assert tok("Return the sum.") == ["return", "the", "sum"]
    assert tok("") == [] and tok("()[]:+-") == []


def test_config_is_json_able() -> None:
    import json

    assert json.loads(json.dumps(CodeTokenizer().config()))["keep_operators"] is False
