"""The tree-sitter rules on PHP and Rust: renames that follow ``$x`` and Rust's bindings (shadowing,
patterns, closures, standard macros' arguments) and leave strings, format strings, fields and paths
alone; swaps and De Morgan only where safe; every rewrite accepted by ``php -l`` / ``rustc``."""

from __future__ import annotations

import re

import pytest
from php_rust_measure import available, front_end_accepts

from execir.languages import get_language
from execir.rewrite import rewrites, rule_names


def _of(rule: str, language: str, text: str, entry_point: str = "f") -> list[str]:
    found = [r.text for r in rewrites(text, language, entry_point=entry_point) if r.rule == rule]
    assert all(get_language(language).is_valid(t) for t in found)
    return found


def _words(text: str) -> set[str]:
    return set(re.findall(r"\$?\w+", text))


PHP = """<?php
function f($a, $n) {
    $total = 0;
    foreach ($a as $k => $v) {
        $total += $v * $k;
    }
    echo "total: $total\\n";
    return $total == $n ? 'total' : $this_is_not_there;
}
"""

RUST = """fn f(v: Vec<i32>, n: usize) -> i32 {
    let mut total = 0;
    for (i, &x) in v.iter().enumerate() {
        if i != n {
            total += x;
        }
    }
    println!("{} of {}", total, v.len());
    total
}
"""


def test_rule_names() -> None:
    assert rule_names("php") == rule_names("rust") == ("de_morgan", "rename_local", "swap_commutative")


def test_php_rename_follows_dollar_variables_and_interpolation() -> None:
    found = _of("rename_local", "php", PHP)
    renamed = {old: [t for t in found if f"${old}" not in _words(t)] for old in ("total", "k", "v")}
    assert all(len(texts) == 1 for texts in renamed.values()), renamed
    (total,) = renamed["total"]
    new = (_words(total) - _words(PHP)).pop()
    assert new.startswith("$")
    assert total.count(new) == PHP.count("$total")  # every use, the interpolated one included
    assert f'echo "total: {new}\\n";' in total and "'total'" in total  # the string's text and the literal kept
    assert "$a" in total and "$n" in total  # parameters are never renamed
    assert all("$this_is_not_there" in t for t in found)  # an undefined variable is never declared


@pytest.mark.parametrize(
    "text",
    [
        "<?php\nfunction f($a) {\n    $x = $a;\n    return compact('x');\n}\n",  # locals read by name
        "<?php\nfunction f($a) {\n    $x = $a;\n    $name = 'x';\n    return $$name;\n}\n",  # variable variables
        "<?php\n$x = 1;\nfunction f($a) {\n    $x = $a;\n    return $x;\n}\n",  # the name is also used outside
        "<?php\nfunction f($a) {\n    global $x;\n    $x = $a;\n    return $x;\n}\n",  # a global
        "<?php\nclass A {\n    static $x = 1;\n    function f($a) {\n        $x = $a;\n        return $x + A::$x;\n    }\n}\n",  # a static property
    ],
)
def test_php_rename_not_applicable(text: str) -> None:
    found = _of("rename_local", "php", text)
    assert all("$x" in _words(t) for t in found)


def test_php_rename_destructuring_static_catch_and_closures() -> None:
    text = (
        "<?php\nfunction f($a) {\n    [$p, $q] = $a;\n    static $calls = 0;\n    $calls++;\n"
        "    $g = function ($y) use ($p) { return $y + $p; };\n"
        "    try { $r = $g($q); } catch (Exception $e) { $r = $e->getCode(); }\n    return $r + $calls;\n}\n"
    )
    found = _of("rename_local", "php", text)
    gone = {name for name in ("$p", "$q", "$calls", "$g", "$y", "$r", "$e") if any(name not in _words(t) for t in found)}
    assert gone == {"$p", "$q", "$calls", "$g", "$y", "$r", "$e"}
    assert all("->getCode()" in t for t in found)


