"""How Rust spells what the tree-sitter rewrite rules look at."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from execir.languages.treesitter.program import Program
from execir.rewrite.treesitter.syntax import Syntax

_RUST_PATTERNS = frozenset(
    {"tuple_pattern", "slice_pattern", "reference_pattern", "ref_pattern", "mut_pattern", "captured_pattern", "or_pattern", "match_pattern"}
)


def _rust_bindings(node: Node) -> Iterator[Node]:
    """The identifiers a Rust pattern binds. A bare identifier binds only when it starts lower-case
    or with ``_`` (``None``, ``Less`` and constants are matched, not bound); a tuple struct's path,
    a struct field's name, ranges, literals and paths bind nothing."""
    if node.type == "identifier":
        text = node.text.decode("utf-8") if node.text is not None else ""
        if text[:1].islower() or text[:1] == "_":
            yield node
    elif node.type in _RUST_PATTERNS:
        for child in node.named_children:
            if not (node.type == "match_pattern" and child == node.child_by_field_name("condition")):
                yield from _rust_bindings(child)
    elif node.type == "tuple_struct_pattern":
        for child in node.named_children:
            if child != node.child_by_field_name("type"):
                yield from _rust_bindings(child)
    elif node.type == "struct_pattern":
        for field in node.named_children:
            pattern = field.child_by_field_name("pattern") if field.type == "field_pattern" else None
            if pattern is not None:
                yield from _rust_bindings(pattern)
    elif node.type == "parameter":
        pattern = node.child_by_field_name("pattern")
        if pattern is not None:
            yield from _rust_bindings(pattern)


_RUST_BINDERS = frozenset({"parameter", "let_declaration", "for_expression", "let_condition", "match_arm"})


def _rust_declared(program: Program, function: Node) -> Iterator[Node]:
    """Rust locals: the bindings of parameters, ``let`` (shadowing included), ``for``, ``if let``/
    ``while let``, ``match`` arms and closure parameters."""
    del program
    stack = [function]
    while stack:
        node = stack.pop()
        if node.type in _RUST_BINDERS:
            pattern = node.child_by_field_name("pattern")
            if pattern is not None:
                yield from _rust_bindings(pattern)
        elif node.type == "closure_parameters":
            for child in node.named_children:
                yield from _rust_bindings(child)
        stack.extend(reversed(node.children))


_RUST_MACROS = frozenset(
    "assert assert_eq assert_ne debug_assert debug_assert_eq debug_assert_ne dbg eprint eprintln format matches panic print println "
    "todo unimplemented unreachable vec write writeln".split()
)
"""Standard macros whose arguments are ordinary expressions (a name there is the variable's use)."""


def _rust_position(program: Program, token: Node) -> bool:
    """A name inside a macro's token tree is a variable only within a standard macro (nested token
    trees included), not after ``.`` or ``::`` and not before ``::``, ``!``, ``:`` or ``=``
    (fields, paths, macro names, struct fields, named format arguments)."""
    parent = token.parent
    if parent is None or parent.type != "token_tree":
        return True
    before, after = token.prev_sibling, token.next_sibling
    if before is not None and before.type in (".", "::", "'", "$"):
        return False
    if after is not None and after.type in ("::", "!", ":", "="):
        return False
    tree = parent
    while tree.parent is not None and tree.parent.type == "token_tree":
        bang = tree.prev_sibling
        if bang is not None and bang.type == "!":
            name = bang.prev_sibling
            if name is None or program.source(name) not in _RUST_MACROS:
                return False
        tree = tree.parent
    macro = tree.parent
    name = None if macro is None or macro.type != "macro_invocation" else macro.child_by_field_name("macro")
    return name is not None and program.source(name) in _RUST_MACROS


def _rust_blocked(program: Program, function: Node, name: str) -> bool:
    """Whether a Rust function defines a macro, or a string literal in a macro's arguments names
    ``name`` as an inline format argument (``println!("{name}")``, ``{name:?}``)."""
    inline = re.compile(r"\{\s*" + re.escape(name) + r"\s*[}:]")
    stack = [function]
    while stack:
        node = stack.pop()
        if node.type == "macro_definition":
            return True
        if node.type in ("string_literal", "raw_string_literal") and node.parent is not None and node.parent.type == "token_tree":
            if inline.search(program.source(node)):
                return True
        stack.extend(node.children)
    return False


SYNTAX = Syntax(
    "rust",
    frozenset({"function_item", "closure_expression"}),
    _rust_declared,
    literals=frozenset({"integer_literal", "float_literal", "string_literal", "raw_string_literal", "char_literal", "boolean_literal", "self"}),
    member=frozenset({"field_expression"}),
    index=frozenset({"index_expression"}),
    primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression", "macro_invocation", "try_expression"}),
    name_fields=frozenset({("tuple_struct_pattern", "type"), ("macro_invocation", "macro"), ("function_item", "name")}),
    name_parents=frozenset(
        {
            "scoped_identifier",
            "scoped_use_list",
            "use_declaration",
            "use_as_clause",
            "use_list",
            "lifetime",
            "label",
            "shorthand_field_initializer",
            "generic_function",
            "attribute",
            "const_item",
            "static_item",
            "enum_variant",
            "macro_definition",
        }
    ),
    loose_contexts=frozenset({"parenthesized_expression", "if_expression", "while_expression"}),
    keywords=frozenset({"self", "Self", "crate", "super", "type", "match", "ref", "move", "box", "mod", "impl", "use", "dyn", "async", "await"}),
    position=_rust_position,
    blocked=_rust_blocked,
)
