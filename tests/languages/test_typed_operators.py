"""Type-aware C++ and Java operators: candidates the compiler would reject are not proposed, the
ones it accepts still are (each case was a non-compiling mutant of a HumanEval-X build before)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from execir.edits import splice
from execir.languages import get_language
from execir.languages.cpp.grammar import GRAMMAR as CPP_GRAMMAR
from execir.languages.java.grammar import GRAMMAR as JAVA_GRAMMAR
from execir.languages.treesitter.families.types import Typing, assignable, compact, element_type


def edits(language: str, operator: str, source: str) -> list[tuple[str, str]]:
    lang = get_language(language)
    return sorted({(source[edit.start : edit.end], edit.after) for _, edit in lang.candidates(source, [operator])})


CASES = [
    # receiver_swap: receiver and argument of one declared type only
    ("cpp", "receiver_swap", "void f(vector<string> all, string cur) { all.push_back(cur); }", []),
    ("cpp", "receiver_swap", "bool f(string s, string t) { return s.find(t) == 0; }", [("s.find(t", "t.find(s")]),
    ("java", "receiver_swap", "class A { boolean f(String a, String b) { return a.equals(b); } }", [("a.equals(b", "b.equals(a")]),
    ("java", "receiver_swap", "class A { int f(List<Integer> xs, int i) { return xs.get(i); } }", []),
    # call_unwrap: the kept expression's type stands for the call's result
    ("cpp", "call_unwrap", "int f(vector<int> v) { for (int i = 0; i < v.size(); i++) {} return abs(v[0]); }", [("abs(v[0])", "v[0]")]),
    ("cpp", "call_unwrap", "void f(vector<int> v) { v.push_back(1); }", [("v.push_back(1)", "v")]),  # a bare statement compiles in C++
    ("java", "call_unwrap", "class A { void f(List<Integer> xs) { xs.add(1); } }", []),  # ``xs;`` is not a Java statement
    (
        "java",
        "call_unwrap",
        "class A { String f(String s, StringBuilder b) { return b.reverse().toString() + s.trim(); } }",
        [("b.reverse()", "b"), ("s.trim()", "s")],
    ),
    ("java", "call_unwrap", "class A { int f(String s) { return Integer.parseInt(s) + String.valueOf(s).length(); } }", []),
    (
        "java",
        "call_unwrap",
        "class A { int f(List<Integer> l) { return Collections.max(l) + Math.max(l.get(0), 1); } }",
        [("Math.max(l.get(0), 1)", "1"), ("Math.max(l.get(0), 1)", "l.get(0)")],
    ),
    # term_insert: never into a string
    ("cpp", "term_insert", "string f(string a, string b) { string c = a + b; return c; }", []),
    ("cpp", "term_insert", "int f(int a, int b) { return a * b; }", [("a * b", "a * b + 1"), ("a * b", "a * b - 1")]),
    ("java", "term_insert", "class A { int f(String s, int n) { String t = s + n; return n * 2; } }", [("n * 2", "n * 2 + 1"), ("n * 2", "n * 2 - 1")]),
    (
        "java",
        "term_insert",
        "class A { boolean f(char c) { return (c - '0') % 2 == 0; } }",
        [("(c - '0') % 2", "(c - '0') % 2 + 1"), ("(c - '0') % 2", "(c - '0') % 2 - 1"), ("c - '0'", "c - '0' + 1"), ("c - '0'", "c - '0' - 1")],
    ),
    ("cpp", "return_swap", "int f(int a, int b) { if (a) return a; return b; }", [("a; return b", "b; return a")]),
    ("cpp", "return_swap", "int f(int a) { if (a) return 0; int n = a * 2; return n; }", []),  # n is declared after the first return
    ("java", "return_swap", "class A { int f(int[] v) { for (int i : v) { if (i > 0) return i; } return 0; } }", []),
    # arg_delete: only calls with an overload taking fewer arguments
    ("cpp", "arg_delete", "string f(string s, int i) { return s.substr(i, 2) + to_string(max(i, 1)); }", [(", 2", ""), ("i, ", "")]),
    ("java", "arg_delete", 'class A { int f(String s) { return s.indexOf("a", 2) + Math.max(1, 2); } }', [(", 2", "")]),  # the needed argument stays
    # method_swap: begin/end change together; std::find has no rfind
    ("cpp", "method_swap", "void f(vector<int> v) { sort(v.begin(), v.end()); }", [("begin(), v.end", "rbegin(), v.rend")]),
    # (find's iterator result would change type; std::find has no rfind)
    ("cpp", "method_swap", "int f(vector<int> v, string s) { return *find(v.begin(), v.end(), 3) + s.find('a'); }", [("find", "rfind")]),
    # attribute_swap: only names used on a value of the same declared type
    ("cpp", "attribute_swap", "int f(vector<int> v, string s) { return v.size() + s.length(); }", []),
    ("cpp", "attribute_swap", "int f(string s, string t) { return s.size() + t.length(); }", [("length", "size"), ("size", "length")]),
    ("java", "attribute_swap", "class A { int f(List<Integer> v, String s) { return v.size() + s.length(); } }", []),
]


@pytest.mark.parametrize(("language", "operator", "source", "expected"), CASES)
def test_typed_operator_edits(language: str, operator: str, source: str, expected: list[tuple[str, str]]) -> None:
    assert edits(language, operator, source) == expected


def test_types_of_declarations_calls_and_subscripts() -> None:
    source = "int f(const vector<float>& xs, string s, map<string, int> m) { auto a = xs[0]; return s.size() + m[s] + xs.front(); }"
    program = get_language("cpp").parse(source)
    typing = Typing(program, CPP_GRAMMAR)
    found = {program.source(node): typing.of(node) for node in program.walk(["subscript_expression", "call_expression"])}
    assert found == {"xs[0]": "float", "s.size()": "int", "m[s]": "int", "xs.front()": "float"}
    assert compact("const std::vector < int > &") == "vector<int>"
    assert element_type("Map<String,List<Integer>>") == "List<Integer>" and element_type("int[]") == "int" and element_type("int") is None


def test_assignable_follows_each_language() -> None:
    assert assignable(CPP_GRAMMAR, "int", "double") and assignable(CPP_GRAMMAR, "bool", "int")
    assert not assignable(CPP_GRAMMAR, "int", "string") and not assignable(CPP_GRAMMAR, "int", None)
    assert assignable(JAVA_GRAMMAR, "double", "int") and assignable(JAVA_GRAMMAR, "int", "Integer")
    assert not assignable(JAVA_GRAMMAR, "int", "double") and not assignable(JAVA_GRAMMAR, "long", "String")


CPP_PROGRAM = """#include<vector>
#include<string>
#include<algorithm>
#include<math.h>
using namespace std;
int helper(int n) { return n * 2; }
int pick(int a, int b) { if (a > b) return a; return b; }
vector<string> split_words(string txt, vector<int> lengths) {
    vector<string> out;
    string current = "";
    for (int i = 0; i < txt.length(); i++) {
        if (txt[i] == ' ') { out.push_back(current); current = current.substr(0, 0); }
        else current = current + txt[i];
    }
    sort(lengths.begin(), lengths.end());
    if (find(lengths.begin(), lengths.end(), helper(abs(lengths[0]))) != lengths.end()) out.push_back(txt.substr(1, 2));
    if (txt.find(current) == txt.rfind(current)) return out;
    for (int k = 0; k < out.size(); k++) if (out[k].size() > lengths.size()) return vector<string>{out[k]};
    return {current};
}
int main() { split_words("a b", {1}); }
"""

JAVA_PROGRAM = """import java.util.*;
class Solution {
    boolean same(String a, String b) { if (a.length() > b.length()) return a.equals(b); return a.trim().equals(b.toLowerCase()); }
    public List<String> words(String txt, List<Integer> lengths, int[] counts) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < txt.length(); i++) {
            if (txt.charAt(i) == ' ') { out.add(current.toString()); current = new StringBuilder(); }
            else current.append(txt.charAt(i));
        }
        Collections.sort(lengths);
        if (txt.indexOf(current.toString(), 1) == Math.abs(lengths.get(0) - counts[0])) out.add(txt.substring(1, 2).trim());
        if (txt.equals(current.toString().toUpperCase())) return out;
        for (int k = 0; k < out.size(); k++) { if (out.get(k).length() > lengths.size()) return Arrays.asList(out.get(k)); }
        return new ArrayList<>(Arrays.asList(String.valueOf(Math.sqrt(counts.length))));
    }
}
public class Main { public static void main(String[] args) { new Solution().words("a b", new ArrayList<>(List.of(1)), new int[] {1}); } }
"""

OPERATORS = ("arg_delete", "attribute_swap", "call_unwrap", "method_swap", "receiver_swap", "return_swap", "term_insert")


def _compiles(language: str, text: str, folder: Path) -> bool:
    if language == "cpp":
        path = folder / "main.cpp"
        path.write_text(text, encoding="utf-8")
        return subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-w", str(path)], capture_output=True, check=False).returncode == 0
    path = folder / "Main.java"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(["javac", "-nowarn", "-d", str(folder / "out"), str(path)], capture_output=True, check=False).returncode == 0


@pytest.mark.parametrize(("language", "program", "compiler"), [("cpp", CPP_PROGRAM, "g++"), ("java", JAVA_PROGRAM, "javac")])
def test_typed_candidates_compile(language: str, program: str, compiler: str, tmp_path: Path) -> None:
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} not installed")
    lang = get_language(language)
    assert _compiles(language, program, tmp_path)
    produced = {operator: 0 for operator in OPERATORS}
    failing = []
    for operator, edit in lang.candidates(program, OPERATORS):
        mutated = splice(program, edit)
        produced[operator] += 1
        if not _compiles(language, mutated, tmp_path):
            failing.append((operator, program[edit.start : edit.end], edit.after))
    assert failing == []
    assert all(produced.values()), produced
