"""C++: parsed with tree-sitter-cpp; the shared families of
:mod:`execir.languages.treesitter.families` over :data:`~execir.languages.cpp.grammar.GRAMMAR`."""

from __future__ import annotations

import re

import tree_sitter_cpp

from execir.languages.base import STATEMENT_KEYWORDS, Language
from execir.languages.cpp.grammar import GRAMMAR
from execir.languages.treesitter import Program, make_language
from execir.languages.treesitter.families import operators_for

_SIGNATURE = re.compile(r"(\w+)\s*\([^()]*\)\s*(?:const\s*)?\{?\s*$")

OPERATORS = operators_for(GRAMMAR)
"""Every C++ operator, in name order."""


def entry_point(prompt: str) -> str | None:
    """The name of the last function a prompt opens (``float median(vector<float> l){``); statements
    that open a block the same way (``if (t > 3) {``) are no functions."""
    names = [match.group(1) for line in prompt.splitlines() if (match := _SIGNATURE.search(line)) and match.group(1) not in STATEMENT_KEYWORDS]
    return names[-1] if names else None


CPP: Language[Program] = make_language("cpp", tree_sitter_cpp.language, frozenset({"comment"}), OPERATORS, entry_point=entry_point)

__all__ = ["CPP", "GRAMMAR", "OPERATORS"]
