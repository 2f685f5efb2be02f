"""Each operator yields the intended single edit on a small example."""

from __future__ import annotations

import ast

import pytest

from execir.edits import splice, to_edit
from execir.languages.python.operators import FUNCTIONS as OPERATORS
from execir.languages.python.source import SourceText
from execir.types import Edit


def apply(name: str, source: str) -> list[tuple[Edit, str]]:
    """(edit, mutated text) for every edit the operator yields, in position order."""
    text = SourceText(source)
    edits = sorted(set(OPERATORS[name](ast.parse(source), text)))
    return [(to_edit(text.text, edit), splice(source, edit)) for edit in edits]


def replaced(source: str, edit: Edit) -> str:
    """The source with exactly the edit's span replaced (independent of the engine)."""
    lines = source.split("\n")
    start = sum(len(line) + 1 for line in lines[: edit.line - 1]) + edit.col
    assert source[start : start + len(edit.before)] == edit.before
    return source[:start] + edit.after + source[start + len(edit.before) :]


CASES = [
    ("arith_swap", "x = a + b\n", [(1, 6, "+", "-")]),
    ("arith_swap", "x = (a) * (b)\n", [(1, 8, "*", "/"), (1, 8, "*", "//")]),
    (
        "arith_swap",
        "x = a // b % c ** 2\n",
        [(1, 6, "//", "/"), (1, 6, "//", "*"), (1, 6, "//", "-"), (1, 11, "%", "//"), (1, 11, "%", "-"), (1, 15, "**", "*")],
    ),
    ("arith_swap", "x = 'a' + b\ny = '%d' % b\n", []),
    ("bitwise_swap", "x = a << b\n", [(1, 6, "<<", ">>")]),
    ("augassign_swap", "x += 1\ny //= 2\n", [(1, 2, "+=", "-="), (2, 2, "//=", "/="), (2, 2, "//=", "*="), (2, 2, "//=", "-=")]),
    ("unary_minus_remove", "x = - y\n", [(1, 4, "- ", "")]),
    ("compare_swap", "ok = a < b <= c\n", [(1, 7, "<", "<="), (1, 11, "<=", "<")]),
    ("compare_swap", "ok = a not in b\n", [(1, 7, "not in", "in")]),
    ("compare_swap", "ok = a is not None\n", [(1, 7, "is not", "is")]),
    ("compare_swap", "ok = (a) == b\n", [(1, 9, "==", "!=")]),
    ("compare_flip", "ok = a >= b\n", [(1, 7, ">=", "<=")]),
    ("bool_swap", "ok = a and b or c\n", [(1, 7, "and", "or"), (1, 13, "or", "and")]),
    ("not_remove", "if not (a):\n    pass\n", [(1, 3, "not ", "")]),
    ("not_insert", "while a < b:\n    pass\n", [(1, 6, "a < b", "not (a < b)")]),
    ("not_insert", "while f(a):\n    pass\n", [(1, 6, "f(a)", "not f(a)")]),
    ("not_insert", "if not a:\n    pass\n", []),
    ("not_insert", "y = [x for x in s if x > 0]\n", [(1, 21, "x > 0", "not (x > 0)")]),
    ("method_swap", "y = s.lower().startswith(p)\n", [(1, 6, "lower", "upper"), (1, 14, "startswith", "endswith")]),
    ("any_all_swap", "y = any(x)\n", [(1, 4, "any", "all")]),
    ("const_incr", "x = 5 + True\n", [(1, 4, "5", "6")]),
    ("const_decr", "x = 5\ny = 1\n", [(1, 4, "5", "4")]),
    ("const_zero_one", "x = 0\ny = 1\nz = 2\n", [(1, 4, "0", "1"), (2, 4, "1", "0")]),
    ("const_zero_one", "x = a + 1\ny = a * 0\nz = -1\nw = a[1:]\nv = b // 1\n", []),  # no a + 0, a * 1, -0, a[0:], b // 0
    ("const_decr", "x = a * 2\ny = a ** 2\n", []),  # no a * 1, a ** 1
    ("off_by_one", "for i in range(n):\n    pass\n", [(1, 15, "", "1, "), (1, 15, "n", "n + 1"), (1, 15, "n", "n - 1")]),
    ("off_by_one", "y = a[1:j]\n", [(1, 6, "1", "2"), (1, 6, "1", ""), (1, 8, "j", "j + 1"), (1, 8, "j", "j - 1")]),  # a[:j], never a[0:j]
    ("off_by_one", "y = a[1:]\nz = a[:1]\n", [(1, 6, "1", "2"), (2, 7, "1", "2")]),  # neither a[:] nor a[:0]
    ("off_by_one", "y = a[n - 1]\n", [(1, 6, "n - 1", "n"), (1, 6, "n - 1", "n - 2")]),  # never n - 1 + 1
    ("off_by_one", "y = a[-1] + d['k']\n", [(1, 6, "-1", "0"), (1, 6, "-1", "-2")]),
    ("off_by_one", "y = a[i or j]\n", [(1, 6, "i or j", "(i or j) + 1"), (1, 6, "i or j", "(i or j) - 1")]),
    ("return_bool_flip", "def f():\n    return True\n", [(2, 11, "True", "False")]),
    ("arg_swap", "f(a, b, b)\n", [(1, 2, "a, b", "b, a")]),
    ("arg_swap", "max(a, b)\n", [(1, 4, "a, b", "b, a")]),  # execution decides equivalence
    ("min_max_swap", "x = min(a)\n", [(1, 4, "min", "max")]),
    ("loop_control_swap", "for x in y:\n    break\n", [(2, 4, "break", "continue")]),
    (
        "guard_delete",
        "def f(x):\n    if x < 0:\n        return 0\n    return x\n",
        [(2, 0, "    if x < 0:\n        return 0\n", "")],  # whole lines go: no blank line is left
    ),
    ("guard_delete", "def f(x):\n    if x: raise ValueError\n", [(2, 4, "if x: raise ValueError", "pass")]),
    ("guard_delete", "if a:\n    pass\nelif b:\n    return\n", [(3, 0, "elif b:\n    return", "")]),
    ("guard_delete", "if a:\n    x = 1\n", []),
]


@pytest.mark.parametrize(("name", "source", "expected"), CASES)
def test_operator_yields_intended_edit(name: str, source: str, expected: list[tuple]) -> None:
    results = apply(name, source)
    assert sorted((e.line, e.col, e.before, e.after) for e, _ in results) == sorted(expected)
    for edit, text in results:
        assert text == replaced(source, edit)
        assert text != source


def test_operator_names_are_stable() -> None:
    assert set(OPERATORS) >= {
        "arith_swap",
        "compare_swap",
        "bool_swap",
        "not_remove",
        "not_insert",
        "const_incr",
        "const_decr",
        "const_zero_one",
        "off_by_one",
        "return_bool_flip",
        "arg_swap",
        "guard_delete",
        "augassign_swap",
    }
    assert list(OPERATORS) == sorted(OPERATORS)
    assert all(op.__name__ == name for name, op in OPERATORS.items())


def test_non_ascii_columns_are_characters() -> None:
    source = "s = 'héllo→'; t = x * y; y = a < b\n"
    ((edit, text),) = apply("compare_swap", source)
    assert (edit.line, edit.col, edit.before) == (1, source.index("<"), "<")
    assert text == "s = 'héllo→'; t = x * y; y = a <= b\n"
    first, second = apply("arith_swap", source)
    assert first[0].col == source.index("*") and first[1] == source.replace(" * ", " / ")
    assert second[1] == source.replace(" * ", " // ")
