"""The tree-sitter rules (C++, Java, Go, JavaScript, Ruby): positive, negative, parenthesisation."""

from __future__ import annotations

import pytest

from execir.languages import get_language
from execir.rewrite import rewrites, rule_names


def _of(rule: str, language: str, text: str) -> list[str]:
    found = [r.text for r in rewrites(text, language, entry_point="f") if r.rule == rule]
    assert all(get_language(language).is_valid(t) for t in found)
    return found


CPP = "int f(vector<int> v, int n){\n    int total = 0;\n    for (int i = 0; i < n; i++) total += v[i];\n    return total;\n}\n"
JAVA = "class S {\n    int f(int[] v, int n) {\n        int total = 0;\n        for (int i = 0; i < n; i++) total += v[i];\n        return total;\n    }\n}\n"
GO = "package main\n\nfunc f(v []int, n int) int {\n\ttotal := 0\n\tfor i := 0; i < n; i++ {\n\t\ttotal += v[i]\n\t}\n\treturn total\n}\n"
JS = "function f(v, n) {\n  let total = 0;\n  for (let i = 0; i < n; i++) total += v[i];\n  return total;\n}\n"
RUBY = "def f(v, n)\n  total = 0\n  (0...n).each { |i| total += v[i] }\n  total\nend\n"


@pytest.mark.parametrize(("language", "text"), [("cpp", CPP), ("java", JAVA), ("go", GO), ("js", JS), ("ruby", RUBY)])
def test_rename_local_renames_each_declared_local_in_its_function(language: str, text: str) -> None:
    found = _of("rename_local", language, text)
    assert len(found) == 2
    for renamed in found:
        tokens = set(get_language(language).tokens(renamed))
        assert len({"total", "i"} - tokens) == 1  # exactly one local renamed
        assert {"n", "v"} <= tokens  # parameters kept


def test_rename_local_never_renames_parameters_members_or_shadowing_names() -> None:
    assert _of("rename_local", "cpp", "int f(int n){ return n + 1; }\n") == []
    member = "struct P { int total; };\nint f(P p){ int total = p.total; return total; }\n"
    assert _of("rename_local", "cpp", member) == []  # the name is also a field
    java_field = "class S {\n  int total;\n  int f() { int total = 1; return total + this.total; }\n}\n"
    assert _of("rename_local", "java", java_field) == []
    js_shorthand = "function f(a) { let total = a; return {total}; }\n"
    assert _of("rename_local", "js", js_shorthand) == []
    global_use = "int total = 3;\nint f(){ int x = total; { int total = 1; x += total; } return x; }\n"
    assert all("int total = 1" in t for t in _of("rename_local", "cpp", global_use))


def test_rename_local_ruby_skips_method_calls_of_the_same_name() -> None:
    text = "def f(v)\n  count = v.count\n  count\nend\n"
    assert _of("rename_local", "ruby", text) == []
    before = "def f(v)\n  x = size\n  size = 2\n  x + size\nend\n"
    assert all("size = 2" in t for t in _of("rename_local", "ruby", before))


def test_rename_local_does_not_touch_strings_or_comments() -> None:
    text = 'function f(a) {\n  // total is the sum\n  let total = a;\n  return "total" + `${total}`;\n}\n'
    assert _of("rename_local", "js", text) == []  # "total" as a whole string token: skipped conservatively
    text = 'function f(a) {\n  // total is the sum\n  let total = a;\n  return "sum: " + `${total}`;\n}\n'
    (renamed,) = _of("rename_local", "js", text)
    assert "// total is the sum" in renamed and "let total" not in renamed and "${total}" not in renamed


@pytest.mark.parametrize(
    ("language", "before", "after"),
    [
        ("cpp", "int f(int a, int b){ return a == b; }", "int f(int a, int b){ return b == a; }"),
        ("java", "class S { boolean f(int[] a, int b){ return a[0] != b; } }", "class S { boolean f(int[] a, int b){ return b != a[0]; } }"),
        ("go", "package main\nfunc f(a, b int) bool { return a == 3 }\n", "package main\nfunc f(a, b int) bool { return 3 == a }\n"),
        ("js", "function f(a, b) { return a.x === b; }", "function f(a, b) { return b === a.x; }"),
        ("ruby", "def f(a, b)\n  a == b\nend\n", "def f(a, b)\n  b == a\nend\n"),
    ],
)
def test_swap_commutative(language: str, before: str, after: str) -> None:
    assert _of("swap_commutative", language, before) == [after]


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("cpp", "int f(int a){ return g(a) == a; }"),  # a call
        ("cpp", "int f(int a){ return a < 3; }"),  # not commutative
        ("js", "function f(a) { return a++ == a; }"),  # side effect
        ("java", "class S { boolean f(int a){ return a + 1 == a; } }"),  # compound operand
    ],
)
def test_swap_commutative_not_applicable(language: str, text: str) -> None:
    assert _of("swap_commutative", language, text) == []


@pytest.mark.parametrize(
    ("language", "before", "after"),
    [
        ("cpp", "bool f(bool a, bool b){ return !(a && b); }", "bool f(bool a, bool b){ return (!a || !b); }"),
        ("cpp", "bool f(int a, bool b){ if (!(a > 0 || b)) return 1; return 0; }", "bool f(int a, bool b){ if (!(a > 0) && !b) return 1; return 0; }"),
        (
            "java",
            "class S { boolean f(boolean a, boolean b){ return c && !(a && b); } }",
            "class S { boolean f(boolean a, boolean b){ return c && (!a || !b); } }",
        ),
        ("js", "function f(a, b) { return !a || !b; }", "function f(a, b) { return !(a && b); }"),
        ("go", "package main\nfunc f(a, b bool) bool { return !a && !f(a, b) }\n", "package main\nfunc f(a, b bool) bool { return !(a || f(a, b)) }\n"),
        ("ruby", "def f(a, b)\n  !(a && b)\nend\n", "def f(a, b)\n  (!a || !b)\nend\n"),
    ],
)
def test_de_morgan(language: str, before: str, after: str) -> None:
    assert after in _of("de_morgan", language, before)


def test_de_morgan_not_applicable() -> None:
    assert _of("de_morgan", "cpp", "bool f(bool a, bool b){ return !a || b; }") == []
    assert _of("de_morgan", "js", "function f(a, b) { return !(a + b); }") == []


def test_rule_names_per_language() -> None:
    for language in ("cpp", "java", "go", "js", "ruby"):
        assert rule_names(language) == ("de_morgan", "rename_local", "swap_commutative")


def test_rename_local_skips_names_that_are_also_method_references_or_qualified_names() -> None:
    java = "class S {\n  int f(List<Integer> v) {\n    int sum = 0;\n    sum += v.stream().reduce(Integer::sum).get();\n    return sum;\n  }\n}\n"
    assert _of("rename_local", "java", java) == []
    cpp = "int f(vector<int> v){\n    int max = 0;\n    for (int x : v) max = std::max(max, x);\n    return max;\n}\n"
    assert all("int max = 0" in t for t in _of("rename_local", "cpp", cpp))
