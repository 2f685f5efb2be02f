"""Where Rust declares local names, and their types where the source shows them (for
``variable_misuse``, which swaps only names of the same known type: rustc rejects any mismatch)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.languages.treesitter.program import Program

_DECLARING = frozenset({"parameter", "let_declaration", "for_expression"})
_INTEGER_SUFFIXES = ("i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize")
_RESULTS = {"len": "usize", "count": "usize", "to_string": "String", "to_owned": None, "abs": "SAME", "clone": "SAME", "pow": "SAME"}
"""Method name -> the type it returns (``SAME``: the receiver's)."""
_CONSTRUCTORS = {"String::new": "String", "String::from": "String"}


def _literal(program: Program, node: Node) -> str | None:
    text = program.source(node)
    if node.type == "integer_literal":
        return next((suffix for suffix in _INTEGER_SUFFIXES if text.endswith(suffix)), "i32")
    if node.type == "float_literal":
        return "f32" if text.endswith("f32") else "f64"
    return {"string_literal": "&str", "raw_string_literal": "&str", "char_literal": "char", "boolean_literal": "bool"}.get(node.type)


def inferred_type(program: Program, value: Node | None, known: dict[str, str]) -> str | None:
    """The type of an initializer where its spelling shows it: literals (an unsuffixed integer is
    ``i32``, Rust's default), casts, ``String::new()``, ``.len()``, ``.clone()`` / ``.abs()`` of a
    local of known type, a negation or arithmetic over such a value, a range's bounds; else None."""
    if value is None:
        return None
    literal = _literal(program, value)
    if literal is not None:
        return literal
    if value.type == "identifier":
        return known.get(program.source(value))
    if value.type == "type_cast_expression":
        cast = value.child_by_field_name("type")
        return None if cast is None else program.source(cast)
    if value.type in ("unary_expression", "parenthesized_expression"):
        inner = next((child for child in value.children if child.is_named), None)
        return inferred_type(program, inner, known) if program.source(value)[:1] in "-(" else None
    if value.type in ("binary_expression", "range_expression"):
        operands = [child for child in value.children if child.is_named]
        typed = [inferred_type(program, child, known) for child in operands]
        shown = [t for t, child in zip(typed, operands) if t is not None and child.type != "integer_literal"]
        if value.type == "binary_expression" and program.source(value.child_by_field_name("operator") or value)[:1] in "<>=!&|":
            return "bool"
        return shown[0] if shown else next((t for t in typed if t is not None), None)
    if value.type == "call_expression":
        return _call_type(program, value, known)
    return None


def _call_type(program: Program, call: Node, known: dict[str, str]) -> str | None:
    function = call.child_by_field_name("function")
    if function is None:
        return None
    if function.type == "scoped_identifier":
        return _CONSTRUCTORS.get(program.source(function))
    if function.type != "field_expression":
        return None
    field = function.child_by_field_name("field")
    result = _RESULTS.get(program.source(field)) if field is not None else None
    if result == "SAME":
        return inferred_type(program, function.child_by_field_name("value"), known)
    return result


def declarations(program: Program, function: Node) -> Iterator[tuple[Node, str | None]]:
    """Parameters (of the function and its closures), ``let`` locals and ``for`` variables bound to
    one plain name, in source order, with the written type or the one the initializer shows."""
    known: dict[str, str] = {}
    for node in program.walk(_DECLARING):
        if not (function.start_byte <= node.start_byte < function.end_byte):
            continue
        pattern = node.child_by_field_name("pattern")
        if pattern is None or pattern.type != "identifier":
            continue
        written = node.child_by_field_name("type")
        value = node.child_by_field_name("value")
        declared = program.source(written) if written is not None else inferred_type(program, value, known)
        if declared is not None:
            known.setdefault(program.source(pattern), declared)
        yield pattern, declared


def immutable(name: Node) -> bool:
    """A declared name without ``mut`` before it (``let x``, ``x: i32``, ``for x in``)."""
    before = name.prev_sibling
    return before is None or before.type != "mutable_specifier"


MUTATING_METHODS = frozenset(
    {
        "push",
        "push_str",
        "pop",
        "insert",
        "remove",
        "clear",
        "sort",
        "sort_by",
        "sort_by_key",
        "sort_unstable",
        "dedup",
        "retain",
        "reverse",
        "truncate",
        "extend",
        "append",
        "swap",
        "drain",
        "entry",
        "iter_mut",
        "get_mut",
        "last_mut",
        "first_mut",
        "resize",
        "swap_remove",
        "rotate_left",
        "rotate_right",
    }
)
"""Methods of ``Vec``, ``String`` and the maps that need a mutable receiver."""
