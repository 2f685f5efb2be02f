"""What the Python rules share: scopes, purity, spans and indentation."""

from __future__ import annotations

import ast
import builtins
import io
import keyword
import tokenize
from collections.abc import Callable, Iterable, Iterator

from execir.edits import SpanEdit
from execir.languages.python.source import SourceText

Rule = Callable[[ast.Module, SourceText, frozenset[str]], Iterable[SpanEdit]]
"""A Python rule: (module, its source text, reserved names) -> candidate edits."""

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
"""Nodes that open a scope of their own."""

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)

PURE_CALLS = frozenset({"len", "abs", "min", "max", "int", "str", "float", "bool", "round", "ord", "chr", "sorted", "sum", "tuple", "list", "set"})
"""Builtins whose call has no side effect on their arguments (reading an iterator aside)."""

BUILTIN_NAMES = frozenset(dir(builtins)) | frozenset(keyword.kwlist) | frozenset(keyword.softkwlist)


def functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function definition, outer ones first."""
    for node in ast.walk(tree):
        if isinstance(node, FUNCTIONS):
            yield node


def own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a scope's body, not descending into nested scopes (which are yielded)."""
    stack = list(reversed(list(ast.iter_child_nodes(scope))))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, SCOPES):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


def names_in(node: ast.AST) -> set[str]:
    """Every ``Name`` identifier inside a node (nested scopes included)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def stored_names(node: ast.AST) -> set[str]:
    """Names bound (stored or deleted) inside a node, nested scopes included."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}


def all_identifiers(text: str) -> set[str]:
    """Every NAME token of a text (identifiers, attributes, keywords), plus the builtins."""
    names = set(BUILTIN_NAMES)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.NAME:
                names.add(token.string)
    except (tokenize.TokenError, SyntaxError):
        pass
    return names


def has_comment(text: str, start: int, end: int) -> bool:
    """True when a comment token starts in ``[start, end)`` (a conservative scan by tokenize)."""
    source = SourceText(text)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and start <= source.char_offset(*token.start) < end:
                return True
    except (tokenize.TokenError, SyntaxError):
        return True
    return False


def is_pure(node: ast.AST) -> bool:
    """An expression without side effects: names, constants, attribute and subscript reads,
    operators, displays, and calls of :data:`PURE_CALLS` with pure arguments."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in PURE_CALLS and not node.keywords and all(is_pure(arg) for arg in node.args)
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(
        node, (ast.Attribute, ast.Subscript, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Tuple, ast.List, ast.Set, ast.Slice, ast.Starred)
    ):
        return all(is_pure(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr))
    return False


def line_indent(source: SourceText, node: ast.stmt) -> str | None:
    """The whitespace before a statement on its line (None when something else precedes it)."""
    start = source.node_span(node)[0]
    line_start = source.text.rfind("\n", 0, start) + 1
    prefix = source.text[line_start:start]
    return prefix if not prefix.strip() else None


def owns_lines(source: SourceText, node: ast.stmt) -> bool:
    """Nothing but indentation before the statement and nothing but a comment after it."""
    end = source.node_span(node)[1]
    newline = source.text.find("\n", end)
    rest = source.text[end : len(source.text) if newline < 0 else newline].strip()
    return line_indent(source, node) is not None and (not rest or rest.startswith("#"))


def wrapped(source: SourceText, node: ast.expr) -> str:
    """A node's text, parenthesised when it is a conditional, lambda, walrus, tuple or generator
    without parentheses (which cannot stand as a comprehension's clause)."""
    text = expr_text(source, node)
    if isinstance(node, (ast.IfExp, ast.Lambda, ast.NamedExpr, ast.Tuple, ast.GeneratorExp)) and not text.startswith("("):
        return f"({text})"
    return text


def body_indent(source: SourceText, body: list[ast.stmt], header: ast.stmt) -> str | None:
    """The indentation of a block whose statements start on their own lines below ``header``."""
    if body[0].lineno == header.lineno:
        return None
    indents = {line_indent(source, stmt) for stmt in body}
    if len(indents) != 1:
        return None
    return indents.pop()


def expr_text(source: SourceText, node: ast.AST) -> str:
    """A node's exact text, parenthesised when it spans several lines (so it stays valid anywhere)."""
    text = source.segment(node)
    return f"({text})" if "\n" in text else text


def statement_end(source: SourceText, node: ast.stmt) -> int:
    """The offset just after the end of a statement's last line (before its newline)."""
    end = source.node_span(node)[1]
    newline = source.text.find("\n", end)
    return len(source.text) if newline < 0 else newline


def parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    """Each node's parent."""
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def block_of(parent: ast.AST, node: ast.stmt) -> list[ast.stmt] | None:
    """The statement list of ``parent`` that holds ``node``."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and any(stmt is node for stmt in block):
            return block
    for handler in getattr(parent, "handlers", []) or []:
        if any(stmt is node for stmt in handler.body):
            return list(handler.body)
    return None


def blocks(tree: ast.AST) -> Iterator[list[ast.stmt]]:
    """Every statement list (bodies, else branches, handlers) in the tree."""
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block
