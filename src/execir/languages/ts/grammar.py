"""How tree-sitter-typescript spells what the shared families mutate: JavaScript's description
(:data:`execir.languages.js.grammar.GRAMMAR`; the TypeScript grammar extends the JavaScript one and
keeps its expression and statement nodes), with TypeScript's parameters (``required_parameter`` /
``optional_parameter``, the name in their ``pattern`` field) and declared types (``x: number``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from tree_sitter import Node

from execir.languages.js.grammar import GRAMMAR as JS_GRAMMAR
from execir.languages.js.grammar import _pattern_names, inferred_type
from execir.languages.treesitter.program import Program

_DECLARING = frozenset({"variable_declarator", "required_parameter", "optional_parameter", "arrow_function", "for_in_statement", "catch_clause"})


def annotation(program: Program, node: Node) -> str | None:
    """The declared type of a declarator or parameter (``: number`` -> ``number``), or None."""
    annotated = node.child_by_field_name("type")
    if annotated is None or annotated.type != "type_annotation":
        return None
    named = [child for child in annotated.children if child.is_named]
    return program.source(named[0]).strip() if named else None


def declarations(program: Program, function: Node) -> Iterator[tuple[Node, str | None]]:
    """Parameters, ``let``/``const``/``var`` locals, loop and catch variables of a function, typed
    by their annotation, else by their initializer where its spelling shows one."""
    for node in program.walk(_DECLARING):
        if not (function.start_byte <= node.start_byte < function.end_byte):
            continue
        if node.type == "variable_declarator":
            declared = annotation(program, node) or inferred_type(program, node.child_by_field_name("value"))
            yield from ((name, declared) for name in _pattern_names(node.child_by_field_name("name")))
        elif node.type in ("required_parameter", "optional_parameter"):
            declared = annotation(program, node)
            yield from ((name, declared) for name in _pattern_names(node.child_by_field_name("pattern")))
        elif node.type == "arrow_function":
            yield from ((name, None) for name in _pattern_names(node.child_by_field_name("parameter")))
        elif node.type == "for_in_statement":
            if node.child_by_field_name("kind") is not None:
                yield from ((name, None) for name in _pattern_names(node.child_by_field_name("left")))
        else:
            yield from ((name, None) for name in _pattern_names(node.child_by_field_name("parameter")))


GRAMMAR = replace(JS_GRAMMAR, name="typescript", declarations=declarations)
"""The TypeScript grammar description. Types never block a TypeScript program here (tsc transpiles
with ``--noCheck``, as mxeval ignores type errors), so the operators stay JavaScript's untyped ones:
no declared result type restricts them; declared types only rank ``variable_misuse``'s names."""
