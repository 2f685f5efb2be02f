"""Call-site operators: mirrored and related methods, argument order and deletion, unwrapped calls."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.ruby.operators.nodes import BLOCKS, call_args, delete_item, field, is_primary, method_name, methods, nodes, returned_values
from execir.languages.ruby.operators.values import method_kind
from execir.languages.treesitter import Program

METHOD_MIRRORS: dict[str, str] = {
    "upcase": "downcase",
    "upcase!": "downcase!",
    "first": "last",
    "start_with?": "end_with?",
    "ljust": "rjust",
    "lstrip": "rstrip",
    "lstrip!": "rstrip!",
    "select": "reject",
    "select!": "reject!",
    "any?": "all?",
    "floor": "ceil",
    "succ": "pred",
    "index": "rindex",
    "take": "drop",
    "take_while": "drop_while",
    "even?": "odd?",
    "positive?": "negative?",
    "upto": "downto",
    "push": "unshift",
    "pop": "shift",
    "sub": "gsub",
    "sub!": "gsub!",
    "each_slice": "each_cons",
    "keys": "values",
    "chomp": "chop",
}
METHOD_MIRRORS.update({after: before for before, after in list(METHOD_MIRRORS.items())})
"""Method -> its mirror image (same call shape, opposite end, case, direction or parity), both ways."""

MIN_MAX: dict[str, str] = {"min": "max", "max": "min", "min_by": "max_by", "max_by": "min_by"}

ALIASES: tuple[frozenset[str], ...] = (
    frozenset({"size", "length", "count"}),
    frozenset({"map", "collect"}),
    frozenset({"select", "filter"}),
    frozenset({"reduce", "inject"}),
    frozenset({"to_a", "entries"}),
    frozenset({"find", "detect"}),
    frozenset({"each_with_index", "each"}),
    frozenset({"flat_map", "collect_concat"}),
    frozenset({"include?", "member?"}),
)
"""Names that do the same thing (swapping them gives an equivalent program)."""

NO_UNWRAP = frozenset(
    {
        "puts",
        "print",
        "p",
        "pp",
        "raise",
        "fail",
        "require",
        "require_relative",
        "lambda",
        "proc",
        "loop",
        "attr_reader",
        "attr_accessor",
        "new",
    }
)
"""Calls that are statements or constructors, not value transformations."""

OPTIONAL_ARGUMENT = frozenset(
    {
        "join",
        "split",
        "round",
        "floor",
        "ceil",
        "sum",
        "to_s",
        "to_i",
        "first",
        "last",
        "min",
        "max",
        "flatten",
        "pop",
        "shift",
        "sample",
        "rotate",
        "chomp",
        "lines",
        "digits",
        "squeeze",
    }
)
"""Methods whose only argument may be left out (the call still runs, with another meaning)."""

ATTRIBUTE_SWAP_LIMIT = 3
"""At most this many replacement names per call site (the nearest in the file)."""


def _method_swaps(program: Program, table: dict[str, str]) -> Iterator[SpanEdit]:
    for node in nodes(program, ("call",)):
        method = field(node, "method")
        if method is not None and program.source(method) in table:
            yield program.replace(method, table[program.source(method)])


def method_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap one called method for its mirror (``upcase``<->``downcase``, ``first``<->``last``,
    ``select``<->``reject``, ``any?``<->``all?``, ... see METHOD_MIRRORS), or drop/add the ``reverse``
    after a ``sort`` (``a.sort.reverse`` <-> ``a.sort``)."""
    yield from _method_swaps(program, METHOD_MIRRORS)
    for node in nodes(program, ("call",)):
        block = field(node, "block")
        if method_name(program, node) not in ("sort", "sort_by") or (block is not None and block.type == "do_block"):
            continue
        parent = node.parent
        if parent is not None and parent.type == "call" and field(parent, "receiver") == node and method_name(program, parent) == "reverse":
            if not call_args(parent) and field(parent, "block") is None:
                yield SpanEdit(program.span(node)[1], program.span(parent)[1], "")
        else:
            end = program.span(node)[1]
            yield SpanEdit(end, end, ".reverse")


def min_max_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap one ``min``<->``max`` or ``min_by``<->``max_by`` call."""
    return _method_swaps(program, MIN_MAX)


def _positional(node: Node) -> list[Node] | None:
    """A call's arguments when all are positional (None when there is a splat, block or keyword argument)."""
    args = call_args(node)
    if any(arg.type in ("pair", "block_argument", "splat_argument", "hash_splat_argument", "forward_argument") for arg in args):
        return None
    return args


def arg_swap(program: Program) -> Iterator[SpanEdit]:
    """Swap two adjacent positional arguments of a call (when their texts differ)."""
    for node in nodes(program, ("call",)):
        args = _positional(node) or []
        for left, right in zip(args, args[1:]):
            first, second = program.source(left), program.source(right)
            if first != second:
                middle = program.text[program.span(left)[1] : program.span(right)[0]]
                yield program.replace_range(left, right, second + middle + first)


