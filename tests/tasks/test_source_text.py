"""Docstring removal and query extraction: exact, AST-located, never touching other code."""

from __future__ import annotations

import pytest

from execir.source_text import describe, strip_docstrings


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # U+2028 inside a string must not shift line numbers (str.splitlines would)
        ('S = "\u2028"\ndef f(x):\n    y = 1\n    """Doc."""\n    return x + S\n', 'S = "\u2028"\ndef f(x):\n    y = 1\n    return x + S\n'),
        # blank lines inside string literals are kept byte for byte
        ('def f():\n    """Doc."""\n    return """a\n\n\n\nb"""\n', 'def f():\n    return """a\n\n\n\nb"""\n'),
        ('def f(x):\n    if x: "a"; "b"\n    return 1\n', "def f(x):\n    if x: pass\n    return 1\n"),
        ('def f(): "doc"\n', "def f(): pass\n"),
        ('def f():\n    x = 1; "doc"\n    return x\n', "def f():\n    x = 1;\n    return x\n"),
        ('def f():\n    "doc"; x = 1\n    return x\n', "def f():\n    x = 1\n    return x\n"),
        ('\n\ndef f():\n    """Doc\n    more."""\n    pass\n', "def f():\n    pass\n"),
        ('def f(x):\n    import math\n    """Late docstring (HumanEval/115)."""\n    return x\n', "def f(x):\n    import math\n    return x\n"),
        ('class A:\n    """Doc."""\n', "class A:\n    pass\n"),
    ],
)
def test_strip_docstrings(source: str, expected: str) -> None:
    assert strip_docstrings(source) == expected


def test_describe_drops_examples_and_calls() -> None:
    doc = (
        'Return the closest integer. For example closest("14.5") should return 15.\n\n'
        "Note: round away from zero.\n>>> closest('1')\n1\nExamples:\n    closest('2') == 2\n"
    )
    assert describe(doc, "closest") == "Return the closest integer.\nNote: round away from zero."
