"""How Go spells what the tree-sitter rewrite rules look at."""

from __future__ import annotations

from execir.rewrite.treesitter.syntax import C_KEYWORDS, LOOSE, Syntax, grammar_declared

SYNTAX = Syntax(
    "go",
    frozenset({"function_declaration", "method_declaration"}),
    grammar_declared("execir.languages.go.grammar"),
    literals=frozenset({"int_literal", "float_literal", "interpreted_string_literal", "raw_string_literal", "rune_literal", "true", "false", "nil"}),
    member=frozenset({"selector_expression"}),
    index=frozenset({"index_expression"}),
    primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression"}),
    name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement", "literal_element"}),
    loose_contexts=LOOSE,
    keywords=C_KEYWORDS,
)
