"""What kind of value a Ruby expression plausibly has (boolean, number, array, string), from its
shape alone: used to pick a constant of the same kind and to keep arithmetic operators off text."""

from __future__ import annotations

from tree_sitter import Node

from execir.languages.ruby.operators.nodes import ARITH_OPS, BOOL_OPS, COMPARE_OPS, field, method_name, nodes, op_text
from execir.languages.treesitter import Program

NUMBER_METHODS = frozenset(
    {
        "size",
        "length",
        "count",
        "sum",
        "to_i",
        "to_f",
        "abs",
        "floor",
        "ceil",
        "round",
        "ord",
        "pow",
        "gcd",
        "lcm",
        "div",
        "fdiv",
        "sqrt",
    }
)
ARRAY_METHODS = frozenset(
    {
        "map",
        "select",
        "reject",
        "filter",
        "filter_map",
        "sort",
        "sort_by",
        "uniq",
        "to_a",
        "flatten",
        "compact",
        "zip",
        "split",
        "chars",
        "keys",
        "values",
        "each_slice",
        "each_cons",
        "partition",
        "group_by",
        "take",
        "drop",
        "flat_map",
        "combination",
        "permutation",
        "product",
        "transpose",
        "each_with_index",
        "digits",
        "scan",
        "bytes",
        "lines",
        "rotate",
    }
)
STRING_METHODS = frozenset(
    {
        "join",
        "to_s",
        "upcase",
        "downcase",
        "capitalize",
        "swapcase",
        "strip",
        "lstrip",
        "rstrip",
        "gsub",
        "sub",
        "tr",
        "squeeze",
        "chomp",
        "chop",
        "center",
        "ljust",
        "rjust",
        "delete",
        "inspect",
    }
)

CONSTANTS = {"number": "0", "array": "[]", "string": '""'}
"""A plain constant of each non-boolean kind."""


def method_kind(name: str) -> str | None:
    """The kind of value a method of this name returns (None when unknown)."""
    if name.endswith("?"):
        return "bool"
    for kind, names in (("number", NUMBER_METHODS), ("array", ARRAY_METHODS), ("string", STRING_METHODS)):
        if name in names:
            return kind
    return None


def guess_kind(program: Program, node: Node, depth: int = 0) -> str | None:
    """``"bool"``, ``"number"``, ``"array"``, ``"string"`` or None (unknown) for an expression."""
    kind = node.type
    if kind in ("true", "false"):
        return "bool"
    if kind in ("integer", "float"):
        return "number"
    if kind in ("array", "string_array", "symbol_array"):
        return "array"
    if kind in ("string", "chained_string"):
        return "string"
    if kind == "parenthesized_statements" and len(node.named_children) == 1:
        return guess_kind(program, node.named_children[0], depth)
    if kind == "unary":
        return "bool" if op_text(program, node) in ("!", "not") else "number" if op_text(program, node) == "-" else None
    if kind == "binary":
        return _binary_kind(program, node, depth)
    if kind == "call":
        return method_kind(method_name(program, node))
    if kind == "identifier" and depth < 2:
        return _local_kind(program, node, depth)
    return None


def _binary_kind(program: Program, node: Node, depth: int) -> str | None:
    operator = op_text(program, node)
    if operator in COMPARE_OPS - {"<=>"} or operator in BOOL_OPS:
        return "bool"
    if operator in ARITH_OPS:
        left, right = field(node, "left"), field(node, "right")
        kinds = {guess_kind(program, side, depth + 1) for side in (left, right) if side is not None}
        if "string" in kinds:
            return "string"
        if "array" in kinds:
            return "array"
        return "number" if "number" in kinds else None
    return None


def _local_kind(program: Program, node: Node, depth: int) -> str | None:
    """The kind of the first value assigned to a local variable in the enclosing method."""
    name = program.source(node)
    scope = node.parent
    while scope is not None and scope.type not in ("method", "singleton_method", "program"):
        scope = scope.parent
    if scope is None:
        return None
    for assignment in nodes(program, ("assignment",)):
        left, right = field(assignment, "left"), field(assignment, "right")
        inside = scope.start_byte <= assignment.start_byte < scope.end_byte
        if inside and left is not None and right is not None and left.type == "identifier" and program.source(left) == name:
            return guess_kind(program, right, depth + 1)
    return None
