"""Literal and constant mutations beyond +-1: a number to zero, a boolean flipped, a separator
string changed, a returned expression replaced by a constant."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import code_nodes, int_literal, is_text, nodes_of
from execir.languages.python.operators.constants import idle_values
from execir.languages.python.operators.exprs import Context, parents
from execir.languages.python.source import SourceText

_BOOL_CALLS = frozenset({"any", "all", "isinstance", "callable", "bool"})
_LIST_CALLS = frozenset({"sorted", "list", "split", "filter", "map", "reversed"})
_STR_CALLS = frozenset({"str", "join", "lower", "upper", "strip", "replace", "format", "chr", "swapcase"})
_NUMBER_CALLS = frozenset({"len", "sum", "int", "abs", "round", "ord", "count", "index", "find", "float", "max", "min"})


def const_to_zero(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Replace an integer literal other than 0 and 1 (``2``, ``-1``, ``26``) by ``0``, where a
    zero is not an identity (no ``x + 0``, ``x * 0``, ``i += 0``: operator operands are left)
    nor an error (slice and ``range`` steps)."""
    table = parents(tree)
    for node in code_nodes(tree):
        value = int_literal(node)
        context = table.get(id(node))
        if value is None or value in (0, 1) or context is None:
            continue
        if isinstance(node, ast.Constant) and isinstance(context.parent, ast.UnaryOp):
            continue  # the -n as a whole is the literal
        if isinstance(context.parent, (ast.BinOp, ast.AugAssign)) or _is_step(node, context) or 0 in idle_values(node, table):
            continue
        start, end = source.node_span(node)
        yield SpanEdit(start, end, "0")


def _is_step(node: ast.AST, context: Context) -> bool:
    """A slice step or the step of ``range``: 0 there is a ValueError, not a bug."""
    parent = context.parent
    if isinstance(parent, ast.Slice):
        return context.field == "step"
    return isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "range" and len(parent.args) == 3 and parent.args[2] is node


def bool_literal_flip(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Flip one ``True`` <-> ``False`` outside a ``return`` (``return_bool_flip`` owns those):
    ``switch = True``, ``reverse=True``, ``found = False``."""
    table = parents(tree)
    for node in nodes_of(tree, ast.Constant):
        context = table.get(id(node))
        if isinstance(node.value, bool) and not (context is not None and isinstance(context.parent, ast.Return)):
            start, end = source.node_span(node)
            yield SpanEdit(start, end, str(not node.value))


STRING_SWAPS: dict[str, tuple[str, ...]] = {"": (" ",), " ": ("", ","), ",": (" ",)}
"""String literal content -> replacement contents (separators and padding), as for the
tree-sitter languages."""


def string_edit(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Change one empty, space or comma string literal (``''.join`` <-> ``' '.join``,
    ``' '`` -> ``','``; :data:`STRING_SWAPS`). Prefixed and triple-quoted literals stay, and so
    does a ``split`` separator (``split('')`` is a ValueError)."""
    table = parents(tree)
    for node in nodes_of(tree, ast.Constant):
        if not isinstance(node.value, str) or node.value not in STRING_SWAPS:
            continue
        context = table.get(id(node))
        if context is not None and isinstance(context.parent, ast.Call) and _callee(context.parent) in ("split", "rsplit"):
            continue
        start, end = source.node_span(node)
        literal = source.text[start:end]
        quote = literal[-1]
        if literal[0] not in "'\"" or literal.startswith(quote * 3) or literal[1:-1] != node.value:
            continue  # prefixed, triple-quoted or escaped: left alone
        for after in STRING_SWAPS[node.value]:
            yield SpanEdit(start, end, quote + after + quote)


def _callee(node: ast.AST) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    if isinstance(node.func, ast.Name):
        return node.func.id
    return node.func.attr if isinstance(node.func, ast.Attribute) else None


def _constants_for(value: ast.expr) -> tuple[str, ...]:
    """Plausible constants of the same kind as a returned expression (see return_const)."""
    name = _callee(value)
    if isinstance(value, (ast.Compare, ast.BoolOp)) or (isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not)):
        return ("True", "False")
    if name in _BOOL_CALLS or (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr.startswith("is")):
        return ("True", "False")
    if isinstance(value, (ast.List, ast.ListComp)) or name in _LIST_CALLS:
        return ("[]",)
    if isinstance(value, (ast.Dict, ast.DictComp)) or name == "dict":
        return ("{}",)
    if isinstance(value, (ast.Set, ast.SetComp)) or name == "set":
        return ("set()",)
    if isinstance(value, ast.Tuple):
        return ()
    if is_text(value) or name in _STR_CALLS or (isinstance(value, ast.BinOp) and (is_text(value.left) or is_text(value.right))):
        return ("''",)
    if name in _NUMBER_CALLS or isinstance(value, ast.BinOp) or (isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub)):
        return ("0",)
    return ("None",)


def return_const(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Replace a returned expression by a constant of its apparent kind: a condition by
    ``True``/``False``, a list by ``[]``, a dict/set by ``{}``/``set()``, a string by ``''``, a
    number by ``0``, anything else by ``None``. Returned constants and tuples are left alone."""
    for node in nodes_of(tree, ast.Return):
        value = node.value
        if value is None or isinstance(value, ast.Constant) or int_literal(value) is not None:
            continue
        start, end = source.node_span(value)
        for constant in _constants_for(value):
            if constant != source.text[start:end]:
                yield SpanEdit(start, end, constant)
