"""How TypeScript spells what the tree-sitter rewrite rules look at."""

from __future__ import annotations

from execir.rewrite.treesitter.syntax import C_KEYWORDS, LOOSE, Syntax, grammar_declared

_TS_KEYWORDS = frozenset(
    "arguments eval undefined type interface enum declare readonly namespace module abstract implements private protected public "
    "any unknown never number string boolean symbol bigint object keyof infer is as satisfies asserts".split()
)

SYNTAX = Syntax(
    "typescript",
    frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition", "generator_function_declaration"}),
    grammar_declared("execir.languages.ts.grammar"),
    equality=frozenset({"==", "!=", "===", "!=="}),
    literals=frozenset({"number", "string", "true", "false", "null", "undefined"}),
    member=frozenset({"member_expression"}),
    index=frozenset({"subscript_expression"}),
    primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression", "non_null_expression"}),
    name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement"}),
    loose_contexts=LOOSE,
    keywords=C_KEYWORDS | _TS_KEYWORDS,
)
