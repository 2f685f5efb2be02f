"""The Python rules, one by one: where they apply, where they must not, and what they write."""

from __future__ import annotations

import ast
import textwrap

import pytest

from execir.rewrite import Rewrite, rewrites


def _of(rule: str, source: str) -> list[str]:
    text = textwrap.dedent(source)
    return [r.text for r in rewrites(text, "python", entry_point="f") if r.rule == rule]


def _only(rule: str, source: str) -> str:
    found = _of(rule, source)
    assert len(found) == 1, found
    return found[0]


def _run(text: str, *args: object) -> object:
    namespace: dict[str, object] = {}
    exec(compile(text, "<rewrite>", "exec"), namespace)  # noqa: S102 - the test's own programs
    function = namespace["f"]
    assert callable(function)
    return function(*args)


# ---- rename_local -------------------------------------------------------------------------


def test_rename_renames_one_local_everywhere_but_not_strings_comments_or_attributes() -> None:
    source = """\
    def f(xs):
        total = 0  # total so far
        for x in xs:
            total += x
        obj = "total"
        return total, obj.total if False else obj
    """
    found = _of("rename_local", source)
    renamed = next(text for text in found if "total = 0" not in text)
    assert '"total"' in renamed and "# total so far" in renamed and "obj.total" in renamed
    assert renamed.count("total") == 3  # string, comment, attribute
    assert ast.dump(ast.parse(renamed)) != ast.dump(ast.parse(textwrap.dedent(source)))


def test_rename_never_touches_parameters_globals_or_nonlocals() -> None:
    assert _of("rename_local", "def f(a, b):\n    return a + b\n") == []
    assert _of("rename_local", "def f():\n    global g\n    g = 1\n    return g\n") == []
    assert (
        _of("rename_local", "def f():\n    x = 0\n    def g():\n        nonlocal x\n        x = 1\n    g()\n    return x\n")
        == ["def f():\n    x = 0\n    def g():\n        nonlocal x\n        x = 1\n    g()\n    return x\n"][:0]
    )


def test_rename_skips_names_a_nested_scope_binds_and_renames_captured_reads() -> None:
    shadowed = "def f(xs):\n    x = 1\n    return [x for x in xs] + [x]\n"
    assert all("x = 1" in text for text in _of("rename_local", shadowed))
    captured = "def f(xs):\n    k = 2\n    return [v * k for v in xs]\n"
    (text,) = _of("rename_local", captured)
    new = text.split("\n")[1].split("=")[0].strip()
    assert text == f"def f(xs):\n    {new} = 2\n    return [v * {new} for v in xs]\n"
    assert _run(text, [1, 2]) == [2, 4]


def test_rename_new_name_is_fresh_and_never_a_builtin() -> None:
    names = {
        "result",
        "value",
        "item",
        "acc",
        "count",
        "total",
        "tmp",
        "current",
        "res",
        "out",
        "val",
        "elem",
        "entry",
        "temp",
        "answer",
        "data",
        "num",
        "cur",
        "ans",
        "buf",
    }
    body = "\n".join(f"    {name} = {index}" for index, name in enumerate(sorted(names)))
    source = f"def f():\n    z = 1\n{body}\n    return z\n"
    renamed = [text for text in _of("rename_local", source) if "    z = 1" not in text]
    assert renamed == [source.replace("z = 1", "z_ = 1").replace("return z", "return z_")]


def test_rename_leaves_defaults_in_the_header_alone() -> None:
    text = _only("rename_local", "n = 3\ndef f(k=n):\n    n = k + 1\n    return n\n")
    assert text.startswith("n = 3\ndef f(k=n):\n")
    assert _run(text) == 4


def test_rename_skips_functions_that_read_their_scope_dynamically() -> None:
    assert _of("rename_local", "def f():\n    x = 1\n    return locals()['x']\n") == []


# ---- for_to_while ------------------------------------------------------------------------


