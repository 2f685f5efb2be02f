"""``comprehension_to_loop`` and ``loop_to_comprehension``: a list built by a comprehension or by
an explicit ``append`` loop, each written as the other."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.source import SourceText
from execir.rewrite.names import accumulator_name
from execir.rewrite.python.common import (
    FUNCTIONS,
    SCOPES,
    all_identifiers,
    blocks,
    body_indent,
    expr_text,
    has_comment,
    line_indent,
    names_in,
    own_nodes,
    owns_lines,
    stored_names,
    wrapped,
)

_IMPURE = (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await, ast.Lambda)
_REDUCERS = {"sum": ("total", "acc"), "any": ("found",), "all": ("ok",)}


def _clean(node: ast.AST) -> bool:
    """No walrus, yield, await or lambda anywhere inside (their scoping differs in a comprehension)."""
    return not any(isinstance(n, _IMPURE) for n in ast.walk(node))


def _targets(comp: ast.ListComp | ast.GeneratorExp) -> set[str]:
    return set().union(*(stored_names(gen.target) for gen in comp.generators))


def _confined(function: ast.AST, inside: ast.AST, names: set[str]) -> bool:
    """None of ``names`` is used in the function outside ``inside``."""
    within = {id(node) for node in ast.walk(inside)}
    return not any(isinstance(n, ast.Name) and n.id in names and id(n) not in within for n in ast.walk(function))


def _loops(source: SourceText, comp: ast.ListComp | ast.GeneratorExp, indent: str, step: str) -> tuple[list[str], str]:
    """The nested ``for``/``if`` header lines of a comprehension and the indentation inside them."""
    lines, depth = [], indent
    for gen in comp.generators:
        lines.append(f"{depth}for {expr_text(source, gen.target)} in {expr_text(source, gen.iter)}:")
        depth += step
        for condition in gen.ifs:
            lines.append(f"{depth}if {expr_text(source, condition)}:")
            depth += step
    return lines, depth


def _negated(source: SourceText, node: ast.expr) -> str:
    text = expr_text(source, node)
    if isinstance(node, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr)) and not text.startswith("("):
        text = f"({text})"
    return f"not {text}"


def _render(source: SourceText, stmt: ast.stmt, call: str, comp: ast.ListComp | ast.GeneratorExp, acc: str, indent: str) -> str | None:
    """The replacement block (without the first line's indentation)."""
    step = "    "
    heads, inner = _loops(source, comp, indent, step)
    element = expr_text(source, comp.elt)
    returning = isinstance(stmt, ast.Return)
    after: list[str] = []
    if call == "list":
        init, action = "[]", [f"{inner}{acc}.append({element})"]
    elif call == "sum":
        init, action = "0", [f"{inner}{acc} += {element}"]
    elif returning:
        test = element if call == "any" else _negated(source, comp.elt)
        verdict = "True" if call == "any" else "False"
        lines = [*heads, f"{inner}if {test}:", f"{inner}{step}return {verdict}", f"{indent}return {'False' if call == 'any' else 'True'}"]
        return "\n".join(lines)[len(indent) :]
    else:
        test = element if call == "any" else _negated(source, comp.elt)
        init = "False" if call == "any" else "True"
        action = [f"{inner}if {test}:", f"{inner}{step}{acc} = {'True' if call == 'any' else 'False'}", f"{inner}{step}break"]
        if len(comp.generators) > 1:
            return None  # break leaves only the innermost loop
    tail = [f"{indent}return {acc}"] if returning else after
    return "\n".join([f"{indent}{acc} = {init}", *heads, *action, *tail])[len(indent) :]


def _site(stmt: ast.stmt) -> tuple[str, ast.ListComp | ast.GeneratorExp, str | None] | None:
    """(kind, comprehension, assigned name) of ``return <c>`` or ``name = <c>``; kind is ``list``
    for a list comprehension, or ``sum``/``any``/``all`` of a generator or list comprehension."""
    value = stmt.value if isinstance(stmt, (ast.Return, ast.Assign)) else None
    target = None
    if isinstance(stmt, ast.Assign):
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            return None
        target = stmt.targets[0].id
    if isinstance(value, ast.ListComp):
        return "list", value, target
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in _REDUCERS
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], (ast.GeneratorExp, ast.ListComp))
    ):
        return value.func.id, value.args[0], target
    return None


