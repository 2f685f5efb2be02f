"""Build a :class:`~execir.languages.base.Language` on a tree-sitter grammar."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

import tree_sitter

from execir.languages.base import Language, OperatorSpec, ParseError
from execir.languages.treesitter.program import Program, comment_nodes, comment_texts, tokens_of, without_comments
from execir.source_text import describe as describe_docstring

GrammarFactory = Callable[[], object]
"""A grammar wheel's ``language()`` function (returns the grammar's capsule)."""

_BLOCK_MARKERS = re.compile(r"^\s*(/\*\*?|\*/|\*|//+|#+|=begin|=end)\s?")


@cache
def _parser(grammar: GrammarFactory) -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(grammar()))


def comment_prose(comments: list[str]) -> str:
    """The prose of comments: markers (``//``, ``/* */``, leading ``*``, ``#``) removed, lines
    joined into paragraphs, blank lines as paragraph breaks."""
    lines: list[str] = []
    for comment in comments:
        body = comment
        if body.rstrip().endswith("*/"):
            body = body.rstrip()[:-2]
        for line in body.split("\n"):
            lines.append(_BLOCK_MARKERS.sub("", line, count=1).rstrip())
        lines.append("")
    paragraphs: list[str] = []
    current: list[str] = []
    for line in lines:
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    return "\n".join(paragraphs)


def comment_lines(comment: str) -> list[str]:
    """A comment's lines with their markers (``//``, ``/* */``, leading ``*``, ``#``) removed."""
    body = comment.rstrip()
    if body.endswith("*/"):
        body = body[:-2]
    return [_BLOCK_MARKERS.sub("", line, count=1).rstrip() for line in body.split("\n")]


def doc_comment(program: Program) -> str:
    """The last doc comment of a text, markers removed, lines kept: the last block comment, or the
    last run of line comments separated by nothing but line breaks and indentation."""
    nodes = comment_nodes(program)
    if not nodes:
        return ""
    group = [nodes[-1]]
    for node in reversed(nodes[:-1]):
        between = program.text[program.span(node)[1] : program.span(group[0])[0]]
        joined = program.source(node).startswith(("//", "#")) and program.source(group[0]).startswith(("//", "#"))
        if not joined or between.strip() or between.count("\n") > 1:
            break
        group.insert(0, node)
    return "\n".join(line for node in group for line in comment_lines(program.source(node)))


def trim_blank_lines(lines: list[str]) -> str:
    """Lines joined, blank runs collapsed to one blank line, no blank lines at either end."""
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    return "\n".join(kept).strip()


def doc_description(program: Program, entry_point: str | None) -> str:
    """The prose of a prompt's last doc comment with examples, doctests and code-like lines
    removed (the rules of Python docstrings: :func:`execir.source_text.describe`)."""
    return describe_docstring(doc_comment(program), entry_point or "\0")


def make_language(
    name: str,
    grammar: GrammarFactory,
    comment_types: frozenset[str],
    operators: tuple[OperatorSpec[Program], ...],
    describe: Callable[[str], str] | None = None,
    entry_point: Callable[[str], str | None] | None = None,
    doc_lines: Callable[[list[str]], list[str]] | None = None,
) -> Language[Program]:
    """A language whose programs are parsed by ``grammar`` (a grammar wheel's ``language``).

    ``describe`` defaults to the prose of every comment; given ``entry_point`` (prompt -> the
    name of the function it declares, or None), to :func:`doc_description` of the prompt's last
    doc comment instead. ``doc_lines`` filters the stripped lines of that doc comment (a
    language's own markers or boilerplate) for :attr:`Language.doc_comment`.
    """

    def parse(text: str) -> Program:
        tree = _parser(grammar).parse(text.encode("utf-8"))
        if tree.root_node.has_error:
            raise ParseError(f"{name}: the program does not parse (first error at {_first_error(tree.root_node)})")
        return Program(text, tree, comment_types)

    def is_valid(text: str) -> bool:
        return not _parser(grammar).parse(text.encode("utf-8")).root_node.has_error

    def lenient(text: str) -> Program:
        return Program(text, _parser(grammar).parse(text.encode("utf-8")), comment_types)

    def tokens(text: str) -> tuple[str, ...]:
        return tokens_of(lenient(text))

    def strip_comments(text: str) -> str:
        return without_comments(lenient(text))

    def default_describe(prompt: str) -> str:
        if entry_point is not None:
            return doc_description(lenient(prompt), entry_point(prompt))
        return comment_prose(comment_texts(lenient(prompt)))

    def documentation(prompt: str, _entry_point: str) -> str:
        if not prompt:
            return ""
        lines = [line.strip() for line in doc_comment(lenient(prompt)).split("\n")]
        return trim_blank_lines(doc_lines(lines) if doc_lines else lines)

    return Language(
        name=name,
        parse=parse,
        is_valid=is_valid,
        tokens=tokens,
        strip_comments=strip_comments,
        describe=describe or default_describe,
        operators=operators,
        doc_comment=documentation,
    )


def _first_error(root: tree_sitter.Node) -> str:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            row, col = node.start_point
            return f"line {row + 1}, column {col + 1}"
        stack.extend(reversed(node.children))
    return "an unknown position"
