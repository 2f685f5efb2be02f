"""JavaScript: parsed with tree-sitter-javascript; the shared families of
:mod:`execir.languages.treesitter.families` over :data:`~execir.languages.js.grammar.GRAMMAR`."""

from __future__ import annotations

import re

import tree_sitter_javascript

from execir.languages.base import Language
from execir.languages.js.grammar import GRAMMAR
from execir.languages.treesitter import Program, make_language
from execir.languages.treesitter.families import operators_for

_SIGNATURE = re.compile(r"^\s*(?:(?:const|let|var)\s+(\w+)\s*=|(?:async\s+)?function\s*\*?\s*(\w+)\s*\()")

OPERATORS = operators_for(GRAMMAR)
"""Every JavaScript operator, in name order."""


def entry_point(prompt: str) -> str | None:
    """The name of the last function a prompt opens (``const median = (l) => {``,
    ``function median(l) {``)."""
    names = [match.group(1) or match.group(2) for line in prompt.splitlines() if (match := _SIGNATURE.search(line))]
    return names[-1] if names else None


JS: Language[Program] = make_language("js", tree_sitter_javascript.language, frozenset({"comment"}), OPERATORS, entry_point=entry_point)

__all__ = ["GRAMMAR", "JS", "OPERATORS"]
