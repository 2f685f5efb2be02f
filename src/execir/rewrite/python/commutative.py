"""``swap_commutative``: the operands of ``==``/``!=``, of numeric ``+``/``*``, and of ``and``/``or``
between comparisons, swapped."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from execir.edits import SpanEdit
from execir.languages.python.source import SourceText
from execir.rewrite.python.common import is_pure

_NUMERIC_CALLS = frozenset({"len", "int", "abs", "float", "round", "ord"})
_PRECEDENCE = {ast.Add: 1, ast.Sub: 1, ast.Mult: 2, ast.Div: 2, ast.FloorDiv: 2, ast.Mod: 2, ast.MatMult: 2}


def _numeric(node: ast.AST) -> bool:
    """A number literal or a call that returns a number."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _numeric(node.operand)
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NUMERIC_CALLS


def _literal(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _literal(node.operand)
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def _swap_around(source: SourceText, node: ast.expr, left: ast.expr, right: ast.expr, wrap_left: bool) -> SpanEdit | None:
    """Swap the text before and after the operator between ``left`` and ``right`` (the operands'
    own parentheses travel with them); ``wrap_left`` parenthesises the old left operand."""
    start, end = source.node_span(node)
    left_end, right_start = source.node_span(left)[1], source.node_span(right)[0]
    tokens = [tok for tok in source.tokens_in(left_end, right_start) if tok.string not in ("(", ")")]
    if len(tokens) != 1:
        return None
    op_start, op_end = tokens[0].start, tokens[0].end
    before, after = source.text[start:op_start], source.text[op_end:end]
    left_text, right_text = before.strip(), after.strip()
    if "\n" in before or "\n" in after:
        return None
    if wrap_left:
        left_text = f"({left_text})"
    space_before = before[len(before.rstrip()) :]
    space_after = after[: len(after) - len(after.lstrip())]
    return SpanEdit(start, end, f"{right_text}{space_before}{tokens[0].string}{space_after}{left_text}")


def _compare_edits(source: SourceText, node: ast.Compare) -> Iterator[SpanEdit]:
    if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
        left, right = node.left, node.comparators[0]
        if is_pure(left) and is_pure(right):
            edit = _swap_around(source, node, left, right, False)
            if edit is not None:
                yield edit


def _binop_edits(source: SourceText, node: ast.BinOp) -> Iterator[SpanEdit]:
    if not isinstance(node.op, (ast.Add, ast.Mult)):
        return
    left, right = node.left, node.right
    if not (_literal(left) or _literal(right) or (_numeric(left) and _numeric(right))):
        return
    if not (is_pure(left) or is_pure(right)):
        return
    left_text = source.text[source.node_span(node)[0] : source.node_span(left)[1]].strip()
    same_level = isinstance(left, ast.BinOp) and _PRECEDENCE.get(type(left.op), 9) <= _PRECEDENCE[type(node.op)]
    edit = _swap_around(source, node, left, right, same_level and not left_text.startswith("("))
    if edit is not None:
        yield edit


def _comparison(node: ast.AST) -> bool:
    """A comparison that cannot raise: names, numbers and ``len(name)`` compared by order or equality."""
    if not isinstance(node, ast.Compare) or any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
        return False
    return all(_safe_operand(operand) for operand in (node.left, *node.comparators))


def _safe_operand(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _safe_operand(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        return _safe_operand(node.left) and _safe_operand(node.right)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
        and not node.keywords
    )


def _boolop_edits(source: SourceText, node: ast.BoolOp) -> Iterator[SpanEdit]:
    for first, second in zip(node.values, node.values[1:]):
        if _comparison(first) and _comparison(second):
            start1, end1 = source.node_span(first)
            start2, end2 = source.node_span(second)
            between = source.text[end1:start2]
            yield SpanEdit(start1, end2, source.text[start2:end2] + between + source.text[start1:end1])


def swap_commutative(tree: ast.Module, source: SourceText, reserved: frozenset[str]) -> Iterator[SpanEdit]:
    """Swap the operands of one commutative operator: ``==``/``!=`` between side-effect-free
    operands, ``+``/``*`` when both operands are numbers (a number literal on one side, or calls such
    as ``len``), and adjacent ``and``/``or`` operands that are comparisons which cannot raise."""
    del reserved
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            yield from _compare_edits(source, node)
        elif isinstance(node, ast.BinOp):
            yield from _binop_edits(source, node)
        elif isinstance(node, ast.BoolOp):
            yield from _boolop_edits(source, node)
