"""Static types of expressions, as far as a file's own declarations tell (typed grammars: C++, Java).

The operators that move one expression where another stood (``receiver_swap``, ``call_unwrap``,
``attribute_swap``, ``term_insert``) ask :class:`Typing` for the declared type of each side and
keep a candidate only when the compiler would accept it: the types are known and assignable.
Types are compact spellings (no layout, no ``std::``): ``vector<float>``, ``List<Integer>``,
``int``. What is not declared in the file (fields of library classes, ``auto``, ``var``) is None.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from tree_sitter import Node

from execir.languages.treesitter.families.grammar import Grammar
from execir.languages.treesitter.families.nodes import call_arguments, callee, enclosing, operator_text, unwrap
from execir.languages.treesitter.program import Program

ARITHMETIC = frozenset(
    {"bool", "char", "short", "int", "long", "longlong", "unsigned", "unsignedint", "unsignedlong", "size_t", "float", "double", "longdouble", "byte"}
)
"""Arithmetic type spellings (compact): any converts to any in C++."""

_BOXES = {"Integer": "int", "Long": "long", "Double": "double", "Float": "float", "Character": "char", "Boolean": "boolean", "Short": "short", "Byte": "byte"}

_WIDENING = {"byte": 1, "short": 2, "char": 2, "int": 3, "long": 4, "float": 5, "double": 6}
"""Java's primitive widening order (a value converts to a type of higher or equal rank)."""

_COMPARISONS = frozenset({"<", "<=", ">", ">=", "==", "!=", "&&", "||"})

ELEMENT = "<element>"
"""A ``method_results`` / ``function_results`` value: the receiver's (first argument's) element type."""
SAME = "<same>"
"""A ``method_results`` / ``function_results`` value: the receiver's (first argument's) own type."""


def compact(declared: str | None) -> str | None:
    """A type's spelling without layout, ``std::``, ``const``/``final`` or a trailing ``&``."""
    if declared is None:
        return None
    words = [word for word in declared.replace("&", " ").split() if word not in ("const", "final", "static")]
    text = "".join(words).replace("std::", "")
    return text or None


def element_type(declared: str | None) -> str | None:
    """The element type of a container, string or array type (``vector<int>`` -> ``int``,
    ``Map<K,V>`` -> ``V``, ``int[]`` -> ``int``, ``string``/``String`` -> ``char``)."""
    if declared is None:
        return None
    if declared in ("string", "String"):
        return "char"
    if declared.endswith("[]"):
        return declared[:-2]
    if "<" not in declared or not declared.endswith(">"):
        return None
    arguments = _top_level_split(declared[declared.index("<") + 1 : -1])
    return arguments[-1] if arguments else None


