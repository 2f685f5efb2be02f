"""How tree-sitter-go spells what the shared families mutate, and where Go declares names."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.languages.treesitter.families import BITWISE, Grammar
from execir.languages.treesitter.program import Program

_DECLARING = frozenset({"parameter_declaration", "variadic_parameter_declaration", "short_var_declaration", "var_spec", "const_spec", "range_clause"})


_LITERAL_TYPES = {
    "int_literal": "int",
    "float_literal": "float64",
    "interpreted_string_literal": "string",
    "raw_string_literal": "string",
    "rune_literal": "rune",
    "true": "bool",
    "false": "bool",
    "func_literal": "func",
}
_CONVERSIONS = frozenset({"int", "int64", "int32", "float64", "float32", "string", "rune", "byte", "bool"})


def inferred_type(program: Program, value: Node | None) -> str | None:
    """The type of a ``:=`` initializer where its spelling shows it (literals, composite literals,
    conversions, ``make``, ``len``), else None."""
    if value is None:
        return None
    if value.type in _LITERAL_TYPES:
        return _LITERAL_TYPES[value.type]
    if value.type == "composite_literal":
        type_node = value.child_by_field_name("type")
        return None if type_node is None else program.source(type_node)
    if value.type == "call_expression":
        function = value.child_by_field_name("function")
        arguments = value.child_by_field_name("arguments")
        name = None if function is None else program.source(function)
        if name in _CONVERSIONS:
            return name
        if name in ("len", "cap"):
            return "int"
        if name == "make" and arguments is not None:
            first = next((child for child in arguments.children if child.is_named), None)
            return None if first is None else program.source(first)
    return None


def _assigned(program: Program, node: Node) -> Iterator[tuple[Node, str | None]]:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    names = [] if left is None else [child for child in left.children if child.type == "identifier"]
    values = [] if right is None or node.type == "range_clause" else [child for child in right.children if child.is_named]
    for index, name in enumerate(names):
        value = values[index] if len(values) == len(names) else None
        yield name, inferred_type(program, value)


def declarations(program: Program, function: Node) -> Iterator[tuple[Node, str | None]]:
    """Parameters, ``:=``/``var``/``const`` locals and range variables of a function, with the
    declared type where one is written or the initializer shows it."""
    for node in program.walk(_DECLARING):
        if not (function.start_byte <= node.start_byte < function.end_byte):
            continue
        if node.type in ("short_var_declaration", "range_clause"):
            yield from _assigned(program, node)
            continue
        type_node = node.child_by_field_name("type")
        declared_type = None if type_node is None else program.source(type_node)
        for index, child in enumerate(node.children):
            if node.field_name_for_child(index) == "name" and child.type == "identifier":
                yield child, declared_type


GRAMMAR = Grammar(
    name="go",
    unary_operand="operand",
    update=frozenset({"inc_statement", "dec_statement"}),
    assignment=frozenset({"assignment_statement"}),
    member={"selector_expression": ("operand", "field")},
    subscript={"index_expression": ("operand", "index")},
    slices={"slice_expression": ("start", "end")},
    condition_wrappers=frozenset(),
    expression_lists=frozenset({"expression_list"}),
    conditional=frozenset({"if_statement", "for_statement"}),
    branches=frozenset({"if_statement"}),
    loop_clause="for_clause",
    blocks=frozenset({"block", "statement_list"}),
    compound=frozenset({"if_statement", "for_statement", "expression_switch_statement", "type_switch_statement"}),
    exits=frozenset({"return_statement", "break_statement", "continue_statement"}),
    statements=frozenset({"expression_statement", "assignment_statement", "inc_statement", "dec_statement"}),
    empty_statement=None,
    numbers=frozenset({"int_literal", "float_literal"}),
    strings=frozenset({"interpreted_string_literal", "raw_string_literal", "rune_literal"}),
    functions=frozenset({"function_declaration", "method_declaration", "func_literal"}),
    declarations=declarations,
    return_type="result",
    numeric_types=frozenset({"int", "int64", "int32", "float64", "float32", "uint", "uint64", "rune", "byte"}),
    typed_misuse=True,
    scopes=frozenset({"for_statement", "if_statement", "expression_switch_statement", "type_switch_statement", "func_literal"}),
    initializers=frozenset({"literal_value"}),
    bitwise={**BITWISE, "&^": ("&",)},
    ordered_calls=frozenset({"append", "make", "copy", "delete", "new", "Slice", "SliceStable", "Sprintf", "Printf"}),
    namespaces=frozenset({"math", "strings", "strconv", "sort", "fmt", "unicode", "utf8", "regexp", "bytes", "bits", "big", "md5", "hex", "errors", "reflect"}),
    unwrap_calls=frozenset({"Abs", "Floor", "Ceil", "Round", "Trunc", "Sqrt", "ToLower", "ToUpper", "TrimSpace", "Title", "ToTitle"}),
    min_max={"Min": "Max", "Max": "Min", "min": "max", "max": "min"},
    methods={
        "ToLower": "ToUpper",
        "ToUpper": "ToLower",
        "IsLower": "IsUpper",
        "IsUpper": "IsLower",
        "HasPrefix": "HasSuffix",
        "HasSuffix": "HasPrefix",
        "TrimLeft": "TrimRight",
        "TrimRight": "TrimLeft",
        "TrimPrefix": "TrimSuffix",
        "TrimSuffix": "TrimPrefix",
        "Index": "LastIndex",
        "LastIndex": "Index",
        "IndexByte": "LastIndexByte",
        "Ceil": "Floor",
        "Floor": "Ceil",
        "Round": "Floor",
        "MaxInt": "MinInt",
        "MinInt": "MaxInt",
        "MaxInt64": "MinInt64",
        "MinInt64": "MaxInt64",
        "IsLetter": "IsDigit",
        "IsDigit": "IsLetter",
        "Ints": "Sort",
    },
)
"""The Go grammar description."""
