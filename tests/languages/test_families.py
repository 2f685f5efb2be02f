"""The shared operator families: each yields the intended edits on small programs of the four
tree-sitter languages (source in, (replaced text, replacement) pairs out, negative cases included),
and the registry and grammar descriptions are consistent."""

from __future__ import annotations

import importlib

import pytest
import tree_sitter

from execir.edits import splice
from execir.languages import FAMILIES, get_language
from execir.languages.base import OperatorSpec
from execir.languages.treesitter.families import SHARED, Grammar, operators_for
from execir.languages.treesitter.families.names import base_type, similarity

LANGUAGES = ("cpp", "java", "go", "js")
GRAMMAR_WHEELS = {"cpp": "tree_sitter_cpp", "java": "tree_sitter_java", "go": "tree_sitter_go", "js": "tree_sitter_javascript"}


def edits(language: str, operator: str, source: str) -> list[tuple[str, str]]:
    """(replaced text, replacement) of every edit one operator proposes, sorted."""
    lang = get_language(language)
    return sorted({(source[edit.start : edit.end], edit.after) for _, edit in lang.candidates(source, [operator])})


CASES = [
    ("js", "arith_swap", "let x = a + b * c;", [("*", "/"), ("+", "-")]),
    ("js", "arith_swap", 'let s = "a" + b;', []),
    ("js", "bitwise_swap", "let x = a >>> b;", [(">>>", ">>")]),
    ("js", "augassign_swap", 'x += 1; s += "a";', [("+=", "-="), ("+=", "=")]),
    ("js", "compare_swap", "if (a === b && c < d) f();", [("<", "<="), ("===", "!==")]),
    ("js", "compare_flip", "if (a <= b) f();", [("<=", ">=")]),
    ("js", "compare_replace", "if (a == b || c < d || e != f) g();", [("<", "=="), ("<", ">="), ("==", "<"), ("==", ">")]),
    ("js", "bool_swap", "if (a && b || c) f();", [("&&", "||"), ("||", "&&")]),
    ("js", "loop_control_swap", "for (;;) { if (a) break; else continue; }", [("break", "continue"), ("continue", "break")]),
    ("js", "increment_swap", "i++; --j;", [("++", "--"), ("--", "++")]),
    ("js", "const_incr", "let x = 0 + 1 + 5;", [("1", "2"), ("5", "6")]),
    ("js", "const_decr", "let x = 0 + 1 + 5;", [("0", "-1"), ("5", "4")]),
    ("js", "const_zero_one", "let x = 0 + 1 + 5;", [("0", "1"), ("1", "0")]),
    ("go", "const_decr", "func f() { x := a / 1 + a % (1) + 2 }", [("2", "1")]),
    ("js", "const_to_zero", "let x = 0 + 1 + 5 + -3;", [("-3", "0"), ("5", "0")]),
    ("js", "return_bool_flip", "function f() { ok = true; return false; }", [("false", "true")]),
    ("js", "bool_literal_flip", "function f() { ok = true; return false; }", [("true", "false")]),
    (
        "js",
        "off_by_one",
        "for (let i = 0; i < n - 1; i++) { y = a[i] + s.slice(j); }",
        [("i", "i + 1"), ("i", "i - 1"), ("j", "j + 1"), ("j", "j - 1"), ("n - 1", "n"), ("n - 1", "n - 2")],
    ),
    ("js", "condition_const", "while (a) { if (b) f(); }", [("a", "false"), ("b", "false"), ("b", "true")]),
    ("js", "return_const", "function f() { return a < b; }", [("a < b", "false"), ("a < b", "true")]),
    ("js", "string_edit", 'let s = "" + \' \' + "(" + "ab";', [('""', '" "'), ('"("', '"["'), ("' '", "','")]),
    ("js", "guard_delete", "function f() { if (a) return 1; if (b) { x = 1; } return 2; }", [("if (a) return 1;", "")]),
    ("js", "statement_delete", "function f() { x = 1; if (a) g(); let y = 2; return y; }", [("g();", ";"), ("if (a) g();", ""), ("x = 1;", "")]),
    (
        "js",
        "branch_delete",
        "if (a) f(); else if (b) g(); else h();",
        [(" else h();", ""), (" else if (b) g(); else h();", ""), ("if (b) g(); else h();", "h();")],
    ),
    ("js", "if_unwrap", "if (a) { f(); } if (b) { return 1; }", [("if (a) { f(); }", "f();")]),
    ("js", "not_remove", "if (!a) f();", [("!", "")]),
    ("js", "unary_minus_remove", "x = -y;", [("-", "")]),
    (
        "js",
        "binary_operand_delete",
        "x = i * i - i + 1;",
        [("i * i", "i"), ("i * i - i", "i"), ("i * i - i", "i * i"), ("i * i - i + 1", "1"), ("i * i - i + 1", "i * i"), ("i * i - i + 1", "i * i - i")],
    ),
    ("js", "binary_operand_delete", "x = n * (n + 1);", [("(n + 1)", "1"), ("(n + 1)", "n"), ("n * (n + 1)", "(n + 1)"), ("n * (n + 1)", "n")]),
    ("js", "bool_operand_delete", "if (a || b || c) f();", [(" || b", ""), (" || c", ""), ("a || ", ""), ("a || b || c", "a"), ("a || b || c", "c")]),
    (
        "js",
        "call_unwrap",
        "x = abs(y) + s.trim() + Math.floor(z) + Math.max(0, w) + f(...xs);",
        [("Math.floor(z)", "z"), ("Math.max(0, w)", "0"), ("Math.max(0, w)", "w"), ("abs(y)", "y"), ("s.trim()", "s")],
    ),
    ("js", "arg_delete", "f(a, b);", [(", b", ""), ("a, ", "")]),
    ("js", "element_delete", "let xs = [1, 2, 3];", [(", 3", ""), ("1, ", ""), ("2, ", "")]),
    ("js", "paren_remove", "x = n * (n + 1);", [("(n + 1)", "n + 1")]),
    ("js", "not_insert", "if (a < b) f(); if (!c) g(); for (;d;) h();", [("a < b", "!(a < b)")]),
    ("js", "term_insert", "function f() { return a * b; }", [("a * b", "a * b + 1"), ("a * b", "a * b - 1")]),
    ("js", "arg_swap", "f(a, b, b); Math.max(a, b);", [("a, b", "b, a")]),
    ("js", "operand_swap", "x = a - b; y = a + b; z = -a - 1;", [("a - b", "b - a")]),
    ("js", "subscript_swap", "x = a[i][j];", [("i", "j"), ("j", "i")]),
    (
        "js",
        "variable_misuse",
        "function f(count, n) { let counts = 0; return count + n; }",
        [("count", "counts"), ("count", "n"), ("n", "count"), ("n", "counts")],
    ),
    ("js", "receiver_swap", "x = s.indexOf(t) + Math.abs(t) + s.concat(t, u);", [("s.indexOf(t", "t.indexOf(s")]),
    ("js", "return_swap", "function f() { if (a) return x; return y; }", [("x; return y", "y; return x")]),
    ("js", "method_swap", "s.toUpperCase().startsWith(p);", [("startsWith", "endsWith"), ("toUpperCase", "toLowerCase")]),
    ("js", "min_max_swap", "Math.min(a, b);", [("min", "max")]),
    ("js", "attribute_swap", "a.push(1); b.pop(); c.shift(); d.length;", [("pop", "shift"), ("shift", "pop")]),
    ("js", "self_term_insert", 'x += y; p *= a + b; q -= c * d; s += "a";', [("a + b", "p * (a + b)"), ("c * d", "q - c * d"), ("y", "x + y")]),
    ("go", "self_term_insert", "func f() { x += y; x *= a / b }", [("a / b", "x * (a / b)"), ("y", "x + y")]),
    ("js", "branch_swap", "if (a) f(); else g(); if (b) { h(); } else if (c) k();", [("f(); else g();", "g(); else f();")]),
    ("go", "branch_swap", "func f() { if a { g() } else { h() } }", [("{ g() } else { h() }", "{ h() } else { g() }")]),
    ("js", "element_swap", "let xs = [i, j, 1]; let ys = [[a, b], c];", [("[a, b], c", "c, [a, b]"), ("a, b", "b, a"), ("i, j", "j, i")]),
    ("cpp", "element_swap", "void f() { out.push_back({i, j}); }", [("i, j", "j, i")]),
    ("go", "slice_remove", "func f() { for _, c := range s[:k] { g(c) } }", [("s[:k]", "s")]),
    ("cpp", "bool_swap", "bool f() { return a and b || c; }", [("and", "or"), ("||", "&&")]),
    ("cpp", "compare_swap", "bool f() { return a not_eq b; }", [("not_eq", "==")]),
    ("cpp", "off_by_one", "int f() { return s.substr(i, 2)[j]; }", [("2", "1"), ("2", "3"), ("i", "i + 1"), ("i", "i - 1"), ("j", "j + 1"), ("j", "j - 1")]),
    ("cpp", "min_max_swap", "int f() { return std::max(a, *max_element(v.begin(), v.end())); }", [("max_element", "min_element")]),
    ("cpp", "statement_delete", "void f() { if (a) x++; }", [("if (a) x++;", ""), ("x++;", ";")]),
    ("cpp", "variable_misuse", "int f(int a, string s) { int b = 0; return a; }", [("a", "b")]),
    ("java", "bitwise_swap", "class A { int f() { return a >> b; } }", [(">>", "<<"), (">>", ">>>")]),
    ("java", "off_by_one", "class A { int f() { return xs.get(i); } }", [("i", "i + 1"), ("i", "i - 1")]),
    (
        "java",
        "call_unwrap",
        "class A { int f(String s) { return Math.abs(s.trim().length()); } }",
        [("Math.abs(s.trim().length())", "s.trim().length()"), ("s.trim()", "s")],  # not s.trim() for an int
    ),
    ("java", "method_swap", "class A { int f() { return Integer.MAX_VALUE; } }", [("MAX_VALUE", "MIN_VALUE")]),
    ("go", "bitwise_swap", "func f() int { return a &^ b }", [("&^", "&")]),
    ("go", "off_by_one", "func f() { x := s[i:j] }", [("i", "i + 1"), ("i", "i - 1"), ("j", "j + 1"), ("j", "j - 1")]),
    ("go", "condition_const", "func f() { for i := 0; i < n; i++ { if a { g() } } }", [("a", "false"), ("a", "true")]),
    ("go", "statement_delete", "func f() { x++; y = 1; g() }", [("g()", ""), ("x++;", ""), ("y = 1;", "")]),
    (
        "go",
        "variable_misuse",
        "func f(a int, s string) int { b := 0; c := len(s); return a + b + c }",
        [("a", "b"), ("a", "c"), ("b", "a"), ("b", "c"), ("c", "a"), ("c", "b")],
    ),
    ("go", "call_unwrap", "func f() float64 { return math.Abs(float64(x)) }", [("math.Abs(float64(x))", "float64(x)")]),
    (
        "rust",
        "variable_misuse",  # types written or shown (literal i32, .len() usize, .clone()); Vec<i32> is no Vec<String>; i not in scope in 0..n
        "fn f(a: i32, v: Vec<i32>, w: Vec<String>) -> i32 { let mut b = 0; let n = v.len(); let c = a.clone(); "
        "for i in 0..n { b += i as i32; } return w.len() as i32 + b; }",
        [("a", "b"), ("a", "c"), ("b", "a"), ("b", "c"), ("i", "n")],
    ),
    ("rust", "variable_misuse", "fn f(s: &str, t: String) -> bool { let x = s.len(); s.is_empty() }", []),
    (
        "rust",
        "variable_misuse",  # a written use (assignment target, receiver of push) only by a `mut` name
        "fn f(n: i32, mut v: Vec<i32>) -> i32 { let w: Vec<i32> = vec![]; let mut a = 0; a = n; v.push(1); return v.len() as i32 + w.len() as i32; }",
        [("n", "a"), ("v", "w"), ("w", "v")],
    ),
    ("rust", "method_swap", "fn f(v: Vec<i32>) -> Vec<i32> { v.into_iter().filter(|n| n.is_positive()).collect() }", [("is_positive", "is_negative")]),
    ("go", "arg_swap", "func f() { xs = append(xs, x); g(a, b) }", [("a, b", "b, a")]),
]


