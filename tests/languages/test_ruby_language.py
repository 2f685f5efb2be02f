"""The Ruby language: registry entry, parsing, tokens, comment stripping and prompt descriptions
(checked against MBXP's own ``description`` field when ../shared/data is present)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from execir.languages import FAMILIES, ParseError, get_language, select_operators
from execir.languages.ruby import RUBY
from tests.conftest import SHARED_DATA

MBXP_RUBY = SHARED_DATA / "mxeval" / "mbxp" / "mbrbp_release_v1.2.jsonl"

PROMPT = """
##
# You are an expert Ruby programmer, and here is your task.
# # Write a function to find the similar elements from the given two tuple lists.
#
# irb> similar_elements([3, 4, 5, 6], [5, 7, 4, 10])
# => [4, 5]
# irb> similar_elements([1, 2, 3, 4], [5, 4, 3, 7])
# => [3, 4]
def similar_elements(test_tup1, test_tup2)"""

STABLE_NAMES = (
    "arg_delete",
    "arg_swap",
    "arith_swap",
    "attribute_swap",
    "augassign_swap",
    "binary_operand_delete",
    "bitwise_swap",
    "bool_operand_delete",
    "bool_swap",
    "call_unwrap",
    "compare_flip",
    "compare_swap",
    "condition_const",
    "const_decr",
    "const_incr",
    "const_zero_one",
    "element_delete",
    "guard_delete",
    "loop_control_swap",
    "method_swap",
    "min_max_swap",
    "not_insert",
    "not_remove",
    "off_by_one",
    "operand_swap",
    "range_swap",
    "return_bool_flip",
    "return_const",
    "statement_delete",
    "subscript_swap",
    "term_insert",
    "unary_minus_remove",
    "variable_misuse",
)


def test_registry_and_stable_operator_names() -> None:
    assert get_language("ruby") is RUBY and RUBY.name == "ruby"
    assert RUBY.operator_names == STABLE_NAMES
    assert all(RUBY.family_of(name) in FAMILIES for name in STABLE_NAMES)
    assert {RUBY.family_of(name) for name in STABLE_NAMES} == set(FAMILIES)
    assert select_operators(RUBY, "function") == ("attribute_swap", "method_swap", "min_max_swap")


def test_parse_and_is_valid() -> None:
    program = RUBY.parse("def f(x)\n  x + 1\nend\n")
    assert program.root.type == "program"
    assert RUBY.is_valid("x = [1, 2].map { |y| y * 2 }\n")
    assert not RUBY.is_valid("def f(x\n  x +\nend\n")
    with pytest.raises(ParseError, match="line 1"):
        RUBY.parse("def f(x\n")


def test_tokens_skip_comments_and_layout() -> None:
    source = "# note\ndef f(x)  # trailing\n  x  +  1\n=begin\nblock\n=end\nend\n"
    assert RUBY.tokens(source) == ("def", "f", "(", "x", ")", "x", "+", "1", "end")
    assert RUBY.tokens("def f(x) x+1 end") == RUBY.tokens("def f(x)\n  x + 1\nend\n")


def test_strip_comments_removes_hash_and_block_comments() -> None:
    source = "# Add one.\n=begin\nLong text.\n=end\ndef f(x)  # the input\n  # a note\n  x + 1 # done\nend\n"
    stripped = RUBY.strip_comments(source)
    assert stripped == "def f(x)\n\n  x + 1\nend\n"  # a comment-only line leaves one blank line (the tree-sitter rule)
    assert RUBY.is_valid(stripped)


def test_strip_comments_removes_docstring_like_strings_but_not_values() -> None:
    source = 'def f(x)  """\n  Add one to x.\n  """\n  x + 1\nend\n\ndef g\n  "a value"\nend\n'
    stripped = RUBY.strip_comments(source)
    assert "Add one" not in stripped and '"a value"' in stripped
    assert stripped == 'def f(x)\n  x + 1\nend\n\ndef g\n  "a value"\nend\n'
    assert RUBY.is_valid(stripped)


def test_strip_comments_keeps_hash_characters_in_strings() -> None:
    source = 'def f\n  "#{1} # not a comment" # a comment\nend\n'
    assert RUBY.strip_comments(source) == 'def f\n  "#{1} # not a comment"\nend\n'


def test_describe_mbxp_prompt() -> None:
    assert RUBY.describe(PROMPT) == "Write a function to find the similar elements from the given two tuple lists."
    assert RUBY.describe(PROMPT + "  # the body's comment\n  1\nend\n") == RUBY.describe(PROMPT)


def test_describe_other_comment_shapes() -> None:
    assert RUBY.describe("=begin\nReturns the sum\nof a and b.\n\nNever negative.\n=end\ndef add(a, b)\n") == ("Returns the sum of a and b.\nNever negative.")
    assert RUBY.describe("def f\n  1\nend\n") == ""
    assert RUBY.describe("def f\n  1\nend\n# trailing note\n") == "trailing note"


@pytest.fixture(scope="module")
def mbxp_records() -> list[dict]:
    """MBXP Ruby records (skipped when ../shared/data is absent)."""
    if not MBXP_RUBY.is_file():
        pytest.skip("../shared/data (MBXP Ruby) is not present")
    with open(MBXP_RUBY, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def test_describe_matches_mbxp_descriptions(mbxp_records: list[dict]) -> None:
    for record in mbxp_records:
        description = record["description"].strip().lstrip("# ")  # MBRBP/689's description keeps a "## "
        assert RUBY.describe(record["prompt"]) == description, record["task_id"]
        if record.get("canonical_solution"):
            assert RUBY.describe(record["prompt"] + record["canonical_solution"]) == description


def test_mbxp_programs_parse_and_strip_to_valid_programs(mbxp_records: list[dict]) -> None:
    programs = [record["prompt"] + record["canonical_solution"] for record in mbxp_records if record.get("canonical_solution")]
    assert len(programs) == 784
    for program in programs:
        RUBY.parse(program)
        stripped = RUBY.strip_comments(program)
        assert RUBY.is_valid(stripped), stripped
        assert "expert Ruby programmer" not in stripped and "irb>" not in stripped.split("def ", 1)[0]
        removed = Counter(RUBY.tokens(program)) - Counter(RUBY.tokens(stripped))
        assert all(token == '"' or " " in token for token in removed), removed  # only docstring-like strings go
