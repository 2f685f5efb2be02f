"""How C++ spells what the tree-sitter rewrite rules look at."""

from __future__ import annotations

from execir.rewrite.treesitter.syntax import C_KEYWORDS, LOOSE, Syntax, grammar_declared

SYNTAX = Syntax(
    "cpp",
    frozenset({"function_definition"}),
    grammar_declared("execir.languages.cpp.grammar"),
    literals=frozenset({"number_literal", "string_literal", "char_literal", "true", "false", "null", "nullptr"}),
    member=frozenset({"field_expression"}),
    index=frozenset({"subscript_expression"}),
    primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression"}),
    name_parents=frozenset({"labeled_statement", "goto_statement", "qualified_identifier", "template_function"}),
    loose_contexts=LOOSE,
    keywords=C_KEYWORDS,
)
