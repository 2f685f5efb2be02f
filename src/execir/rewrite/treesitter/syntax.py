"""How each tree-sitter language spells what the rewrite rules look at."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from tree_sitter import Node

from execir.languages.treesitter.program import Program

Declared = Callable[[Program, Node], Iterator[Node]]
"""(program, function) -> identifier nodes the function declares (parameters included)."""


@dataclass(frozen=True)
class Syntax:
    """One language's node types for the rewrite rules."""

    name: str
    functions: frozenset[str]
    declared: Declared
    binary: str = "binary_expression"
    unary: str = "unary_expression"
    paren: str = "parenthesized_expression"
    equality: frozenset[str] = frozenset({"==", "!="})
    literals: frozenset[str] = frozenset()
    member: frozenset[str] = frozenset()
    index: frozenset[str] = frozenset()
    primary: frozenset[str] = frozenset()
    """Expressions that ``!`` may prefix without parentheses (besides identifiers, literals, members, indexes)."""
    name_fields: frozenset[tuple[str, str]] = frozenset()
    """(parent type, field) where an ``identifier`` names a member or method, not a variable."""
    name_parents: frozenset[str] = frozenset()
    """Parent types whose ``identifier`` children are labels or keys, not variables."""
    loose_contexts: frozenset[str] = frozenset()
    """Parent types in which an ``||``/``&&`` expression needs no parentheses."""
    keywords: frozenset[str] = frozenset()

    @property
    def simple(self) -> frozenset[str]:
        """Operand types ``swap_commutative`` moves: identifiers, literals, member access, indexing."""
        return frozenset({"identifier"}) | self.literals | self.member | self.index


def _grammar_declared(module: str) -> Declared:
    grammar = importlib.import_module(module).GRAMMAR

    def declared(program: Program, function: Node) -> Iterator[Node]:
        return (node for node, _ in grammar.declarations(program, function))

    return declared


def _ruby_declared(program: Program, function: Node) -> Iterator[Node]:
    """Ruby locals: assignment targets, block and method parameters, ``for`` variables."""
    stack = [function]
    while stack:
        node = stack.pop()
        if node.type in ("assignment", "operator_assignment"):
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                yield left
        elif node.type in ("block_parameters", "method_parameters", "lambda_parameters"):
            yield from (child for child in node.named_children if child.type == "identifier")
        elif node.type == "for":
            pattern = node.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "identifier":
                yield pattern
        stack.extend(reversed(node.children))


_C_KEYWORDS = frozenset(
    {
        "auto",
        "int",
        "long",
        "float",
        "double",
        "char",
        "bool",
        "void",
        "new",
        "delete",
        "this",
        "true",
        "false",
        "var",
        "let",
        "const",
        "func",
        "range",
        "map",
        "string",
        "len",
        "nil",
        "null",
        "end",
        "def",
        "do",
    }
)
_TS_KEYWORDS = frozenset(
    "arguments eval undefined type interface enum declare readonly namespace module abstract implements private protected public "
    "any unknown never number string boolean symbol bigint object keyof infer is as satisfies asserts".split()
)
_LOOSE = frozenset({"parenthesized_expression", "condition_clause", "parenthesized_statements"})


@cache
def syntax_of(language: str) -> Syntax:
    """The :class:`Syntax` of a tree-sitter language."""
    return _SYNTAX[language]()


_SYNTAX: dict[str, Callable[[], Syntax]] = {
    "cpp": lambda: Syntax(
        "cpp",
        frozenset({"function_definition"}),
        _grammar_declared("execir.languages.cpp.grammar"),
        literals=frozenset({"number_literal", "string_literal", "char_literal", "true", "false", "null", "nullptr"}),
        member=frozenset({"field_expression"}),
        index=frozenset({"subscript_expression"}),
        primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression"}),
        name_parents=frozenset({"labeled_statement", "goto_statement", "qualified_identifier", "template_function"}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS,
    ),
    "java": lambda: Syntax(
        "java",
        frozenset({"method_declaration", "constructor_declaration"}),
        _grammar_declared("execir.languages.java.grammar"),
        literals=frozenset(
            {"decimal_integer_literal", "decimal_floating_point_literal", "string_literal", "character_literal", "true", "false", "null_literal"}
        ),
        member=frozenset({"field_access"}),
        index=frozenset({"array_access"}),
        primary=frozenset({"method_invocation", "parenthesized_expression", "unary_expression"}),
        name_fields=frozenset({("field_access", "field"), ("method_invocation", "name")}),
        name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement", "method_reference"}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS,
    ),
    "go": lambda: Syntax(
        "go",
        frozenset({"function_declaration", "method_declaration"}),
        _grammar_declared("execir.languages.go.grammar"),
        literals=frozenset({"int_literal", "float_literal", "interpreted_string_literal", "raw_string_literal", "rune_literal", "true", "false", "nil"}),
        member=frozenset({"selector_expression"}),
        index=frozenset({"index_expression"}),
        primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression"}),
        name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement", "literal_element"}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS,
    ),
    "js": lambda: Syntax(
        "js",
        frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition", "generator_function_declaration"}),
        _grammar_declared("execir.languages.js.grammar"),
        equality=frozenset({"==", "!=", "===", "!=="}),
        literals=frozenset({"number", "string", "true", "false", "null", "undefined"}),
        member=frozenset({"member_expression"}),
        index=frozenset({"subscript_expression"}),
        primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression"}),
        name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement"}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS | frozenset({"arguments", "eval", "undefined"}),
    ),
    "typescript": lambda: Syntax(
        "typescript",
        frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition", "generator_function_declaration"}),
        _grammar_declared("execir.languages.ts.grammar"),
        equality=frozenset({"==", "!=", "===", "!=="}),
        literals=frozenset({"number", "string", "true", "false", "null", "undefined"}),
        member=frozenset({"member_expression"}),
        index=frozenset({"subscript_expression"}),
        primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression", "non_null_expression"}),
        name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement"}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS | _TS_KEYWORDS,
    ),
    "ruby": lambda: Syntax(
        "ruby",
        frozenset({"method", "singleton_method"}),
        _ruby_declared,
        binary="binary",
        unary="unary",
        paren="parenthesized_statements",
        literals=frozenset({"integer", "float", "string", "true", "false", "nil"}),
        index=frozenset({"element_reference"}),
        primary=frozenset({"parenthesized_statements", "unary"}),
        name_fields=frozenset({("call", "method")}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS,
    ),
}
