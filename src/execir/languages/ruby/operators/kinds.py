"""The kind of each local variable of a method (a number, a collection or a boolean), from how it
is assigned and used, so that ``variable_misuse`` does not put an array where a number goes.

Evidence: the value assigned (see :func:`~execir.languages.ruby.operators.values.guess_kind`), a
``for`` over a range, use as a subscripted object or as an index, the receiver of a collection or
number method, arithmetic or comparison with a number literal. A name with conflicting or no
evidence has no kind and is compatible with every name.
"""

from __future__ import annotations

from collections.abc import Mapping

from tree_sitter import Node

from execir.languages.ruby.operators.nodes import ARITH_OPS, field, method_name, nodes, op_text
from execir.languages.ruby.operators.values import ARRAY_METHODS, STRING_METHODS, guess_kind
from execir.languages.treesitter import Program

COLLECTION_RECEIVERS = (
    ARRAY_METHODS
    | STRING_METHODS
    | {
        "size",
        "length",
        "count",
        "each",
        "each_char",
        "empty?",
        "include?",
        "first",
        "last",
        "reverse",
        "sum",
        "max",
        "min",
        "push",
        "pop",
        "shift",
        "unshift",
        "index",
        "each_with_index",
        "any?",
        "all?",
        "none?",
        "slice",
        "start_with?",
        "end_with?",
        "max_by",
        "min_by",
        "inject",
        "reduce",
        "tally",
        "intersection",
        "union",
        "difference",
        "concat",
    }
) - {"to_s", "inspect", "digits", "to_a", "to_i", "to_f", "abs", "floor", "ceil", "round"}
"""Methods whose receiver is a string, array or hash."""

NUMBER_RECEIVERS = frozenset(
    {
        "times",
        "upto",
        "downto",
        "even?",
        "odd?",
        "zero?",
        "positive?",
        "negative?",
        "abs",
        "digits",
        "gcd",
        "lcm",
        "pow",
        "succ",
        "pred",
        "floor",
        "ceil",
        "round",
        "fdiv",
        "divmod",
        "to_f",
        "chr",
    }
)
"""Methods whose receiver is a number."""

_CLASSES = {"number": "number", "array": "collection", "string": "collection", "bool": "bool"}
_NUMERIC_COMPARE = frozenset({"<", "<=", ">", ">="})


def local_kinds(program: Program, method: Node, names: set[str]) -> Mapping[str, str]:
    """Name -> ``"number"``, ``"collection"`` or ``"bool"`` for the locals of ``method`` whose
    evidence agrees (names without a kind are absent)."""
    evidence: dict[str, set[str]] = {name: set() for name in names}
    for node in _inside(program, method):
        for name, kind in _evidence(program, node):
            if name in evidence:
                evidence[name].add(kind)
    return {name: next(iter(kinds)) for name, kinds in evidence.items() if len(kinds) == 1}


def compatible(kinds: Mapping[str, str], first: str, second: str) -> bool:
    """Whether two locals may stand for each other (same kind, or one of them unknown)."""
    one, two = kinds.get(first), kinds.get(second)
    return one is None or two is None or one == two


def _inside(program: Program, method: Node) -> list[Node]:
    types = ("assignment", "operator_assignment", "for", "element_reference", "call", "binary")
    return [node for node in nodes(program, types) if method.start_byte <= node.start_byte < method.end_byte]


def _evidence(program: Program, node: Node) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []

    def note(target: Node | None, kind: str | None) -> None:
        if target is not None and target.type == "identifier" and kind in _CLASSES:
            found.append((program.source(target), _CLASSES[kind]))

    if node.type in ("assignment", "operator_assignment"):
        right = field(node, "right")
        note(field(node, "left"), None if right is None else guess_kind(program, right))
    elif node.type == "for":
        value = field(node, "value")
        if value is not None and any(child.type == "range" for child in value.named_children):
            note(field(node, "pattern"), "number")
    elif node.type == "element_reference":
        target = field(node, "object")
        note(target, "array")
        indices = [child for child in node.named_children if child != target]
        if len(indices) == 1:
            note(indices[0], "number")
    elif node.type == "call":
        name = method_name(program, node)
        kind = "array" if name in COLLECTION_RECEIVERS else "number" if name in NUMBER_RECEIVERS else None
        note(field(node, "receiver"), kind)
    elif node.type == "binary" and (op_text(program, node) in ARITH_OPS or op_text(program, node) in _NUMERIC_COMPARE):
        left, right = field(node, "left"), field(node, "right")
        for one, other in ((left, right), (right, left)):
            if other is not None and other.type in ("integer", "float") and op_text(program, node) != "*":
                note(one, "number")
    return found
