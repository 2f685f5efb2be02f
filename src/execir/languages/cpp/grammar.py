"""How tree-sitter-cpp spells what the shared families mutate, and where C++ declares names."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.languages.treesitter.families import BOOLEAN, COMPARE_SWAP, Grammar
from execir.languages.treesitter.families.types import ELEMENT, SAME
from execir.languages.treesitter.program import Program

_DECLARING = frozenset({"parameter_declaration", "optional_parameter_declaration", "declaration", "for_range_loop"})
_WRAPPERS = frozenset({"init_declarator", "reference_declarator", "pointer_declarator", "array_declarator"})


def _declared_name(node: Node | None) -> Node | None:
    """The identifier a declarator declares (through ``= init``, ``&``, ``*`` and ``[n]``)."""
    while node is not None and node.type in _WRAPPERS:
        inner = node.child_by_field_name("declarator")
        node = inner if inner is not None else next((child for child in node.children if child.is_named), None)
    return node if node is not None and node.type == "identifier" else None


def declarations(program: Program, function: Node) -> Iterator[tuple[Node, str | None]]:
    """Parameters, local variables and range-for variables of a function, with their types."""
    for node in program.walk(_DECLARING):
        if not (function.start_byte <= node.start_byte < function.end_byte):
            continue
        type_node = node.child_by_field_name("type")
        declared_type = None if type_node is None or program.source(type_node) == "auto" else program.source(type_node)
        for index, child in enumerate(node.children):
            if node.field_name_for_child(index) == "declarator":
                name = _declared_name(child)
                if name is not None:
                    yield name, declared_type


METHOD_RESULTS = {
    **dict.fromkeys(("size", "length", "find", "rfind", "find_first_of", "find_last_of", "count"), "int"),
    **dict.fromkeys(("at", "front", "back"), ELEMENT),
    "substr": SAME,
    "empty": "bool",
    **dict.fromkeys(("begin", "end"), "iterator"),
    **dict.fromkeys(("rbegin", "rend"), "reverse_iterator"),
}
"""Library members' results (``size_t`` spelled ``int``: any arithmetic type converts in C++)."""

FUNCTION_RESULTS = {
    **dict.fromkeys(("abs", "max", "min", "__gcd", "gcd"), SAME),
    **dict.fromkeys(("fabs", "sqrt", "pow", "floor", "ceil", "round", "log", "log2", "log10", "exp", "sin", "cos", "stod", "atof", "fmod"), "double"),
    **dict.fromkeys(("tolower", "toupper", "isdigit", "isalpha", "islower", "isupper", "isspace", "isalnum", "stoi", "atoi", "count"), "int"),
    **dict.fromkeys(("stol", "stoll", "atol"), "long"),
    "to_string": "string",
}
"""Library functions' results (``std::`` names and the C library's)."""

OPTIONAL_ARGUMENTS = {"substr": 0, "find": 1, "rfind": 1, "find_first_of": 1, "find_last_of": 1, "erase": 1, "stoi": 1, "stol": 1, "stoll": 1}
"""Members and functions whose trailing arguments have defaults: the fewest they take."""

GRAMMAR = Grammar(
    name="cpp",
    member={"field_expression": ("argument", "field")},
    subscript={"subscript_expression": ("argument", "indices")},
    index_wrappers=frozenset({"subscript_argument_list"}),
    condition_wrappers=frozenset({"condition_clause", "parenthesized_expression"}),
    ternary=frozenset({"conditional_expression"}),
    else_clause="else_clause",
    blocks=frozenset({"compound_statement"}),
    compound=frozenset({"if_statement", "for_statement", "while_statement", "do_statement", "switch_statement", "for_range_loop"}),
    numbers=frozenset({"number_literal"}),
    strings=frozenset({"string_literal", "char_literal", "raw_string_literal", "concatenated_string"}),
    functions=frozenset({"function_definition", "lambda_expression"}),
    declarations=declarations,
    return_type="type",
    numeric_types=frozenset({"int", "long", "long long", "float", "double", "unsigned", "unsigned int", "size_t"}),
    scopes=frozenset({"for_statement", "for_range_loop", "catch_clause"}),
    initializers=frozenset({"initializer_list"}),
    boolean={**BOOLEAN, "and": ("or",), "or": ("and",)},
    compare_swap={**COMPARE_SWAP, "not_eq": ("==",)},
    min_max={"min": "max", "max": "min", "min_element": "max_element", "max_element": "min_element", "fmin": "fmax", "fmax": "fmin"},
    index_calls=frozenset({"substr", "at"}),
    typed_edits=True,
    implicit_arithmetic=True,
    characters=frozenset({"char_literal"}),
    casts=frozenset({"cast_expression"}),
    method_results=METHOD_RESULTS,
    function_results=FUNCTION_RESULTS,
    optional_arguments=OPTIONAL_ARGUMENTS,
    paired_methods={"begin": "end", "end": "begin", "rbegin": "rend", "rend": "rbegin"},
    paired_calls=frozenset(
        {"sort", "stable_sort", "reverse", "accumulate", "count", "count_if", "all_of", "any_of", "none_of", "equal", "string", "vector", "set"}
    ),
    member_methods=frozenset({"find", "rfind", "find_first_of", "find_last_of", "front", "back", "erase"}),
    methods={
        "islower": "isupper",
        "isupper": "islower",
        "tolower": "toupper",
        "toupper": "tolower",
        "ceil": "floor",
        "floor": "ceil",
        "round": "floor",
        "front": "back",
        "back": "front",
        "find": "rfind",
        "rfind": "find",
        "find_first_of": "find_last_of",
        "find_last_of": "find_first_of",
        "lower_bound": "upper_bound",
        "upper_bound": "lower_bound",
        "isalpha": "isdigit",
        "isdigit": "isalpha",
        "begin": "rbegin",
        "rbegin": "begin",
        "end": "rend",
        "rend": "end",
    },
)
"""The C++ grammar description."""