def test_for_to_while_keeps_the_body_and_increments_at_its_end() -> None:
    source = "def f(xs):\n    s = 0\n    for i in range(1, len(xs), 2):  # odd places\n        s += xs[i]\n        s *= 2\n    return s\n"
    text = _only("for_to_while", source)
    assert text == (
        "def f(xs):\n    s = 0\n    i = 1\n    while i < len(xs):  # odd places\n        s += xs[i]\n        s *= 2\n        i += 2\n    return s\n"
    )
    assert _run(text, [1, 2, 3, 4, 5]) == _run(source, [1, 2, 3, 4, 5])


@pytest.mark.parametrize(
    "loop",
    [
        "    for i in range(n):\n        if i == 2:\n            continue\n        s += i\n",  # continue
        "    for i in range(n):\n        s += i\n    else:\n        s = -1\n",  # else clause
        "    for i in range(n):\n        s += i\n    s += i\n",  # read after the loop
        "    for i in range(n):\n        i += 1\n        s += i\n",  # reassigned in the body
        "    for i in range(0, n, -1):\n        s += i\n",  # negative step
        "    for i in range(0, n, k):\n        s += i\n",  # unknown step
        "    for i in range(n):\n        n -= 1\n        s += i\n",  # bound changes
        "    for i in range(len(xs)):\n        xs.append(i)\n        s += i\n",  # sequence changes
        "    for i in range(n):\n        fs.append(lambda: i)\n",  # captured
        "    for i in xs:\n        s += i\n",  # not range
        "    for i in range(n): s += i\n",  # one-line body
    ],
)
def test_for_to_while_not_applicable(loop: str) -> None:
    source = f"def f(n, xs, k, fs):\n    s = 0\n{loop}    return s\n"
    assert _of("for_to_while", source) == []


def test_for_to_while_allows_a_continue_of_a_nested_loop() -> None:
    source = (
        "def f(n):\n    s = 0\n    for i in range(n):\n        for j in range(i):\n            if j % 2:\n                continue\n"
        "            s += j\n    return s\n"
    )
    found = _of("for_to_while", source)
    assert any("while i < n:" in text for text in found) and not any("while j < i" in text for text in found)
    assert all(_run(text, 7) == _run(source, 7) for text in found)


def test_for_to_while_allows_the_same_variable_in_another_loop() -> None:
    source = "def f(n):\n    s = 0\n    for i in range(n):\n        s += i\n    for i in range(3):\n        s -= i\n    return s\n"
    found = _of("for_to_while", source)
    assert len(found) == 2 and all(_run(text, 5) == _run(source, 5) for text in found)


# ---- comprehensions -----------------------------------------------------------------------


def test_comprehension_to_loop_return_and_assignment() -> None:
    returned = _only("comprehension_to_loop", "def f(xs):\n    return [x * 2 for x in xs if x > 0 if x < 9]\n")
    assert returned == (
        "def f(xs):\n    result = []\n    for x in xs:\n        if x > 0:\n            if x < 9:\n                result.append(x * 2)\n    return result\n"
    )
    assigned = _only("comprehension_to_loop", "def f(xs):\n    ys = [(a, b) for a in xs for b in xs]\n    return ys\n")
    assert assigned == "def f(xs):\n    ys = []\n    for a in xs:\n        for b in xs:\n            ys.append((a, b))\n    return ys\n"
    assert _run(assigned, [1, 2]) == [(1, 1), (1, 2), (2, 1), (2, 2)]


@pytest.mark.parametrize(("call", "args"), [("sum", ([1, -2, 3],)), ("any", ([1, -2],)), ("all", ([1, 2],)), ("all", ([],))])
def test_comprehension_to_loop_reducers_are_equivalent(call: str, args: tuple[object, ...]) -> None:
    for form in (f"    return {call}(x > 0 or x < -5 for x in xs)\n", f"    flag = {call}(x > 0 or x < -5 for x in xs)\n    return flag\n"):
        source = "def f(xs):\n" + form
        (text,) = _of("comprehension_to_loop", source)
        assert _run(text, *args) == _run(source, *args)


