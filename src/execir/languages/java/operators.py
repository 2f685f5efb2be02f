"""Java's own operators (the shared families are in :mod:`execir.languages.treesitter.families`)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from execir.edits import SpanEdit
from execir.languages.treesitter.program import Program


def equals_identity_swap(program: Program) -> Iterator[SpanEdit]:
    """Compare by identity instead of by value: ``a.equals(b)`` -> ``a == b`` (``!a.equals(b)`` ->
    ``a != b``), the classic Java string-comparison slip."""
    for call in program.walk(["method_invocation"]):
        name, receiver, arguments = (call.child_by_field_name(field) for field in ("name", "object", "arguments"))
        if name is None or receiver is None or arguments is None or program.source(name) != "equals":
            continue
        values = [child for child in arguments.children if child.is_named and child.type not in program.comment_types]
        if len(values) != 1:
            continue
        left, right = program.source(receiver), program.source(values[0])
        parent = call.parent
        if parent is not None and parent.type == "unary_expression" and program.source(parent).startswith("!"):
            yield program.replace(parent, f"{left} != {right}")
        else:
            text = f"{left} == {right}"
            yield program.replace(call, f"({text})" if _binds_tighter(program, parent) else text)


def _binds_tighter(program: Program, parent: Node | None) -> bool:
    """The context would regroup a bare ``a == b``: a member access, a unary, or a binary operator
    other than ``&&``/``||``/``?:``."""
    if parent is None:
        return False
    if parent.type in ("method_invocation", "field_access", "unary_expression", "cast_expression"):
        return True
    operator = parent.child_by_field_name("operator")
    return parent.type == "binary_expression" and operator is not None and program.source(operator) not in ("&&", "||")
