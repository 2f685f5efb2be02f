"""``rename_local``: one local variable of a function renamed everywhere in that function."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.source import SourceText
from execir.rewrite.names import fresh_name
from execir.rewrite.python.common import SCOPES, all_identifiers, own_nodes

_DYNAMIC = frozenset({"locals", "vars", "eval", "exec", "globals", "dir"})
"""Calls that read a scope by name: a function using one is never renamed in."""

_UNSAFE = (ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom, ast.Match, ast.ExceptHandler)
"""Statements that bind a name without a ``Name`` node (or bind it elsewhere)."""


def _params(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    args = function.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, *(a for a in (args.vararg, args.kwarg) if a is not None)]
    return {arg.arg for arg in every}


def _nested_bindings(function: ast.AST) -> set[str]:
    """Names that any scope nested in ``function`` binds (parameters, targets, global/nonlocal)."""
    bound: set[str] = set()
    for node in ast.walk(function):
        if node is function or not isinstance(node, SCOPES):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            bound |= _params(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        for inner in ast.walk(node):
            if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
                bound.add(inner.id)
            elif isinstance(inner, (ast.Global, ast.Nonlocal)):
                bound.update(inner.names)
    return bound


def _locals(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """Names the function's own body assigns, in order of first assignment, parameters excluded."""
    seen: dict[str, None] = {}
    for node in own_nodes(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            seen.setdefault(node.id)
    params = _params(function)
    return [name for name in seen if name not in params]


def _blocked(function: ast.AST) -> bool:
    for node in ast.walk(function):
        if isinstance(node, _UNSAFE) and not (isinstance(node, ast.ExceptHandler) and node.name is None):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _DYNAMIC:
            return True
    return False


def _in_fstring(function: ast.AST, name: str) -> bool:
    return any(isinstance(node, ast.JoinedStr) and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)) for node in ast.walk(function))


def _rename(source: SourceText, function: ast.AST, old: str, new: str) -> SpanEdit | None:
    """One edit replacing the function's body with every ``Name`` ``old`` renamed (None when a
    span does not spell the name); the header (defaults, decorators, annotations) belongs to the
    enclosing scope and is kept."""
    body = function.body  # type: ignore[attr-defined]
    start, end = source.node_span(body[0])[0], source.node_span(body[-1])[1]
    spans = sorted(source.node_span(n) for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id == old)
    pieces, cursor = [], start
    for first, last in spans:
        if source.text[first:last] != old:
            return None
        pieces.append(source.text[cursor:first] + new)
        cursor = last
    pieces.append(source.text[cursor:end])
    return SpanEdit(start, end, "".join(pieces))


def rename_local(tree: ast.Module, source: SourceText, reserved: frozenset[str]) -> Iterator[SpanEdit]:
    """Rename one local of a function (assigned in its own body; not a parameter, not global or
    nonlocal, not bound again by a nested scope) to a fresh name used nowhere in the module."""
    taken = all_identifiers(source.text) | reserved
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or _blocked(function):
            continue
        nested = _nested_bindings(function)
        for old in _locals(function):
            if old in nested or old in reserved or _in_fstring(function, old):
                continue
            edit = _rename(source, function, old, fresh_name(old, taken))
            if edit is not None:
                yield edit
