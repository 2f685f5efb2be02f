"""Call examples of Rust queries: reading doc comments (rustdoc asserts, doctest and inline lines),
Rust value syntax, candidates' signatures and types, typed native tests and probes, and real runs
(rustc; skipped without it)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from execir.dataset.spec import get_spec
from execir.execute import OracleConfig
from execir.execute.runtimes import ToolchainMissing, rust
from execir.rerank.base import RerankRequest
from execir.rerank.execution.examples import extract_examples
from execir.rerank.execution.exec_plan import main_function, plan_runs
from execir.rerank.execution.native_calls import Unwritable
from execir.rerank.execution.native_probes import native_probe_arguments, native_probe_suite
from execir.rerank.execution.reranker import ExecReranker
from execir.rerank.execution.rust_calls import RustType, parse_type, readable, rust_signature
from execir.rerank.execution.rust_doctests import rust_lines, rust_values
from execir.rerank.execution.typed_calls import Signature, signature, typed_suite

try:
    rust.find_rustc()
    HAVE_RUSTC = True
except ToolchainMissing:
    HAVE_RUSTC = False

QUERY = """use std::collections::HashMap;

/// Return the sum of the even numbers of `v`, and whether there was any.
///
/// ```
/// # use crate::sum_even;
/// let v = vec![1, 2, 3, 4];
/// assert_eq!(sum_even(&v), (6, true));
/// assert_eq!(sum_even(&vec![1, 3]), (0, false));
/// ```
fn sum_even(v: &Vec<i32>) -> (i32, bool) {
"""


def _pairs(text: str) -> list[tuple[str, str]]:
    return [(example.call, example.expected) for example in extract_examples(text, "rust").calls]


# ---- reading ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("/// assert_eq!(f(1, 2), 3);", ("f(1, 2)", "3")),
        ("/// assert_eq!(f(-1i32, 1_000, 3_usize), -7i64);", ("f(-1, 1000, 3)", "-7")),
        ("//! assert_eq!(3, f(5u8));", ("f(5)", "3")),  # the side that calls comes first
        ("/// assert!(f(4));", ("f(4)", "True")),
        ("/// assert!(!f(3));", ("f(3)", "False")),
        ("/// assert!(f(1) == vec![]);", ("f(1)", "[]")),
        ('/// assert_eq!(f(1), 2.5f64, "message {}", 3);', ("f(1)", "2.5")),
        ("/// assert_eq!(f(1e3f32, -2.5e-3), 0.5);", ("f(1000.0, -0.0025)", "0.5")),
        ('/// assert_eq!(f("a, b".to_string()), String::from("(c"));', ("f('a, b')", "'(c'")),
        ('/// assert_eq!(f(String::new(), Vec::<i32>::new()), "x".to_owned());', ("f('', [])", "'x'")),
        ('/// assert_eq!(f(&mut vec![vec![1], vec![]], None), Some(vec!["a".into()]));', ("f([[1], []], None)", "['a']")),
        ("/// assert_eq!(f(&[1.5, 2.0], 'x'), Some((1, 'y')));", ("f([1.5, 2.0], 'x')", "(1, 'y')")),
        ("/// assert_eq!(f(true, [1, 2]), false);", ("f(True, [1, 2])", "False")),
        ('/// assert_eq!(f("\\u{1F600}", r#"raw"s"#), 1);', ("f('\U0001f600', 'raw\"s')", "1")),
        ("/// f(vec![1, 2]) == Some(3)", ("f([1, 2])", "3")),
        ("/// f(&[1, 2]) \u279e None", ("f([1, 2])", "None")),
    ],
)
def test_rust_example_shapes(line: str, expected: tuple[str, str]) -> None:
    assert _pairs(line + "\nfn f() {}\n") == [expected]


@pytest.mark.parametrize(
    "line",
    [
        "/// assert_eq!(f(1, 2);",  # never closes
        "/// assert_ne!(f(1), 2);",
        "/// assert!((f(&[1.0]) - 1.0).abs() < 1e-6);",
        "/// assert_eq!(f(x), 2);",  # a name no let gave
        "/// assert_eq!(f(1));",
        "/// assert!();",
        "/// assert_eq!(f(vec![0; 3]), 1);",  # a repeat expression
        "/// assert_eq!(f(1 as i64), 1);",
        '/// assert_eq!(f("unclosed), 1);',
        '/// assert_eq!(f(b"bytes"), g(1));',
        "/// assert_eq!(f(HashMap::new()), 0);",
        '/// assert_eq!(f("\\u{_}"), 1);',  # an escape with no digits
        '/// assert_eq!(f("\\u{110000}"), 1);',  # past the last code point
    ],
)
def test_malformed_rust_examples_give_none(line: str) -> None:
    assert _pairs(line + "\nfn f() {}\n") == []


def test_a_whole_prompt_reads_its_doc_comment_with_let_values_and_fences() -> None:
    assert _pairs(QUERY) == [("sum_even([1, 2, 3, 4])", "(6, True)"), ("sum_even([1, 3])", "(0, False)")]


def test_reading_random_rust_text_never_raises() -> None:
    pieces = ["/// ", "//! ", "/*", "*/", "assert_eq!(", "assert!(", "!", "f(", ")", "(", "[", "]", "vec![", "&", "&mut ", "'", '"', 'r#"', '"#', "\\u{"]
    pieces += ["}", "_", "1i32", "2.5f64", ",", " ", "\n", "let x = ", ";", "x", "Some(", "None", ">>> ", "==", "->", "```", "# ", "true", "\\", "b'a'"]
    rng = random.Random(0)
    for _ in range(3000):
        found = extract_examples("".join(rng.choice(pieces) for _ in range(rng.randint(1, 40))), "rust")
        assert all(example.entry_point for example in found.calls)


def test_a_let_may_name_the_call() -> None:
    assert _pairs("/// let got = f(vec![2]);\n/// assert_eq!(got, Some(2));\n/// assert!(got.is_some());\n") == [("f([2])", "2")]


def test_block_comments_and_doctest_lines() -> None:
    block = "/**\n * Sort.\n * >>> sort_array(vec![3, 1])\n * vec![1, 3]\n */\nfn sort_array(v: Vec<i32>) -> Vec<i32> {\n"
    assert _pairs(block) == [("sort_array([3, 1])", "[1, 3]")]
    plain = "/*\n Sort.\n sort_array([3, 1]) == [1, 3]\n*/\nfn sort_array(v: Vec<i32>) -> Vec<i32> {\n"
    assert _pairs(plain) == [("sort_array([3, 1])", "[1, 3]")]


def test_a_query_without_comment_markers_reads_as_is() -> None:
    query = "Sort the numbers.\n```\nassert_eq!(sort_array(vec![3, 1]), vec![1, 3]);\n```\n>>> sort_array([2])\n[2]\n"
    assert _pairs(query) == [("sort_array([3, 1])", "[1, 3]"), ("sort_array([2])", "[2]")]


def test_code_outside_the_comments_is_no_example() -> None:
    prompt = "/// assert_eq!(f(1), 2);\nfn f(x: i32) -> i32 {\n    assert_eq!(f(5), 6);\n    x + 1\n}\n"
    assert _pairs(prompt) == [("f(1)", "2")]


def test_humanevalx_rust_prompts_carry_no_examples() -> None:
    prompt = "\n/*\n Check if in given list of numbers, are any two numbers closer to each other than\n    given threshold.\n    \n*/\n"
    prompt += "fn has_close_elements(numbers:Vec<f32>, threshold: f32) -> bool{\n"
    found = extract_examples(prompt, "rust")
    assert found.calls == () and found.skipped == 0


def test_rust_lines_keep_the_line_count() -> None:
    lines = ["/// assert_eq!(", "///     f(1),", "///     2", "/// );", "fn f() {}"]
    assert rust_lines(lines) == ["f(1) == 2", "", "", "", ""]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("vec![vec![1i32], vec![]]", "[[1], []]"),
        ('String::from("vec![1]")', '("vec![1]")'),
        ("Some(&'a')", "('a')"),
        ("std::option::Option::None", "None"),
        ("&mut [1_000u64, 2]", "[1_000, 2]"),
        ("'\\u{e9}'", "'\\U000000e9'"),
    ],
)
def test_rust_values(text: str, expected: str) -> None:
    assert rust_values(text) == expected


# ---- types and signatures -----------------------------------------------------------------------


def _path(name: str, *items: RustType) -> RustType:
    return RustType("path", name, items)


def test_rust_types() -> None:
    pair = RustType("tuple", items=(_path("i32"), _path("String")))
    assert parse_type("&'a mut Vec<Option<(i32, String)>>") == RustType("ref", items=(_path("Vec", _path("Option", pair)),), mutable=True)
    assert parse_type("[u8; 3]") == RustType("array", items=(RustType("path", "u8"),), length=3)
    assert parse_type("std::collections::HashMap<String, i64>").name == "HashMap"
    for bad in ("Vec<Box<dyn Any>>", "impl Fn(i32) -> i32", "Vec<i32", "[i32; n]"):
        with pytest.raises(Unwritable):
            parse_type(bad)
    assert readable(parse_type("Option<&[(char, f32)]>")) and readable(parse_type("HashMap<String, Vec<i64>>"))
    assert not readable(parse_type("HashSet<i32>")) and not readable(parse_type("Point")) and not readable(parse_type("Vec<i32, i32>"))


def test_rust_signatures() -> None:
    program = "fn main(){}\nfn helper(x: i32) -> i32 { x }\npub fn f(mut v: Vec<i32>, s: &str) -> Option<usize> {\n    None\n}\n"
    assert signature(program, "rust", "f") == Signature(("Vec<i32>", "&str"), ("Option<usize>",))
    assert rust_signature("fn g(v: &mut Vec<i32>) {}\n", "g") == Signature(("&mut Vec<i32>",), ())
    assert rust_signature("fn g<T: Ord>(v: Vec<T>) -> T { v[0] }\n", "g") == Signature(("<T: Ord>",), ("T",))
    assert signature(program, "rust", "missing") is None
    assert main_function(program, "rust") == "f"


# ---- writing ------------------------------------------------------------------------------------


def _code(example: str, declared: Signature) -> str:
    suite = typed_suite(extract_examples(example, "rust").calls, "rust", declared)
    assert suite is not None
    return suite.suite.code


@pytest.mark.parametrize(
    ("example", "params", "call"),
    [
        (">>> f([1, 2], 'ab')\n3\n", ("&[i64]", "&str"), 'f(&[1i64, 2i64], "ab")'),
        (">>> f([1, 2], 'ab')\n3\n", ("Vec<f32>", "String"), 'f(vec![1.0f32, 2.0f32], String::from("ab"))'),
        (">>> f(['a'], 'b')\n3\n", ("&Vec<String>", "char"), "f(&vec![String::from(\"a\")], 'b')"),
        (">>> f([1, None], (1, 'x'))\n3\n", ("&mut Vec<Option<u8>>", "(usize, &str)"), 'f(&mut vec![Some(1u8), None], (1usize, "x"))'),
        (">>> f([[1, 2]], 'é')\n3\n", ("Vec<[i32; 2]>", "&str"), 'f(vec![[1i32, 2i32]], "\\u{e9}")'),
        (
            ">>> f({'a': 1}, [2, 2])\n3\n",
            ("HashMap<String, i32>", "BTreeSet<u64>"),
            'f(::std::collections::HashMap::from([(String::from("a"), 1i32)]), ::std::collections::BTreeSet::from([2u64, 2u64]))',
        ),
        (">>> f('a', True)\n3\n", ("u8", "bool"), "f(b'a', true)"),
    ],
)
def test_rust_arguments_follow_the_declared_types(example: str, params: tuple[str, ...], call: str) -> None:
    code = _code(example, Signature(params, ("i32",)))
    assert f"execir_same(&ExecirValue::execir_value(&{call}), &ExecirV::I(3))" in code
    assert code.startswith("#[cfg(test)]\nmod tests {") and "#[test]\n    fn execir_examples()" in code


def test_rust_expected_values_are_generic() -> None:
    code = _code(">>> f(1)\n([1.5, 'a'], {'k': None}, True)\n", Signature(("i32",), ("(Vec<f64>, HashMap<String, Option<i32>>, bool)",)))
    floats = 'ExecirV::L(vec![ExecirV::F(1.5, false), ExecirV::S(String::from("a"))])'
    expected = f'ExecirV::L(vec![{floats}, ExecirV::M(vec![(ExecirV::S(String::from("k")), ExecirV::N)]), ExecirV::B(true)])'
    assert expected in code


@pytest.mark.parametrize(
    ("example", "declared"),
    [
        (">>> f(2.5)\n1\n", Signature(("i32",), ("i32",))),  # a float for an integer
        (">>> f(-1)\n1\n", Signature(("usize",), ("i32",))),
        (">>> f(300)\n1\n", Signature(("u8",), ("i32",))),
        (">>> f('ab')\n1\n", Signature(("char",), ("i32",))),
        (">>> f('a')\n1\n", Signature(("&mut str",), ("i32",))),
        (">>> f([1, 2])\n1\n", Signature(("[i32; 3]",), ("i32",))),
        (">>> f(1, 2)\n1\n", Signature(("i32",), ("i32",))),  # argument count
        (">>> f(1)\n1\n", Signature(("Point",), ("i32",))),
        (">>> f([1])\n1\n", Signature(("Vec<Box<dyn Any>>",), ("i32",))),
        (">>> f(1)\n1\n", Signature(("<T>",), ("T",))),  # a generic function
        (">>> f(1)\n1\n", Signature(("i32",), ())),  # no result
        (">>> f(1)\n1\n", Signature(("i32",), ("HashSet<i32>",))),  # a result the helper does not read
    ],
)
def test_unwritable_rust_examples_are_dropped(example: str, declared: Signature) -> None:
    assert typed_suite(extract_examples(example, "rust").calls, "rust", declared) is None


def test_rust_probe_program() -> None:
    program = "fn largest(v: &[f64], s: &str) -> Option<f64> {\n    None\n}\n"
    found = extract_examples('/// assert_eq!(largest(&[3.5, 1.0], "ab"), Some(3.5));\n', "rust")
    arguments = native_probe_arguments(found, "rust")
    suite = native_probe_suite(found, "rust", program, arguments)
    assert suite is not None and suite.kind == "probe" and len(suite.asserts) == len(arguments) > 1
    assert 'execir_probe(0, || execir_key(&ExecirValue::execir_value(&largest(&[1.0f64, 3.5f64], "ab"))));' in suite.code
    assert native_probe_suite(found, "rust", "fn largest(v: &[f64], s: &str) {}\n", arguments) is None  # no result to compare


def test_plan_runs_rust_candidates_that_declare_the_function() -> None:
    programs = {"a": "fn sum_even(v: &Vec<i32>) -> (i32, bool) { (0, false) }\n", "b": "fn other() {}\n"}
    request = RerankRequest(
        queries={"q": QUERY}, candidates={"q": ("a", "b")}, documents=programs, doc_language=dict.fromkeys(programs, "rust"), query_language={"q": "rust"}
    )
    plan = plan_runs(request, {"q": extract_examples(QUERY, "rust")})
    assert [run.doc_id for run in plan.runs] == ["a"] and plan.without_entry_point == 1 and plan.unwritten == 0
    assert "sum_even(&vec![1i32, 2i32, 3i32, 4i32])" in plan.runs[0].job.tests.code


# ---- real runs ----------------------------------------------------------------------------------

CORRECT = "fn sum_even(v: &Vec<i32>) -> (i32, bool) {\n    let s: i32 = v.iter().filter(|x| *x % 2 == 0).sum();\n    (s, v.iter().any(|x| x % 2 == 0))\n}\n"


@pytest.mark.skipif(not HAVE_RUSTC, reason="rustc not installed")
def test_rust_candidates_run_on_their_doc_comment_examples(tmp_path: Path) -> None:
    programs = {
        "mutant": CORRECT.replace("*x % 2 == 0", "*x % 2 == 1"),  # one edit: sums the odd numbers
        "correct": CORRECT,
        "rewritten": (
            "fn sum_even(v: &Vec<i32>) -> (i32, bool) {\n    let e: Vec<i32> = v.iter().cloned().filter(|x| x % 2 == 0).collect();\n"
            "    (e.iter().sum(), !e.is_empty())\n}\n"
        ),
        "exits": "fn sum_even(v: &Vec<i32>) -> (i32, bool) {\n    std::process::exit(0)\n}\n",
    }
    request = RerankRequest(
        queries={"q": QUERY}, candidates={"q": tuple(programs)}, documents=programs, doc_language=dict.fromkeys(programs, "rust"), query_language={"q": "rust"}
    )
    reranker = ExecReranker(OracleConfig(workers=2, cache_path=tmp_path / "v.sqlite", progress=False), progress=False)
    reranker.use_task(get_spec("t2c-full"))
    scores = reranker.score(request)["q"]
    assert scores["correct"] == scores["rewritten"] > 1.0  # both pass, and agree on every probe
    assert scores["mutant"] == 0.0 and scores["exits"] == 0.0


SHAPES = """use std::collections::{BTreeSet, HashMap};
fn f(a: &[i64], b: &str, c: Vec<f32>, d: String, e: &Vec<String>, g: char, h: &mut Vec<Option<u8>>, i: (usize, &str),
     j: Vec<[i32; 2]>, k: HashMap<String, i32>, l: BTreeSet<u64>, m: u8, n: bool)
     -> (Vec<f64>, HashMap<String, Option<i32>>, bool, Option<&'static str>, char) {
    let lengths = b.len() + d.len() + e.len() + i.0 + j.len() + k["a"] as usize + l.len() + m as usize;
    let sum = a.iter().sum::<i64>() as f64 + c.iter().map(|x| *x as f64).sum::<f64>() + lengths as f64;
    (vec![sum / 10.0], HashMap::from([(String::from("k"), None)]), n && h[1].is_none(), None, g)
}
"""


@pytest.mark.skipif(not HAVE_RUSTC, reason="rustc not installed")
def test_typed_arguments_of_many_shapes_compile_and_compare(tmp_path: Path) -> None:
    query = (
        ">>> f([1, 2], 'ab', [1, 2.5], 'x', ['a'], 'b', [1, None], (1, 'x'), [[1, 2]], {'a': 1}, [2, 2], 'a', True)\n([11.15], {'k': None}, True, None, 'b')\n"
    )
    programs = {"same": SHAPES, "other": SHAPES.replace("sum / 10.0", "sum / 9.0")}
    request = RerankRequest(
        queries={"q": query}, candidates={"q": tuple(programs)}, documents=programs, doc_language=dict.fromkeys(programs, "rust"), query_language={"q": "rust"}
    )
    reranker = ExecReranker(OracleConfig(workers=2, cache_path=tmp_path / "v.sqlite", progress=False), progress=False)
    reranker.use_task(get_spec("t2c-full"))
    assert reranker.score(request)["q"] == {"same": 1.0, "other": 0.0}
