"""Pure text transforms on Python task sources: docstring removal and query extraction.

A corpus document must not contain its query's text, so every docstring (module, class and
function) is removed from the canonical solution, located by ``ast`` (never by regex). The query
is the prose of the entry point's docstring with its code examples removed.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
import warnings

_EXAMPLE_HEADER = re.compile(r"^\s*(for\s+)?(examples?|e\.g\.|example\s+\d+)\s*[:.]?\s*$", re.IGNORECASE)
_EXAMPLE_INLINE = re.compile(r"^\s*(for\s+example|examples?)\s*[:,]", re.IGNORECASE)
_PROSE_HEADER = re.compile(r"^\s*(notes?|constraints?|returns?)\s*:?\s*$", re.IGNORECASE)
_CODE_MARKERS = ("==", "=>", "➞", "->", ">>>")


def parse(source: str) -> ast.Module:
    """``ast.parse`` without the SyntaxWarning/DeprecationWarning noise that dataset code emits
    (e.g. invalid escape sequences like ``"\\d"`` in MBPP regexes); errors still raise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (SyntaxWarning, DeprecationWarning))
        return ast.parse(source)


def normalise_newlines(text: str) -> str:
    """Turn CRLF/CR line ends into LF and expand tabs in indentation consistently (tabs kept)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def docstring_nodes(tree: ast.Module) -> list[ast.Expr]:
    """Every statement that is a bare string: docstrings, and "docstrings" placed after other
    statements (HumanEval/115 puts ``import math`` first). Such statements have no effect."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]


def strip_docstrings(source: str) -> str:
    """Remove every docstring; a body left empty gets ``pass``. Raises SyntaxError on bad source.

    ``source`` must use ``\n`` line ends (see :func:`normalise_newlines`); lines are split on
    ``\n`` only, as the parser counts them. Nothing else changes: blank lines and string
    literals are kept byte for byte, apart from blank lines before the first statement.
    """
    tree = parse(source)
    lines = _split_keepends(source)
    nodes = sorted(docstring_nodes(tree), key=lambda n: (n.lineno, n.col_offset), reverse=True)
    for node in nodes:
        lines = _remove_statement(lines, node, _owner_body_len(tree, node))
    text = "".join(lines).lstrip("\n")
    text = text.rstrip("\n") + "\n"
    parse(text)  # the result must still be a valid program
    return text


def _split_keepends(source: str) -> list[str]:
    parts = source.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _owner_body_len(tree: ast.Module, node: ast.Expr) -> int:
    """Statements left in the block holding ``node`` once every bare string is removed, plus one."""
    for owner in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(owner, name, None)
            if isinstance(block, list) and any(stmt is node for stmt in block):
                return 1 + sum(1 for stmt in block if stmt not in _bare_strings(block))
    return 1


def _bare_strings(block: list[ast.stmt]) -> list[ast.stmt]:
    return [s for s in block if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)]


def _remove_statement(lines: list[str], node: ast.Expr, body_len: int) -> list[str]:
    start, end = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    first = lines[start]
    prefix = first[: _char_col(first, node.col_offset)]
    last = lines[end]
    rest = last[_char_col(last, node.end_col_offset or 0) :].lstrip(" \t;")
    if rest.strip():  # more code follows on the line: `"doc"; x = 1` or `if c: "doc"; x = 1`
        replacement = [prefix + rest]
    elif prefix.strip():  # code before it on the line: `def f(): "doc"` or `x = 1; "doc"`
        replacement = [prefix + "pass\n" if prefix.rstrip().endswith(":") else prefix.rstrip() + "\n"]
    else:  # the statement owns its lines
        replacement = [prefix + "pass\n"] if body_len == 1 else []
    return lines[:start] + replacement + lines[end + 1 :]


def _char_col(line: str, byte_col: int) -> int:
    """Convert an ast UTF-8 byte column to a character column."""
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


def function_docstring(source: str, name: str) -> str | None:
    """The cleaned docstring of top-level function ``name``, or None."""
    for node in parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            strings = _bare_strings(node.body)
            if strings:
                value = strings[0].value.value  # type: ignore[attr-defined]
                return inspect.cleandoc(value)
            return None
    return None


def describe(docstring: str, entry_point: str) -> str:
    """Prose of a docstring: examples, doctests and code-like lines removed, whitespace tidied."""
    kept: list[str] = []
    in_examples = False
    after_doctest = False
    for raw in textwrap.dedent(docstring).splitlines():
        line = raw.strip()
        if line.startswith(">>>"):
            after_doctest = True
            continue
        if after_doctest and line:
            continue
        after_doctest = False
        if _EXAMPLE_HEADER.match(line) or _EXAMPLE_INLINE.match(line):
            in_examples = True
            continue
        if in_examples and not _PROSE_HEADER.match(line):
            continue
        in_examples = False
        if _looks_like_code(line):
            continue
        prose = _prose_before_call(line, entry_point)
        if prose or not line:  # keep blank lines: they separate paragraphs
            kept.append(prose)
    return _join_paragraphs(kept)


def _looks_like_code(line: str) -> bool:
    return any(marker in line for marker in _CODE_MARKERS)


def _prose_before_call(line: str, entry_point: str) -> str:
    """Cut a line at the sentence that starts calling the entry point (``... For example f(1) ...``)."""
    call = line.find(f"{entry_point}(")
    if call < 0:
        return line
    cut = max(line.rfind(". ", 0, call), line.rfind(": ", 0, call))
    return line[: cut + 1].rstrip() if cut >= 0 else ""


def _join_paragraphs(lines: list[str]) -> str:
    paragraphs: list[str] = []
    current: list[str] = []
    for line in lines + [""]:
        if line:
            current.append(line)
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    return "\n".join(paragraphs).strip()
