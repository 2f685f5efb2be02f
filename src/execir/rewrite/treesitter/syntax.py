"""How each tree-sitter language spells what the rewrite rules look at."""

from __future__ import annotations

import importlib
import re
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


def _grammar_declared(module: str) -> Declared:
    grammar = importlib.import_module(module).GRAMMAR

    def declared(program: Program, function: Node) -> Iterator[Node]:
        return (node for node, _ in grammar.declarations(program, function))

    return declared


def _ruby_declared(program: Program, function: Node) -> Iterator[Node]:
    """Ruby locals: assignment targets, block and method parameters, ``for`` variables."""
    stack = [function]
    while stack:
        node = stack.pop()
        if node.type in ("assignment", "operator_assignment"):
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                yield left
        elif node.type in ("block_parameters", "method_parameters", "lambda_parameters"):
            yield from (child for child in node.named_children if child.type == "identifier")
        elif node.type == "for":
            pattern = node.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "identifier":
                yield pattern
        stack.extend(reversed(node.children))


_PHP_DYNAMIC_CALLS = frozenset({"compact", "extract", "get_defined_vars", "parse_str", "eval"})
"""PHP functions that read or write locals by a name given as text."""


def _php_name(node: Node) -> Node | None:
    """The ``name`` token of a ``variable_name`` (``$x``)."""
    return next((child for child in node.named_children if child.type == "name"), None) if node.type == "variable_name" else None


def _php_targets(node: Node) -> Iterator[Node]:
    """The variables a ``foreach`` target or a ``list()``/``[...]`` destructuring assigns."""
    if node.type == "variable_name":
        yield node
    elif node.type in ("list_literal", "by_ref", "pair"):
        for child in node.named_children:
            yield from _php_targets(child)


def _php_iterated(node: Node) -> bool:
    """Whether a variable is what a ``foreach`` iterates over (read there, not assigned)."""
    parent = node.parent
    return parent is not None and parent.type == "foreach_statement" and parent.named_children[0] == node


def _php_declared(program: Program, function: Node) -> Iterator[Node]:
    """PHP locals (the ``name`` of each ``$x``): the grammar's declarations (parameters, assigned
    variables, ``foreach`` variables) and destructuring, ``foreach`` by reference, ``static`` and
    ``catch`` variables."""
    grammar = importlib.import_module("execir.languages.php.grammar").GRAMMAR
    found = [node for node, _ in grammar.declarations(program, function) if not _php_iterated(node)]
    stack = [function]
    while stack:
        node = stack.pop()
        if node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "list_literal":
                found.extend(_php_targets(left))
        elif node.type == "foreach_statement":
            found.extend(target for child in node.named_children[1:] for target in _php_targets(child))
        elif node.type in ("static_variable_declaration", "catch_clause"):
            name = node.child_by_field_name("name")
            if name is not None:
                found.append(name)
        stack.extend(reversed(node.children))
    for node in found:
        name = _php_name(node)
        if name is not None:
            yield name


def _php_blocked(program: Program, function: Node, name: str) -> bool:
    """Whether a PHP function reaches its locals by text: ``$$x``/``${...}``, ``compact``,
    ``extract``, ``get_defined_vars``, ``parse_str``, ``eval``, ``include``/``require``."""
    del name
    stack = [function]
    while stack:
        node = stack.pop()
        if node.type in ("dynamic_variable_name", "include_expression", "include_once_expression", "require_expression", "require_once_expression"):
            return True
        if node.type == "function_call_expression":
            callee = node.child_by_field_name("function")
            if callee is not None and program.source(callee).lower().lstrip("\\") in _PHP_DYNAMIC_CALLS:
                return True
        stack.extend(node.children)
    return False


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


