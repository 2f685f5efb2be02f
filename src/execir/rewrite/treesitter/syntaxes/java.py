"""How Java spells what the tree-sitter rewrite rules look at."""

from __future__ import annotations

from execir.rewrite.treesitter.syntax import C_KEYWORDS, LOOSE, Syntax, grammar_declared

SYNTAX = Syntax(
    "java",
    frozenset({"method_declaration", "constructor_declaration"}),
    grammar_declared("execir.languages.java.grammar"),
    literals=frozenset({"decimal_integer_literal", "decimal_floating_point_literal", "string_literal", "character_literal", "true", "false", "null_literal"}),
    member=frozenset({"field_access"}),
    index=frozenset({"array_access"}),
    primary=frozenset({"method_invocation", "parenthesized_expression", "unary_expression"}),
    name_fields=frozenset({("field_access", "field"), ("method_invocation", "name")}),
    name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement", "method_reference"}),
    loose_contexts=LOOSE,
    keywords=C_KEYWORDS,
)
