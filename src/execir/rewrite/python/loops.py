"""``for_to_while``: ``for i in range(a, b[, k]):`` as ``i = a`` / ``while i < b:`` / ``i += k``."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.source import SourceText
from execir.rewrite.python.common import FUNCTIONS, body_indent, expr_text, line_indent, own_nodes, statement_end, stored_names

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)


def _range_args(loop: ast.For) -> tuple[ast.expr | None, ast.expr, int] | None:
    """(start, stop, positive literal step) of ``range(...)`` (None for anything else)."""
    call = loop.iter
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "range" and not call.keywords):
        return None
    args = call.args
    if not 1 <= len(args) <= 3 or any(isinstance(arg, ast.Starred) for arg in args):
        return None
    step = 1
    if len(args) == 3:
        literal = args[2]
        if not (isinstance(literal, ast.Constant) and type(literal.value) is int and literal.value > 0):
            return None
        step = literal.value
    return (args[0] if len(args) > 1 else None), args[-1 if len(args) == 1 else 1], step


def _has_continue(body: list[ast.stmt]) -> bool:
    """A ``continue`` of this loop (nested loops and functions are not this loop's)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Continue):
            return True
        if isinstance(node, (*_LOOPS, *FUNCTIONS, ast.Lambda, ast.ClassDef)):
            if isinstance(node, _LOOPS):
                stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def _invariant(stop: ast.expr, body: list[ast.stmt], var: str) -> bool:
    """The stop bound has the same value on every iteration: literals, names the body never binds,
    ``len(name)`` of a sequence the body only indexes, and arithmetic of those."""
    bound = set().union(*(stored_names(stmt) for stmt in body)) | {var}
    if isinstance(stop, ast.Constant):
        return type(stop.value) is int
    if isinstance(stop, ast.Name):
        return stop.id not in bound
    if isinstance(stop, ast.UnaryOp) and isinstance(stop.op, ast.USub):
        return _invariant(stop.operand, body, var)
    if isinstance(stop, ast.BinOp) and isinstance(stop.op, _ARITH):
        return _invariant(stop.left, body, var) and _invariant(stop.right, body, var)
    if (
        isinstance(stop, ast.Call)
        and isinstance(stop.func, ast.Name)
        and stop.func.id == "len"
        and len(stop.args) == 1
        and not stop.keywords
        and isinstance(stop.args[0], ast.Name)
    ):
        return stop.args[0].id not in bound and _only_read(stop.args[0].id, body)
    return False


def _only_read(name: str, body: list[ast.stmt]) -> bool:
    """Every use of ``name`` in the body indexes it, takes its ``len`` or tests membership."""
    allowed: set[int] = set()
    uses: list[ast.Name] = []
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name):
                allowed.add(id(node.value))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
                allowed.update(id(arg) for arg in node.args if isinstance(arg, ast.Name))
            elif isinstance(node, ast.Compare) and all(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
                allowed.update(id(arg) for arg in node.comparators if isinstance(arg, ast.Name))
            elif isinstance(node, ast.Name) and node.id == name:
                uses.append(node)
    return all(id(use) in allowed for use in uses)


def _used_elsewhere(function: ast.AST, loop: ast.For, var: str) -> bool:
    """The loop variable is used outside the loop other than as another ``for`` loop's target
    variable (whose loop binds it before reading), or by a nested scope inside the loop."""
    inside = {id(node) for node in ast.walk(loop)}
    other_loops = {
        id(node)
        for other in ast.walk(function)
        if isinstance(other, ast.For) and other is not loop and isinstance(other.target, ast.Name) and other.target.id == var and id(other) not in inside
        for node in ast.walk(other)
    }
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == var and id(node) not in inside and id(node) not in other_loops:
            return True
    for node in own_nodes(loop):
        if isinstance(node, (*FUNCTIONS, ast.Lambda, ast.ClassDef)) and any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(node)):
            return True
    return False


def _rewrite(source: SourceText, loop: ast.For, function: ast.AST) -> SpanEdit | None:
    if loop.orelse or not isinstance(loop.target, ast.Name) or loop.type_comment:
        return None
    var = loop.target.id
    parts = _range_args(loop)
    indent = line_indent(source, loop)
    inner = body_indent(source, loop.body, loop)
    if parts is None or indent is None or inner is None or _has_continue(loop.body):
        return None
    start, stop, step = parts
    if var in names_of(stop) or not _invariant(stop, loop.body, var) or var in set().union(*(stored_names(s) for s in loop.body)):
        return None
    if _used_elsewhere(function, loop, var):
        return None
    loop_start, _ = source.node_span(loop)
    header_end = source.node_span(loop.iter)[1]
    colon = source.text.index(":", header_end)
    body_end = statement_end(source, loop.body[-1])
    first = "0" if start is None else expr_text(source, start)
    header = f"{var} = {first}\n{indent}while {var} < {expr_text(source, stop)}:"
    body = source.text[colon + 1 : body_end]
    return SpanEdit(loop_start, body_end, f"{header}{body}\n{inner}{var} += {step}")


def names_of(node: ast.AST) -> set[str]:
    """Names read or written inside a node."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def for_to_while(tree: ast.Module, source: SourceText, reserved: frozenset[str]) -> Iterator[SpanEdit]:
    """Turn a counting ``for`` loop over ``range`` into a ``while`` loop, when the two are equivalent:
    literal positive step, no ``else``, no ``continue``, the variable neither rebound in the body nor
    used after the loop, and a stop bound the body cannot change."""
    for function in ast.walk(tree):
        if not isinstance(function, FUNCTIONS):
            continue
        for node in own_nodes(function):
            if isinstance(node, ast.For):
                edit = _rewrite(source, node, function)
                if edit is not None:
                    yield edit
