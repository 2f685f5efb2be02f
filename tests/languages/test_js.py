"""JavaScript: parsing, comments, descriptions and the JavaScript spellings of the shared families."""

from __future__ import annotations

import pytest

from execir.languages import ParseError, get_language
from execir.languages.js import entry_point
from execir.mutate import generate_mutants

JS = get_language("js")

PROMPT = """/* Test if gniven strig is a palindrome */
const isPalindrome = (string) => {
  return string == string.split('').reverse().join('');
}

/*Return median of elements in the list l.
  >>> median([3, 1, 2, 4, 5])
  3
  */
const median = (l) => {
"""

PROGRAM = """// vowels at the end
const count = (s) => {
  let n = 0; /* so far */
  for (let i = 0; i < s.length; i++) {
    if (s[i] === 'a' || s[i] === 'e') { n += 1; }
  }
  return s.toUpperCase().endsWith('Y') ? n + 1 : n;
}
"""


def test_parse_rejects_broken_programs() -> None:
    with pytest.raises(ParseError, match="js"):
        JS.parse("const f = (a => { return 1; }")
    assert JS.is_valid(PROGRAM)


def test_strip_comments_and_describe() -> None:
    stripped = JS.strip_comments(PROGRAM)
    assert "//" not in stripped and "/*" not in stripped and JS.is_valid(stripped)
    assert JS.describe(PROMPT) == "Return median of elements in the list l."
    assert entry_point(PROMPT) == "median"
    assert entry_point("function isPrime(n) {\n") == "isPrime"


def test_js_spellings() -> None:
    operators = {(mutant.operator, mutant.edit.before, mutant.edit.after) for mutant in generate_mutants("t", PROGRAM, "js")}
    assert ("compare_swap", "===", "!==") in operators
    assert ("method_swap", "toUpperCase", "toLowerCase") in operators
    assert ("method_swap", "endsWith", "startsWith") in operators
    assert ("not_insert", "s.toUpperCase().endsWith('Y')", "!(s.toUpperCase().endsWith('Y'))") in operators
    assert ("string_edit", "''", "' '") not in operators  # no empty string in the program
    assert ("bool_operand_delete", " || s[i] === 'e'", "") in operators


def test_variable_misuse_uses_initializer_types() -> None:
    source = "const f = (xs) => {\n  let n = 0;\n  let m = 1;\n  let s = 'a';\n  return n + m;\n}\n"
    afters = {(mutant.edit.before, mutant.edit.after) for mutant in generate_mutants("t", source, "js", ["variable_misuse"])}
    assert ("n", "m") in afters and ("n", "xs") in afters  # xs has no known type
    assert ("n", "s") not in afters  # a string for a number
