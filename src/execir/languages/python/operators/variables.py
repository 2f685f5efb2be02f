"""Variable misuse: one use of a local variable replaced by another variable of its scope.

Bounded by proximity: a use gets at most :data:`MAX_ALTERNATIVES` replacements, the names that
occur nearest to it (ties: a name seen above before one below, then by name), which is where a
misused name comes from when people write one; a function gets at most
:data:`MAX_PER_FUNCTION`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.operators.base import code_nodes
from execir.languages.python.source import SourceText

MAX_ALTERNATIVES = 2
"""Replacements tried per use (the nearest names)."""

WINDOW = 3
"""How many lines away from a use a replacement name may occur at the nearest."""

MAX_PER_FUNCTION = 24
"""Replacements tried per function (its lambdas and comprehensions included)."""

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_NESTED = (*_SCOPES, ast.ClassDef, *_COMPREHENSIONS)


def _params(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[ast.arg]:
    args = node.args
    extra = [arg for arg in (args.vararg, args.kwarg) if arg is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *extra]


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """Nodes of a scope's body, not descending into nested scopes (their own bodies). The first
    iterable of a comprehension belongs to the scope around it (it is evaluated there)."""
    outer = scope.generators[0].iter if isinstance(scope, _COMPREHENSIONS) else None
    stack = [child for child in ast.iter_child_nodes(scope) if child is not outer]
    while stack:
        node = stack.pop()
        if node is outer:
            continue
        yield node
        if isinstance(node, _COMPREHENSIONS):
            stack.append(node.generators[0].iter)
        if isinstance(node, _NESTED):
            continue
        stack.extend(ast.iter_child_nodes(node))


def _bound(scope: ast.AST) -> set[str]:
    """Variables a scope binds: parameters, assigned names, loop and ``with`` targets (not
    imports, functions, classes or names declared global/nonlocal)."""
    names = {arg.arg for arg in _params(scope)} if isinstance(scope, _SCOPES) else set()
    declared: set[str] = set()
    for node in _own_nodes(scope):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
    if isinstance(scope, _COMPREHENSIONS):
        for generator in scope.generators:
            names.update(n.id for n in ast.walk(generator.target) if isinstance(n, ast.Name))
    return names - declared


def _uses(scope: ast.AST) -> Iterator[ast.Name]:
    """Names read in a scope's own body (and ``x`` of ``x += e``, which reads ``x``)."""
    for node in _own_nodes(scope):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            yield node
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            yield node.target


def _lines(scope: ast.AST, names: set[str]) -> dict[str, list[int]]:
    """Lines where each name of a scope occurs (parameters on the ``def`` line)."""
    lines: dict[str, list[int]] = {name: [] for name in names}
    for node in ast.walk(scope):
        if isinstance(node, ast.Name) and node.id in lines:
            lines[node.id].append(node.lineno)
        elif isinstance(node, ast.arg) and node.arg in lines:
            lines[node.arg].append(node.lineno)
    return lines


def nearest(line: int, current: str, lines: dict[str, list[int]]) -> list[tuple[int, str]]:
    """(distance in lines, name) of the :data:`MAX_ALTERNATIVES` names other than ``current``
    occurring nearest to ``line``, within :data:`WINDOW` lines."""

    def key(name: str) -> tuple[int, bool, str]:
        at = min(lines[name], key=lambda at: (abs(at - line), at > line))
        return abs(at - line), at > line, name

    ranked = sorted(key(name) for name in lines if name != current and lines[name])[:MAX_ALTERNATIVES]
    return [(distance, name) for distance, _, name in ranked if distance <= WINDOW]


def _scopes(tree: ast.Module) -> Iterator[tuple[ast.AST, set[str], ast.AST]]:
    """(scope, names visible as local variables, the function whose lines rank them) for every
    function, lambda and comprehension; lambdas and comprehensions also see the variables of the
    scope around them."""
    stack: list[tuple[ast.AST, set[str], ast.AST]] = [(tree, set(), tree)]
    while stack:
        node, visible, function = stack.pop()
        for child in ast.iter_child_nodes(node):
            entry: tuple[ast.AST, set[str], ast.AST]
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                entry = (child, _bound(child), child)
            elif isinstance(child, (ast.Lambda, *_COMPREHENSIONS)):
                entry = (child, visible | _bound(child), function)
            elif isinstance(child, ast.ClassDef):
                entry = (child, set(), child)
            else:
                stack.append((child, visible, function))
                continue
            if not isinstance(child, ast.ClassDef):
                yield entry
            stack.append(entry)


def variable_misuse(tree: ast.Module, source: SourceText) -> Iterator[SpanEdit]:
    """Replace one use of a local variable by another variable of the same scope (parameters,
    assigned names, loop variables): the :data:`MAX_ALTERNATIVES` nearest ones, and at most
    :data:`MAX_PER_FUNCTION` per function (every use's nearest name before any use's second
    one, nearer before farther, earlier before later)."""
    code = {id(node) for node in code_nodes(tree)}
    ranked: dict[int, list[tuple[int, int, int, SpanEdit]]] = {}
    for scope, names, function in _scopes(tree):
        if len(names) < 2:
            continue
        lines = _lines(function, names)
        found = ranked.setdefault(id(function), [])
        for use in _uses(scope):
            if use.id not in names or id(use) not in code:
                continue
            start, end = source.node_span(use)
            for rank, (distance, other) in enumerate(nearest(use.lineno, use.id, lines)):
                found.append((rank, distance, start, SpanEdit(start, end, other)))
    for found in ranked.values():
        for *_, edit in sorted(found)[:MAX_PER_FUNCTION]:
            yield edit
