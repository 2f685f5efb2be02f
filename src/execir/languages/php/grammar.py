"""How tree-sitter-php spells what the shared families mutate, and where PHP declares names."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.languages.treesitter.families import ARITH, BITWISE, COMPARE_SWAP, Grammar
from execir.languages.treesitter.program import Program

_DECLARING = frozenset({"simple_parameter", "variadic_parameter", "assignment_expression", "foreach_statement"})
FLIP = "\x00flip\x00"
"""What a boolean literal becomes in the shared families' edits; :mod:`execir.languages.php`
replaces it by the other literal (tree-sitter-php has one ``boolean`` node for both)."""

_LITERAL_TYPES = {"integer": "int", "float": "float", "string": "string", "encapsed_string": "string", "boolean": "bool", "array_creation_expression": "array"}


def declarations(program: Program, function: Node) -> Iterator[tuple[Node, str | None]]:
    """Parameters, assigned variables and ``foreach`` variables of a function (PHP declares a
    local by assigning it), typed by a literal initializer's spelling where it shows one."""
    for node in program.walk(_DECLARING):
        if not (function.start_byte <= node.start_byte < function.end_byte):
            continue
        if node.type in ("simple_parameter", "variadic_parameter"):
            name = node.child_by_field_name("name")
            if name is not None:
                yield name, None
        elif node.type == "assignment_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and left.type == "variable_name":
                yield left, None if right is None else _LITERAL_TYPES.get(right.type)
        else:
            for child in node.named_children:
                if child.type == "variable_name":
                    yield child, None
                elif child.type == "pair":
                    yield from ((part, None) for part in child.named_children if part.type == "variable_name")


GRAMMAR = Grammar(
    name="php",
    unary=frozenset({"unary_op_expression"}),
    assignment=frozenset({"assignment_expression", "augmented_assignment_expression"}),
    call=frozenset({"function_call_expression", "member_call_expression", "scoped_call_expression"}),
    spreads=frozenset({"variadic_unpacking"}),
    member={"member_access_expression": ("object", "name")},
    subscript={"subscript_expression": ("", "")},
    ternary=frozenset({"conditional_expression"}),
    else_clause="else_clause",
    blocks=frozenset({"compound_statement"}),
    compound=frozenset({"if_statement", "for_statement", "while_statement", "do_statement", "switch_statement", "foreach_statement"}),
    exits=frozenset({"return_statement", "break_statement", "continue_statement"}),
    numbers=frozenset({"integer", "float"}),
    strings=frozenset({"string", "encapsed_string"}),
    booleans={"boolean": FLIP},
    identifiers=frozenset({"variable_name"}),
    functions=frozenset({"function_definition", "method_declaration", "anonymous_function", "arrow_function"}),
    declarations=declarations,
    scopes=frozenset({"for_statement", "foreach_statement"}),
    initializers=frozenset({"array_creation_expression"}),
    arith={**ARITH, "**": ("*",), ".": ()},
    bitwise=BITWISE,
    compare_swap={**COMPARE_SWAP, "===": ("!==",), "!==": ("===",), "<>": ("==",)},
    namespaces=frozenset(),
    index_calls=frozenset({"substr", "array_slice", "str_split", "array_splice", "mb_substr"}),
    min_max={"min": "max", "max": "min"},
    methods={
        "strtoupper": "strtolower",
        "strtolower": "strtoupper",
        "ucfirst": "lcfirst",
        "lcfirst": "ucfirst",
        "ltrim": "rtrim",
        "rtrim": "ltrim",
        "strpos": "strrpos",
        "strrpos": "strpos",
        "str_starts_with": "str_ends_with",
        "str_ends_with": "str_starts_with",
        "ceil": "floor",
        "floor": "ceil",
        "round": "floor",
        "array_shift": "array_pop",
        "array_pop": "array_shift",
        "array_unshift": "array_push",
        "array_push": "array_unshift",
        "sort": "rsort",
        "rsort": "sort",
        "asort": "arsort",
        "arsort": "asort",
        "ksort": "krsort",
        "krsort": "ksort",
        "array_key_first": "array_key_last",
        "array_key_last": "array_key_first",
        "PHP_INT_MAX": "PHP_INT_MIN",
        "PHP_INT_MIN": "PHP_INT_MAX",
    },
)
"""The PHP grammar description."""