def test_php_swap_commutative_and_de_morgan() -> None:
    before = "<?php\nfunction f($a, $b) {\n    return $a->x === $b[0];\n}\n"
    assert _of("swap_commutative", "php", before) == [before.replace("$a->x === $b[0]", "$b[0] === $a->x")]
    constant = "<?php\nfunction f($a) {\n    return $a <> PHP_INT_MAX;\n}\n"
    assert _of("swap_commutative", "php", constant) == [constant.replace("$a <> PHP_INT_MAX", "PHP_INT_MAX <> $a")]
    for unsafe in ("g($a) == $a", '$a == "{$a->m()}"', "$a + 1 == $a", "$a < 3", "$a = 3"):
        assert _of("swap_commutative", "php", f"<?php\nfunction f($a) {{\n    return {unsafe};\n}}\n") == [], unsafe
    negated = "<?php\nfunction f($a, $b) {\n    if (!($a && $b > 1)) {\n        return 1;\n    }\n    return 0;\n}\n"
    assert negated.replace("!($a && $b > 1)", "!$a || !($b > 1)") in _of("de_morgan", "php", negated)
    both = "<?php\nfunction f($a, $b) {\n    return !$a && !g($b);\n}\n"
    assert _of("de_morgan", "php", both) == [both.replace("!$a && !g($b)", "!($a || g($b))")]


def test_rust_rename_follows_bindings_and_macro_arguments() -> None:
    found = _of("rename_local", "rust", RUST)
    assert len(found) == 3  # total, i, x; the parameters v and n kept
    for renamed in found:
        tokens = set(get_language("rust").tokens(renamed))
        assert len({"total", "i", "x"} - tokens) == 1 and {"v", "n", "len", "println"} <= tokens
    (total,) = [t for t in found if "total" not in get_language("rust").tokens(t)]
    new = (set(get_language("rust").tokens(total)) - set(get_language("rust").tokens(RUST))).pop()
    assert f'println!("{{}} of {{}}", {new}, v.len());' in total and total.count(new) == 4


def test_rust_rename_shadowing_patterns_and_closures() -> None:
    text = (
        "fn f(v: Vec<i32>) -> i32 {\n    let x = v[0];\n    let x = x + 1;\n"
        "    let y = match v.get(1) { Some(&k) if k > x => k, Some(_) | None => 0 };\n"
        "    let add = |a: i32, b| a + b;\n    if let Some(last) = v.last() { return add(*last, y); }\n    x\n}\n"
    )
    found = _of("rename_local", "rust", text)
    rust = get_language("rust")
    gone = {name for name in ("x", "y", "k", "add", "a", "b", "last") if any(name not in rust.tokens(t) for t in found)}
    assert gone == {"x", "y", "k", "add", "a", "b"}  # `last` is also the method `.last()`
    (shadowed,) = [t for t in found if "x" not in rust.tokens(t)]
    new = (set(rust.tokens(shadowed)) - set(rust.tokens(text))).pop()
    assert f"let {new} = v[0];\n    let {new} = {new} + 1;" in shadowed and shadowed.rstrip().endswith(f"{new}\n}}")
    assert all("Some(" in t and "None" in t for t in found)  # paths in patterns are never bindings


@pytest.mark.parametrize(
    "text",
    [
        'fn f(v: Vec<i32>) -> String {\n    let x = v.len();\n    format!("{x} items")\n}\n',  # inline format argument
        'fn f(v: Vec<i32>) -> String {\n    let x = v.len();\n    format!("{x:>4}|{}", x)\n}\n',  # with a format spec
        'fn f(v: Vec<i32>) -> String {\n    let x = v.len();\n    format!("{x}", x = x)\n}\n',  # named argument
        "struct P { x: usize }\nfn f(v: Vec<i32>) -> P {\n    let x = v.len();\n    P { x }\n}\n",  # struct field shorthand
        'struct P { x: usize }\nfn f(p: P) -> usize {\n    let x = 1;\n    println!("{}", p.x);\n    x\n}\n',  # a field in a macro
        "fn f(v: Vec<i32>) -> usize {\n    let x = v.len();\n    my_macro!(x)\n}\n",  # a macro that is not the standard library's
        "fn f() -> i32 {\n    let max = 1;\n    std::cmp::max(max, 2)\n}\n",  # a path segment
    ],
)
def test_rust_rename_not_applicable(text: str) -> None:
    name = "max" if "let max" in text else "x"
    assert all(name in get_language("rust").tokens(t) for t in _of("rename_local", "rust", text))


