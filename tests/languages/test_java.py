"""Java: parsing, tokens, comments, descriptions and the Java spellings of the shared families."""

from __future__ import annotations

import pytest

from execir.languages import ParseError, get_language
from execir.languages.java import entry_point
from execir.mutate import generate_mutants

JAVA = get_language("java")

PROMPT = """import java.util.*;
import java.lang.*;

class Solution {
    /**
    Test if given string is a palindrome
     */
    public boolean isPalindrome(String string) {
        return true;
    }
    /**
    Return median of elements in the list l.
    >>> median(Arrays.asList(3, 1, 2, 4, 5))
    3
     */
    public double median(List<Integer> l) {
"""

PROGRAM = """import java.util.*;

class Solution {
    // sum of the positive elements
    public int sum(List<Integer> xs) {
        int total = 0; /* running */
        for (int i = 0; i < xs.size(); i++) {
            if (xs.get(i) > 0) {
                total += xs.get(i) >>> 1;
            }
        }
        return Math.max(total, 0);
    }
}
"""


def test_parse_rejects_broken_programs() -> None:
    with pytest.raises(ParseError, match="java"):
        JAVA.parse("class A { int f( { return 1; } }")
    assert JAVA.is_valid(PROGRAM)


def test_tokens_skip_both_comment_kinds() -> None:
    assert JAVA.tokens("int x = 1; // one\n/* two */ int y;\n") == ("int", "x", "=", "1", ";", "int", "y", ";")


def test_strip_comments_keeps_a_parsing_program() -> None:
    stripped = JAVA.strip_comments(PROGRAM)
    assert "//" not in stripped and "/*" not in stripped
    assert JAVA.is_valid(stripped) and JAVA.tokens(stripped) == JAVA.tokens(PROGRAM)


def test_describe_takes_the_last_javadoc_without_examples() -> None:
    assert JAVA.describe(PROMPT) == "Return median of elements in the list l."


def test_entry_point_is_the_last_opened_method() -> None:
    assert entry_point(PROMPT) == "median"


def test_java_spellings() -> None:
    operators = {(mutant.operator, mutant.edit.before, mutant.edit.after) for mutant in generate_mutants("t", PROGRAM, "java")}
    assert ("bitwise_swap", ">>>", ">>") in operators
    assert ("off_by_one", "i", "i + 1") in operators  # xs.get(i) indexes like a subscript
    assert ("min_max_swap", "max", "min") in operators
    assert ("call_unwrap", "Math.max(total, 0)", "total") in operators
    assert not any(operator == "call_unwrap" and after == "Math" for operator, _, after in operators)


def test_variable_misuse_respects_declared_types() -> None:
    source = "class A { int f(int a, String s) { int b = 0; return a + b; } }"
    afters = {mutant.edit.after for mutant in generate_mutants("t", source, "java", ["variable_misuse"])}
    assert afters == {"a", "b"}  # never the String s


def test_equals_identity_swap() -> None:
    source = 'class A { boolean f() { return a.equals(b) || !s.equals("x") || t.equals(u).hashCode() > 0; } }'
    edits = {(mutant.edit.before, mutant.edit.after) for mutant in generate_mutants("t", source, "java", ["equals_identity_swap"])}
    assert edits == {("a.equals(b)", "a == b"), ('!s.equals("x")', 's != "x"'), ("t.equals(u)", "(t == u)")}
    assert JAVA.family_of("equals_identity_swap") == "operator"
