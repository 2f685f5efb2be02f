"""How tree-sitter-java spells what the shared families mutate, and where Java declares names."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.languages.treesitter.families import BITWISE, Grammar
from execir.languages.treesitter.families.types import ELEMENT, SAME
from execir.languages.treesitter.program import Program

_TYPED = frozenset({"formal_parameter", "local_variable_declaration", "enhanced_for_statement", "catch_formal_parameter", "spread_parameter"})


def declarations(program: Program, function: Node) -> Iterator[tuple[Node, str | None]]:
    """Parameters, local variables, for-each and lambda parameters of a method, with their types."""
    for node in program.walk(_TYPED | {"inferred_parameters", "lambda_expression"}):
        if not (function.start_byte <= node.start_byte < function.end_byte):
            continue
        if node.type == "lambda_expression":
            parameter = node.child_by_field_name("parameters")
            if parameter is not None and parameter.type == "identifier":
                yield parameter, None
            continue
        if node.type == "inferred_parameters":
            yield from ((child, None) for child in node.children if child.type == "identifier")
            continue
        type_node = node.child_by_field_name("type")
        declared_type = None if type_node is None or program.source(type_node) == "var" else program.source(type_node)
        name = node.child_by_field_name("name")
        if name is not None:
            yield name, declared_type
        for index, child in enumerate(node.children):
            if node.field_name_for_child(index) == "declarator":
                declared = child.child_by_field_name("name")
                if declared is not None:
                    yield declared, declared_type


METHOD_RESULTS = {
    **dict.fromkeys(("size", "length", "indexOf", "lastIndexOf", "compareTo", "intValue"), "int"),
    "get": ELEMENT,
    "charAt": "char",
    **dict.fromkeys(("substring", "trim", "strip", "toLowerCase", "toUpperCase", "replace", "replaceAll", "concat", "repeat", "toString"), "String"),
    **dict.fromkeys(("equals", "isEmpty", "contains", "startsWith", "endsWith", "containsKey", "hasNext"), "boolean"),
    **dict.fromkeys(("reverse", "append", "insert", "deleteCharAt", "subList", "filter", "sorted", "distinct", "limit", "skip"), SAME),
    "toCharArray": "char[]",
    "split": "String[]",
    "doubleValue": "double",
    "longValue": "long",
}
"""Library methods' results, by name (``get`` of a ``List<T>`` or ``Map<K,T>`` is a ``T``)."""

FUNCTION_RESULTS = {
    **dict.fromkeys(("abs", "max", "min", "floorMod", "floorDiv", "toUpperCase", "toLowerCase"), SAME),
    **dict.fromkeys(("sqrt", "pow", "floor", "ceil", "log", "log10", "exp", "cbrt", "parseDouble", "hypot"), "double"),
    **dict.fromkeys(("parseInt", "getNumericValue", "bitCount"), "int"),
    **dict.fromkeys(("Collections.max", "Collections.min"), ELEMENT),
    "round": "long",
    "parseLong": "long",
    "toString": "String",
    **dict.fromkeys(("isDigit", "isLetter", "isUpperCase", "isLowerCase", "isWhitespace", "isLetterOrDigit", "isAlphabetic"), "boolean"),
}
"""Static library methods' results (``Math.``, ``Character.``, ``Integer.``, ...)."""

OPTIONAL_ARGUMENTS = {"substring": 1, "indexOf": 1, "lastIndexOf": 1, "split": 1, "parseInt": 1, "toString": 1, "sort": 1, "asList": 0, "of": 0, "join": 1}
"""Methods with an overload taking fewer arguments, or variable arguments (``Arrays.asList``,
``List.of``, ``String.join``): the fewest they take."""

GRAMMAR = Grammar(
    name="java",
    unary_operand="operand",
    call=frozenset({"method_invocation"}),
    call_function="name",
    member={"field_access": ("object", "field"), "method_invocation": ("object", "name")},
    subscript={"array_access": ("array", "index")},
    ternary=frozenset({"ternary_expression"}),
    blocks=frozenset({"block"}),
    compound=frozenset({"if_statement", "for_statement", "while_statement", "do_statement", "switch_expression", "enhanced_for_statement"}),
    numbers=frozenset({"decimal_integer_literal", "decimal_floating_point_literal", "hex_integer_literal"}),
    strings=frozenset({"string_literal", "character_literal"}),
    functions=frozenset({"method_declaration", "constructor_declaration", "lambda_expression"}),
    declarations=declarations,
    return_type="type",
    numeric_types=frozenset({"int", "long", "double", "float", "Integer", "Long", "Double", "Float", "short", "byte"}),
    scopes=frozenset({"for_statement", "enhanced_for_statement", "lambda_expression", "catch_clause"}),
    initializers=frozenset({"array_initializer"}),
    bitwise={**BITWISE, ">>": ("<<", ">>>"), ">>>": (">>",)},
    namespaces=frozenset(
        {
            "Math",
            "Collections",
            "Arrays",
            "Character",
            "Integer",
            "String",
            "Double",
            "Long",
            "Objects",
            "List",
            "Stream",
            "IntStream",
            "Collectors",
            "Boolean",
            "System",
        }
    ),
    index_calls=frozenset({"get", "charAt", "substring", "subList"}),
    typed_edits=True,
    boolean_type="boolean",
    string_type="String",
    characters=frozenset({"character_literal"}),
    casts=frozenset({"cast_expression"}),
    method_results=METHOD_RESULTS,
    function_results=FUNCTION_RESULTS,
    optional_arguments=OPTIONAL_ARGUMENTS,
    bare_expression_statements=False,
    methods={
        "toUpperCase": "toLowerCase",
        "toLowerCase": "toUpperCase",
        "isUpperCase": "isLowerCase",
        "isLowerCase": "isUpperCase",
        "startsWith": "endsWith",
        "endsWith": "startsWith",
        "indexOf": "lastIndexOf",
        "lastIndexOf": "indexOf",
        "ceil": "floor",
        "floor": "ceil",
        "round": "floor",
        "MAX_VALUE": "MIN_VALUE",
        "MIN_VALUE": "MAX_VALUE",
        "isLetter": "isDigit",
        "isDigit": "isLetter",
        "removeFirst": "removeLast",
        "removeLast": "removeFirst",
        "getFirst": "getLast",
        "getLast": "getFirst",
        "addFirst": "addLast",
        "addLast": "addFirst",
        "anyMatch": "allMatch",
        "allMatch": "anyMatch",
        "reverseOrder": "naturalOrder",
        "naturalOrder": "reverseOrder",
    },
)
"""The Java grammar description."""
