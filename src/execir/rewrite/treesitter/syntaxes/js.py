"""How JavaScript spells what the tree-sitter rewrite rules look at."""

from __future__ import annotations

from execir.rewrite.treesitter.syntax import C_KEYWORDS, LOOSE, Syntax, grammar_declared

SYNTAX = Syntax(
    "js",
    frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition", "generator_function_declaration"}),
    grammar_declared("execir.languages.js.grammar"),
    equality=frozenset({"==", "!=", "===", "!=="}),
    literals=frozenset({"number", "string", "true", "false", "null", "undefined"}),
    member=frozenset({"member_expression"}),
    index=frozenset({"subscript_expression"}),
    primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression"}),
    name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement"}),
    loose_contexts=LOOSE,
    keywords=C_KEYWORDS | frozenset({"arguments", "eval", "undefined"}),
)
