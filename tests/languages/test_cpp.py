"""C++: parsing, tokens, comments, descriptions and the C++ spellings of the shared families."""

from __future__ import annotations

import pytest

from execir.languages import ParseError, get_language
from execir.languages.cpp import entry_point
from execir.mutate import generate_mutants

CPP = get_language("cpp")

PROMPT = """/*
Return median of elements in the vector l.
>>> median({3, 1, 2, 4, 5})
3
*/
#include<stdio.h>
#include<vector>
using namespace std;
float median(vector<float> l){
"""

PROGRAM = """#include<vector>
using namespace std;
// count the positives
int count(vector<int> xs){
    int n = 0; /* running total */
    for (int i = 0; i < xs.size(); i++)
        if (xs[i] > 0 and n >= 0) n += 1;
    return n;
}
"""


def test_parse_rejects_broken_programs() -> None:
    with pytest.raises(ParseError, match="cpp"):
        CPP.parse("int f( { return 1; }")
    assert CPP.is_valid(PROGRAM) and not CPP.is_valid("int f( {")


def test_tokens_skip_comments_and_layout() -> None:
    assert CPP.tokens("int  x = 1; // one\n") == ("int", "x", "=", "1", ";")


def test_strip_comments_keeps_a_parsing_program() -> None:
    stripped = CPP.strip_comments(PROGRAM)
    assert "//" not in stripped and "/*" not in stripped
    assert "    int n = 0;\n" in stripped
    assert CPP.is_valid(stripped) and CPP.tokens(stripped) == CPP.tokens(PROGRAM)


def test_describe_takes_the_doc_comment_without_examples() -> None:
    assert CPP.describe(PROMPT) == "Return median of elements in the vector l."


def test_entry_point_is_the_last_opened_function() -> None:
    assert entry_point(PROMPT) == "median"
    assert entry_point("bool f(int a){\n return a;\n}\nint g(string s){\n") == "g"


def test_keyword_operators_and_mirrors() -> None:
    operators = {(mutant.operator, mutant.edit.before, mutant.edit.after) for mutant in generate_mutants("t", PROGRAM, "cpp")}
    assert ("bool_swap", "and", "or") in operators
    assert ("compare_swap", ">", ">=") in operators
    assert ("off_by_one", "i", "i + 1") in operators
    assert ("augassign_swap", "+=", "-=") in operators
    assert ("statement_delete", "n += 1;", ";") in operators


def test_every_mutant_is_a_distinct_parsing_program() -> None:
    mutants = generate_mutants("t", PROGRAM, "cpp")
    assert len({mutant.text for mutant in mutants}) == len(mutants) > 20
    assert all(CPP.is_valid(mutant.text) for mutant in mutants)
