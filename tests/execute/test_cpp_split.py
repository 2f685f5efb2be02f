"""C++ judged outside: the token-level source edits, the wire codec (compiled and run on the host:
exact floats, exact bytes, strict decoding), the trusted judge's translation unit, and the oracle's
rounds and protocol choice."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.attacks.adversarial_cpp_split import ADD, ADD_TESTS, NEXT_TESTS, POINTER_TESTS, REFERENCES, SORT_TESTS, STRUCT_TESTS
from execir.execute.runtimes import cpp, cpp_source, cpp_split
from execir.execute.runtimes.base import HARNESS
from execir.types import Verdict

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
LIMITS = Limits(2.0, 8.0)


def test_rename_skips_comments_literals_and_other_names():
    code = "int add(int a){ // add\n  return add2(a) + add(a - 1); } const char *s = \"add\"; char c = 'a';"
    assert cpp_source.rename(code, {"add": "x"}) == "int x(int a){ // add\n  return add2(a) + x(a - 1); } const char *s = \"add\"; char c = 'a';"


def test_trusted_code_cannot_define_ndebug():
    assert cpp_source.trusted("#define NDEBUG\n#include<assert.h>\n") == f"#define {cpp_source.NDEBUG_OFF}\n#include<assert.h>\n"


def test_definition_header_and_parameter_names():
    code = "/* doc; } */\n#include<vector>\nusing namespace std;\nstatic vector<int> f(const vector<int> &v, int k = 2) { return v; }\n"
    found = cpp_source.definition(code, "f")
    assert found == cpp_source.Definition("static vector<int> f(const vector<int> &v, int k = 2)", ("v", "k"))
    assert cpp_source.definition("int f(int);\nint f(int){ return 1; }\n", "f") is None  # an unnamed parameter
    assert cpp_source.definition("int f(int a);\n", "f") is None  # no definition
    assert cpp_source.definition("auto f(int a) -> int { return a; }\n", "f") == cpp_source.Definition("auto f(int a) -> int", ("a",))


def test_entry_name_prefers_the_hint_then_the_last_called_definition():
    reference = "string encode(string s){ return s; }\nstring decode(string s){ return s; }\n"
    tests = "int main(){ assert (decode(encode(x)) == x); }\n"
    assert cpp_source.entry_name(reference, tests, "encode") == "encode"
    assert cpp_source.entry_name(reference, tests, "misspelled") == "decode"
    assert cpp_source.entry_name(reference, "int main(){}\n", "") is None


def test_replayable_signatures_name_only_standard_types():
    assert cpp_split.replayable("std::vector<float, std::allocator<float> > (std::vector<float, std::allocator<float> >, float)")
    assert not cpp_split.replayable("boost::any (boost::any, boost::any)")
    assert not cpp_split.replayable("Node* (Node*)")


def test_judge_source_keeps_the_tests_and_copies_the_definition():
    entry, reference = REFERENCES[SORT_TESTS.code]
    source = cpp_split.judge_source(reference, SORT_TESTS.code, entry)
    assert source is not None
    assert "void execir_reference_sort_in_place(vector<int> &v){" in source
    assert "void sort_in_place(vector<int> &v) { return execir_entry_sort_in_place(v); }" in source
    assert source.endswith(cpp_source.trusted(SORT_TESTS.code) + "\n")


WIRE_PROGRAM = r"""
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>
#include "execir_wire.h"
using namespace std;
template <class T> static T back(const T &v, bool lenient = false) {
    string text;
    execir_wire::put(text, v);
    T out{};
    execir_wire::Reader r = {text.data(), text.data() + text.size(), lenient};
    if (!execir_wire::get(r, out) || r.p != r.end) printf("undecodable %s\n", text.c_str());
    return out;
}
template <class T> static bool rejects(const string &text) {
    T out{};
    execir_wire::Reader r = {text.data(), text.data() + text.size(), false};
    return !execir_wire::get(r, out) || r.p != r.end;
}
int main() {
    string text;
    execir_wire::put(text, 0.1);
    execir_wire::put(text, -0.0f);
    execir_wire::put(text, string("a\"\\\xff\n", 5));
    execir_wire::put(text, vector<pair<int, string>>{{1, "x"}});
    execir_wire::put(text, map<string, vector<long long>>{{"k", {-9223372036854775807LL - 1}}});
    execir_wire::put(text, make_tuple(true, 'a', 18446744073709551615ULL));
    printf("%s\n", text.c_str());
    printf("%d", back(0.1) == 0.1);
    printf("%d", signbit(back(-0.0)) && back(-0.0) == 0);
    printf("%d", std::isnan(back(NAN)) && back(-INFINITY) == -INFINITY);
    printf("%d", back(1e-45f) == 1e-45f && back(3.3L) == 3.3L);
    printf("%d", back(string("\x00\xfe\x80z", 4)) == string("\x00\xfe\x80z", 4));
    printf("%d", back(vector<vector<int>>{{1}, {}, {2, 3}}) == vector<vector<int>>{{1}, {}, {2, 3}});
    printf("%d", rejects<int>("2147483648") && rejects<unsigned>("-1") && rejects<int>("\"0x1.8p+0\"") && !rejects<int>("\"0x1p+1\""));
    printf("%d", rejects<vector<int>>("[[1]]") && rejects<string>("\"\\u0100\"") && rejects<string>("\"\xc3\xa9\"") && rejects<int>("[1]"));
    printf("%d", rejects<vector<int>>(string(100000, '[')) && rejects<bool>("\"true\"") && !rejects<bool>("2") && rejects<double>("\"1.5x\""));
    printf("%d\n", back(3.9, true) == 3.9 && back<int>(7, true) == 7);
}
"""


@needs_gxx
def test_wire_round_trips_exactly_and_rejects_strictly(tmp_path):
    (tmp_path / "execir_wire.h").write_text((HARNESS / "cpp_wire.h").read_text())
    (tmp_path / "wire.cpp").write_bytes(WIRE_PROGRAM.encode("latin-1"))
    subprocess.run(["g++", "-std=c++11", "-Wall", "-Werror", "-Wno-unused-function", "wire.cpp", "-o", "wire"], cwd=tmp_path, check=True)
    lines = subprocess.run(["./wire"], cwd=tmp_path, capture_output=True, check=True).stdout.decode("ascii").splitlines()
    assert lines[0] == ('"0x1.999999999999ap-4""-0x0p+0""a\\"\\\\\\u00ff\\u000a"[[1,"x"]][["k",[-9223372036854775808]]][true,97,18446744073709551615]')
    assert lines[1] == "1" * 10


@pytest.fixture(scope="module")
def oracle():
    with Oracle(OracleConfig(workers=2, progress=False)) as running:
        yield running


def _job(program, tests, reference=None):
    entry, found = REFERENCES[tests.code]
    return Job(program, tests, entry, LIMITS, language="cpp", reference=found if reference is None else reference)


@needs_gxx
def test_rounds_protocols_and_mutation(oracle):
    jobs = [
        _job("int next_of(int x){ return x + 1; }\n", NEXT_TESTS),
        _job("int next_of(int x){ return x == 4 ? 6 : x + 1; }\n", NEXT_TESTS),  # a later round decides
        _job(ADD, POINTER_TESTS),  # the entry's address taken
        _job("struct Point { int x, y; };\nint manhattan(Point p){ return abs(p.x) + abs(p.y); }\n", STRUCT_TESTS),  # in-process
        _job(ADD, ADD_TESTS, reference=""),  # no reference: in-process
        _job("#include<vector>\n#include<algorithm>\nvoid sort_in_place(std::vector<int> &v){ std::sort(v.begin(), v.end()); }\n", SORT_TESTS),
    ]
    got = [(r.verdict, r.protocol) for r in oracle.run(jobs)]
    assert got == [
        (Verdict.PASS, "judged-outside"),
        (Verdict.FAIL, "judged-outside"),
        (Verdict.PASS, "judged-outside"),
        (Verdict.PASS, "in-process"),
        (Verdict.PASS, "in-process"),
        (Verdict.PASS, "judged-outside"),
    ]


def test_runtime_exposes_the_split_plans():
    assert cpp.RUNTIME.record_plan.__func__ is not cpp.Runtime.record_plan  # type: ignore[attr-defined]