@pytest.mark.parametrize(
    "body",
    [
        "    xs = [x for x in xs]\n    return xs\n",  # target read by the comprehension
        "    x = 0\n    return [x for x in xs]\n",  # loop variable used elsewhere
        "    return [lambda: x for x in xs]\n",  # a closure would see the leaked variable
        "    return [y := x for x in xs]\n",  # walrus
        "    if xs: return [x for x in xs]\n",  # not on its own line
        "    a.b = [x for x in xs]\n    return a\n",  # attribute target
    ],
)
def test_comprehension_to_loop_not_applicable(body: str) -> None:
    assert _of("comprehension_to_loop", "def f(xs, a):\n" + body) == []


def test_loop_to_comprehension_canonical_pattern() -> None:
    source = "def f(xs):\n    out = []\n    for x in xs:\n        if x % 2:\n            out.append(x + 1)\n    return out\n"
    text = _only("loop_to_comprehension", source)
    assert text == "def f(xs):\n    out = [x + 1 for x in xs if x % 2]\n    return out\n"
    plain = _only("loop_to_comprehension", "def f(xs):\n    out = []\n    for x in xs:\n        out.append((x, x))\n    return out\n")
    assert "out = [(x, x) for x in xs]" in plain


@pytest.mark.parametrize(
    "body",
    [
        "    out = []\n    for x in xs:\n        if x not in out:\n            out.append(x)\n    return out\n",  # reads the list
        "    out = []\n    for x in xs:\n        out.append(x)\n    return out, x\n",  # loop variable leaks
        "    out = []\n    for x in xs:\n        out.append(x)\n        out.append(x)\n    return out\n",  # two statements
        "    out = [0]\n    for x in xs:\n        out.append(x)\n    return out\n",  # not empty
        "    out = []\n    for x in xs:\n        # keep\n        out.append(x)\n    return out\n",  # a comment would be lost
        "    out = []\n    for x in xs:\n        if x:\n            out.append(x)\n        else:\n            pass\n    return out\n",
    ],
)
def test_loop_to_comprehension_not_applicable(body: str) -> None:
    assert _of("loop_to_comprehension", "def f(xs):\n" + body) == []


def test_loop_to_comprehension_parenthesises_a_conditional_condition() -> None:
    source = "def f(xs, k):\n    out = []\n    for x in xs:\n        if x if k else not x:\n            out.append(x)\n    return out\n"
    text = _only("loop_to_comprehension", source)
    assert "if (x if k else not x)]" in text
    assert _run(text, [0, 1, 2], True) == [1, 2] and _run(text, [0, 1], False) == [0]


# ---- swap_commutative ---------------------------------------------------------------------


def test_swap_equality_and_numeric_arithmetic() -> None:
    found = _of("swap_commutative", "def f(a, b):\n    return a == b, a - b + 1, len(a) * len(b), 2 * (a + b)\n")
    assert "def f(a, b):\n    return b == a, a - b + 1, len(a) * len(b), 2 * (a + b)\n" in found
    assert "def f(a, b):\n    return a == b, 1 + (a - b), len(a) * len(b), 2 * (a + b)\n" in found
    assert "def f(a, b):\n    return a == b, a - b + 1, len(b) * len(a), 2 * (a + b)\n" in found
    assert "def f(a, b):\n    return a == b, a - b + 1, len(a) * len(b), (a + b) * 2\n" in found
    assert len(found) == 4


def test_swap_keeps_operand_parentheses_with_their_operand() -> None:
    found = _of("swap_commutative", "def f(a, b, c):\n    return (a == b) == c\n")
    assert found == ["def f(a, b, c):\n    return c == (a == b)\n", "def f(a, b, c):\n    return (b == a) == c\n"]