def comprehension_to_loop(tree: ast.Module, source: SourceText, reserved: frozenset[str]) -> Iterator[SpanEdit]:
    """``return [e for x in xs if c]`` or ``name = [...]`` as an explicit loop appending to a list
    (and ``sum``/``any``/``all`` over a comprehension as an accumulating or early-exit loop)."""
    taken = all_identifiers(source.text) | reserved
    for function in ast.walk(tree):
        if not isinstance(function, FUNCTIONS):
            continue
        for stmt in own_nodes(function):
            if not isinstance(stmt, (ast.Return, ast.Assign)):
                continue
            site = _site(stmt)
            indent = line_indent(source, stmt) if site and owns_lines(source, stmt) else None
            if site is None or indent is None:
                continue
            call, comp, target = site
            if any(gen.is_async for gen in comp.generators) or not _clean(comp) or not _confined(function, comp, _targets(comp)):
                continue
            if target is not None and target in names_in(comp):
                continue
            if any(isinstance(n, SCOPES) for n in ast.walk(comp) if n is not comp):
                continue  # a nested scope would capture the leaked loop variable
            acc = target or accumulator_name(_REDUCERS.get(call, ("result",)), taken)
            text = _render(source, stmt, call, comp, acc, indent)
            if text is not None:
                start, end = source.node_span(stmt)
                yield SpanEdit(start, end, text)


def _append(stmt: ast.stmt, acc: str) -> ast.expr | None:
    """The argument of ``acc.append(e)``."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    func = call.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "append"
        and isinstance(func.value, ast.Name)
        and func.value.id == acc
        and len(call.args) == 1
        and not call.keywords
        and not isinstance(call.args[0], ast.Starred)
    ):
        return call.args[0]
    return None


def _pattern(first: ast.stmt, loop: ast.stmt) -> tuple[str, ast.expr | None, ast.expr] | None:
    """(accumulator, condition, element) of ``acc = []`` followed by ``for x in xs: [if c:] acc.append(e)``."""
    if not (
        isinstance(first, ast.Assign)
        and len(first.targets) == 1
        and isinstance(first.targets[0], ast.Name)
        and isinstance(first.value, ast.List)
        and not first.value.elts
    ):
        return None
    if not isinstance(loop, ast.For) or loop.orelse or len(loop.body) != 1:
        return None
    acc = first.targets[0].id
    body = loop.body[0]
    condition = None
    if isinstance(body, ast.If) and not body.orelse and len(body.body) == 1:
        condition, body = body.test, body.body[0]
    element = _append(body, acc)
    if element is None:
        return None
    return acc, condition, element


def loop_to_comprehension(tree: ast.Module, source: SourceText, reserved: frozenset[str]) -> Iterator[SpanEdit]:
    """``acc = []`` then ``for x in xs: [if c:] acc.append(e)`` as ``acc = [e for x in xs if c]``."""
    del reserved
    for function in ast.walk(tree):
        if not isinstance(function, FUNCTIONS):
            continue
        own = {id(node) for node in own_nodes(function)}
        for block in blocks(function):
            for first, loop in zip(block, block[1:]):
                if id(first) not in own:
                    continue
                found = _pattern(first, loop)
                if found is None or not owns_lines(source, first) or not owns_lines(source, loop):
                    continue
                acc, condition, element = found
                assert isinstance(loop, ast.For)
                parts = [loop.iter, element, loop.target] + ([condition] if condition is not None else [])
                if acc in set().union(*(names_in(p) for p in parts)) or not all(_clean(p) for p in parts):
                    continue
                if not _confined(function, loop, stored_names(loop.target)) or body_indent(source, loop.body, loop) is None:
                    continue
                start, end = source.node_span(first)[0], source.node_span(loop)[1]
                if has_comment(source.text, start, end):
                    continue
                test = "" if condition is None else f" if {wrapped(source, condition)}"
                comp = f"[{wrapped(source, element)} for {expr_text(source, loop.target)} in {wrapped(source, loop.iter)}{test}]"
                yield SpanEdit(start, end, f"{acc} = {comp}")