def _top_level_split(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += (char == "<") - (char == ">")
        if char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return [part for part in parts if part]


def assignable(grammar: Grammar, target: str | None, value: str | None) -> bool:
    """A value of type ``value`` may stand where a ``target`` was (both known): equal types, any
    two arithmetic types in C++, Java's widening (boxes as their primitives)."""
    if target is None or value is None:
        return False
    if target == value:
        return True
    if grammar.implicit_arithmetic:
        return target in ARITHMETIC and value in ARITHMETIC
    target, value = _BOXES.get(target, target), _BOXES.get(value, value)
    if target == value:
        return True
    return target in _WIDENING and value in _WIDENING and _WIDENING[value] <= _WIDENING[target] and not (target == "char")


def numeric(grammar: Grammar, declared: str | None) -> bool:
    """A type arithmetic works on (``char`` included: ``c - '0'``; not ``bool``/``boolean``)."""
    if declared is None:
        return False
    declared = _BOXES.get(declared, declared)
    if declared in ("bool", "boolean"):
        return False
    return declared in ARITHMETIC if grammar.implicit_arithmetic else declared in _WIDENING


@dataclass(frozen=True)
class _Local:
    name: str
    node: Node
    type: str | None
    scope: Node


class Typing:
    """Declared types of one program's names, calls and subscripts."""

    def __init__(self, program: Program, grammar: Grammar) -> None:
        self.program = program
        self.grammar = grammar

    @cached_property
    def _locals(self) -> dict[int, list[_Local]]:
        """Outermost function id -> every name it declares (all declarations, in order)."""
        scopes = self.grammar.blocks | self.grammar.scopes | self.grammar.functions
        table: dict[int, list[_Local]] = {}
        for function in self.program.walk(self.grammar.functions):
            if enclosing(function, self.grammar.functions) is not None:
                continue
            table[function.id] = [
                _Local(self.program.source(node), node, compact(declared), enclosing(node, scopes) or function)
                for node, declared in self.grammar.declarations(self.program, function)
            ]
        return table

    @cached_property
    def results(self) -> Mapping[str, str | None]:
        """Function or method name -> its declared result type (None when the file declares the
        name twice with different results)."""
        found: dict[str, str | None] = {}
        for function in self.program.walk(self.grammar.functions):
            name = _function_name(function)
            result = None if self.grammar.return_type is None else function.child_by_field_name(self.grammar.return_type)
            if name is None or result is None:
                continue
            spelled = compact(self.program.source(result))
            key = self.program.source(name)
            found[key] = spelled if found.get(key, spelled) == spelled else None
        return found

    def local(self, use: Node) -> _Local | None:
        """The declaration a name refers to at ``use`` (the innermost visible one), or None."""
        outer = use
        while (parent := enclosing(outer, self.grammar.functions)) is not None:
            outer = parent
        name = self.program.source(use)
        found = None
        for local in self._locals.get(outer.id, []):
            if local.name == name and local.node.end_byte <= use.start_byte and local.scope.start_byte <= use.start_byte < local.scope.end_byte:
                found = local
        return found

    def of(self, node: Node) -> str | None:
        """The static type of an expression, when the file's declarations tell it."""
        grammar = self.grammar
        node = unwrap(grammar, node)
        kind = node.type
        if kind in grammar.identifiers:
            local = self.local(node)
            return None if local is None else local.type
        if kind in grammar.numbers:
            return _number_type(self.program.source(node))
        if kind in grammar.booleans:
            return grammar.boolean_type
        if kind in grammar.characters:
            return "char"
        if kind in grammar.strings:
            return grammar.string_type
        if kind in grammar.subscript:
            return element_type(self.of_field(node, grammar.subscript[kind][0]))
        if kind in grammar.call:
            return self._call(node)
        if kind in grammar.binary:
            return self._binary(node)
        cast = node.child_by_field_name("type") if kind in grammar.casts else None
        return None if cast is None else compact(self.program.source(cast))

    def of_field(self, node: Node, field: str) -> str | None:
        child = node.child_by_field_name(field)
        return None if child is None else self.of(child)

    def receiver(self, call: Node) -> Node | None:
        """The object a method is called on (``s`` in ``s.find(t)``), or None."""
        receiver = call.child_by_field_name("object")
        function = call.child_by_field_name(self.grammar.call_function)
        if receiver is None and function is not None and function.type in self.grammar.member:
            receiver = function.child_by_field_name(self.grammar.member[function.type][0])
        return receiver

    def _call(self, call: Node) -> str | None:
        name = callee(self.grammar, call)
        if name is None:
            return None
        spelled = self.program.source(name)
        receiver = self.receiver(call)
        if receiver is not None and self.program.source(receiver) not in self.grammar.namespaces:
            rule = self.grammar.method_results.get(spelled)
            subject = self.of(receiver)
        else:
            qualified = f"{self.program.source(receiver)}.{spelled}" if receiver is not None else spelled
            rule = self.grammar.function_results.get(qualified, self.grammar.function_results.get(spelled))
            arguments = call_arguments(self.program, self.grammar, call)
            subject = self.of(arguments[0]) if arguments else None
            if rule is None and receiver is None:
                return self.results.get(spelled)
        if rule == ELEMENT:
            return element_type(subject)
        if rule == SAME:
            return subject
        return rule

    def _binary(self, node: Node) -> str | None:
        found = operator_text(self.program, node)
        if found is None:
            return None
        if found[1] in _COMPARISONS:
            return self.grammar.boolean_type
        left, right = self.of_field(node, "left"), self.of_field(node, "right")
        if left is None or right is None:
            return None
        if left == right:
            return left
        if numeric(self.grammar, left) and numeric(self.grammar, right):
            widest = left if _rank(left) >= _rank(right) else right
            return "double" if "double" in (left, right) else widest if _rank(widest) >= _rank("int") else "int"
        return None


def _rank(declared: str) -> int:
    return _WIDENING.get(_BOXES.get(declared, declared), 0)


def _number_type(text: str) -> str:
    lowered = text.lower()
    if lowered.startswith("0x"):
        return "long" if lowered.endswith("l") else "int"
    if lowered.endswith("f"):
        return "float"
    if "." in lowered or "e" in lowered or lowered.endswith("d"):
        return "double"
    return "long" if lowered.endswith("l") else "int"


def _function_name(function: Node) -> Node | None:
    """The name a function or method declares (C++ looks through its declarator)."""
    name = function.child_by_field_name("name")
    declarator = function.child_by_field_name("declarator")
    while name is None and declarator is not None:
        if declarator.type in ("identifier", "field_identifier"):
            return declarator
        inner = declarator.child_by_field_name("declarator")
        declarator = inner
    return name
