"""How tree-sitter-javascript spells what the shared families mutate, and where JavaScript
declares names."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.languages.treesitter.families import ARITH, BITWISE, COMPARE_SWAP, Grammar
from execir.languages.treesitter.program import Program

_DECLARING = frozenset({"variable_declarator", "formal_parameters", "arrow_function", "for_in_statement", "catch_clause"})


def _pattern_names(node: Node | None) -> Iterator[Node]:
    """Identifiers a binding pattern declares (``x``, ``[a, b]``, ``{a, b}``, ``x = 1``)."""
    if node is None:
        return
    if node.type in ("identifier", "shorthand_property_identifier_pattern"):
        yield node
    elif node.type == "assignment_pattern":
        yield from _pattern_names(node.child_by_field_name("left"))
    elif node.type in ("array_pattern", "object_pattern", "rest_pattern", "pair_pattern"):
        for child in node.children:
            if child.is_named and child != node.child_by_field_name("key"):
                yield from _pattern_names(child)


_LITERAL_TYPES = {
    "number": "number",
    "string": "string",
    "template_string": "string",
    "array": "array",
    "object": "object",
    "true": "boolean",
    "false": "boolean",
    "arrow_function": "function",
    "function_expression": "function",
    "regex": "RegExp",
}


def inferred_type(program: Program, value: Node | None) -> str | None:
    """The type an initializer's spelling shows (a literal, a function, ``new X(...)``), else None."""
    if value is None:
        return None
    if value.type in _LITERAL_TYPES:
        return _LITERAL_TYPES[value.type]
    if value.type == "new_expression":
        constructor = value.child_by_field_name("constructor")
        return None if constructor is None else program.source(constructor)
    return None


def declarations(program: Program, function: Node) -> Iterator[tuple[Node, str | None]]:
    """Parameters, ``let``/``const``/``var`` locals, loop and catch variables of a function, typed
    by their initializer where its spelling shows one (JavaScript declares no types)."""
    for node in program.walk(_DECLARING):
        if not (function.start_byte <= node.start_byte < function.end_byte):
            continue
        if node.type == "variable_declarator":
            declared = inferred_type(program, node.child_by_field_name("value"))
            yield from ((name, declared) for name in _pattern_names(node.child_by_field_name("name")))
            continue
        targets: list[Node | None]
        if node.type == "formal_parameters":
            targets = [child for child in node.children if child.is_named]
        elif node.type == "arrow_function":
            targets = [node.child_by_field_name("parameter")]
        elif node.type == "for_in_statement":
            targets = [node.child_by_field_name("left")] if node.child_by_field_name("kind") is not None else []
        else:
            targets = [node.child_by_field_name("parameter")]
        for target in targets:
            yield from ((name, None) for name in _pattern_names(target))


GRAMMAR = Grammar(
    name="js",
    assignment=frozenset({"assignment_expression", "augmented_assignment_expression"}),
    spreads=frozenset({"spread_element"}),
    member={"member_expression": ("object", "property")},
    subscript={"subscript_expression": ("object", "index")},
    ternary=frozenset({"ternary_expression"}),
    else_clause="else_clause",
    blocks=frozenset({"statement_block"}),
    compound=frozenset({"if_statement", "for_statement", "while_statement", "do_statement", "switch_statement", "for_in_statement"}),
    numbers=frozenset({"number"}),
    strings=frozenset({"string", "template_string"}),
    functions=frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition", "generator_function_declaration"}),
    declarations=declarations,
    scopes=frozenset({"for_statement", "for_in_statement", "catch_clause"}),
    initializers=frozenset({"array"}),
    arith={**ARITH, "**": ("*",)},
    bitwise={**BITWISE, ">>": ("<<", ">>>"), ">>>": (">>",)},
    compare_swap={**COMPARE_SWAP, "===": ("!==",), "!==": ("===",)},
    namespaces=frozenset({"Math", "Object", "Array", "Number", "String", "JSON", "console", "Symbol", "BigInt"}),
    index_calls=frozenset({"slice", "substring", "substr", "charAt", "at"}),
    methods={
        "toUpperCase": "toLowerCase",
        "toLowerCase": "toUpperCase",
        "startsWith": "endsWith",
        "endsWith": "startsWith",
        "indexOf": "lastIndexOf",
        "lastIndexOf": "indexOf",
        "padStart": "padEnd",
        "padEnd": "padStart",
        "trimStart": "trimEnd",
        "trimEnd": "trimStart",
        "ceil": "floor",
        "floor": "ceil",
        "round": "floor",
        "shift": "pop",
        "pop": "shift",
        "unshift": "push",
        "push": "unshift",
        "some": "every",
        "every": "some",
        "reduce": "reduceRight",
        "reduceRight": "reduce",
        "find": "findLast",
        "findIndex": "findLastIndex",
        "MAX_SAFE_INTEGER": "MIN_SAFE_INTEGER",
        "MIN_SAFE_INTEGER": "MAX_SAFE_INTEGER",
        "POSITIVE_INFINITY": "NEGATIVE_INFINITY",
        "NEGATIVE_INFINITY": "POSITIVE_INFINITY",
    },
)
"""The JavaScript grammar description."""
