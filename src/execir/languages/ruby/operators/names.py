"""Name operators: one use of a local variable replaced by another local of the same method, and
swapped subscripts."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.ruby.operators.kinds import compatible, local_kinds
from execir.languages.ruby.operators.nodes import field, methods, nodes
from execir.languages.treesitter import Program

MAX_ALTERNATIVES = 2
"""Replacement names tried per use (the nearest)."""

WINDOW = 3
"""How many lines away from a use a replacement name may occur at the nearest."""

MAX_PER_METHOD = 24
"""Replacements tried per method."""

SCOPES = frozenset({"block", "do_block", "lambda"})
"""Nodes that open a scope for the names first defined inside them."""

PARAMETERS = frozenset({"method_parameters", "block_parameters", "lambda_parameters"})
NAMED_PARAMETERS = frozenset({"optional_parameter", "splat_parameter", "keyword_parameter", "block_parameter", "hash_splat_parameter"})

NOT_USES = {"call": "method", "method": "name", "singleton_method": "name", "keyword_parameter": "name", "optional_parameter": "name"}
"""Parent type -> the field of an identifier that names something other than a local variable."""


@dataclass(frozen=True)
class Definition:
    """A local variable usable from ``start`` on and visible in ``[scope_start, scope_end)``."""

    name: str
    start: int
    scope_start: int
    scope_end: int


def _scope(program: Program, node: Node, method: Node) -> tuple[int, int]:
    parent = node.parent
    while parent is not None and parent != method and parent.type not in SCOPES:
        parent = parent.parent
    return program.span(parent if parent is not None else method)


def _defined(node: Node) -> list[Node]:
    """The identifiers a node defines (parameters, assignment targets, ``for`` variables)."""
    if node.type in PARAMETERS:
        found = [child for child in node.named_children if child.type == "identifier"]
        for child in node.named_children:
            name = field(child, "name") if child.type in NAMED_PARAMETERS else None
            if name is not None:
                found.append(name)
            if child.type == "destructured_parameter":
                found.extend(grand for grand in child.named_children if grand.type == "identifier")
        return found
    if node.type in ("assignment", "operator_assignment"):
        left = field(node, "left")
        if left is not None and left.type == "identifier":
            return [left]
        if left is not None and left.type == "left_assignment_list":
            return [child for child in left.named_children if child.type == "identifier"]
    if node.type == "for":
        pattern = field(node, "pattern")
        if pattern is not None and pattern.type == "identifier":
            return [pattern]
        if pattern is not None:
            return [child for child in pattern.named_children if child.type == "identifier"]
    return []


def _usable_from(program: Program, node: Node, identifier: Node) -> int:
    """Where a defined name becomes usable: after its assignment, inside its ``for`` body, at a parameter."""
    if node.type in ("assignment", "operator_assignment"):
        return program.span(node)[1]
    body = field(node, "body") if node.type == "for" else None
    return program.span(body)[0] if body is not None else program.span(identifier)[0]


def _locals(program: Program, method: Node) -> tuple[list[Definition], set[tuple[int, int]]]:
    """The definitions of a method's locals, and the spans of the defining identifiers."""
    definitions: list[Definition] = []
    sites: set[tuple[int, int]] = set()
    stack = [method]
    while stack:
        node = stack.pop()
        for identifier in _defined(node):
            scope = program.span(method) if node.type == "method_parameters" else _scope(program, node, method)
            # an assigned name is usable once its assignment is complete (``m = [a]`` cannot use ``m``)
            usable = _usable_from(program, node, identifier)
            definitions.append(Definition(program.source(identifier), usable, *scope))
            sites.add(program.span(identifier))
        stack.extend(child for child in node.children if child.type not in ("method", "singleton_method", "class", "module"))
    return definitions, sites


def _is_use(node: Node) -> bool:
    parent = node.parent
    if parent is None:
        return False
    name = NOT_USES.get(parent.type)
    return name is None or field(parent, name) != node


def variable_misuse(program: Program) -> Iterator[SpanEdit]:
    """Replace one read of a local variable by another local of the same method that is defined
    before it, visible there, not of a different kind (a number for an array, see
    :func:`~execir.languages.ruby.operators.kinds.local_kinds`) and seen within WINDOW lines of the
    use: the MAX_ALTERNATIVES nearest names per use, at most MAX_PER_METHOD per method (every use's
    nearest name before any use's second one, nearer before farther, earlier before later).
    Assignment targets and parameters are not uses; ``x = y`` never becomes ``x = x``."""
    for method in methods(program):
        ranked: list[tuple[int, int, int, SpanEdit]] = []
        definitions, sites = _locals(program, method)
        names = {definition.name for definition in definitions}
        kinds = local_kinds(program, method, names)
        identifiers = [node for node in _identifiers(method) if program.source(node) in names]
        lines: dict[str, list[int]] = {}
        for node in identifiers:
            lines.setdefault(program.source(node), []).append(node.start_point[0])
        for node in identifiers:
            start, end = program.span(node)
            name = program.source(node)
            if (start, end) in sites or not _is_use(node):
                continue
            row = node.start_point[0]
            near = {}
            target = _assigned_to(program, node)
            for d in definitions:
                visible = d.start <= start and d.scope_start <= start < d.scope_end
                if visible and d.name not in (name, target) and compatible(kinds, name, d.name):
                    distance = min(abs(row - line) for line in lines[d.name])
                    if distance <= WINDOW:
                        near[d.name] = distance
            for rank, other in enumerate(sorted(near, key=lambda key: (near[key], key))[:MAX_ALTERNATIVES]):
                ranked.append((rank, near[other], start, SpanEdit(start, end, other)))
        yield from (edit for *_, edit in sorted(ranked)[:MAX_PER_METHOD])


def _assigned_to(program: Program, node: Node) -> str | None:
    """The target of ``x = use`` when the use is the whole value (``x = x`` would do nothing)."""
    parent = node.parent
    if parent is None or parent.type != "assignment" or field(parent, "right") != node:
        return None
    left = field(parent, "left")
    return program.source(left) if left is not None else None


def _identifiers(root: Node) -> Iterator[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "identifier":
            yield node
        stack.extend(reversed(node.children))


def subscript_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap two subscripts: ``a[i][j]`` -> ``a[j][i]``, ``s[start, length]`` -> ``s[length, start]``."""
    for node in nodes(program, ("element_reference",)):
        indices = _indices(node)
        inner = field(node, "object")
        if len(indices) == 2:
            first, second = indices
        elif len(indices) == 1 and inner is not None and inner.type == "element_reference" and len(_indices(inner)) == 1:
            first, second = _indices(inner)[0], indices[0]
        else:
            continue
        if program.source(first) != program.source(second):
            middle = program.text[program.span(first)[1] : program.span(second)[0]]
            yield program.replace_range(first, second, program.source(second) + middle + program.source(first))


def _indices(node: Node) -> list[Node]:
    target = field(node, "object")
    return [child for child in node.named_children if child != target and child.type != "comment"]