_C_KEYWORDS = frozenset(
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
_TS_KEYWORDS = frozenset(
    "arguments eval undefined type interface enum declare readonly namespace module abstract implements private protected public "
    "any unknown never number string boolean symbol bigint object keyof infer is as satisfies asserts".split()
)
_LOOSE = frozenset({"parenthesized_expression", "condition_clause", "parenthesized_statements"})


@cache
def syntax_of(language: str) -> Syntax:
    """The :class:`Syntax` of a tree-sitter language."""
    return _SYNTAX[language]()


_SYNTAX: dict[str, Callable[[], Syntax]] = {
    "cpp": lambda: Syntax(
        "cpp",
        frozenset({"function_definition"}),
        _grammar_declared("execir.languages.cpp.grammar"),
        literals=frozenset({"number_literal", "string_literal", "char_literal", "true", "false", "null", "nullptr"}),
        member=frozenset({"field_expression"}),
        index=frozenset({"subscript_expression"}),
        primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression"}),
        name_parents=frozenset({"labeled_statement", "goto_statement", "qualified_identifier", "template_function"}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS,
    ),
    "java": lambda: Syntax(
        "java",
        frozenset({"method_declaration", "constructor_declaration"}),
        _grammar_declared("execir.languages.java.grammar"),
        literals=frozenset(
            {"decimal_integer_literal", "decimal_floating_point_literal", "string_literal", "character_literal", "true", "false", "null_literal"}
        ),
        member=frozenset({"field_access"}),
        index=frozenset({"array_access"}),
        primary=frozenset({"method_invocation", "parenthesized_expression", "unary_expression"}),
        name_fields=frozenset({("field_access", "field"), ("method_invocation", "name")}),
        name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement", "method_reference"}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS,
    ),
    "go": lambda: Syntax(
        "go",
        frozenset({"function_declaration", "method_declaration"}),
        _grammar_declared("execir.languages.go.grammar"),
        literals=frozenset({"int_literal", "float_literal", "interpreted_string_literal", "raw_string_literal", "rune_literal", "true", "false", "nil"}),
        member=frozenset({"selector_expression"}),
        index=frozenset({"index_expression"}),
        primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression"}),
        name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement", "literal_element"}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS,
    ),
    "js": lambda: Syntax(
        "js",
        frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition", "generator_function_declaration"}),
        _grammar_declared("execir.languages.js.grammar"),
        equality=frozenset({"==", "!=", "===", "!=="}),
        literals=frozenset({"number", "string", "true", "false", "null", "undefined"}),
        member=frozenset({"member_expression"}),
        index=frozenset({"subscript_expression"}),
        primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression"}),
        name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement"}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS | frozenset({"arguments", "eval", "undefined"}),
    ),
    "typescript": lambda: Syntax(
        "typescript",
        frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition", "generator_function_declaration"}),
        _grammar_declared("execir.languages.ts.grammar"),
        equality=frozenset({"==", "!=", "===", "!=="}),
        literals=frozenset({"number", "string", "true", "false", "null", "undefined"}),
        member=frozenset({"member_expression"}),
        index=frozenset({"subscript_expression"}),
        primary=frozenset({"call_expression", "parenthesized_expression", "unary_expression", "non_null_expression"}),
        name_parents=frozenset({"labeled_statement", "break_statement", "continue_statement"}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS | _TS_KEYWORDS,
    ),
    "ruby": lambda: Syntax(
        "ruby",
        frozenset({"method", "singleton_method"}),
        _ruby_declared,
        binary="binary",
        unary="unary",
        paren="parenthesized_statements",
        literals=frozenset({"integer", "float", "string", "true", "false", "nil"}),
        index=frozenset({"element_reference"}),
        primary=frozenset({"parenthesized_statements", "unary"}),
        name_fields=frozenset({("call", "method")}),
        loose_contexts=_LOOSE,
        keywords=_C_KEYWORDS,
    ),
    "php": lambda: Syntax(
        "php",
        frozenset({"function_definition", "method_declaration", "anonymous_function", "arrow_function"}),
        _php_declared,
        unary="unary_op_expression",
        equality=frozenset({"==", "!=", "===", "!==", "<>"}),
        literals=frozenset({"integer", "float", "string", "encapsed_string", "boolean", "null", "name"}),
        member=frozenset({"member_access_expression"}),
        index=frozenset({"subscript_expression"}),
        primary=frozenset({"function_call_expression", "member_call_expression", "scoped_call_expression", "parenthesized_expression", "unary_op_expression"}),
        name_parents=frozenset({"global_declaration", "scoped_property_access_expression", "dynamic_variable_name"}),
        loose_contexts=frozenset({"parenthesized_expression"}),
        keywords=frozenset({"this", "GLOBALS"}),
        identifier="name",
        variable="variable_name",
        field_names=frozenset({"name"}),
        blocked=_php_blocked,
    ),
    "rust": lambda: Syntax(
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
    ),
}
