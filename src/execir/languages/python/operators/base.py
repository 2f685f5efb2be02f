"""Shared helpers for mutation operators: which nodes are code, and where operator tokens sit.

An operator is a pure function ``(tree, source) -> Iterable[SpanEdit]`` over a parsed module and
its :class:`~execir.languages.python.source.SourceText`; each yielded edit is one candidate mutant.
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from execir.edits import SpanEdit
from execir.languages.python.source import SourceText

NodeT = TypeVar("NodeT", bound=ast.AST)

Operator = Callable[[ast.Module, SourceText], Iterable[SpanEdit]]

_ANNOTATION_FIELDS: dict[type[ast.AST], frozenset[str]] = {
    ast.arg: frozenset({"annotation"}),
    ast.AnnAssign: frozenset({"annotation"}),
    ast.FunctionDef: frozenset({"returns"}),
    ast.AsyncFunctionDef: frozenset({"returns"}),
}


def _is_string_statement(node: ast.AST) -> bool:
    """A bare string statement (docstring or comment-like literal)."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


_CODE_NODES: weakref.WeakKeyDictionary[ast.AST, tuple[ast.AST, ...]] = weakref.WeakKeyDictionary()
"""Code nodes of each module seen (operators only read trees; every operator walks the same one)."""


def code_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node that is executable code: skips docstrings, f-strings and type annotations."""
    if not isinstance(tree, ast.Module):
        return _walk_code(tree)
    nodes = _CODE_NODES.get(tree)
    if nodes is None:
        nodes = _CODE_NODES[tree] = tuple(_walk_code(tree))
    return iter(nodes)


def _walk_code(tree: ast.AST) -> Iterator[ast.AST]:
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        skipped = _ANNOTATION_FIELDS.get(type(node), frozenset())
        for field, value in ast.iter_fields(node):
            if field in skipped:
                continue
            children = value if isinstance(value, list) else [value]
            stack.extend(
                child for child in reversed(children) if isinstance(child, ast.AST) and not isinstance(child, ast.JoinedStr) and not _is_string_statement(child)
            )


def nodes_of(tree: ast.AST, kind: type[NodeT] | tuple[type[NodeT], ...]) -> Iterator[NodeT]:
    """Code nodes of the given type(s)."""
    return (node for node in code_nodes(tree) if isinstance(node, kind))


def operator_span(source: SourceText, left: ast.AST, right: ast.AST, expected: str) -> tuple[int, int] | None:
    """Span of the operator tokens between two operands, if they spell ``expected``.

    ``expected`` is the operator as space-separated tokens (``"not in"``); parentheses around the
    operands are ignored. Returns None when the tokens differ (the edit is then skipped).
    """
    tokens = [tok for tok in source.tokens_in(source.node_span(left)[1], source.node_span(right)[0]) if tok.string not in ("(", ")")]
    if not tokens or " ".join(tok.string for tok in tokens) != expected:
        return None
    return tokens[0].start, tokens[-1].end


def prefix_token_span(source: SourceText, node: ast.AST) -> tuple[int, int] | None:
    """Span from a node's first token up to its second token (a prefix keyword plus spacing)."""
    start, end = source.node_span(node)
    tokens = source.tokens_in(start, end)
    if len(tokens) < 2:
        return None
    return tokens[0].start, tokens[1].start


def swaps_at(span: tuple[int, int] | None, replacements: Iterable[str]) -> Iterator[SpanEdit]:
    """One edit per replacement of the span (nothing when the span was not found)."""
    if span is not None:
        for after in replacements:
            yield SpanEdit(span[0], span[1], after)


def is_text(node: ast.AST) -> bool:
    """A string or bytes literal or an f-string."""
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)))


def int_literal(node: ast.AST) -> int | None:
    """Value of an integer literal (``3`` or ``-3``); None for anything else, bools included."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = int_literal(node.operand)
        return None if inner is None or not isinstance(node.operand, ast.Constant) else -inner
    return None