@pytest.mark.parametrize(
    "expression",
    [
        "a + b",  # could be strings
        "a + 'x'",  # string concatenation
        "a < b",  # not commutative
        "a == b == c",  # chained
        "g(a) == g(b)",  # calls with possible side effects
        "a is None or a > 0",  # guarded comparison
        "i < len(a) and a[i] > 0",  # short-circuit guards the index
        "a > 0 and g(a)",  # a call
    ],
)
def test_swap_not_applicable(expression: str) -> None:
    found = _of("swap_commutative", f"def f(a, b, c, i, g):\n    return {expression}\n")
    assert found == []


def test_swap_and_or_of_comparisons() -> None:
    found = _of("swap_commutative", "def f(a, b):\n    return a > 0 and len(b) < 3 or a < -1\n")
    assert "def f(a, b):\n    return len(b) < 3 and a > 0 or a < -1\n" in found
    assert "def f(a, b):\n    return a < -1 or a > 0 and len(b) < 3\n" not in found  # or's operand is not a comparison


# ---- de_morgan ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("not (a and b)", "not a or not b"),
        ("not (a or b)", "not a and not b"),
        ("not a or not b", "not (a and b)"),
        ("not a and not b and not c", "not (a or b or c)"),
        ("c and not (a or b)", "c and not a and not b"),
        ("c and not (a and b)", "c and (not a or not b)"),
        ("[not (a and b)]", "[(not a or not b)]"),
        ("not (a and (b or c))", "not a or not (b or c)"),
        ("not (a == 1 and b)", "not a == 1 or not b"),
    ],
)
def test_de_morgan(before: str, after: str) -> None:
    source = f"def f(a, b, c):\n    return {before}\n"
    found = _of("de_morgan", source)
    expected = f"def f(a, b, c):\n    return {after}\n"
    assert expected in found
    for a in (0, 1):
        for b in (0, 1):
            for c in (0, 1):
                assert _run(expected, a, b, c) == _run(source, a, b, c)


def test_de_morgan_not_applicable() -> None:
    assert _of("de_morgan", "def f(a, b):\n    return not a or b\n") == []
    assert _of("de_morgan", "def f(a, b):\n    return not (a + b)\n") == []


# ---- reorder_statements -------------------------------------------------------------------


def test_reorder_swaps_independent_assignments_with_their_comments() -> None:
    text = _only("reorder_statements", "def f(xs):\n    a = len(xs)  # size\n    b = 0\n    return a, b\n")
    assert text == "def f(xs):\n    b = 0\n    a = len(xs)  # size\n    return a, b\n"


@pytest.mark.parametrize(
    "pair",
    [
        "    a = 1\n    b = a\n",  # b reads a
        "    a = b\n    b = 1\n",  # b written after being read
        "    a = 1\n    a = 2\n",  # both write a
        "    a = g()\n    b = 1\n",  # a call
        "    a = xs.pop()\n    b = 1\n",  # a method call
        "    xs[0] = 1\n    b = 1\n",  # subscript target
        "    a = [1]\n    b = a\n",  # data dependence
        "    a += b\n    b = 1\n",  # augmented with a name
    ],
)
def test_reorder_not_applicable(pair: str) -> None:
    assert _of("reorder_statements", f"def f(xs, g, a, b):\n{pair}    return a, b\n") == []


def test_every_python_rewrite_is_a_rewrite_record() -> None:
    found = rewrites("def f(xs):\n    n = 0\n    m = 1\n    return n == m\n", "python", entry_point="f")
    assert all(isinstance(r, Rewrite) for r in found)
    assert {r.rule for r in found} == {"rename_local", "reorder_statements", "swap_commutative"}


def test_rename_skips_names_read_in_fstrings() -> None:
    assert _of("rename_local", 'def f(a):\n    b = a + 1\n    return f"{b}"\n') == []