def arg_delete(program: Program) -> Iterator[SpanEdit]:
    """Delete one positional argument of a call with its comma; the only argument of a method in
    OPTIONAL_ARGUMENT goes with its parentheses (``s.join(" ")`` -> ``s.join``). Calls of a method
    defined in the file keep the arguments it requires."""
    required = _required(program)
    for node in nodes(program, ("call",)):
        args = _positional(node)
        name = method_name(program, node)
        if not args or name in NO_UNWRAP:
            continue
        if field(node, "receiver") is None and len(args) <= required.get(name, 0):
            continue  # a call of a method of this file that would miss a required argument
        if len(args) > 1:
            for index in range(len(args)):
                yield delete_item(program, args, index)
            continue
        arguments = field(node, "arguments")
        receiver = field(node, "receiver")
        optional = method_name(program, node) in OPTIONAL_ARGUMENT and receiver is not None and receiver.type != "constant"
        if optional and arguments is not None and program.source(arguments).startswith("("):
            yield program.replace(arguments, "")


def call_unwrap(program: Program) -> Iterator[SpanEdit]:
    """Remove one call around a value: a conversion or transformation in a chain (``x.to_i`` -> ``x``,
    ``a.sort.uniq`` -> ``a.sort``; no arguments, no block, no ``?``/``!`` method), or a function around
    its only argument (``Integer(x)``, ``Math.sqrt(x)`` -> ``x``)."""
    for node in nodes(program, ("call",)):
        name, receiver, args = method_name(program, node), field(node, "receiver"), call_args(node)
        if not name or name in NO_UNWRAP or field(node, "block") is not None or name[-1] in "?!" or _unused(program, node):
            continue
        if name == "reverse" and receiver is not None and method_name(program, receiver) in ("sort", "sort_by"):
            continue  # method_swap's sort.reverse -> sort
        if receiver is not None and receiver.type not in ("constant", "scope_resolution") and not args:
            yield SpanEdit(program.span(receiver)[1], program.span(node)[1], "")
        elif (receiver is None or receiver.type == "constant") and len(args) == 1 and _positional(node):
            arguments = field(node, "arguments")
            if arguments is not None and program.source(arguments).startswith("("):
                text = program.source(args[0])
                yield program.replace(node, text if is_primary(program, args[0]) else f"({text})")


def _unused(program: Program, node: Node) -> bool:
    """An expression statement whose value nobody reads (``a.sort`` on a line of its own, not a
    method's last value): unwrapping it changes nothing."""
    parent = node.parent
    return parent is not None and parent.type in BLOCKS and node not in set(returned_values(program))


def _required(program: Program) -> dict[str, int]:
    """Method name -> number of required parameters, for the methods defined in the file."""
    required = {}
    for method in methods(program):
        name, parameters = field(method, "name"), field(method, "parameters")
        count = 0 if parameters is None else sum(child.type == "identifier" for child in parameters.named_children)
        if name is not None:
            required[program.source(name)] = count
    return required


def _shape(program: Program, node: Node) -> str | None:
    """The call shape attribute_swap keeps: ``plain``/``?``/``!`` receiver calls without arguments,
    or ``block`` for a call with a block and no arguments."""
    name, receiver = method_name(program, node), field(node, "receiver")
    if not name or receiver is None or receiver.type in ("constant", "scope_resolution") or call_args(node):
        return None
    if field(node, "block") is not None:
        return "block"
    return name[-1] if name[-1] in "?!" else "plain"


def _related(first: str, second: str) -> bool:
    """Aliases, mirrors, or names whose results differ in kind (a number for a string, ...)."""
    if method_kind(first) != method_kind(second):
        return True
    return any(first in group and second in group for group in ALIASES) or METHOD_MIRRORS.get(first) == second or MIN_MAX.get(first) == second


def attribute_swap(program: Program) -> Iterator[SpanEdit]:
    """Replace one called method by another method name called on a receiver in the same file with
    the same shape (no arguments; with a block, a ``?`` or a ``!`` alike): ``a.uniq`` -> ``a.sort``.

    At most ATTRIBUTE_SWAP_LIMIT names per site, the nearest calls first; aliases (``size``/``length``),
    the mirrors of ``method_swap``/``min_max_swap`` and names whose results differ in kind (``to_s``
    for ``size``, see :func:`~execir.languages.ruby.operators.values.method_kind`) are skipped."""
    sites = [(node, _shape(program, node)) for node in nodes(program, ("call",))]
    used = [(program.span(node)[0], method_name(program, node), shape) for node, shape in sites if shape is not None]
    for node, shape in sites:
        method = field(node, "method")
        if shape is None or method is None:
            continue
        name, start = program.source(method), program.span(node)[0]
        nearest: dict[str, int] = {}
        for position, other, other_shape in used:
            if other_shape == shape and other != name and not _related(name, other):
                nearest[other] = min(nearest.get(other, abs(position - start)), abs(position - start))
        for other in sorted(nearest, key=lambda key: (nearest[key], key))[:ATTRIBUTE_SWAP_LIMIT]:
            yield program.replace(method, other)
