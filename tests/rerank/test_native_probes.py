"""Agreement probes of native candidates: writing them (pure), the oracle's digest, and real runs."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from execir.dataset.spec import get_spec
from execir.execute import OracleConfig
from execir.execute.decide import PROBE_BITS, PROBE_MARK, probe_digest_bits
from execir.rerank.base import RerankRequest
from execir.rerank.execution.agreement import fingerprint, plan_probes
from execir.rerank.execution.examples import extract_examples
from execir.rerank.execution.exec_plan import plan_runs
from execir.rerank.execution.native_probes import native_probe_arguments, native_probe_suite
from execir.rerank.execution.reranker import ExecReranker


def _bits(text: bytes) -> tuple[bool, ...]:
    digest = hashlib.sha256(text).digest()
    return tuple((digest[bit // 8] >> (bit % 8)) & 1 == 1 for bit in range(PROBE_BITS))


def test_the_digest_reads_marked_lines_only_and_the_first_line_of_each_probe() -> None:
    stdout = f"debug\n{PROBE_MARK} 1 i:7\nnoise {PROBE_MARK} 0 i:9\n{PROBE_MARK} 0 i:5\n{PROBE_MARK} 0 i:6\n{PROBE_MARK} 9 i:1\n".encode()
    bits = probe_digest_bits(stdout, 3)
    assert len(bits) == 3 * PROBE_BITS
    assert bits[:PROBE_BITS] == _bits(b"i:5")
    assert bits[PROBE_BITS : 2 * PROBE_BITS] == _bits(b"i:7")
    assert bits[2 * PROBE_BITS :] == _bits(b"\x00missing")  # a probe with no line
    assert probe_digest_bits(b"debug\n" + stdout, 3) == bits  # the candidate's own output changes nothing


def test_cpp_probes_never_empty_an_argument() -> None:
    examples = extract_examples('>>> total({3, 1, 1}, "ab")\n6\n', "cpp")
    arguments = native_probe_arguments(examples, "cpp")
    assert arguments[:3] == ("[1, 1, 3], 'ab'", "[3, 1, 1], 'ba'", "[1, 1], 'ab'")  # a brace list is a vector: order and duplicates kept
    assert not any("[]" in args or "''" in args for args in arguments)
    one = ">>> total({3})\n3\n"
    assert native_probe_arguments(extract_examples(one.replace("{3}", "[3]"), "js"), "js") == ("[]", "[3, 3]")
    assert native_probe_arguments(extract_examples(one, "cpp"), "cpp") == ("[3, 3]",)


def test_typed_languages_need_the_candidates_signature() -> None:
    examples = extract_examples("// >>> Add(2, 3)\n// 5\n", "go")
    arguments = native_probe_arguments(examples, "go")
    assert native_probe_suite(examples, "go", "package main\n\nfunc Other(x int) int {\n\treturn x\n}\n", arguments) is None
    assert native_probe_suite(examples, "go", "package main\n\nfunc Add(x int, y int) {\n}\n", arguments) is None  # no result
    suite = native_probe_suite(examples, "go", GO["correct"], arguments)
    assert suite is not None and suite.kind == "probe"
    assert len(suite.asserts) == len(arguments) and suite.asserts[0].startswith("Add(")
    java = extract_examples("/**\n >>> add(2, 3)\n 5\n */\n", "java")
    written = native_probe_suite(java, "java", JAVA["correct"], native_probe_arguments(java, "java"))
    assert written is not None and written.asserts[0].startswith("s.add(")


def test_python_languages_are_not_probed_natively() -> None:
    examples = extract_examples(">>> add(2, 3)\n5\n")
    assert native_probe_suite(examples, "python", "def add(x, y):\n    return x + y\n", ("1, 2",)) is None


def test_only_passing_native_candidates_of_a_query_with_two_are_probed() -> None:
    from execir.execute import ExecResult
    from execir.types import Verdict

    programs = dict(RUBY)
    request = RerankRequest(
        queries={"q": RUBY_QUERY},
        candidates={"q": tuple(programs)},
        documents=programs,
        doc_language=dict.fromkeys(programs, "ruby"),
        query_language={"q": "ruby"},
    )
    examples = {"q": extract_examples(RUBY_QUERY, "ruby")}
    runs = plan_runs(request, examples).runs
    passed = ExecResult(Verdict.PASS, 0.1, 0.1, (True,), "tests completed", "", "bwrap")
    failed = ExecResult(Verdict.FAIL, 0.1, 0.1, (False,), "exit status 1", "", "bwrap")
    probes = plan_probes(runs, [passed, failed, passed, failed][: len(runs)], examples)
    assert [run.doc_id for run in probes] == [runs[0].doc_id, runs[2].doc_id]
    assert all(run.job.tests.kind == "probe" for run in probes)
    assert plan_probes(runs, [passed] + [failed] * (len(runs) - 1), examples) == ()
    bits = (True,) * (PROBE_BITS * len(probes[0].job.tests.asserts))
    assert fingerprint(probes[0], ExecResult(Verdict.PASS, 0.1, 0.1, bits, "probes", "", "bwrap")) == bits
    assert fingerprint(probes[0], ExecResult(Verdict.PASS, 0.1, 0.1, bits[1:], "probes", "", "bwrap")) is None
    assert fingerprint(probes[0], failed) is None


def _score(tmp_path: Path, query: str, programs: dict[str, str], language: str, unclean: int = 0) -> dict[str, float]:
    request = RerankRequest(
        queries={"q": query},
        candidates={"q": tuple(programs)},
        documents=programs,
        doc_language=dict.fromkeys(programs, language),
        query_language={"q": language},
    )
    reranker = ExecReranker(OracleConfig(workers=2, cache_path=tmp_path / "v.sqlite", progress=False), progress=False)
    reranker.use_task(get_spec("t2c-full"))
    scores = reranker.score(request)["q"]
    extra = reranker.stats().extra
    assert extra["queries_probed"] == 1 and extra["probes_unclean"] == unclean and extra["queries_split_by_probes"] == 1
    return scores


# Two correct programs written differently (one prints while it works) and a mutant that passes the
# example (2 * 3 - 1 == 5) but not the probes: the correct pair agrees and comes first.
AGREED = {"correct": 1.5, "other": 1.5, "mutant": 1.25}

JS_QUERY = "Add two numbers.\n>>> add(2, 3)\n5\n"
JS = {
    "correct": "const add = (x, y) => x + y;\n",
    "other": "function add(x, y) {\n  console.log('adding');\n  let s = x;\n  s += y;\n  return s;\n}\n",
    "mutant": "const add = (x, y) => x * y - 1;\n",
}
CPP_QUERY = "Add two numbers.\n>>> add(2, 3)\n5\n"
CPP = {
    "correct": "int add(int x, int y) { return x + y; }\n",
    "other": '#include <cstdio>\nlong add(long x, long y) {\n  std::printf("adding\\n");\n  return y + x;\n}\n',
    "mutant": "int add(int x, int y) { return x * y - 1; }\n",
}
GO_QUERY = "// Add two numbers.\n// >>> Add(2, 3)\n// 5\nfunc Add(x int, y int) int {\n"
GO = {
    "correct": "package main\n\nfunc Add(x int, y int) int {\n\treturn x + y\n}\n",
    "other": 'package main\n\nimport "fmt"\n\nfunc Add(x, y int64) int64 {\n\tfmt.Println("adding")\n\treturn y + x\n}\n',
    "mutant": "package main\n\nfunc Add(x int, y int) int {\n\treturn x*y - 1\n}\n",
}
JAVA_QUERY = "/**\n Add two numbers.\n >>> add(2, 3)\n 5\n */\n"
JAVA = {
    "correct": "class Solution {\n    public int add(int x, int y) {\n        return x + y;\n    }\n}\n",
    "other": 'class Solution {\n    public long add(long x, long y) {\n        System.out.println("adding");\n        return y + x;\n    }\n}\n',
    "mutant": "class Solution {\n    public int add(int x, int y) {\n        return x * y - 1;\n    }\n}\n",
}
RUBY_QUERY = "Add two numbers.\nirb> add(2, 3)\n=> 5\n"
RUBY = {
    "correct": "def add(x, y)\n  x + y\nend\n",
    "other": "def add(x, y)\n  puts 'adding'\n  [x, y].sum\nend\n",
    "mutant": "def add(x, y)\n  x * y - 1\nend\n",
}


@pytest.mark.parametrize(
    ("tool", "query", "programs", "language"),
    [
        ("node", JS_QUERY, JS, "js"),
        ("g++", CPP_QUERY, CPP, "cpp"),
        ("go", GO_QUERY, GO, "go"),
        ("javac", JAVA_QUERY, JAVA, "java"),
        ("ruby", RUBY_QUERY, RUBY, "ruby"),
    ],
)
def test_candidates_that_agree_come_first(tmp_path: Path, tool: str, query: str, programs: dict[str, str], language: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} not installed")
    assert _score(tmp_path, query, programs, language) == AGREED


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_a_candidate_that_exits_or_forges_a_line_on_a_probe_agrees_with_nobody(tmp_path: Path) -> None:
    exits = {**JS, "mutant": "const add = (x, y) => {\n  if (x === 3) process.exit(0);\n  return x + y;\n};\n"}
    assert _score(tmp_path, JS_QUERY, exits, "js", unclean=1) == AGREED
    forged = f"const add = (x, y) => {{\n  if (x === 3) console.log('{PROBE_MARK} 0 n:6');\n  return x * y - 1;\n}};\n"
    assert _score(tmp_path, JS_QUERY, {**JS, "mutant": forged}, "js") == AGREED  # its own lines come first only for itself


FLOATS_QUERY = "/**\n >>> scale(Arrays.asList(3.0, 6.0), 3.0)\n [1.0, 2.0]\n */\n"
FLOATS = {
    "correct": (
        "import java.util.*;\nclass Solution {\n    public List<Double> scale(List<Double> v, double f) {\n"
        "        List<Double> out = new ArrayList<>();\n        for (double x : v) out.add(x / f);\n        return out;\n    }\n}\n"
    ),
    "other": (
        "import java.util.*;\nclass Solution {\n    public double[] scale(List<Double> v, double f) {\n"
        "        double[] out = new double[v.size()];\n        for (int i = 0; i < out.length; i++) out[i] = v.get(i) * (1.0 / f);\n"
        "        return out;\n    }\n}\n"
    ),
    "mutant": (
        "import java.util.*;\nclass Solution {\n    public List<Double> scale(List<Double> v, double f) {\n"
        "        List<Double> out = new ArrayList<>();\n        for (double x : v) out.add(Math.floor(x / f));\n        return out;\n    }\n}\n"
    ),
}


@pytest.mark.skipif(shutil.which("javac") is None, reason="javac not installed")
def test_java_floats_agree_within_their_precision_and_lists_equal_arrays(tmp_path: Path) -> None:
    assert _score(tmp_path, FLOATS_QUERY, FLOATS, "java") == AGREED
