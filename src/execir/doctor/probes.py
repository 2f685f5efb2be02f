"""The tiny programs ``execir doctor`` judges in each language: a correct one that must PASS and a
wrong one that must FAIL, judged outside (with the task's reference), and one probe per library the
public task sets import (Rust's ``rand``, ``regex`` and ``md5`` crates, C++'s boost and OpenSSL,
Go's testify, JavaScript's ``js-md5``, PHP's mbstring), each with the packages that bring it."""

from __future__ import annotations

from dataclasses import dataclass

from execir.execute.attacks import (
    adversarial,
    adversarial_cpp_split,
    adversarial_go,
    adversarial_java,
    adversarial_js,
    adversarial_php,
    adversarial_ruby,
    adversarial_rust,
    adversarial_ts,
)
from execir.types import TestSuite, Verdict

MD5_OF_ABC = "900150983cd24fb0d6963f7d28e17f72"


@dataclass(frozen=True)
class Probe:
    """One program of ``language`` judged against ``tests`` (``reference``: the task's trusted
    program, so native tests are judged outside); ``expected`` its verdict; ``fix`` what brings
    the piece it needs."""

    language: str
    name: str
    program: str
    tests: TestSuite
    entry_point: str
    reference: str
    expected: Verdict
    fix: str


def _pair(language: str, ok: str, wrong: str, tests: TestSuite, entry: str, reference: str, fix: str) -> tuple[Probe, ...]:
    return (
        Probe(language, "a correct program passes", ok, tests, entry, reference, Verdict.PASS, fix),
        Probe(language, "a wrong program fails", wrong, tests, entry, reference, Verdict.FAIL, fix),
    )


def _library(language: str, name: str, program: str, tests: TestSuite, entry: str, fix: str) -> Probe:
    return Probe(language, name, program, tests, entry, program, Verdict.PASS, fix)


def _cpp_suite(header: str, body: str) -> TestSuite:
    return TestSuite("native", f"{header}\n#undef NDEBUG\n#include<assert.h>\nint main(){{\n{body}}}\n")


_BOOST = "#include <boost/any.hpp>\nint unbox(int x){\n    boost::any a = x;\n    return boost::any_cast<int>(a);\n}\n"
_OPENSSL = (
    "#include <string>\n#include <openssl/md5.h>\nusing namespace std;\nstring md5hex(string s){\n    unsigned char d[16];\n"
    '    MD5((const unsigned char*)s.c_str(), s.size(), d);\n    char out[33];\n    for (int i = 0; i < 16; i++) sprintf(out + 2 * i, "%02x", d[i]);\n'
    "    return string(out);\n}\n"
)
_RUST_RAND = "use rand::Rng;\nfn pick(n: i32) -> i32 {\n    let zero: i32 = rand::thread_rng().gen_range(0..1);\n    n + zero\n}\n"
_RUST_MD5 = 'fn digest(s: &str) -> String {\n    format!("{:x}", md5::compute(s.as_bytes()))\n}\n'
_JS_MD5 = "const md5 = require('js-md5')\nconst digest = (s) => md5(s)\n"
_PHP_MB = "<?php\nfunction width($s) {\n    return mb_strlen($s, 'UTF-8');\n}\n"
_PYTHON_TESTS = TestSuite("check", "def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(-1, 1) == 0\n")

PROBES: tuple[Probe, ...] = (
    *_pair("python", adversarial.ADD_OK, adversarial.WRONG, _PYTHON_TESTS, "add", adversarial.ADD_OK, "python3.11"),
    *_pair(
        "cpp",
        adversarial_cpp_split.ADD,
        adversarial_cpp_split.ADD.replace("a + b", "a - b"),
        adversarial_cpp_split.ADD_TESTS,
        "add",
        adversarial_cpp_split.ADD,
        "g++",
    ),
    _library("cpp", "boost (boost::any)", _BOOST, _cpp_suite("int unbox(int x);\n", "    assert (unbox(4) == 4);\n"), "unbox", "libboost-dev"),
    _library(
        "cpp",
        "OpenSSL's MD5 (-lcrypto)",
        _OPENSSL,
        _cpp_suite("#include <string>\nusing namespace std;\nstring md5hex(string s);\n", f'    assert (md5hex("abc") == "{MD5_OF_ABC}");\n'),
        "md5hex",
        "libssl-dev",
    ),
    *_pair(
        "java",
        "import java.util.*;\n\nclass Solution {\n" + adversarial_java.RIGHT_ADD + "}\n",
        "import java.util.*;\n\nclass Solution {\n" + adversarial_java.WRONG_ADD + "}\n",
        adversarial_java.ADD_TESTS,
        "add",
        "import java.util.*;\n\nclass Solution {\n" + adversarial_java.RIGHT_ADD + "}\n",
        "default-jdk-headless",
    ),
    *_pair(
        "go",
        adversarial_go.ADD_REFERENCE,
        adversarial_go.ADD_REFERENCE.replace("a + b", "a - b"),
        adversarial_go.ADD_TESTS,
        "Add",
        adversarial_go.ADD_REFERENCE,
        "golang-go golang-github-stretchr-testify-dev",
    ),
    *_pair("js", adversarial_js.OK, adversarial_js.WRONG, adversarial_js.TESTS, "add", adversarial_js.OK, "nodejs"),
    _library(
        "js",
        "the npm package js-md5",
        _JS_MD5,
        TestSuite("native", f"console.assert(digest('abc') === '{MD5_OF_ABC}')\n"),
        "digest",
        "npm install -g js-md5@0.8.3",
    ),
    *_pair("ruby", adversarial_ruby.OK, adversarial_ruby.OK.replace("a + b", "a - b"), adversarial_ruby.TESTS, "add", adversarial_ruby.OK, "ruby"),
    *_pair("php", adversarial_php.OK, adversarial_php.WRONG, adversarial_php.TESTS, "add", adversarial_php.OK, "php-cli"),
    _library("php", "mbstring", _PHP_MB, TestSuite("native", adversarial_php.mbxp_tests("width", [('"h\u00e9llo"', "5")])), "width", "php-mbstring"),
    *_pair("typescript", adversarial_ts.ADD, adversarial_ts.WRONG, adversarial_ts.ADD_TESTS, "add", adversarial_ts.ADD, "npm install -g typescript@7.0.2"),
    *_pair(
        "rust",
        "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
        "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n",
        adversarial_rust.ADD_TESTS,
        "add",
        "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
        "rustc (rustup or Debian rustc)",
    ),
    _library("rust", "the crate rand", _RUST_RAND, adversarial_rust._suite("        assert_eq!(pick(3), 3);\n"), "pick", "librust-rand-dev"),
    _library(
        "rust",
        "the crate regex",
        'use regex::Regex;\nfn digits(s: &str) -> bool {\n    Regex::new(r"^[0-9]+$").unwrap().is_match(s)\n}\n',
        adversarial_rust._suite('        assert!(digits("123"));\n        assert!(!digits("12a"));\n'),
        "digits",
        "librust-regex+default-dev",
    ),
    _library("rust", "the crate md5", _RUST_MD5, adversarial_rust._suite(f'        assert_eq!(digest("abc"), "{MD5_OF_ABC}");\n'), "digest", "librust-md5-dev"),
)
"""Every probe, in the languages' order."""
