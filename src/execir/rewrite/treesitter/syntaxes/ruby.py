"""How Ruby spells what the tree-sitter rewrite rules look at."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.languages.treesitter.program import Program
from execir.rewrite.treesitter.syntax import C_KEYWORDS, LOOSE, Syntax


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


SYNTAX = Syntax(
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
    loose_contexts=LOOSE,
    keywords=C_KEYWORDS,
)
