"""Expression context for operators that move or drop subexpressions: parents, precedence and
grouping parentheses, so that a replaced expression parses as intended and keeps no stray parens.

Precedence levels follow the Python grammar, loosest first: lambda 0, ``x if c else y`` 1,
``or`` 2, ``and`` 3, ``not`` 4, comparisons 5, ``|`` 6, ``^`` 7, ``&`` 8, shifts 9, ``+ -`` 10,
``* / // % @`` 11, unary ``- + ~`` 12, ``**`` 13, ``await`` 14, atoms 15.
"""

from __future__ import annotations

import ast
import bisect
import weakref
from typing import NamedTuple

from execir.edits import SpanEdit
from execir.languages.python.source import SourceText

ATOM = 15

_BINOP_LEVEL: dict[type[ast.operator], int] = {
    ast.BitOr: 6,
    ast.BitXor: 7,
    ast.BitAnd: 8,
    ast.LShift: 9,
    ast.RShift: 9,
    ast.Add: 10,
    ast.Sub: 10,
    ast.Mult: 11,
    ast.Div: 11,
    ast.FloorDiv: 11,
    ast.Mod: 11,
    ast.MatMult: 11,
    ast.Pow: 13,
}


class Context(NamedTuple):
    """Where an expression sits: its parent node and the parent's field holding it."""

    parent: ast.AST
    field: str


_PARENTS: weakref.WeakKeyDictionary[ast.AST, dict[int, Context]] = weakref.WeakKeyDictionary()


def parents(tree: ast.AST) -> dict[int, Context]:
    """``id(child)`` -> its context, for every node under ``tree`` (built once per tree; the
    table must not be modified)."""
    table = _PARENTS.get(tree)
    if table is None:
        table = _PARENTS[tree] = _parents(tree)
    return table


def _parents(tree: ast.AST) -> dict[int, Context]:
    table: dict[int, Context] = {}
    for node in ast.walk(tree):
        for field, value in ast.iter_fields(node):
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    table[id(child)] = Context(node, field)
    return table


def level(node: ast.AST) -> int:
    """How tightly an (unparenthesized) expression binds; see the module docstring."""
    if isinstance(node, ast.NamedExpr):
        return -1
    if isinstance(node, (ast.Lambda, ast.Tuple)):
        return 0
    if isinstance(node, ast.IfExp):
        return 1
    if isinstance(node, ast.BoolOp):
        return 2 if isinstance(node.op, ast.Or) else 3
    if isinstance(node, ast.UnaryOp):
        return 4 if isinstance(node.op, ast.Not) else 12
    if isinstance(node, ast.Compare):
        return 5
    if isinstance(node, ast.BinOp):
        return _BINOP_LEVEL[type(node.op)]
    if isinstance(node, ast.Await):
        return 14
    return ATOM


def required(context: Context | None) -> int:
    """The least level an expression needs to stand where ``context`` is without parentheses."""
    if context is None:
        return 0
    parent, field = context
    if isinstance(parent, ast.BinOp):
        own = _BINOP_LEVEL[type(parent.op)]
        if isinstance(parent.op, ast.Pow):
            return 14 if field == "left" else 12
        return own if field == "left" else own + 1
    if isinstance(parent, ast.Compare):
        return 6
    if isinstance(parent, ast.BoolOp):
        return 3 if isinstance(parent.op, ast.Or) else 4
    if isinstance(parent, ast.UnaryOp):
        return 4 if isinstance(parent.op, ast.Not) else 12
    if isinstance(parent, ast.IfExp):
        return 1 if field == "orelse" else 2
    if isinstance(parent, (ast.Attribute, ast.Subscript)) and field == "value":
        return ATOM
    if isinstance(parent, ast.Call) and field == "func":
        return ATOM
    if isinstance(parent, (ast.Await, ast.Starred)):
        return ATOM if isinstance(parent, ast.Await) else 6
    if isinstance(parent, ast.comprehension):
        return 2
    if isinstance(parent, (ast.Return, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.For)):
        return 0
    return 1


def outer_span(source: SourceText, node: ast.AST, context: Context | None) -> tuple[int, int]:
    """The node's span widened over the grouping parentheses around it (not a call's own)."""
    start, end = source.node_span(node)
    tokens, starts = source.tokens, _token_starts(source)
    while True:
        before = bisect.bisect_left(starts, start) - 1
        after = bisect.bisect_left(starts, end)
        if before < 0 or after >= len(tokens):
            break
        if tokens[before].string != "(" or tokens[after].string != ")":
            break
        if _is_call_paren(source, tokens[before].start, context):
            break
        start, end = tokens[before].start, tokens[after].end
    return start, end


_STARTS: weakref.WeakKeyDictionary[SourceText, list[int]] = weakref.WeakKeyDictionary()


def _token_starts(source: SourceText) -> list[int]:
    starts = _STARTS.get(source)
    if starts is None:
        starts = _STARTS[source] = [tok.start for tok in source.tokens]
    return starts


def _is_call_paren(source: SourceText, paren: int, context: Context | None) -> bool:
    """True when the ``(`` at ``paren`` opens the argument list of the node's parent call."""
    if context is None or not isinstance(context.parent, ast.Call) or context.field == "func":
        return False
    func = context.parent.func
    func_end = outer_span(source, func, Context(context.parent, "func"))[1]  # (int)(x): after ")"
    between = source.tokens_in(func_end, paren + 1)
    return len(between) == 1


def replace_with(source: SourceText, table: dict[int, Context], node: ast.AST, keep: ast.AST) -> SpanEdit:
    """Replace ``node`` by its descendant ``keep`` as written (with ``keep``'s own grouping
    parens). ``node``'s grouping parens go when ``keep`` needs none there (and fits on one line);
    parens are added when ``keep`` binds looser than ``node``'s place requires."""
    context = table.get(id(node))
    keep_start, keep_end = outer_span(source, keep, table.get(id(keep)))
    text = source.text[keep_start:keep_end]
    keep_level = ATOM if (keep_start, keep_end) != source.node_span(keep) else level(keep)
    start, end = source.node_span(node)
    outer = outer_span(source, node, context)
    fits = keep_level >= required(context)
    if outer == (start, end):  # a text over several lines needs brackets around it to parse
        return spaced(source, SpanEdit(start, end, text if fits and "\n" not in text else f"({text})"))
    if fits and "\n" not in text:  # node's parentheses are not needed any more (a multi-line text keeps them)
        return spaced(source, SpanEdit(*outer, text))
    return SpanEdit(start, end, text)


def spaced(source: SourceText, edit: SpanEdit) -> SpanEdit:
    """The edit with a space added where its text would otherwise run into a neighbouring
    keyword or name (``if(a and b):`` -> ``if a:``, not ``ifa:``)."""
    text, after = source.text, edit.after
    if after[:1].isidentifier() or after[:1].isdigit():
        if edit.start > 0 and (text[edit.start - 1].isalnum() or text[edit.start - 1] == "_"):
            after = " " + after
    if after[-1:].isalnum() or after[-1:] == "_":
        if edit.end < len(text) and (text[edit.end].isalnum() or text[edit.end] == "_"):
            after = after + " "
    return SpanEdit(edit.start, edit.end, after)


def placed(text: str, node: ast.AST, context: Context | None, *, grouped: bool = False) -> str:
    """``text`` (the source of ``node``) parenthesized if it needs it in ``context``."""
    return text if grouped or level(node) >= required(context) else f"({text})"
