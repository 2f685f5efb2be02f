"""One parsed program: tree-sitter nodes with spans in *characters* (tree-sitter counts UTF-8
bytes), walks that skip comments, and the edit helpers operators build on."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator
from functools import cached_property

from tree_sitter import Node, Tree

from execir.edits import SpanEdit


class Program:
    """Immutable view of a parsed text (built once per source)."""

    def __init__(self, text: str, tree: Tree, comment_types: frozenset[str]) -> None:
        self.text = text
        self.tree = tree
        self.root: Node = tree.root_node
        self.comment_types = comment_types
        self._ascii = text.isascii()

    @cached_property
    def _byte_starts(self) -> list[int]:
        """UTF-8 byte offset of every character (only built for non-ASCII text)."""
        starts, position = [], 0
        for char in self.text:
            starts.append(position)
            position += len(char.encode("utf-8"))
        starts.append(position)
        return starts

    def char(self, byte: int) -> int:
        """Character offset of a UTF-8 byte offset."""
        if self._ascii:
            return byte
        return bisect.bisect_left(self._byte_starts, byte)

    def span(self, node: Node) -> tuple[int, int]:
        """Half-open character span of a node."""
        return self.char(node.start_byte), self.char(node.end_byte)

    def source(self, node: Node) -> str:
        """Exact text of a node."""
        start, end = self.span(node)
        return self.text[start:end]

    def replace(self, node: Node, after: str) -> SpanEdit:
        """The edit that replaces a node's text."""
        start, end = self.span(node)
        return SpanEdit(start, end, after)

    def replace_range(self, first: Node, last: Node, after: str) -> SpanEdit:
        """The edit that replaces everything from ``first``'s start to ``last``'s end."""
        return SpanEdit(self.span(first)[0], self.span(last)[1], after)

    def walk(self, types: Iterable[str] | None = None) -> Iterator[Node]:
        """Every node (or those of the given types) in document order, comments skipped."""
        wanted = None if types is None else frozenset(types)
        stack = [self.root]
        while stack:
            node = stack.pop()
            if node.type in self.comment_types:
                continue
            if wanted is None or node.type in wanted:
                yield node
            stack.extend(reversed(node.children))

    def leaves(self) -> Iterator[Node]:
        """Leaf nodes (tokens) in document order, comments skipped; a string-like node whose
        children do not cover its text counts as one token."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            if node.type in self.comment_types:
                continue
            if node.child_count == 0:
                if node.end_byte > node.start_byte:
                    yield node
                continue
            stack.extend(reversed(node.children))

    def operator_token(self, node: Node, field: str = "operator") -> Node | None:
        """The (anonymous) operator child of a binary/unary/assignment node."""
        child = node.child_by_field_name(field)
        if child is not None:
            return child
        for candidate in node.children:
            if not candidate.is_named:
                return candidate
        return None


def tokens_of(program: Program) -> tuple[str, ...]:
    """Token strings of a program without comments (layout never appears in tree-sitter leaves)."""
    return tuple(program.source(leaf) for leaf in program.leaves())


def without_comments(program: Program) -> str:
    """The text with every comment removed: trailing spaces are dropped, runs of blank lines
    become one, leading and trailing blank lines disappear; everything else keeps its layout."""
    text = program.text
    spans = [program.span(node) for node in _comment_nodes(program)]
    if not spans:
        return text
    pieces: list[str] = []
    cursor = 0
    for start, end in spans:
        pieces.append(text[cursor:start])
        cursor = end
    pieces.append(text[cursor:])
    stripped = "".join(pieces)
    out_lines = []
    for line in stripped.split("\n"):
        if line.strip():
            out_lines.append(line.rstrip())
        elif out_lines and out_lines[-1] != "":
            out_lines.append("")
    result = "\n".join(out_lines).strip("\n")
    return result + "\n"


def comment_texts(program: Program) -> list[str]:
    """The text of every comment, in document order."""
    return [program.source(node) for node in _comment_nodes(program)]


def comment_nodes(program: Program) -> list[Node]:
    """Every comment node, in document order."""
    return list(_comment_nodes(program))


def _comment_nodes(program: Program) -> Iterator[Node]:
    stack = [program.root]
    while stack:
        node = stack.pop()
        if node.type in program.comment_types:
            yield node
            continue
        stack.extend(reversed(node.children))
