"""How PHP spells what the tree-sitter rewrite rules look at."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

from tree_sitter import Node

from execir.languages.treesitter.program import Program
from execir.rewrite.treesitter.syntax import Syntax

_PHP_DYNAMIC_CALLS = frozenset({"compact", "extract", "get_defined_vars", "parse_str", "eval"})
"""PHP functions that read or write locals by a name given as text."""


def _php_name(node: Node) -> Node | None:
    """The ``name`` token of a ``variable_name`` (``$x``)."""
    return next((child for child in node.named_children if child.type == "name"), None) if node.type == "variable_name" else None


def _php_targets(node: Node) -> Iterator[Node]:
    """The variables a ``foreach`` target or a ``list()``/``[...]`` destructuring assigns."""
    if node.type == "variable_name":
        yield node
    elif node.type in ("list_literal", "by_ref", "pair"):
        for child in node.named_children:
            yield from _php_targets(child)


def _php_iterated(node: Node) -> bool:
    """Whether a variable is what a ``foreach`` iterates over (read there, not assigned)."""
    parent = node.parent
    return parent is not None and parent.type == "foreach_statement" and parent.named_children[0] == node


def _php_declared(program: Program, function: Node) -> Iterator[Node]:
    """PHP locals (the ``name`` of each ``$x``): the grammar's declarations (parameters, assigned
    variables, ``foreach`` variables) and destructuring, ``foreach`` by reference, ``static`` and
    ``catch`` variables."""
    grammar = importlib.import_module("execir.languages.php.grammar").GRAMMAR
    found = [node for node, _ in grammar.declarations(program, function) if not _php_iterated(node)]
    stack = [function]
    while stack:
        node = stack.pop()
        if node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "list_literal":
                found.extend(_php_targets(left))
        elif node.type == "foreach_statement":
            found.extend(target for child in node.named_children[1:] for target in _php_targets(child))
        elif node.type in ("static_variable_declaration", "catch_clause"):
            name = node.child_by_field_name("name")
            if name is not None:
                found.append(name)
        stack.extend(reversed(node.children))
    for node in found:
        name = _php_name(node)
        if name is not None:
            yield name


def _php_blocked(program: Program, function: Node, name: str) -> bool:
    """Whether a PHP function reaches its locals by text: ``$$x``/``${...}``, ``compact``,
    ``extract``, ``get_defined_vars``, ``parse_str``, ``eval``, ``include``/``require``."""
    del name
    stack = [function]
    while stack:
        node = stack.pop()
        if node.type in ("dynamic_variable_name", "include_expression", "include_once_expression", "require_expression", "require_once_expression"):
            return True
        if node.type == "function_call_expression":
            callee = node.child_by_field_name("function")
            if callee is not None and program.source(callee).lower().lstrip("\\") in _PHP_DYNAMIC_CALLS:
                return True
        stack.extend(node.children)
    return False


SYNTAX = Syntax(
    "php",
    frozenset({"function_definition", "method_declaration", "anonymous_function", "arrow_function"}),
    _php_declared,
    unary="unary_op_expression",
    equality=frozenset({"==", "!=", "===", "!==", "<>"}),
    literals=frozenset({"integer", "float", "string", "encapsed_string", "boolean", "null", "name"}),
    member=frozenset({"member_access_expression"}),
    index=frozenset({"subscript_expression"}),
    primary=frozenset({"function_call_expression", "member_call_expression", "scoped_call_expression", "parenthesized_expression", "unary_op_expression"}),
    name_parents=frozenset({"global_declaration", "scoped_property_access_expression", "dynamic_variable_name"}),
    loose_contexts=frozenset({"parenthesized_expression"}),
    keywords=frozenset({"this", "GLOBALS"}),
    identifier="name",
    variable="variable_name",
    field_names=frozenset({"name"}),
    blocked=_php_blocked,
)
