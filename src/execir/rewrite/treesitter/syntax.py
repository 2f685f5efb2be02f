"""How each tree-sitter language spells what the rewrite rules look at."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from tree_sitter import Node

from execir.languages.treesitter.program import Program

Declared = Callable[[Program, Node], Iterator[Node]]
"""(program, function) -> identifier nodes the function declares (parameters included)."""

Position = Callable[[Program, Node], bool]
"""(program, name token) -> whether a language-specific position check lets it be a variable."""

Blocked = Callable[[Program, Node, str], bool]
"""(program, function, name) -> whether something the token walk cannot see refers to ``name``
(a format string, a dynamic variable), so that renaming it would change the program."""


def _never(program: Program, node: Node, name: str = "") -> bool:
    del program, node, name
    return False


def _always(program: Program, node: Node) -> bool:
    del program, node
    return True


@dataclass(frozen=True)
class Syntax:
    """One language's node types for the rewrite rules."""

    name: str
    functions: frozenset[str]
    declared: Declared
    binary: str = "binary_expression"
    unary: str = "unary_expression"
    paren: str = "parenthesized_expression"
    equality: frozenset[str] = frozenset({"==", "!="})
    literals: frozenset[str] = frozenset()
    member: frozenset[str] = frozenset()
    index: frozenset[str] = frozenset()
    primary: frozenset[str] = frozenset()
    """Expressions that ``!`` may prefix without parentheses (besides identifiers, literals, members, indexes)."""
    name_fields: frozenset[tuple[str, str]] = frozenset()
    """(parent type, field) where an ``identifier`` names a member or method, not a variable."""
    name_parents: frozenset[str] = frozenset()
    """Parent types whose ``identifier`` children are labels or keys, not variables."""
    loose_contexts: frozenset[str] = frozenset()
    """Parent types in which an ``||``/``&&`` expression needs no parentheses."""
    keywords: frozenset[str] = frozenset()
    identifier: str = "identifier"
    """The token type of a variable's name."""
    variable: str | None = None
    """The node type that wraps a variable's name token where the language marks variables (PHP's
    ``variable_name``: ``$`` and a ``name``); None where the name token stands alone. Where set, only
    tokens inside it are variables, and the checks on a use's parent look at the wrapper's parent."""
    field_names: frozenset[str] = frozenset({"field_identifier", "property_identifier"})
    """Token types that name a member after ``.``/``->`` (never variables)."""
    position: Position = _always
    """A further check of a use's position (Rust: a name inside a macro's token tree)."""
    blocked: Blocked = _never
    """Names a function must not rename (see :data:`Blocked`)."""

    @property
    def simple(self) -> frozenset[str]:
        """Operand types ``swap_commutative`` moves: identifiers, literals, member access, indexing."""
        return frozenset({self.variable or self.identifier}) | self.literals | self.member | self.index


def grammar_declared(module: str) -> Declared:
    grammar = importlib.import_module(module).GRAMMAR

    def declared(program: Program, function: Node) -> Iterator[Node]:
        return (node for node, _ in grammar.declarations(program, function))

    return declared


C_KEYWORDS = frozenset(
    {
        "auto",
        "int",
        "long",
        "float",
        "double",
        "char",
        "bool",
        "void",
        "new",
        "delete",
        "this",
        "true",
        "false",
        "var",
        "let",
        "const",
        "func",
        "range",
        "map",
        "string",
        "len",
        "nil",
        "null",
        "end",
        "def",
        "do",
    }
)
LOOSE = frozenset({"parenthesized_expression", "condition_clause", "parenthesized_statements"})
"""Where ``||``/``&&`` needs no parentheses in the C-family grammars."""


@cache
def syntax_of(language: str) -> Syntax:
    """The :class:`Syntax` of a tree-sitter language, as its declaration names it (``rewrite_syntax``)."""
    from execir.language_declarations import declared, load

    found = declared(language)
    if found is None or found.rewrite_syntax is None:
        raise KeyError(language)
    syntax: Syntax = load(found.rewrite_syntax)
    return syntax