def test_rust_swap_commutative_and_de_morgan() -> None:
    before = "fn f(a: Vec<i32>, b: (i32, i32)) -> bool {\n    a[0] == b.0\n}\n"
    assert _of("swap_commutative", "rust", before) == [before.replace("a[0] == b.0", "b.0 == a[0]")]
    for unsafe in ("g(a) == a", "a.len() == 0", "-a == 1", "a < 3", "&a == &b", "a + 1 == a"):
        assert _of("swap_commutative", "rust", f"fn f(a: i32, b: i32) -> bool {{\n    {unsafe}\n}}\n") == [], unsafe
    negated = "fn f(a: bool, b: i32) -> i32 {\n    if !(a && b > 1) {\n        return 1;\n    }\n    0\n}\n"
    assert negated.replace("!(a && b > 1)", "!a || !(b > 1)") in _of("de_morgan", "rust", negated)
    value = "fn f(a: bool, b: bool) -> bool {\n    let c = !(a || b);\n    c\n}\n"
    assert _of("de_morgan", "rust", value) == [value.replace("!(a || b)", "(!a && !b)")]
    both = "fn f(a: bool, v: Vec<i32>) -> bool {\n    !a && !v.is_empty()\n}\n"
    assert _of("de_morgan", "rust", both) == [both.replace("!a && !v.is_empty()", "!(a || v.is_empty())")]


PROGRAMS = [
    ("php", PHP),
    ("php", "<?php\nfunction f($a, $b) {\n    [$p, $q] = $a;\n    if (!($p == $b && $q != null)) {\n        return $p;\n    }\n    return $q;\n}\n"),
    ("rust", RUST),
    (
        "rust",
        "fn f(s: &str) -> bool {\n    let chars: Vec<char> = s.chars().collect();\n    let mut i = 0;\n"
        "    while i < chars.len() / 2 {\n        let j = chars.len() - 1 - i;\n"
        "        if !(chars[i] == chars[j] || i == j) {\n            return false;\n        }\n        i += 1;\n    }\n"
        '    let n = chars.len();\n    assert!(n == chars.len(), "{} {}", n, s);\n    true\n}\n',
    ),
]


@pytest.mark.parametrize(("language", "text"), PROGRAMS)
def test_every_rewrite_passes_the_front_end(language: str, text: str) -> None:
    if not available(language):
        pytest.skip(f"{language} toolchain not installed")
    assert front_end_accepts(text, language)[0]
    found = rewrites(text, language, entry_point="f")
    assert len({r.rule for r in found}) >= 2
    for rewrite in found:
        ok, message = front_end_accepts(rewrite.text, language)
        assert ok, f"{rewrite.rule}\n{message}\n{rewrite.text}"


def test_front_end_rejects_a_broken_rename() -> None:
    if not (available("php") and available("rust")):
        pytest.skip("php or rustc not installed")
    assert not front_end_accepts("<?php\nfunction f($a) {\n    return $a +;\n}\n", "php")[0]
    assert not front_end_accepts("fn f(a: i32) -> i32 {\n    b\n}\n", "rust")[0]


@pytest.mark.parametrize("language", ["php", "rust"])
def test_public_set_rewrites_pass_the_front_end(language: str) -> None:
    from execir.tasks.multilingual import humanevalx_rust, mbxp_php, shared_data

    data = shared_data()
    if data is None or not available(language):
        pytest.skip("public data or toolchain absent")
    tasks = (mbxp_php if language == "php" else humanevalx_rust).load(data)[:8]
    found = [rewrite for task in tasks for rewrite in rewrites(task.program, language, entry_point=task.entry_point)]
    assert len(found) >= len(tasks)
    for rewrite in found:
        ok, message = front_end_accepts(rewrite.text, language)
        assert ok, f"{rewrite.rule}\n{message}\n{rewrite.text}"
