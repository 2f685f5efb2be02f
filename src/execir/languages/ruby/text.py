"""Ruby documents and queries: comments (``#``, ``=begin``/``=end``) and docstring-like strings
removed; descriptions from the comment block before a method (MBXP's prompt shape)."""

from __future__ import annotations

import re

from tree_sitter import Node

from execir.edits import SpanEdit, splice
from execir.languages.ruby.operators.nodes import nodes, statement_span
from execir.languages.treesitter import Program

BOILERPLATE = re.compile(r"^you are an expert ruby programmer, and here is your task\.?$", re.IGNORECASE)
"""MBXP's fixed first line of every prompt (the same for every task: no description)."""

_MARKERS = re.compile(r"^\s*(?:#+\s*)+")
_EXAMPLE = re.compile(r"^(?:irb(?:\(main\))?(?::\d+)?\s*>|=>|>>)")
_BLOCK_MARKER = re.compile(r"^=(?:begin|end)\b")


def describe(program: Program) -> str:
    """The prose of the top-level comments before the first method (or of every top-level comment
    when no method follows one): markers removed, MBXP's boilerplate line and ``irb>``/``=>``
    example lines dropped, lines joined into paragraphs."""
    top = program.root.children
    first_method = next((index for index, node in enumerate(top) if node.type in ("method", "singleton_method", "class", "module")), len(top))
    comments = [node for node in top[:first_method] if node.type == "comment"] or [node for node in top if node.type == "comment"]
    paragraphs: list[str] = []
    current: list[str] = []
    for line in _comment_lines(program, comments):
        prose = _MARKERS.sub("", line).strip()
        if _EXAMPLE.match(prose) or BOILERPLATE.match(prose) or _BLOCK_MARKER.match(line.strip()):
            prose = ""
        if prose:
            current.append(prose)
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    return "\n".join(paragraphs)


def _comment_lines(program: Program, comments: list[Node]) -> list[str]:
    lines: list[str] = []
    for node in comments:
        lines.extend(program.source(node).split("\n"))
        lines.append("")
    return lines


def without_docstrings(program: Program) -> str:
    """The text without docstring-like bare strings (MBXP has ``\"\"\"...\"\"\"`` statements in a few
    Ruby bodies) that are not a body's last statement, so no value changes (whole lines go when the
    string owns them)."""
    text = program.text
    for start, end in sorted(_bare_strings(program), reverse=True):
        text = splice(text, SpanEdit(*statement_span(text, start, end), ""))
    return text


def _bare_strings(program: Program) -> list[tuple[int, int]]:
    spans = []
    for block in nodes(program, ("body_statement", "then", "else", "do", "block_body", "program")):
        body = [child for child in block.named_children if child.type != "comment"]
        for statement in body[:-1]:
            if statement.type in ("string", "chained_string") and not any(child.type == "interpolation" for child in statement.children):
                spans.append(program.span(statement))
    return spans


__all__ = ["describe", "without_docstrings"]
