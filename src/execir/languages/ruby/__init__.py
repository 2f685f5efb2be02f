"""Ruby: parsed with ``tree-sitter-ruby``; operators in :mod:`execir.languages.ruby.operators`.

Comments are ``#`` lines and ``=begin``/``=end`` blocks (both are ``comment`` nodes);
:func:`strip_comments` also drops docstring-like bare strings, and :func:`describe` reads the
comment block before a method (MBXP's prompts: an ``irb>`` example block after the task sentence).
"""

from __future__ import annotations

import dataclasses
import re
from functools import cache

import tree_sitter
import tree_sitter_ruby

from execir.languages.base import Language
from execir.languages.ruby import text
from execir.languages.ruby.operators import OPERATORS
from execir.languages.treesitter import Program, make_language

COMMENT_TYPES = frozenset({"comment"})


@cache
def _parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_ruby.language()))


def _lenient(source: str) -> Program:
    return Program(source, _parser().parse(source.encode("utf-8")), COMMENT_TYPES)


def describe(prompt: str) -> str:
    """The prose of a Ruby prompt's comments (see :func:`execir.languages.ruby.text.describe`)."""
    return text.describe(_lenient(prompt))


_DEF = re.compile(r"^\s*def\s+(?:self\.)?([A-Za-z_]\w*[?!]?)")


def entry_point(prompt: str) -> str | None:
    """The name of the last method a prompt opens (``def min_cost(cost, m, n)``)."""
    names = [match.group(1) for line in prompt.splitlines() if (match := _DEF.match(line))]
    return names[-1] if names else None


_MARKERS = re.compile(r"^(?:#+\s*)+")


def doc_lines(lines: list[str]) -> list[str]:
    """A doc comment's lines without Ruby's extra ``#`` markers and MBXP's boilerplate line."""
    unmarked = [_MARKERS.sub("", line) for line in lines]
    return [line for line in unmarked if not text.BOILERPLATE.match(line)]


_BASE = make_language("ruby", tree_sitter_ruby.language, COMMENT_TYPES, OPERATORS, describe=describe, doc_lines=doc_lines)


def strip_comments(source: str) -> str:
    """The program without comments and docstring-like bare strings."""
    return _BASE.strip_comments(text.without_docstrings(_lenient(source)))


RUBY: Language[Program] = dataclasses.replace(_BASE, strip_comments=strip_comments)

__all__ = ["RUBY", "describe", "entry_point", "strip_comments"]