@pytest.mark.parametrize(("language", "operator", "source", "expected"), CASES)
def test_operator_edits(language: str, operator: str, source: str, expected: list[tuple[str, str]]) -> None:
    assert edits(language, operator, source) == expected


@pytest.mark.parametrize(("language", "operator", "source", "expected"), CASES)
def test_operator_outputs_parse(language: str, operator: str, source: str, expected: list[tuple[str, str]]) -> None:
    lang = get_language(language)
    for _, edit in lang.candidates(source, [operator]):
        assert lang.parse(splice(source, edit)) is not None


def test_every_shared_operator_has_a_case() -> None:
    assert {operator for _, operator, _, _ in CASES} == set(SHARED)


def test_registry_families_are_known() -> None:
    assert all(family in FAMILIES for _, family in SHARED.values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_language_operators_are_the_shared_ones(language: str) -> None:
    lang = get_language(language)
    module = importlib.import_module(f"execir.languages.{language}")
    excluded = {"go": {"arg_delete"}}.get(language, set())
    assert set(lang.operator_names) >= set(SHARED) - excluded
    for spec in module.OPERATORS:
        if spec.name in SHARED:
            assert spec.family == SHARED[spec.name][1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_grammar_names_only_real_node_types(language: str) -> None:
    grammar: Grammar = importlib.import_module(f"execir.languages.{language}.grammar").GRAMMAR
    wheel = importlib.import_module(GRAMMAR_WHEELS[language])
    ts_language = tree_sitter.Language(wheel.language())
    missing = sorted(kind for kind in set(grammar.node_types()) if ts_language.id_for_node_kind(kind, True) is None)
    assert missing == []


def test_operators_for_rejects_unknown_exclusions_and_shadowing() -> None:
    grammar = Grammar("toy")
    with pytest.raises(ValueError, match="unknown"):
        operators_for(grammar, exclude=("no_such_operator",))
    with pytest.raises(ValueError, match="shadows"):
        operators_for(grammar, own=(OperatorSpec("arith_swap", "operator", lambda program: ()),))
    names = [spec.name for spec in operators_for(grammar, exclude=("arith_swap",))]
    assert "arith_swap" not in names and names == sorted(names)


def test_similarity_prefers_lookalike_names() -> None:
    assert similarity("s1", "s0") > similarity("s1", "set1")
    assert similarity("depth", "max_depth") > similarity("depth", "c")


def test_base_type_drops_layout_and_type_arguments() -> None:
    assert base_type("List < Integer >") == base_type("List<Object>") == "List"
    assert base_type("vector<int>") == "vector"
    assert base_type(None) is None


def test_doc_comment_groups_adjacent_line_comments_only() -> None:
    from execir.languages.treesitter.language import doc_comment

    go = get_language("go")
    program = go.parse("// helper\n\n// First line.\n//   Second line.\nfunc F() {}\n")
    assert doc_comment(program) == "First line.\n  Second line."  # one space after the marker goes
    js = get_language("js")
    assert doc_comment(js.parse("// a\n/* Block\n   text. */\nconst f = () => 1;\n")) == "Block\n   text."
