"""Call mutations that drop something: a call around its argument or receiver, one argument."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import is_text, nodes_of
from execir.languages.python.operators.exprs import outer_span, parents, replace_with
from execir.languages.python.source import SourceText

_KEEP_CALLS = frozenset({"range", "enumerate", "zip", "print", "isinstance", "issubclass", "super", "type", "iter", "next", "input", "open"})
"""Callees whose call is never unwrapped (``range(n)`` -> ``n`` is not a slip, it is a crash)."""

_RECEIVER_METHODS = frozenset({"replace", "strip", "lstrip", "rstrip", "encode", "decode"})
"""Methods with arguments whose result stands for the receiver (``s.replace(a, b)`` -> ``s``);
other methods are unwrapped to their receiver only when called without arguments."""

_OPTIONAL_LAST = frozenset(
    {
        "round",
        "enumerate",
        "int",
        "sum",
        "pow",
        "get",
        "pop",
        "setdefault",
        "split",
        "rsplit",
        "find",
        "rfind",
        "index",
        "count",
        "startswith",
        "endswith",
    }
)
"""Callees whose last positional argument is optional (``round(x, 2)`` -> ``round(x)``)."""


def _module_names(tree: ast.Module) -> frozenset[str]:
    """Names bound by imports (``math`` in ``math.sqrt(x)`` is a namespace, not a receiver)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return frozenset(names)


def _is_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) or is_text(node)


def _unwrapped(call: ast.Call, modules: frozenset[str]) -> Iterator[ast.expr]:
    """What a call can be unwrapped to: its only positional argument (or the bottom of a chain
    of one-argument calls under it), either operand of a
    two-argument ``min``/``max``, the receiver of a method call without arguments (or of a
    :data:`_RECEIVER_METHODS` one), the argument of a method of a literal (``' '.join(w)``)."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in _KEEP_CALLS:
        return
    positional = [arg for arg in call.args if not isinstance(arg, ast.Starred)]
    if isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name) and func.value.id in modules):
        receiver = func.value
        if _is_literal(receiver):
            if len(call.args) == 1 and positional:
                yield positional[0]
        elif not call.args or func.attr in _RECEIVER_METHODS:
            yield receiver
        return
    if len(call.args) == 1 and positional and not _is_literal(positional[0]):
        yield positional[0]
        inner = _innermost(positional[0])
        if inner is not positional[0] and not _is_literal(inner):
            yield inner  # sorted(list(set(l))) -> sorted(l)
    elif isinstance(func, ast.Name) and func.id in ("min", "max") and len(positional) == len(call.args) == 2:
        yield from (arg for arg in positional if not _is_literal(arg) and not _is_negative_literal(arg))


def _innermost(node: ast.expr) -> ast.expr:
    """The argument at the bottom of a chain of one-argument calls (``list(set(l))`` -> ``l``)."""
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id not in _KEEP_CALLS
        and len(node.args) == 1
        and not node.keywords
        and not isinstance(node.args[0], ast.Starred)
    ):
        node = node.args[0]
    return node


def _is_negative_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.UnaryOp) and _is_literal(node.operand)


def call_unwrap(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Replace a call by what it wraps: ``abs(x)`` -> ``x``, ``sorted(x, key=k)`` -> ``x``,
    ``max(0, e)`` -> ``e``, ``s.lower()`` -> ``s``, ``' '.join(w)`` -> ``w``.

    Calls that are whole statements are left to ``statement_delete``; literals are never kept
    alone, nor generator expressions; ``range``/``enumerate``/``print``/... calls stay (see
    ``_KEEP_CALLS``).
    """
    table = parents(tree)
    modules = _module_names(tree)
    for call in nodes_of(tree, ast.Call):
        context = table.get(id(call))
        if context is not None and isinstance(context.parent, ast.Expr):
            continue
        for keep in _unwrapped(call, modules):
            if not isinstance(keep, ast.GeneratorExp):  # sum(x for x in s) -> (x for x in s): no
                yield replace_with(source, table, call, keep)


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _deletable(call: ast.Call) -> list[ast.AST]:
    """Arguments whose deletion is a plausible slip: any keyword, the start of a two-argument
    ``range`` or the step of a three-argument one, the last positional argument of a callee
    where it is optional (:data:`_OPTIONAL_LAST`). Other positional arguments are required:
    without them the call is a TypeError."""
    name, args = _callee(call), call.args
    deletable: list[ast.AST] = list(call.keywords)
    if name == "range" and len(args) in (2, 3):
        deletable.append(args[0] if len(args) == 2 else args[2])
    elif name in _OPTIONAL_LAST and len(args) >= 2:
        deletable.append(args[-1])
    return deletable


def arg_delete(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Delete one argument of a call with two or more (``sorted(x, key=len)`` -> ``sorted(x)``,
    ``range(1, n)`` -> ``range(n)``, ``round(x, 2)`` -> ``round(x)``); see :func:`_deletable`."""
    table = parents(tree)
    for call in nodes_of(tree, ast.Call):
        arguments: list[ast.AST] = [*call.args, *call.keywords]
        if len(arguments) < 2 or any(isinstance(arg, ast.Starred) for arg in call.args):
            continue
        if any(k.arg is None for k in call.keywords):
            continue
        spans = sorted((outer_span(source, arg, table.get(id(arg))), id(arg)) for arg in arguments)
        deletable = {id(arg) for arg in _deletable(call)}
        for index, ((start, end), key) in enumerate(spans):
            if key not in deletable:
                continue
            if index == 0:
                yield SpanEdit(start, spans[1][0][0], "")
            else:
                yield SpanEdit(spans[index - 1][0][1], end, "")
