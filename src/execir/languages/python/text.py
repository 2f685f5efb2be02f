"""Python documents and queries: comments and docstrings removed, descriptions from docstrings."""

from __future__ import annotations

import ast
import io
import tokenize

from execir.source_text import describe, function_docstring, parse, strip_docstrings


def strip_comments(text: str) -> str:
    """The program without docstrings and ``#`` comments; a line that held only a comment goes,
    other lines lose the comment and the spaces before it. Text that does not parse is returned
    as it is."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    lines = text.split("\n")
    for token in reversed(tokens):
        if token.type != tokenize.COMMENT:
            continue
        row, col = token.start
        line = lines[row - 1]
        kept = line[:col].rstrip()
        lines[row - 1] = kept if kept else "\0"
    uncommented = "\n".join(line for line in lines if line != "\0")
    try:
        return strip_docstrings(uncommented)
    except SyntaxError:
        return uncommented


def describe_prompt(prompt: str) -> str:
    """The prose of the docstring of the last function in a prompt that has one (examples and
    doctests removed); empty when no function has a docstring."""
    try:
        tree = parse(prompt)
    except SyntaxError:
        return ""
    names = [node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for name in reversed(names):
        docstring = function_docstring(prompt, name)
        if docstring:
            return describe(docstring, name)
    return ""
